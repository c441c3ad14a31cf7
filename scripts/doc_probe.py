"""Does a question read like documentation (or like a test's docstring)? A logistic probe.

Measured (scripts/eval_docs.py --variant probe) as a way for search to rank documentation
sections below code for questions about code and keep them for questions about the docs.
Which kind a question is shows in how it is written: "If you want to run the server behind
a proxy, ..." reads like a manual, "Return the response's JSON body." like a docstring and
"prevent NoAppException when ImportError occurs" like a bug report. The probe reads
- the question's vector (the query side of the default model, computed for every search
  anyway);
- its first word ("Return", "If", "prevent"), one weight per first word seen at least
  MIN_FIRST_WORD times in training;
- its shape (`shape`): length, the second person or "we", backticks, an identifier, a
  final full stop, a third-person opening verb ("Returns"), a question mark, a colon.
It says how likely the question is documentation's, written to --out as JSON with the
query side it was trained on.

The first probe read the vector alone and had no bug reports among its code: its AUC was
.77-.86 at telling the tuning repositories' section questions from their docstring ones
and .59-.64 from their bug reports (the second probe: .91-.95 and .96-.99).

Training data no quality repository is part of:
- documentation: the first sentence of each Markdown/reStructuredText section's first
  paragraph of prose (`quality_cases.doc_paragraphs`, as the `section` cases take them) in
  the mirrors given (git folders the fetch tool brought in);
- code: the first sentences of the installed packages' docstrings (tests left out; as
  many as three times the documentation's), the doc comments of the mirrors' Go,
  JavaScript and TypeScript definitions, and the mirrors' commit subjects about a fix as
  the `fix` cases take them (`quality_cases.fix_query`).
Classes are weighted to count equally; a fifth of each is held back and the probe's AUC on
it printed.

`--target tests` trains the same probe to say how likely a question is a test's docstring
(scripts/eval_test_probe.py measured it as the test rule's share; search ships it as
codekith/data/test_probe.json: train it again when the query side changes). Its positives
are the first sentences of the tests' docstrings in the installed packages and in the
mirrors' Python files; its negatives everything else a question might be: the packages'
and the mirrors' own docstrings and doc comments (as many as CODE_PER_TEST times the
tests'), the mirrors' commit subjects about a fix and their documentation's first
sentences.

    python scripts/doc_probe.py [--out BENCH/doc_probe.json] GIT_DIR ...
    python scripts/doc_probe.py --target tests --out BENCH/test_probe.json GIT_DIR ...
"""

from __future__ import annotations

import argparse
import random
import site
from collections import Counter
from pathlib import Path

import numpy as np

import quality_cases as qc
from codekith.config import DEFAULT_MODEL
from codekith.embedding import FastEmbedder
from codekith.languages import language_of
from codekith.question_probe import Probe, first_word, shape
from question_openings import first_sentences, mirror_sentences

CODE_PER_DOC = 3
CODE_PER_TEST = 4
MIN_FIRST_WORD = 3
STEPS = 3000
RATE = 0.5
DECAY = 1e-3  # L2 on the weights
HELD_BACK = 0.2
SEED = 7


def doc_sentences(mirror: Path) -> set[str]:
    found: set[str] = set()
    for rel in qc.git(mirror, "ls-tree", "-r", "--name-only", "HEAD").splitlines():
        language = language_of(rel)
        if language not in qc.SECTION_CASE_LANGUAGES or qc.is_vendored(rel):
            continue
        text = qc.git(mirror, "show", f"HEAD:{rel}")
        found |= {sentence for sentence, _ in qc.doc_paragraphs(rel, language, text)[1]}
    return found


def fix_subjects(mirrors: list[Path]) -> set[str]:
    return {
        query
        for mirror in mirrors
        for _, subject, _ in qc.commit_log(mirror)
        if (query := qc.fix_query(subject))
    }


def code_sentences(mirrors: list[Path], site_packages: Path, count: int) -> list[str]:
    own = sorted({text for _, text, test, _ in first_sentences(site_packages) if not test})
    comments = {
        text
        for mirror in mirrors
        for _, text, _, _ in mirror_sentences(mirror, ("go", "javascript", "typescript"))
    }
    rng = random.Random(SEED)
    return rng.sample(own, min(len(own), count)) + sorted(comments | fix_subjects(mirrors))


def labelled_docs(mirrors: list[Path], site_packages: Path) -> tuple[list[str], list[str]]:
    """(documentation's sentences, code's)."""
    docs = sorted({s for mirror in mirrors for s in doc_sentences(mirror)})
    return docs, code_sentences(mirrors, site_packages, CODE_PER_DOC * len(docs))


def labelled_tests(mirrors: list[Path], site_packages: Path) -> tuple[list[str], list[str]]:
    """(tests' docstring sentences, everything else a question might be)."""
    languages = ("python", "go", "javascript", "typescript")
    sentences = first_sentences(site_packages) | {
        s for mirror in mirrors for s in mirror_sentences(mirror, languages, tests=True)
    }
    tests = {text for _, text, test, _ in sentences if test}
    own = sorted({text for _, text, test, _ in sentences if not test} - tests)
    own = random.Random(SEED).sample(own, min(len(own), CODE_PER_TEST * len(tests)))
    docs = {s for mirror in mirrors for s in doc_sentences(mirror)}
    return sorted(tests), sorted((set(own) | fix_subjects(mirrors) | docs) - tests)


def features(vectors: np.ndarray, texts: list[str], vocabulary: list[str]) -> np.ndarray:
    column = {word: i for i, word in enumerate(vocabulary)}
    firsts = np.zeros((len(texts), len(vocabulary)), dtype=np.float32)
    for row, text in enumerate(texts):
        if (i := column.get(first_word(text))) is not None:
            firsts[row, i] = 1.0
    return np.hstack([vectors, firsts, np.vstack([shape(text) for text in texts])])


def train(inputs: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, float]:
    """Logistic regression by gradient descent, both classes weighing the same."""
    weights, bias = np.zeros(inputs.shape[1], dtype=np.float32), 0.0
    share = labels.mean()
    balance = np.where(labels == 1, 0.5 / share, 0.5 / (1 - share)).astype(np.float32)
    for _ in range(STEPS):
        predicted = 1 / (1 + np.exp(-(inputs @ weights + bias)))
        error = (predicted - labels) * balance
        weights -= RATE * (inputs.T @ error / len(labels) + DECAY * weights)
        bias -= RATE * float(error.mean())
    return weights, bias


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    positive, negative = scores[labels == 1], scores[labels == 0]
    above = (positive[:, None] > negative[None, :]).mean()
    return float(above + 0.5 * (positive[:, None] == negative[None, :]).mean())


def fitted(query_side: str, vectors: np.ndarray, texts: list[str], labels: np.ndarray) -> Probe:
    counts = Counter(first_word(text) for text in texts)
    vocabulary = sorted(w for w, n in counts.items() if w and n >= MIN_FIRST_WORD)
    weights, bias = train(features(vectors, texts, vocabulary), labels)
    width = vectors.shape[1]
    firsts = weights[width : width + len(vocabulary)]
    return Probe(
        query_side,
        weights[:width],
        {word: float(w) for word, w in zip(vocabulary, firsts, strict=True)},
        weights[width + len(vocabulary) :],
        bias,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=Path("/work/bench/doc_probe.json"))
    parser.add_argument("--site-packages", type=Path, default=Path(site.getsitepackages()[0]))
    parser.add_argument("--target", choices=("docs", "tests"), default="docs")
    args = parser.parse_args(argv)
    labelled = labelled_docs if args.target == "docs" else labelled_tests
    positives, negatives = labelled(args.mirrors, args.site_packages)
    print(f"{len(positives)} {args.target} sentences, {len(negatives)} others", flush=True)
    embedder = FastEmbedder(DEFAULT_MODEL)
    texts = positives + negatives
    vectors = np.vstack([embedder.embed_query(text) for text in texts]).astype(np.float32)
    labels = np.array([1.0] * len(positives) + [0.0] * len(negatives), dtype=np.float32)
    order = np.random.default_rng(SEED).permutation(len(labels))
    cut = int(len(order) * HELD_BACK)
    back, kept = order[:cut], order[cut:]
    probe = fitted(embedder.query_id, vectors[kept], [texts[i] for i in kept], labels[kept])
    held = [probe.likelihood(vectors[i], texts[i]) for i in back]
    print(f"AUC on the fifth held back: {auc(np.array(held), labels[back]):.3f}")
    fitted(embedder.query_id, vectors, texts, labels).save(args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
