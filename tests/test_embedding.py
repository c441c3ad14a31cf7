"""The offline default model: derived once per installation, int8 matrix products, and a
vector that depends on its document alone."""

from __future__ import annotations

import collections

import numpy as np
import onnx

from codekith.embedding import offline_model_dir

DOCUMENTS = [
    "# app.py\n# function app.route\n# ---\ndef route(rule):\n    return rule\n",
    "short",
    "# cli.py\n# class cli.Group\n# ---\nclass Group:\n    " + "x = 1\n    " * 80,
    "# http.py\n# function http.parse_header\n# ---\ndef parse_header(line):\n"
    "    name, _, value = line.partition(':')\n    return name.strip(), value.strip()\n",
]


def test_a_vector_depends_on_its_document_alone(embedder):
    """Dynamic quantization scales each product's input over the batch: embedded beside
    longer documents, one came out at cosine 0.974 to itself alone."""
    together = embedder.embed_documents(DOCUMENTS)
    for document, vector in zip(DOCUMENTS, together, strict=True):
        alone = embedder.embed_documents([document])[0]
        assert float(np.dot(vector, alone)) > 0.99999


def test_the_default_model_multiplies_in_int8_and_is_derived_the_same_every_time(
    tmp_path, monkeypatch
):
    installed = offline_model_dir() / "model.onnx"
    operators = collections.Counter(n.op_type for n in onnx.load(installed).graph.node)
    assert operators["MatMulInteger"] >= 36  # 6 layers x (q, k, v, out, 2 feed-forward)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    again = offline_model_dir() / "model.onnx"
    assert again != installed and again.read_bytes() == installed.read_bytes()
