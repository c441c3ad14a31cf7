"""Tables for scripts/eval_quality.py: codekith against the baselines a user gets for free.

Per repository (tuning or held-out):
* docstring -> definition, MRR@10 and Recall@10: BM25 (bm25s over the bare code of the same
  chunks, its default tokenizer and English stop words), stock all-MiniLM-L6-v2 (without
  codekith's code adapter) over bare definitions (no header), codekith's text and vector
  modes (as they are, and under hybrid's rule that tests rank below the project's own
  code: the margin against those separates what fusion loses from what the rule costs), the
  old hybrid (RRF k=60 over the top 30 of each list plus symbol matches, frozen
  here as it was) and the current hybrid;
* identifier queries, Recall@1 (exact answer first) and MRR@10: grep (the innermost chunk of
  each matching line, in file order), BM25, old hybrid, current hybrid;
* literal name -> the code that holds it (a name no definition has, quality_cases'
  literal set), MRR@10 and Recall@1: grep, BM25, codekith's three modes;
* error message -> the code that raises it (quality_cases' message set), MRR@10 and
  Recall@1: grep of the message's longest piece between placeholders, BM25, codekith's three
  modes;
* pasted code -> the definition that holds it (quality_cases' snippet set), MRR@10 and
  Recall@1: grep of its first line, BM25, codekith's three modes;
* co-change: recall of `related PATH:LINE` at the default budget against the same number of
  chunks most similar to the target (similarity only);
* fix -> files: a fixing commit's subject as the question, the source files it changed as
  the answer; files in the order their first chunk comes (the 50 best chunks), MRR@10 over
  distinct files, Recall@5 (share of the changed files among the first five) and Hit@5 (any
  of them): BM25 over whole files and over chunks, codekith's three modes, and files-first
  (each file scored by its chunks' hybrid scores: the best one plus a decaying share of the
  next ones);
* doc paragraph -> section: the first sentence of a documentation section's first
  paragraph (taken out of the workspace) as the question, the section as the answer,
  MRR@10 and Recall@10 for BM25, stock MiniLM, codekith's three modes: documentation is in
  the index as a user's holds it, and the questions about code are asked beside it;
* related QUESTION: the bundle of a docstring question holding its definition, and the
  share of a fix's files the bundle of its subject touches, against plain search of as many
  items;
* chunks per CPU-second of the model (the default, or `--model`), measured when the index was
  built cold.

codekith's own runners answer as `codekith search` does (`AsAnswered`): code-only hits
without tests, and apart the tests (since stop 48) and the documentation (since stop 47),
each case judged on the list that holds its answer (a test or section question on its five,
so its Recall@10 is a Recall@5); `codekith eval --docs 0 --tests-apart 0` gives the
one-list figures of earlier stops.

"hybrid >= best single mode" and the co-change ratio carry a 95% paired bootstrap interval
over the cases (benchstats.bootstrap_interval, 2000 resamples, seeded): a margin whose
interval spans 0 (a ratio's spanning 1) is not shown by these cases alone. After the
repositories, the held-out ones pooled: hybrid's docstring MRR@10 minus each other
runner's, the mean over repositories (each counting once) with a bootstrap interval that
resamples cases within each (benchstats.stratified_interval).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from benchstats import bootstrap_interval, stratified_interval
from codekith.answers import Answers, SearchAnswer
from codekith.evaluation import Case, evaluate, judged_hits, load_cases, matches
from codekith.search import Hit, Shares, asks_for_tests, hit_from_row, is_side_code, side_share
from codekith.template import code_of, search_text
from codekith.vocabulary import DOCS_APART, TESTS_APART

FILE_DEPTH = 50  # chunks read to rank files
OLD_RRF_K = 60
OLD_DEPTH = 30
_IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\b")
Rows = list[dict[str, Any]]
# what computes the figures besides codekith's own code (stop 62: two machines scored some
# rows apart from the same case files, tinydb's docstring hybrid .614 and .636)
MEASURING_PACKAGES = (
    "fastembed",
    "onnxruntime",
    "tokenizers",
    "lancedb",
    "pyarrow",
    "numpy",
    "jedi",
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# -- the old hybrid, frozen as it was before issue 14 -------------------------------------


def _old_query_identifiers(query: str) -> list[str]:
    words = _IDENTIFIER.findall(query)
    if len(query.split()) == 1 and len(words) == 1:
        return words
    return [w for w in words if "_" in w.strip("_") or "." in w or re.search(r"[a-z][A-Z]", w)]


def _old_names_a_symbol(query: str) -> bool:
    names = _old_query_identifiers(query)
    return bool(names) and (len(query.split()) <= 3 or 2 * len(names) >= len(query.split()))


def _old_symbol_rows(store: Any, query: str) -> Rows:
    names = _old_query_identifiers(query) if _old_names_a_symbol(query) else []
    return store.chunks_named(names[:8], limit=20) if names else []


def old_hybrid(project: Any, case: Case, k: int = 10) -> list[Hit]:
    store, query = project.read_store, case.query
    lists = (
        _old_symbol_rows(store, query),
        store.vector_search(project.searcher.query_vector(query), OLD_DEPTH),
        store.text_search(search_text(query), OLD_DEPTH),
    )
    scores: dict[str, float] = {}
    rows: dict[str, dict[str, Any]] = {}
    for ranking in lists:
        for rank, row in enumerate(ranking):
            scores[row["id"]] = scores.get(row["id"], 0.0) + 1.0 / (OLD_RRF_K + rank + 1)
            rows.setdefault(row["id"], row)
    best = sorted(scores, key=lambda i: scores[i], reverse=True)[:k]
    return [hit_from_row(rows[i], scores[i]) for i in best]


# -- baselines ---------------------------------------------------------------------------


class AsAnswered:
    """codekith's search as `codekith search` answers it (stop 48): code-only hits without
    tests and, apart, TESTS_APART tests and DOCS_APART documentation sections; a case is
    judged on the list that holds its answer (`evaluation.judged_hits`)."""

    def __init__(self, project: Any):
        self.answers = Answers(project, freshness_ttl_s=float("inf"))
        self.searcher = project.searcher

    def judged(
        self, case: Case, k: int = 10, mode: str = "hybrid", tests: bool = False
    ) -> list[Hit]:
        found = self._answer(case.query, k, mode, tests)
        return judged_hits(found.hits, (found.tests, found.docs), case.expected)

    def hits(self, query: str, k: int, mode: str = "hybrid") -> list[Hit]:
        """The code hits alone, tests apart (a fix's files and a bundle's rival are code)."""
        return self._answer(query, k, mode).hits

    def _answer(self, query: str, k: int, mode: str, tests: bool = False) -> SearchAnswer:
        return self.answers.search(
            query, k, mode=mode, tests=tests, docs=DOCS_APART, tests_apart=TESTS_APART
        )


class Corpus:
    """Every live chunk of an index, with the free baselines over its bare code."""

    def __init__(self, project: Any, bare_cache: Path):
        self.project = project
        self.rows: Rows = project.read_store.rows("true")
        self.codes = [code_of(r["document"]) for r in self.rows]
        self._bm25: Any = None
        self._bm25_files: tuple[Any, list[str]] | None = None
        self.bare_cache = bare_cache
        self._bare: np.ndarray | None = None
        self._stock: Any = None

    def hits(self, indices: list[int], scores: list[float]) -> list[Hit]:
        return [hit_from_row(self.rows[i], s) for i, s in zip(indices, scores, strict=True)]

    def bm25(self, query: str, k: int = 10) -> list[Hit]:
        if self._bm25 is None:
            self._bm25 = bm25_index(self.codes)
        keep = bm25_top(self._bm25, query, min(k, len(self.rows)))
        return self.hits([i for i, _ in keep], [s for _, s in keep])

    def stock_model(self) -> Any:
        """The model as shipped, what a user gets for free (codekith's default adds an
        adapter to it)."""
        if self._stock is None:
            from codekith.config import BASE_MODEL
            from codekith.embedding import FastEmbedder

            self._stock = FastEmbedder(BASE_MODEL)
        return self._stock

    def bare_vectors(self) -> np.ndarray:
        """The stock model over each chunk's bare code, cached by chunk id."""
        if self._bare is None:
            cached: dict[str, np.ndarray] = {}
            if self.bare_cache.exists():
                data = np.load(self.bare_cache)
                cached = dict(zip(data["ids"].tolist(), data["vectors"], strict=True))
            missing = [i for i, r in enumerate(self.rows) if r["id"] not in cached]
            if missing:
                log(f"embedding {len(missing)} bare definitions")
                vectors = self.stock_model().embed_documents([self.codes[i] for i in missing])
                for i, vector in zip(missing, vectors, strict=True):
                    cached[self.rows[i]["id"]] = vector
                ids = sorted(cached)
                np.savez(
                    self.bare_cache, ids=np.array(ids), vectors=np.stack([cached[i] for i in ids])
                )
            self._bare = np.stack([cached[r["id"]] for r in self.rows])
        return self._bare

    def bare_vector_search(self, query: str, k: int = 10) -> list[Hit]:
        similarity = self.bare_vectors() @ self.stock_model().embed_query(query)
        best = np.argsort(-similarity)[:k].tolist()
        return self.hits(best, [float(similarity[i]) for i in best])

    def grep(self, workspace: Path, query: str, k: int = 10) -> list[Hit]:
        """Like `grep -rn -i`: matching lines in file order, each as its innermost chunk."""
        by_path: dict[str, list[int]] = {}
        for index, row in enumerate(self.rows):
            by_path.setdefault(row["path"], []).append(index)
        needle = query.lower()
        found: list[int] = []
        for path in sorted(by_path):
            try:
                lines = (workspace / path).read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            for number, line in enumerate(lines, 1):
                if needle not in line.lower():
                    continue
                covering = [
                    i
                    for i in by_path[path]
                    if self.rows[i]["start_line"] <= number <= self.rows[i]["end_line"]
                ]
                if covering:
                    inner = min(
                        covering,
                        key=lambda i: self.rows[i]["end_line"] - self.rows[i]["start_line"],
                    )
                    if inner not in found:
                        found.append(inner)
                if len(found) >= k:
                    return self.hits(found, [0.0] * len(found))
        return self.hits(found, [0.0] * len(found))

    def bm25_files(self, workspace: Path, query: str, k: int = 10) -> list[str]:
        """BM25 over whole files (what a plain full-text tool over the tree gives)."""
        if self._bm25_files is None:
            paths = sorted({r["path"] for r in self.rows})
            texts = [(workspace / p).read_text(encoding="utf-8", errors="replace") for p in paths]
            self._bm25_files = (bm25_index(texts), paths)
        model, paths = self._bm25_files
        return [paths[i] for i, _ in bm25_top(model, query, min(k, len(paths)))]


def bm25_index(texts: list[str]) -> Any:
    """bm25s over these texts: its default tokenizer, English stop words."""
    import bm25s

    model = bm25s.BM25()
    model.index(bm25s.tokenize(texts, stopwords="en", show_progress=False), show_progress=False)
    return model


def bm25_top(model: Any, query: str, k: int) -> list[tuple[int, float]]:
    """(text index, score) of the k best texts for the query that score above 0."""
    import bm25s

    tokens = bm25s.tokenize([query], stopwords="en", show_progress=False)
    if not tokens.vocab:
        return []
    found, scores = model.retrieve(tokens, k=k, show_progress=False)
    return [(int(i), float(s)) for i, s in zip(found[0], scores[0], strict=True) if s > 0]


# -- what measured ------------------------------------------------------------------------


def package_versions() -> dict[str, str]:
    """codekith's commit (with "+changes" when its code differs from it) and the versions of
    MEASURING_PACKAGES: recorded with each index (`eval_quality.py index`, stats.json) and
    compared by the table."""
    here = Path(__file__).resolve().parent
    git = ["git", "-C", str(here)]
    commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    changed = subprocess.run(
        [*git, "status", "--porcelain", "--", "../server"], capture_output=True, text=True
    )
    found = {
        "codekith": (commit.stdout.strip() or "unknown") + ("+changes" if changed.stdout else "")
    }
    for name in MEASURING_PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "absent"
    return found


def version_changes(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    """`name A -> B` for each package whose version differs (codekith's commit aside: its
    changes are what a table measures)."""
    return [
        f"{name} {recorded[name]} -> {now.get(name)}"
        for name in sorted(recorded)
        if name != "codekith" and recorded[name] != now.get(name)
    ]


# -- running the case sets ---------------------------------------------------------------


def search_sets(
    cases: list[Case], runners: dict[str, Callable[[Case], list[Hit]]]
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Each runner's summary and its reciprocal rank per case (0 beyond the tenth), for
    paired intervals."""
    summaries: dict[str, Any] = {}
    reciprocal: dict[str, np.ndarray] = {}
    for name, run in runners.items():
        result = evaluate(cases, run)
        summaries[name] = result["summary"]
        reciprocal[name] = np.array(
            [
                1 / r if (r := case["rank"]) is not None and r <= 10 else 0.0
                for case in result["cases"]
            ]
        )
    return summaries, reciprocal


def _search_in_mode(asked: AsAnswered, mode: str, case: Case) -> list[Hit]:
    return asked.judged(case, 10, mode)


def _in_mode_under_test_rule(asked: AsAnswered, mode: str, case: Case) -> list[Hit]:
    """A single mode's 50 best with the fusion's rule applied (tests and vendored copies
    give up their shares unless the question asks for tests), the ten best of them kept:
    hybrid against its inputs under one ranking policy."""
    shares = Shares(asks_for_tests(case.query), asked.searcher.test_share(case.query))
    hits = asked.judged(case, 50, mode)
    return sorted(hits, key=lambda hit: -hit.score * (1 - side_share(hit.path, shares)))[:10]


def _hybrid_told_about_tests(
    asked: AsAnswered, is_side: Callable[[Case], bool], case: Case
) -> list[Hit]:
    """Hybrid as an asker who says when it looks for a test runs it (`--tests`, the MCP
    and LSP `tests` argument): set on the cases whose answer is a test. A question's wording
    tells a test's docstring from a bug report only so far (docs/DESIGN.md), so this is the
    figure of the flag, next to the default's."""
    return asked.judged(case, 10, "hybrid", tests=is_side(case))


SINGLE_MODES = ("BM25", "MiniLM bare", "codekith text", "codekith vector")
TOLD = "codekith hybrid, tests flag"
RULED_MODES = ("codekith text, test rule", "codekith vector, test rule")


def answer_split(
    cases: list[Case], reciprocal: dict[str, np.ndarray], is_side: Callable[[Case], bool]
) -> dict[str, dict[str, Any]]:
    """Hybrid, vector and text MRR@10 on the cases whose answer is the project's own code
    and on those whose answer is a test (or a vendored copy), and hybrid told which cases
    want tests: questions about behaviour rank side code lower on purpose
    (search.is_side_code), which costs the second kind unless the asker says so."""
    side = np.array([is_side(case) for case in cases], dtype=bool)
    split = {}
    for label, chosen in (("own code", ~side), ("tests and copies", side)):
        split[label] = {
            "cases": int(chosen.sum()),
            **{
                mode: round(float(reciprocal[f"codekith {mode}"][chosen].mean()), 4)
                if chosen.any()
                else None
                for mode in ("hybrid", "vector", "text")
            },
            "told": round(float(reciprocal[TOLD][chosen].mean()), 4) if chosen.any() else None,
        }
    return split


def side_answers(store: Any, cases: list[Case]) -> Callable[[Case], bool]:
    """Whether a case's answer is a test or a vendored copy (its first expected definition's
    file), looked up once per case."""
    side = set()
    for case in cases:
        rows = store.chunks_by_qualname(case.expected[:1])
        if rows and is_side_code(rows[0]["path"]):
            side.add(tuple(case.expected))
    return lambda case: tuple(case.expected) in side


def hybrid_margin(
    summaries: dict[str, Any],
    reciprocal: dict[str, np.ndarray],
    modes: tuple[str, ...] = SINGLE_MODES,
    hybrid: str = "codekith hybrid",
) -> dict[str, Any]:
    """`hybrid`'s MRR@10 minus the best of `modes`', with a paired bootstrap 95% interval:
    whether "hybrid >= best single mode" is more than the luck of which cases were drawn."""
    best = max(modes, key=lambda name: summaries[name]["mrr@10"])
    gaps = reciprocal[hybrid] - reciprocal[best]
    low, high = bootstrap_interval(lambda idx: float(gaps[idx].mean()), len(gaps))
    return {
        "best_single": best,
        "difference": round(float(gaps.mean()), 4),
        "interval": [round(low, 4), round(high, 4)],
    }


def cochange(project: Any, paths: Any) -> dict[str, Any]:
    """Recall of `related PATH:LINE` (the target's line in the workspace) at the default
    budget, and of as many chunks most similar to the target."""
    recalls, baseline, sizes, missing = cochange_recalls(
        project, load_cases(paths.case_file("cochange"))
    )
    count = len(recalls) or 1
    ours, theirs = np.array(recalls), np.array(baseline)
    low, high = (
        bootstrap_interval(
            lambda idx: float(ours[idx].sum() / max(theirs[idx].sum(), 1e-9)), len(ours)
        )
        if recalls
        else (0.0, 0.0)
    )
    return {
        "cases": len(recalls),
        "missing": missing,
        "related": round(sum(recalls) / count, 4),
        "similarity": round(sum(baseline) / count, 4),
        "ratio_interval": [round(low, 3), round(high, 3)],
        "items": round(sum(sizes) / count, 1),
    }


def cochange_recalls(
    project: Any, cases: list[Case]
) -> tuple[list[float], list[float], list[int], int]:
    """Per case: the bundle's recall, the similarity baseline's at as many items, the
    bundle's size; and how many targets the index no longer chunks so (an older chunker's
    case)."""
    store, related = project.read_store, project.related
    recalls, baseline, sizes = [], [], []
    missing = 0
    for case in cases:
        seed = case.fields["target"]
        target = chunk_named(store, seed)
        if target is None:
            missing += 1
            continue
        bundle = related.bundle(f"{target['path']}:{target['start_line']}")
        items = [i.hit for i in bundle.items if i.hit.qualname != seed]
        recalls.append(_recall(items, case.expected))
        vector = store.vectors_of([target["id"]])[target["id"]]
        nearest = store.vector_search(vector, len(items) + 2)
        similar = [
            hit_from_row(r, 0.0)
            for r in nearest
            if r["qualname"] != seed and r["id"] != target["id"]
        ][: len(items)]
        baseline.append(_recall(similar, case.expected))
        sizes.append(len(items))
    return recalls, baseline, sizes, missing


def question_bundles(project: Any, paths: Any, is_side: Callable[[Case], bool]) -> dict[str, Any]:
    """`related QUESTION` against plain search of as many items, for a question: the share of
    docstring questions whose definition the bundle holds, and of a fix commit's files
    the bundle of its subject touches (what an assistant asking for context gets)."""
    result: dict[str, Any] = {}
    for kind in ("docstring", "fix"):
        if not paths.case_file(kind).exists():
            continue
        shares = bundle_shares(project, load_cases(paths.case_file(kind)), kind, is_side)
        count = len(shares["related"]) or 1
        result[kind] = {
            "cases": len(shares["related"]),
            **{label: round(sum(values) / count, 4) for label, values in shares.items()},
        }
    return result


def bundle_shares(
    project: Any, cases: list[Case], kind: str, is_side: Callable[[Case], bool] | None = None
) -> dict[str, list[float]]:
    """Each case's share of its answer held by its question's bundle (`related`) and, with
    `is_side`, by plain search of as many items (`search`) and by the bundle asked for
    tests when the answer is a test (`related_told`)."""
    asked, related = AsAnswered(project), project.related
    share = _answer_share if kind == "docstring" else _file_share
    found: dict[str, list[float]] = {"related": []}
    if is_side is not None:
        found.update(search=[], related_told=[])
    for case in cases:
        bundle = [item.hit for item in related.bundle(case.query).items]
        found["related"].append(share(bundle, case.expected))
        if is_side is None:
            continue
        found["search"].append(share(asked.hits(case.query, len(bundle)), case.expected))
        if kind == "docstring" and is_side(case):
            flagged = related.bundle(case.query, tests=True).items
            found["related_told"].append(share([item.hit for item in flagged], case.expected))
        else:  # a fix's files are the project's own: nobody asks for tests
            found["related_told"].append(found["related"][-1])
    return found


def _answer_share(hits: list[Hit], expected: list[str]) -> float:
    return float(any(matches(hit, e) for hit in hits for e in expected))


def _file_share(hits: list[Hit], expected: list[str]) -> float:
    return len(set(expected) & {hit.path for hit in hits}) / len(expected)


def files_of(hits: list[Hit]) -> list[str]:
    """Files in the order their first chunk comes."""
    return list(dict.fromkeys(hit.path for hit in hits))


def files_by_score(
    hits: list[Hit],
    share: float = 0.5,
    decay: float = 0.5,
    size: Callable[[str], float] = lambda path: 1.0,
) -> list[str]:
    """Files-first, the reference design's hierarchical step: each file scores its best
    chunk plus `share` of its next ones (each worth `decay` times the one before), that
    part divided by `size(path)` (scripts/eval_files.py)."""
    by_path: dict[str, list[float]] = {}
    for hit in hits:
        by_path.setdefault(hit.path, []).append(hit.score)
    scores = {
        path: values[0] + share * sum(v * decay**i for i, v in enumerate(values[1:])) / size(path)
        for path, values in by_path.items()
    }
    return sorted(scores, key=lambda path: -scores[path])


def file_rank(files: list[str], expected: set[str]) -> int | None:
    """The rank of the first expected file among the first ten."""
    return next((i for i, path in enumerate(files[:10], 1) if path in expected), None)


def file_summary(cases: list[Case], run: Callable[[Case], list[str]]) -> dict[str, Any]:
    """MRR@10 over distinct files, Recall@5 (share of the answer's files in the first five)
    and Hit@5 (any of them)."""
    reciprocal: list[float] = []
    recall = hit = 0.0
    for case in cases:
        files, expected = run(case), set(case.expected)
        rank = file_rank(files, expected)
        reciprocal.append(1 / rank if rank else 0.0)
        recall += len(expected & set(files[:5])) / len(expected)
        hit += bool(expected & set(files[:5]))
    total = len(cases) or 1
    return {
        "cases": len(cases),
        "mrr@10": round(sum(reciprocal) / total, 4),
        "recall@5": round(recall / total, 4),
        "hit@5": round(hit / total, 4),
        "reciprocal_ranks": reciprocal,
    }


def fixes(corpus: Corpus, paths: Any) -> dict[str, Any]:
    """The fix -> files case set (see the module docstring), or {} without its case file."""
    if not paths.case_file("fix").exists():
        return {}
    cases = load_cases(paths.case_file("fix"))
    asked = AsAnswered(corpus.project)
    runners: dict[str, Callable[[Case], list[str]]] = {
        "BM25 files": lambda c: corpus.bm25_files(paths.workspace, c.query),
        "BM25 chunks": lambda c: files_of(corpus.bm25(c.query, FILE_DEPTH)),
    }

    def mode_files(mode: str) -> Callable[[Case], list[str]]:
        return lambda case: files_of(asked.hits(case.query, FILE_DEPTH, mode))

    for mode in ("text", "vector", "hybrid"):
        runners[f"codekith {mode}"] = mode_files(mode)
    runners["codekith hybrid, files-first"] = lambda case: files_by_score(
        asked.hits(case.query, FILE_DEPTH)
    )
    return {name: file_summary(cases, run) for name, run in runners.items()}


def chunk_named(store: Any, qualname: str) -> dict[str, Any] | None:
    rows = [r for r in store.chunks_by_qualname([qualname]) if r["kind"] != "class"]
    return min(rows, key=lambda r: r["start_line"], default=None)


def _recall(hits: list[Hit], expected: list[str]) -> float:
    found = sum(1 for e in expected if any(matches(h, e) for h in hits))
    return found / len(expected)


def optional_set(
    paths: Any, kind: str, runners: dict[str, Callable[[Case], list[Hit]]]
) -> dict[str, Any]:
    """Each runner's summary on a case set the bench may not have built (older benches)."""
    if not paths.case_file(kind).exists():
        return {}
    return search_sets(load_cases(paths.case_file(kind)), runners)[0]


def repo_table(repo: dict[str, Any], paths: Any, model: str) -> dict[str, Any]:
    project = paths.project(model)
    corpus = Corpus(project, paths.bare)
    questions = load_cases(paths.case_file("docstring"))
    is_side = side_answers(project.read_store, questions)
    asked = AsAnswered(project)
    hybrid = partial(_search_in_mode, asked, "hybrid")
    singles: dict[str, Callable[[Case], list[Hit]]] = {  # SINGLE_MODES, in order
        "BM25": lambda c: corpus.bm25(c.query),
        "MiniLM bare": lambda c: corpus.bare_vector_search(c.query),
        "codekith text": partial(_search_in_mode, asked, "text"),
        "codekith vector": partial(_search_in_mode, asked, "vector"),
    }
    docstring, doc_reciprocal = search_sets(
        questions,
        {
            **singles,
            RULED_MODES[0]: partial(_in_mode_under_test_rule, asked, "text"),
            RULED_MODES[1]: partial(_in_mode_under_test_rule, asked, "vector"),
            "old hybrid": partial(old_hybrid, project),
            "codekith hybrid": hybrid,
            TOLD: partial(_hybrid_told_about_tests, asked, is_side),
        },
    )
    for_names: dict[str, Callable[[Case], list[Hit]]] = {  # what a name finds for free
        "grep": lambda c: corpus.grep(paths.workspace, c.query),
        "BM25": lambda c: corpus.bm25(c.query),
    }
    identifier, _ = search_sets(
        load_cases(paths.case_file("identifier")),
        {**for_names, "old hybrid": partial(old_hybrid, project), "codekith hybrid": hybrid},
    )
    modes = {name: singles[name] for name in ("codekith text", "codekith vector")}
    pasted = {  # a message or code as pasted: grep of the piece someone would pick
        "grep": lambda c: corpus.grep(paths.workspace, c.fields["grep"]),
        "BM25": for_names["BM25"],
    }
    literal = optional_set(paths, "literal", {**for_names, **modes, "codekith hybrid": hybrid})
    messages = optional_set(paths, "message", {**pasted, **modes, "codekith hybrid": hybrid})
    snippets = optional_set(paths, "snippet", {**pasted, **modes, "codekith hybrid": hybrid})
    sections = optional_set(paths, "section", {**singles, "codekith hybrid": hybrid})
    stats = json.loads(paths.stats.read_text()) if paths.stats.exists() else {}
    fixed = fixes(corpus, paths)
    fix_reciprocal = {name: np.array(s["reciprocal_ranks"]) for name, s in fixed.items()}
    return {
        "repo": repo["name"],
        "role": repo["role"],
        "fixes_trained_adapter": repo.get("fixes_trained_adapter", False),
        "model": model,
        "chunks": len(corpus.rows),
        "chunks_per_cpu_s": stats.get("stripped", {}).get("chunks_per_cpu_s"),
        "built_with": stats.get("stripped", {}).get("versions", {}),
        "updated_with": stats.get("last_run_versions", {}),
        "measured_with": package_versions(),
        "docstring": docstring,
        "hybrid_margin": hybrid_margin(docstring, doc_reciprocal),
        "ruled_margin": hybrid_margin(docstring, doc_reciprocal, RULED_MODES),
        "told_margin": hybrid_margin(docstring, doc_reciprocal, SINGLE_MODES, TOLD),
        "reciprocal_ranks": {name: ranks.tolist() for name, ranks in doc_reciprocal.items()},
        "answer_split": answer_split(questions, doc_reciprocal, is_side),
        "identifier": identifier,
        "literal": literal,
        "message": messages,
        "snippet": snippets,
        "section": sections,
        "cochange": cochange(project, paths),
        "questions": question_bundles(project, paths, is_side),
        "fix": fixed,
        "fix_margin": hybrid_margin(fixed, fix_reciprocal, FIX_POOLED_AGAINST) if fixed else {},
    }


def print_table(result: dict[str, Any]) -> None:
    print(
        f"\n{result['repo']} ({result['role'].upper()}): {result['chunks']} chunks, "
        f"{result['model']} {result['chunks_per_cpu_s']} chunks/CPU-s (cold index)"
    )
    measured = result.get("measured_with", {})
    for key, label in (("built_with", "built cold"), ("updated_with", "last updated")):
        if result.get(key):
            print(f"  index {label} with {json.dumps(result[key])}")
            changes = version_changes(result[key], measured)
            if changes:
                print(f"    measured with other versions: {', '.join(changes)}")
    doc = result["docstring"]
    cases = next(iter(doc.values()))["cases"]
    print(f"  docstring -> definition ({cases} cases)   MRR@10  R@10")
    for name, summary in doc.items():
        print(f"    {name:32} {summary['mrr@10']:6.3f} {summary['recall@10']:6.3f}")
    for key, subject, label in (
        ("hybrid_margin", "hybrid", "best single mode"),
        ("ruled_margin", "hybrid", "it, same rule"),
        ("told_margin", "hybrid, tests flag,", "best single mode"),
    ):
        print_margin(subject, label, result[key], doc)
    for label, part in result["answer_split"].items():
        if part["cases"]:
            print(
                f"    answers in {label} ({part['cases']} cases): hybrid {part['hybrid']:.3f}, "
                f"vector {part['vector']:.3f}, text {part['text']:.3f}, hybrid with the tests "
                f"flag {part['told']:.3f}"
            )
    ident = result["identifier"]
    cases = next(iter(ident.values()))["cases"]
    print(f"  identifier ({cases} cases)                 R@1    MRR@10")
    for name, summary in ident.items():
        print(f"    {name:32} {summary['recall@1']:6.3f} {summary['mrr@10']:6.3f}")
    for key, label in (
        ("literal", "literal name -> its holders"),
        ("message", "error message -> its raiser"),
        ("snippet", "pasted code -> its definition"),
    ):
        if result.get(key):
            cases = next(iter(result[key].values()))["cases"]
            print(f"  {label} ({cases} cases)".ljust(43) + "MRR@10  R@1")
            for name, summary in result[key].items():
                print(f"    {name:32} {summary['mrr@10']:6.3f} {summary['recall@1']:6.3f}")
    if result.get("section"):
        cases = next(iter(result["section"].values()))["cases"]
        print(f"  doc paragraph -> section ({cases} cases)  MRR@10  R@10")
        for name, summary in result["section"].items():
            print(f"    {name:32} {summary['mrr@10']:6.3f} {summary['recall@10']:6.3f}")
    co = result["cochange"]
    ratio = co["related"] / co["similarity"] if co["similarity"] else float("inf")
    print(
        f"  co-change ({co['cases']} cases, {co['items']} items on average): related recall "
        f"{co['related']:.3f} vs similarity-only {co['similarity']:.3f} ({ratio:.2f}x, "
        f"95% CI {co['ratio_interval'][0]:.2f}-{co['ratio_interval'][1]:.2f}x)"
    )
    for kind, label in (("docstring", "holding the answer"), ("fix", "files of the fix")):
        if kind in result["questions"]:
            q = result["questions"][kind]
            print(
                f"  related QUESTION ({kind}, {q['cases']} cases): {label} {q['related']:.3f} "
                f"vs search of as many items {q['search']:.3f}"
                + (f"; with the tests flag {q['related_told']:.3f}" if kind == "docstring" else "")
            )
    if result["fix"]:
        cases = next(iter(result["fix"].values()))["cases"]
        print(f"  fix -> files ({cases} cases)            MRR@10  R@5    Hit@5")
        for name, summary in result["fix"].items():
            print(
                f"    {name:32} {summary['mrr@10']:6.3f} {summary['recall@5']:6.3f} "
                f"{summary['hit@5']:6.3f}"
            )
        print_margin("hybrid", "best single runner", result["fix_margin"], result["fix"])


def print_margin(
    subject: str, label: str, margin: dict[str, Any], summaries: dict[str, Any]
) -> None:
    """One `hybrid_margin` line: whether `subject` is ahead of the best runner, by how much."""
    verdict = ">=" if margin["difference"] >= 0 else "<"
    best = margin["best_single"]
    low, high = margin["interval"]
    print(
        f"    {subject} {verdict} {label} ({best} {summaries[best]['mrr@10']:.3f}): "
        f"{margin['difference']:+.3f}, 95% CI [{low:+.3f}, {high:+.3f}]"
    )


def run_tables(
    repos: list[dict[str, Any]], paths_of: Callable[[str], Any], as_json: bool, model: str
) -> int:
    results = []
    for repo in repos:
        log(f"evaluating {repo['name']}")
        result = repo_table(repo, paths_of(repo["name"]), model)
        results.append(result)
        if not as_json:
            print_table(result)
            sys.stdout.flush()
    pooled = pooled_margins([r for r in results if r["role"] == "held-out"])
    if as_json:
        print(json.dumps({"repositories": results, "held_out_pooled": pooled}, indent=2))
    elif pooled:
        print_pooled(pooled)
    return 0


POOLED_AGAINST = (*SINGLE_MODES, *RULED_MODES, "old hybrid")


FIX_POOLED_AGAINST = ("codekith text", "codekith vector", "BM25 files", "BM25 chunks")


def pooled_margins(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Hybrid's docstring MRR@10 minus each runner's over these repositories, each counting
    once, with a stratified bootstrap interval ({} without repositories); and the same of
    fix -> files MRR@10 over those with bug reports (`fix`), but for a repository whose fix
    commits trained the shipped query adapter (`fixes_trained_adapter`: not held out)."""
    if not results:
        return {}
    ranks = [
        {name: np.array(values) for name, values in r["reciprocal_ranks"].items()} for r in results
    ]
    fix_results = [r for r in results if r["fix"] and not r.get("fixes_trained_adapter")]
    fixed = [
        {name: np.array(summary["reciprocal_ranks"]) for name, summary in r["fix"].items()}
        for r in fix_results
    ]
    hybrid = [r["codekith hybrid"] for r in ranks]
    return {
        "repositories": [r["repo"] for r in results],
        "cases": sum(len(h) for h in hybrid),
        "hybrid": round(float(np.mean([h.mean() for h in hybrid])), 4),
        "margins": _margins(ranks, POOLED_AGAINST),
        "fix": {
            "repositories": [r["repo"] for r in fix_results],
            "cases": sum(len(r["codekith hybrid"]) for r in fixed),
            "hybrid": round(float(np.mean([r["codekith hybrid"].mean() for r in fixed])), 4),
            "margins": _margins(fixed, FIX_POOLED_AGAINST),
        }
        if fixed
        else {},
    }


def _margins(ranks: list[dict[str, np.ndarray]], against: Sequence[str]) -> dict[str, Any]:
    """Hybrid's mean reciprocal rank minus each runner's, each repository counting once."""
    margins = {}
    for name in against:
        gaps = [r["codekith hybrid"] - r[name] for r in ranks]
        low, high = stratified_interval(gaps)
        margins[name] = {
            "difference": round(float(np.mean([g.mean() for g in gaps])), 4),
            "interval": [round(low, 4), round(high, 4)],
        }
    return margins


def print_pooled(pooled: dict[str, Any]) -> None:
    names = ", ".join(pooled["repositories"])
    print(
        f"\nheld out, pooled ({names}; {pooled['cases']} docstring cases, each repository "
        f"counting once): hybrid MRR@10 {pooled['hybrid']:.3f}"
    )
    _print_margins(pooled["margins"])
    if pooled["fix"]:
        print(
            f"  fix -> files ({len(pooled['fix']['repositories'])} repositories, "
            f"{pooled['fix']['cases']} bug reports): hybrid MRR@10 "
            f"{pooled['fix']['hybrid']:.3f}"
        )
        _print_margins(pooled["fix"]["margins"])


def _print_margins(margins: dict[str, Any]) -> None:
    for name, margin in margins.items():
        low, high = margin["interval"]
        difference = margin["difference"]
        print(f"    hybrid - {name:30} {difference:+.3f}, 95% CI [{low:+.3f}, {high:+.3f}]")
