"""Benchmark indexing and search: cold index, re-index, per-file update and query latency.

Three parts, each optional:

* `--repo DIR`: a real repository (copied to a temp dir first, so edits never touch it),
  indexed with the real default model.
* `--synthetic N`: a generated Python repository of about N chunks, indexed the same way.
* `--scale 10000,100000`: tables of that many chunks, built from generated files through
  the real indexer but with random unit vectors instead of the model (embedding 100k chunks
  takes hours on 2 cores); queries are then embedded by the real model. Measures query
  latency per mode, a one-file save (indexer + `Store.write_files`) and a no-change run.

Each part reports: cold index (chunks, s, chunks/s, chunks per CPU-second including
children), a no-change re-index (ms), a re-index after editing one function body (ms, and
how many chunks were embedded), and warm query latency p50/p95 per mode. The machine is
shared and noisy: repeated figures are medians.

    python scripts/bench_index.py --repo /tmp/bench-repo --synthetic 2000 --scale 10000,100000
    python scripts/bench_index.py --scale 100000 --json
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from codekith.chunking import chunk_file
from codekith.config import DEFAULT_MODEL
from codekith.embedding import DEFAULT_DIM, FastEmbedder
from codekith.project import Project
from codekith.search import MODES, query_identifiers
from codekith.store import Filters
from codekith.template import search_text
from codekith.workspace import scan

ALL = Filters()

# -- measuring ---------------------------------------------------------------------------


def cpu_seconds() -> float:
    """User + system CPU of this process (all threads) and of its waited-for children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result, wall seconds, CPU seconds)."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = fn()
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


def percentiles(samples_s: Sequence[float]) -> dict[str, float]:
    ms = np.asarray(samples_s) * 1000
    return {
        "p50_ms": round(float(np.percentile(ms, 50)), 2),
        "p95_ms": round(float(np.percentile(ms, 95)), 2),
        "n": len(ms),
    }


def median_ms(samples_s: Sequence[float]) -> float:
    return round(statistics.median(samples_s) * 1000, 2)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- a synthetic Python repository -------------------------------------------------------

_NOUN_WORDS = (
    "user account session token header cookie config cache record report payment invoice "
    "order address message queue event job schedule image thumbnail document page template "
    "route request response query index metric log file path archive backup permission role "
    "email notification product cart price currency tax shipment warehouse sensor reading "
    "graph node edge tenant webhook signature certificate migration column table"
)
NOUNS = _NOUN_WORDS.split()
VERBS = {
    "parse": "Parse the {n} from its raw text form",
    "load": "Load the {n} from persistent storage",
    "save": "Save the {n} so that later runs can reuse it",
    "validate": "Validate the {n} and raise when it is malformed",
    "compute": "Compute the {n} totals for the given period",
    "render": "Render the {n} as HTML for the dashboard",
    "fetch": "Fetch the {n} from the remote service with retries",
    "merge": "Merge two {n} objects, preferring the newer values",
    "normalize": "Normalize the {n} fields to their canonical form",
    "serialize": "Serialize the {n} into a JSON compatible dictionary",
    "delete": "Delete the {n} and every record that depends on it",
    "refresh": "Refresh the {n} when it is about to expire",
    "encode": "Encode the {n} for safe transport over the wire",
    "decode": "Decode the {n} received from a client",
    "index": "Index the {n} by its identifier for fast lookups",
    "filter": "Filter the {n} entries that match the given predicate",
    "schedule": "Schedule the {n} to run at the next free slot",
    "resolve": "Resolve the {n} reference to the object it names",
    "compress": "Compress the {n} payload before it is stored",
    "notify": "Notify subscribers that the {n} changed",
}
QUALIFIERS = {
    "": "",
    "by_id": " identified by its primary key",
    "for_tenant": " within a single tenant",
    "in_batch": " in batches to bound memory use",
    "with_retry": " retrying transient failures with backoff",
    "if_stale": " only when the cached copy is stale",
    "from_json": " given a JSON document",
    "to_dict": " into a plain dictionary",
}
ROLES = ("Manager", "Store", "Parser", "Validator", "Client", "Cache", "Builder", "Serializer")
ARGS = ("data", "items", "timeout", "limit", "key", "value", "path", "retries", "strict")


def _body(rng: random.Random, verb: str, noun: str, indent: str) -> list[str]:
    arg = rng.choice(ARGS)
    templates = [
        [
            f"if not {noun}:",
            f"    raise ValueError('empty {noun}')",
            f"result = {{k: v for k, v in {noun}.items() if v is not None}}",
            f"result['{verb}ed_at'] = time.time()",
            "return result",
        ],
        [
            "total = 0",
            f"for entry in {noun}:",
            f"    if entry.get('{arg}') is None:",
            "        continue",
            f"    total += entry['{arg}'] * entry.get('weight', 1)",
            f"logger.debug('{verb} %s: %d', {noun!r}, total)",
            "return total",
        ],
        [
            "attempt = 0",
            "while True:",
            "    try:",
            f"        return client.{verb}({noun}, timeout={arg})",
            "    except ConnectionError:",
            "        attempt += 1",
            "        if attempt >= MAX_RETRIES:",
            "            raise",
            "        time.sleep(2 ** attempt * 0.1)",
        ],
        [
            f"parts = str({noun}).split('{rng.choice(',;:|/')}')",
            "cleaned = [p.strip().lower() for p in parts if p.strip()]",
            f"return '{rng.choice('-_.')}'.join(sorted(set(cleaned)))",
        ],
        [
            f"with open({arg}, encoding='utf-8') as handle:",
            "    payload = json.load(handle)",
            f"payload.setdefault('{noun}', [])",
            f"payload['{noun}'].append({noun})",
            f"with open({arg}, 'w', encoding='utf-8') as handle:",
            "    json.dump(payload, handle, indent=2)",
            f"return len(payload['{noun}'])",
        ],
        [
            f"key = hashlib.sha256(repr({noun}).encode()).hexdigest()",
            "if key in _CACHE:",
            "    return _CACHE[key]",
            f"value = _{verb}_uncached({noun})",
            "_CACHE[key] = value",
            "return value",
        ],
    ]
    lines = list(rng.choice(templates))
    if rng.random() < 0.3:
        lines = lines[:-1] + list(rng.choice(templates))
    return [indent + line for line in lines]


def _function(
    rng: random.Random, name: str, verb: str, noun: str, qual: str, indent: str, method: bool
) -> list[str]:
    params = ["self"] if method else []
    params.append(noun)
    params += [f"{a}=None" for a in rng.sample(ARGS, rng.randint(0, 3))]
    doc = VERBS[verb].format(n=noun) + QUALIFIERS[qual] + "."
    lines = [f"{indent}def {name}({', '.join(params)}):"]
    if rng.random() < 0.5:
        returns = f"Returns the {noun} after the operation; never None."
        lines += [f'{indent}    """{doc}', "", f"{indent}    {returns}", f'{indent}    """']
    else:
        lines.append(f'{indent}    """{doc}"""')
    return lines + _body(rng, verb, noun, indent + "    ") + [""]


def synthetic_module(rng: random.Random, definitions: int) -> str:
    lines = [
        '"""' + rng.choice(NOUNS).capitalize() + " utilities generated for benchmarks." + '"""',
        "",
        "import hashlib",
        "import json",
        "import logging",
        "import time",
        "",
        "logger = logging.getLogger(__name__)",
        f"MAX_RETRIES = {rng.randint(2, 9)}",
        "_CACHE = {}",
        "",
    ]
    used: set[str] = set()
    made = 0
    while made < definitions:
        noun = rng.choice(NOUNS)
        if rng.random() < 0.3:
            role = rng.choice(ROLES)
            cls = noun.capitalize() + role
            if cls in used:
                continue
            used.add(cls)
            lines += ["", f"class {cls}:", f'    """{role} for {noun} objects."""', ""]
            lines += [f"    default_{rng.choice(ARGS)} = {rng.randint(1, 100)}", ""]
            names: set[str] = set()
            for _ in range(rng.randint(2, 5)):
                verb, qual = rng.choice(list(VERBS)), rng.choice(list(QUALIFIERS))
                name = f"{verb}_{qual}" if qual else verb
                if name in names:
                    continue
                names.add(name)
                lines += _function(rng, name, verb, noun, qual, "    ", method=True)
                made += 1
            made += 1
        else:
            verb, qual = rng.choice(list(VERBS)), rng.choice(list(QUALIFIERS))
            name = f"{verb}_{noun}" + (f"_{qual}" if qual else "")
            if name in used:
                continue
            used.add(name)
            lines += ["", *_function(rng, name, verb, noun, qual, "", method=False)]
            made += 1
    return "\n".join(lines) + "\n"


def make_synthetic_repo(root: Path, chunks: int, seed: int = 7) -> dict[str, int]:
    """Packages of modules until the chunker yields about `chunks` chunks."""
    rng = random.Random(seed)
    total = files = 0
    while total < chunks:
        package = root / "src" / f"pkg{files // 40:03d}"
        if not package.exists():
            package.mkdir(parents=True)
            (package / "__init__.py").write_text('"""A generated package."""\n')
            total += 1
        path = package / f"mod{files % 40:02d}.py"
        source = synthetic_module(rng, rng.randint(6, 22))
        path.write_text(source)
        total += len(chunk_file(path.relative_to(root).as_posix(), "python", source).chunks)
        files += 1
    return {"files": files, "chunks_estimate": total}


# -- queries ------------------------------------------------------------------------------

GENERIC_QUERIES = [
    "parse an http header",
    "load configuration from a file",
    "retry a request with exponential backoff",
    "validate user input and raise an error",
    "serialize object to json",
    "cache the result of an expensive call",
    "open a session and send cookies",
    "render a template with context",
    "register a url route",
    "handle an exception and return an error response",
    "read environment variables",
    "compute a hash of the content",
    "stream a large response in chunks",
    "authenticate with a token",
    "merge two dictionaries",
    "normalize a path",
    "decode bytes to text with an encoding",
    "log a debug message",
    "close the connection",
    "test that the client returns 404",
]


def synthetic_queries(rng: random.Random, count: int) -> list[str]:
    queries = list(GENERIC_QUERIES)
    while len(queries) < count:
        verb, noun = rng.choice(list(VERBS)), rng.choice(NOUNS)
        qual = rng.choice(list(QUALIFIERS))
        style = len(queries) % 3
        if style == 0:
            queries.append(VERBS[verb].format(n=noun).lower() + QUALIFIERS[qual])
        elif style == 1:
            queries.append(f"{verb}_{noun}" + (f"_{qual}" if qual else ""))
        else:
            queries.append(f"{noun.capitalize()}{rng.choice(ROLES)} {verb}")
    return queries[:count]


def query_latency(project: Project, queries: list[str], k: int = 10) -> dict[str, Any]:
    """Warm p50/p95 of Searcher.search per mode, plus the store calls alone."""
    searcher, store = project.searcher, project.store
    embedder = searcher.embedder()
    for mode in MODES:  # warm caches, indexes and the model
        for q in queries[:5]:
            searcher.search(q, k, None, mode)
    out: dict[str, Any] = {}
    for mode in MODES:
        samples = []
        for q in queries:
            _, wall, _ = timed(partial(searcher.search, q, k, None, mode))
            samples.append(wall)
        out[f"search_{mode}"] = percentiles(samples)
    vectors, embed = [], []
    for q in queries:
        vector, wall, _ = timed(partial(embedder.embed_query, q))
        vectors.append(vector)
        embed.append(wall)
    out["embed_query"] = percentiles(embed)
    depth = max(k * 3, 30)
    out["store_vector_search"] = percentiles(
        [timed(partial(store.vector_search, v, depth, ALL))[1] for v in vectors]
    )
    out["store_text_search"] = percentiles(
        [timed(partial(store.text_search, search_text(q), depth, ALL))[1] for q in queries]
    )
    named = [q for q in queries if query_identifiers(q)]
    if named:
        out["symbol_matches"] = percentiles(
            [timed(partial(searcher.symbol_matches, q, ALL))[1] for q in named]
        )
    prefix = Filters(path_prefix="src/pkg001")
    out["store_vector_search_path_prefix"] = percentiles(
        [timed(partial(store.vector_search, v, depth, prefix))[1] for v in vectors[:20]]
    )
    return out


# -- editing one function ------------------------------------------------------------------


def pick_edit_target(root: Path) -> tuple[str, int, str]:
    """A Python file and a line after which a statement can go inside a function body:
    the median-sized file that has a multi-line function, deterministic."""
    files = sorted(p for p in root.rglob("*.py") if ".codekith" not in p.parts)
    files.sort(key=lambda p: p.stat().st_size)
    for path in files[len(files) // 2 :] + files[: len(files) // 2]:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                last = node.body[-1]
                if last.lineno > node.lineno:
                    indent = " " * last.col_offset
                    return path.relative_to(root).as_posix(), last.end_lineno or last.lineno, indent
    raise SystemExit(f"no Python function to edit under {root}")


class FunctionEditor:
    """Appends `_bench_edit = N` to one function body; each edit is new content."""

    def __init__(self, root: Path):
        self.root = root
        self.path, self.after, self.indent = pick_edit_target(root)
        self.original = (root / self.path).read_text(encoding="utf-8").split("\n")
        self.count = 0

    def edit(self) -> None:
        self.count += 1
        lines = list(self.original)
        lines.insert(self.after, f"{self.indent}_bench_edit = {self.count}")
        (self.root / self.path).write_text("\n".join(lines), encoding="utf-8")


def reindex_figures(project: Project, root: Path, edits: int) -> dict[str, Any]:
    """No-change runs, then one-function edits indexed by a full run and by `paths=`."""
    indexer = project.indexer
    noop = [timed(lambda: indexer.run())[1] for _ in range(edits)]
    editor = FunctionEditor(root)
    full_runs, path_runs, embedded, written, graph_s = [], [], [], [], []
    for _ in range(edits):
        editor.edit()
        report, wall, _ = timed(lambda: indexer.run())
        full_runs.append(wall)
        embedded.append(report.embedded)
        written.append(report.chunks_written)
        editor.edit()
        report, wall, _ = timed(lambda: indexer.run(paths=[editor.path]))
        path_runs.append(wall)
        embedded.append(report.embedded)
        graph = getattr(report, "graph", None) or {}
        graph_s.append(graph.get("fast_s", 0.0) + graph.get("jedi_s", 0.0))
    return {
        "noop_reindex_ms": median_ms(noop),
        "one_file_reindex_ms": median_ms(full_runs),
        "one_file_reindex_paths_ms": median_ms(path_runs),
        "one_file_graph_ms": median_ms(graph_s),
        "one_file_embedded": statistics.median(embedded),
        "one_file_chunks_written": statistics.median(written),
        "edited_file": editor.path,
    }


# -- parts ------------------------------------------------------------------------------


def bench_real_model(
    name: str, source: Path, workdir: Path, embedder: FastEmbedder, edits: int, queries: int
) -> dict[str, Any]:
    root = workdir / name
    if source != root:
        shutil.copytree(source, root, ignore=shutil.ignore_patterns(".git", ".codekith"))
    model = {"model": embedder.model_id}  # the index names the model that embeds
    project = Project(root, db=str(workdir / f"{name}.db"), overrides=model, embedder=embedder)
    log(f"[{name}] cold index of {root} ...")
    report, wall, cpu = timed(lambda: project.indexer.run(full=True))
    result: dict[str, Any] = {
        "files": report.files,
        "chunks": report.chunks_total,
        "graph": getattr(report, "graph", None),
        "embedded": report.embedded,
        "cold_s": round(wall, 2),
        "cold_cpu_s": round(cpu, 2),
        "chunks_per_s": round(report.chunks_total / wall, 2),
        "chunks_per_cpu_s": round(report.chunks_total / cpu, 2),
        "cpu_utilisation": round(cpu / wall, 2),
    }
    log(f"[{name}] {json.dumps(result)}")
    result.update(reindex_figures(project, root, edits))
    result["queries"] = query_latency(project, synthetic_queries(random.Random(1), queries))
    return result


class RandomEmbedder:
    """Random unit vectors (deterministic per text): builds big tables without the model."""

    def __init__(self, dim: int = DEFAULT_DIM, model_id: str = DEFAULT_MODEL):
        self.dim, self.model_id, self.query_id = dim, model_id, model_id

    def _vector(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha1(text.encode()).digest()[:8], "little")
        vector = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
        return vector / np.linalg.norm(vector)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, self.dim))

    def embed_query(self, text: str) -> np.ndarray:
        return self._vector(text)

    def model_inputs(self, texts: Sequence[str]) -> list[Hashable]:
        return list(texts)


def bench_scale(
    chunks: int, workdir: Path, embedder: FastEmbedder, edits: int, queries: int
) -> dict[str, Any]:
    root = workdir / f"scale{chunks}"
    db = str(workdir / f"scale{chunks}.db")
    log(f"[scale {chunks}] generating ...")
    made = make_synthetic_repo(root, chunks, seed=chunks)
    # Jedi is off for the table build (it would cost ~0.7 s per 1k lines, i.e. many minutes
    # at 100k chunks); the fast call-graph resolver still runs as in any index run.
    fake = Project(
        root,
        db=db,
        overrides={"jedi": False},
        embedder=RandomEmbedder(embedder.dim, embedder.model_id),
    )
    log(f"[scale {chunks}] building the table with random vectors ...")
    report, wall, cpu = timed(lambda: fake.indexer.run(full=True))
    maintenance, m_wall, _ = timed(lambda: fake.store.maintain(force=True))
    result: dict[str, Any] = {
        "files": made["files"],
        "chunks": report.chunks_total,
        "build_s_random_vectors": round(wall, 2),
        "build_cpu_s_random_vectors": round(cpu, 2),
        "build_maintenance": report.maintenance,
        "maintain_force_s": round(m_wall, 2),
        "ann_index": fake.store._has_ann(),
    }
    del maintenance
    log(f"[scale {chunks}] {json.dumps(result)}")

    # One-file saves with the random embedder (model cost excluded), timing write_files.
    store = fake.store
    writes: list[float] = []
    original = store.write_files

    def timed_write(updates: Any, vectors: Any) -> int:
        started = time.perf_counter()
        gained = original(updates, vectors)
        writes.append(time.perf_counter() - started)
        return gained

    store.write_files = timed_write  # type: ignore[method-assign]
    editor = FunctionEditor(root)
    saves, rows, graph_s = [], [], []
    for _ in range(edits):
        editor.edit()
        report, wall, _ = timed(lambda: fake.indexer.run(paths=[editor.path]))
        saves.append(wall)
        rows.append(report.chunks_written)
        graph = getattr(report, "graph", None) or {}
        graph_s.append(graph.get("fast_s", 0.0) + graph.get("jedi_s", 0.0))
    store.write_files = original  # type: ignore[method-assign]
    noop = [timed(lambda: fake.indexer.run())[1] for _ in range(max(2, edits // 2))]
    check = [timed(lambda: store.maintain())[1] for _ in range(3)]
    # Where a one-file save goes: the whole-workspace scan and catalog read it starts with.
    settings = fake.settings
    scans = [timed(lambda: list(scan(root, settings)))[1] for _ in range(3)]
    catalogs = [timed(store.catalog)[1] for _ in range(3)]
    live = [timed(store.live_file_hashes)[1] for _ in range(3)]
    damage = [timed(store.damage)[1] for _ in range(3)]  # every whole run checks the tables
    result.update(
        write_files_one_file_ms=median_ms(writes),
        write_files_rows=statistics.median(rows),
        save_one_file_paths_ms=median_ms(saves),
        save_graph_ms=median_ms(graph_s),
        noop_full_run_ms=median_ms(noop),
        maintain_check_ms=median_ms(check),
        workspace_scan_ms=median_ms(scans),
        catalog_read_ms=median_ms(catalogs),
        live_file_hashes_ms=median_ms(live),
        damage_check_ms=median_ms(damage),
    )
    store.maintain(force=True)  # the edits above left small versions behind

    real = Project(root, db=db, embedder=embedder)
    result["queries"] = query_latency(real, synthetic_queries(random.Random(2), queries))
    return result


# -- output -----------------------------------------------------------------------------


def print_human(results: dict[str, Any]) -> None:
    for name, r in results.items():
        if name == "environment":
            print(f"environment: {json.dumps(r)}")
            continue
        print(f"\n== {name}: {r.get('chunks')} chunks in {r.get('files')} files")
        for key, value in r.items():
            if key == "queries":
                continue
            print(f"  {key:32} {value}")
        for key, q in r.get("queries", {}).items():
            print(f"  query {key:26} p50 {q['p50_ms']:8.2f} ms   p95 {q['p95_ms']:8.2f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, help="a real repository to index (copied first)")
    parser.add_argument("--synthetic", type=int, default=0, help="chunks of a synthetic repo")
    parser.add_argument(
        "--scale",
        default="",
        help="comma-separated table sizes for query/update latency, e.g. 10000,100000",
    )
    parser.add_argument("--edits", type=int, default=5, help="repetitions of one-file edits")
    parser.add_argument("--queries", type=int, default=50, help="queries per mode")
    parser.add_argument("--workdir", type=Path, help="keep work here (default: a temp dir)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--model", default=DEFAULT_MODEL, help="embedding model (an A/B)")
    args = parser.parse_args(argv)
    if not (args.repo or args.synthetic or args.scale):
        parser.error("give --repo, --synthetic and/or --scale")

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="codekith-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    try:
        embedder, load_s, _ = timed(lambda: FastEmbedder(args.model))
        results["environment"] = {
            "model": embedder.model_id,
            "model_load_s": round(load_s, 2),
            "cpus": len(os.sched_getaffinity(0)),
        }
        if args.repo:
            results[f"repo:{args.repo.name}"] = bench_real_model(
                "repo", args.repo.resolve(), workdir, embedder, args.edits, args.queries
            )
        if args.synthetic:
            root = workdir / "synthetic"
            make_synthetic_repo(root, args.synthetic)
            results[f"synthetic:{args.synthetic}"] = bench_real_model(
                "synthetic", root, workdir, embedder, args.edits, args.queries
            )
        for size in [int(s) for s in args.scale.split(",") if s.strip()]:
            results[f"scale:{size}"] = bench_scale(
                size, workdir, embedder, args.edits, args.queries
            )
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_human(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
