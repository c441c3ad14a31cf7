"""Does a question read like documentation or like a docstring? A probe on its vector.

Measured (scripts/eval_docs.py --variant probe) as a way for search to rank documentation
sections below code for questions about code and keep them for questions about the docs,
and not taken (docs/DESIGN.md). Which kind a question is shows in how it is written: "If
you want to run the server behind a proxy, ..." reads like a manual, "Return the
response's JSON body." like a docstring. The question's vector (the query side of the
default model, computed for every search anyway) carries some of that, so a logistic probe
on it says how likely a question is documentation's: 385 numbers, written to --out with
the query side they were trained on.

Training data no quality repository is part of:
- documentation: the first sentence of each Markdown/reStructuredText section's first
  paragraph of prose (`quality_cases.doc_paragraphs`, as the `section` cases take them) in
  the mirrors given (git folders the fetch tool brought in);
- code: the first sentences of the installed packages' docstrings (tests left out; as
  many as three times the documentation's) and the doc comments of the mirrors' Go,
  JavaScript and TypeScript definitions.
Classes are weighted to count equally; a fifth of each is held back and the probe's AUC on
it printed.
    python scripts/doc_probe.py [--out BENCH/doc_probe.json] GIT_DIR ...
"""

from __future__ import annotations

import argparse
import json
import random
import site
from pathlib import Path

import numpy as np

import quality_cases as qc
from codekith.config import DEFAULT_MODEL
from codekith.embedding import FastEmbedder
from codekith.languages import language_of
from question_openings import first_sentences, mirror_sentences

CODE_PER_DOC = 3
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


def code_sentences(mirrors: list[Path], site_packages: Path, count: int) -> list[str]:
    own = sorted({text for _, text, test, _ in first_sentences(site_packages) if not test})
    comments = sorted(
        {
            text
            for mirror in mirrors
            for _, text, _, _ in mirror_sentences(mirror, ("go", "javascript", "typescript"))
        }
    )
    rng = random.Random(SEED)
    return rng.sample(own, min(len(own), count)) + comments


def train(vectors: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, float]:
    """Logistic regression by gradient descent, both classes weighing the same."""
    weights, bias = np.zeros(vectors.shape[1]), 0.0
    share = labels.mean()
    balance = np.where(labels == 1, 0.5 / share, 0.5 / (1 - share))
    for _ in range(STEPS):
        predicted = 1 / (1 + np.exp(-(vectors @ weights + bias)))
        error = (predicted - labels) * balance
        weights -= RATE * (vectors.T @ error / len(labels) + DECAY * weights)
        bias -= RATE * float(error.mean())
    return weights, bias


def auc(scores: np.ndarray, labels: np.ndarray) -> float:
    positive, negative = scores[labels == 1], scores[labels == 0]
    above = (positive[:, None] > negative[None, :]).mean()
    return float(above + 0.5 * (positive[:, None] == negative[None, :]).mean())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=Path("/work/bench/doc_probe.json"))
    parser.add_argument("--site-packages", type=Path, default=Path(site.getsitepackages()[0]))
    args = parser.parse_args(argv)
    docs = sorted({s for mirror in args.mirrors for s in doc_sentences(mirror)})
    code = code_sentences(args.mirrors, args.site_packages, CODE_PER_DOC * len(docs))
    print(f"{len(docs)} documentation sentences, {len(code)} code sentences", flush=True)
    embedder = FastEmbedder(DEFAULT_MODEL)
    vectors = np.vstack([embedder.embed_query(text) for text in docs + code])
    labels = np.array([1.0] * len(docs) + [0.0] * len(code))
    order = np.random.default_rng(SEED).permutation(len(labels))
    cut = int(len(order) * HELD_BACK)
    back, kept = order[:cut], order[cut:]
    weights, bias = train(vectors[kept], labels[kept])
    held = auc(vectors[back] @ weights + bias, labels[back])
    print(f"AUC on the fifth held back: {held:.3f}")
    weights, bias = train(vectors, labels)
    args.out.write_text(
        json.dumps(
            {
                "query_side": embedder.query_id,
                "bias": round(bias, 6),
                "weights": [round(float(w), 6) for w in weights],
            }
        )
        + "\n"
    )
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
