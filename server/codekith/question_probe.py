"""How a question is written, as a logistic probe reads it: its vector, first word, shape.

Search asks one such probe whether a question reads like a test's docstring ("Ensure a
redirect keeps the fragment", "the server closes when leaving the context manager"): such a
question's answer is often a test, so tests give up less of their score for it. The vector
alone could not tell tests' docstrings from bug reports ("hooks don't work with callable
classes"); how the question opens and is written can. scripts/doc_probe.py trains probes
(on data no quality repository is part of) and docs/DESIGN.md has what they were measured
to do.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import numpy as np

TEST_PROBE = Path(__file__).parent / "data" / "test_probe.json"
WORD = re.compile(r"[A-Za-z]+")
IDENTIFIER = re.compile(r"\b[a-z]+[A-Z_][A-Za-z_]*\b|\w+\(\)")
PERSONAL = frozenset({"you", "your", "we", "our", "us", "let"})
LONG = 40  # words: the length feature's 1.0


def first_word(text: str) -> str:
    found = WORD.search(text)
    return found.group().lower() if found else ""


def shape(text: str) -> np.ndarray:
    """How a question is written, apart from its words' meaning."""
    words = WORD.findall(text)
    lowered = {word.lower() for word in words}
    opening = words[0] if words else ""
    return np.array(
        [
            min(len(text.split()), LONG) / LONG,
            bool(lowered & PERSONAL),
            "`" in text,
            bool(IDENTIFIER.search(text)),
            text.rstrip().endswith("."),
            opening[:1].isupper() and opening.endswith("s"),
            "?" in text,
            ":" in text,
        ],
        dtype=np.float32,
    )


class Probe:
    """How likely a question is of the probe's kind, from its vector, first word and shape.
    `query_side` names what embedded the questions it was trained on (Embedder.query_id):
    its weights mean nothing for another model's vectors."""

    def __init__(
        self,
        query_side: str,
        vector_weights: np.ndarray,
        first_words: dict[str, float],
        shape_weights: np.ndarray,
        bias: float,
    ):
        self.query_side = query_side
        self.vector_weights = vector_weights
        self.first_words = first_words
        self.shape_weights = shape_weights
        self.bias = bias

    @classmethod
    def load(cls, path: Path) -> Probe:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            data["query_side"],
            np.array(data["vector"], dtype=np.float32),
            data["first_words"],
            np.array(data["shape"], dtype=np.float32),
            float(data["bias"]),
        )

    def save(self, path: Path) -> None:
        data = {
            "query_side": self.query_side,
            "bias": round(self.bias, 6),
            "vector": [round(float(w), 6) for w in self.vector_weights],
            "first_words": {word: round(w, 6) for word, w in sorted(self.first_words.items())},
            "shape": [round(float(w), 6) for w in self.shape_weights],
        }
        path.write_text(json.dumps(data) + "\n", encoding="utf-8")

    def likelihood(self, vector: np.ndarray, question: str) -> float:
        logit = (
            float(vector @ self.vector_weights)
            + self.first_words.get(first_word(question), 0.0)
            + float(shape(question) @ self.shape_weights)
            + self.bias
        )
        return float(1 / (1 + np.exp(-logit)))


@cache
def test_probe() -> Probe:
    """The shipped probe: does a question read like a test's docstring?"""
    return Probe.load(TEST_PROBE)
