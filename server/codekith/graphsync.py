"""The graph phase of an index run: fast edges right after the chunks, Jedi afterwards.

The store keeps, besides the edges, every file's graph derivations (see
`graph.incremental`): an index run loads the ones for the files' current content and
re-resolves only what they no longer cover, so a run that was killed, a branch switch back
or an undone edit costs little, and the edges always equal a fresh index's. A derivation
without a Jedi answer is what the Jedi pass works on, so that pass resumes wherever it
stopped; a file whose Jedi pass timed out is tried again by later runs (JEDI_RETRIES).

In a long-lived process the builder stays warm between runs; `graph_epoch` in meta tells it
when another process has written the graph meanwhile. There the edges a save's run left
behind are computed without the index's write lock (`compute`: the lock is for store
writes, and a save must not wait for pure-Python work) and stored under it
(`store_computed`); until then every other use of the builder stores them first.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from codekith import gitrepo
from codekith.chunking import sha1
from codekith.config import Settings
from codekith.graph.builder import GraphBuilder, GraphUpdate, Resolved
from codekith.graph.incremental import (
    MoreVariants,
    UpdateYielded,
    Variant,
    decode_variant,
    encode_variant,
)
from codekith.graph.index import GRAPH_LANGUAGES, config_fingerprint, in_graph
from codekith.graph.jedi_worker import JediJob, JediResult, JediWorker
from codekith.graph.model import Edge
from codekith.progress import Counts, Tally
from codekith.qualnames import ModuleNames
from codekith.store import Store
from codekith.workspace import decode_text

# 5: a derivation made before string annotations were parsed once (1081b22) may be wrong
# 6: JavaScript defines by assignment, and `this` / `new` of function constructors resolve
# 7: functions in top-level object literals and `module.exports = class` are definitions
# 8: Kotlin has a call graph
# 9: C has a call graph
# 10: C# has a call graph
# 11: Swift has a call graph
# 12: Ruby has a call graph
# 13: PHP has a call graph
# 14: Lua has a call graph
# 15: Scala has a call graph
# 16: C++ has a call graph (and C headers holding C++ go to it)
# 17: class orders found inside a cycle are not memoised (which file asked first mattered)
# 18: shell (bash) has a call graph
# 19: shell follows ShellCheck's `source=` directives; suffix-less scripts join by their `#!`
# 20: shell functions an `if` or `case` at the top defines are nodes
# 21: Bats test files: `@test` blocks own their calls, `load` sources, `run f` calls f
# 22: zsh files (zsh grammar), shell definitions inside what tree-sitter could not read
# 23: a shell `source` tail that is a file name alone names a file beside the script or at the root
# 24: scripts whose `#!` runs zsh are shell (zsh grammar)
# 25: Jedi reads the workspace's packages before those installed beside codekith
# 26: a decorator that returns its argument returns this application's; a call of a wrapped
#     function is a "wrapped" edge to it beside the "call" edge to its wrapper
# 27: a read of a property is a "property" edge to its getter, and evaluates to what it returns
# 28: a call of a `functools.partial` made in the workspace calls its function
# 29: annotated fields (`x: T` in a class body, `self.x: T`) type instance attributes
# 30: `with x as y` binds what `x.__enter__()` returns (a @contextmanager's yield)
# 31: whether a name is functools' `partial` is read by Python's scope walk
# 32: a list literal holds what it unpacks (`[a, *rest]`)
# 33: a write of a property with a setter is a "setter" edge; a property wins over instance
#     attributes; an assignment's target is read (its reads and calls)
# 34: making an instance of a class that runs no `__init__` of its own is a "new" edge to it
# 35: so is a `new` of a type with no constructor of its own (TS/JS, Java, C#, C++, ...)
GRAPH_VERSION = "35"
VARIANTS_STORED = 4  # derivations kept per file
JEDI_WRITE_EVERY_S = 2.0  # Jedi results are stored at least this often (resume points)
JEDI_TIME_LIMIT_S = 10.0  # CPU seconds per file inside the Jedi child
JEDI_DEADLINE_S = 60.0  # wall seconds per file before the Jedi child is killed

Meta = dict[str, str]
Progress = Callable[[int, int, str], None]


@dataclass
class _Computed:
    """An update of the warm builder that the store does not have yet."""

    update: GraphUpdate
    snapshot: str
    epoch: str  # the graph_epoch the store had when it was computed


def snapshot(files: dict[str, str], config: str) -> str:
    """One hash for a set of file contents (and project files): the graph is current when
    it matches."""
    return hashlib.sha1(json.dumps([config, sorted(files.items())]).encode()).hexdigest()


def _current(meta: Meta, snapshot_hash: str) -> bool:
    """The stored graph is this version's and was made from these files."""
    return meta.get("graph") == GRAPH_VERSION and meta.get("graph_snapshot") == snapshot_hash


class GraphSync:
    def __init__(self, root: Path, settings: Settings, store: Store) -> None:
        self.root = root
        self.settings = settings
        self.store = store
        self._builder: GraphBuilder | None = None
        self._files: dict[str, str] = {}  # graph file -> content hash, as last indexed
        self._epoch = ""
        self._jedi: JediWorker | None = None
        self._layout = ""  # the module names' layout the builder was made for
        self._computed: _Computed | None = None
        self._using = threading.RLock()  # the builder: changed by one thread at a time

    # -- fast edges -------------------------------------------------------------------------

    def update(
        self,
        meta: Meta,
        indexed: dict[str, str],
        removed: Iterable[str],
        layout: str = "",
        progress: Counts | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> tuple[Meta, dict[str, Any]]:
        """Bring the edges in step after a run wrote `indexed` (path -> content hash) and
        dropped `removed`; the meta to record and the run's figures. `layout` identifies the
        package layout the chunks' module names follow (qualnames.Layout as JSON): when it
        changes, no derivation is reused and every file is resolved again. `progress`
        hears (done, total, path) in file passes (progress.Tally). `stop` may end it early
        (UpdateYielded: nothing stored, the next update does it)."""
        tally = Tally(progress)
        tally.start()
        try:
            with self._using:
                meta = {**meta, **self._write_computed()}
                return self._update(meta, indexed, removed, layout, tally, stop)
        finally:
            tally.finish()

    def compute(self, meta: Meta, layout: str, stop: Callable[[], bool] | None = None) -> bool:
        """The edges of the files runs deferred, in the warm builder's memory only; the
        caller need not hold the index's write lock (`store_computed` writes them, under
        it). False when only `update` can do it (a cold builder or another layout). `stop`
        may end it (UpdateYielded: the builder is as before)."""
        with self._using:
            if self._computed is not None or layout != self._layout or not self._warm(meta):
                return self._computed is not None
            files = dict(self._files)
            config = self._config()
            done = snapshot(files, config)
            if _current(meta, done):
                return True
            assert self._builder is not None
            try:
                update = self._builder.update(files, config, Tally(), stop)
            except UpdateYielded:
                raise
            except BaseException:
                self._builder = None  # half updated: the next use loads the stored graph
                raise
            self._computed = _Computed(update, done, self._epoch)
            return True

    def store_computed(self) -> dict[str, Any]:
        """Store what `compute` left in memory (under the index's write lock); the figures."""
        with self._using:
            computed = self._computed
            if computed is None or not self._write_computed():
                return {}  # nothing computed, or another process wrote the graph since
        update = computed.update
        return {"files_resolved": update.resolved, "variants_stored": len(update.created)}

    def _write_computed(self) -> Meta:
        """Write the update `compute` made (the meta it recorded); dropped, with the warm
        builder, when another process wrote the graph since (its edges are the store's)."""
        computed, self._computed = self._computed, None
        if computed is None:
            return {}
        if self.store.meta().get("graph_epoch", "") != computed.epoch:
            self._builder = None
            return {}
        try:
            self._write_edges(computed.update.edges)
            self._write_variants(computed.update.created)
            state = self._state(computed.snapshot)
            self.store.set_meta(state)
        except BaseException:
            self._builder = None  # the store may have part of it: load what it has
            raise
        return state

    def _update(
        self,
        meta: Meta,
        indexed: dict[str, str],
        removed: Iterable[str],
        layout: str,
        tally: Tally,
        stop: Callable[[], bool] | None,
    ) -> tuple[Meta, dict[str, Any]]:
        if layout != self._layout:
            self._builder, self._layout = None, layout
            self.close()  # Jedi's sys.path follows the layout
        if self._warm(meta):
            self._note(indexed, removed)
        else:
            self._files = self._catalog_files()
        config = self._config()
        done = snapshot(self._files, config)
        if _current(meta, done):
            return {}, {}
        if self._warm(meta):
            assert self._builder is not None
            update, (added, gone) = self._apply(self._builder, config, tally, stop)
        else:
            update, (added, gone) = self._load(meta, config, tally, stop)
        figures = {
            "edges": self._builder.edge_count() if self._builder else 0,
            "added": added,
            "removed": gone,
            "files_resolved": update.resolved,
            "variants_stored": len(update.created),
            "rounds": update.rounds,
            "fast_s": round(update.fast_seconds, 3),
            "unparsed": update.broken,
        }
        return self._state(done), figures

    def defer(self, indexed: dict[str, str], removed: Iterable[str]) -> None:
        """Files a run wrote without bringing their edges in step: the next `update` does.
        A warm builder notes them now; a cold one reads the catalog, which has them."""
        if self._builder is None:
            return
        self._note(indexed, removed)

    def _note(self, indexed: dict[str, str], removed: Iterable[str]) -> None:
        """Bring the graph files in step with a run's; an edit can take a script out of
        the graph (its `#!` line gone) as well as bring one in."""
        for path, content in indexed.items():
            if in_graph(self.root, path):
                self._files[path] = content
            else:
                self._files.pop(path, None)
        for path in removed:
            self._files.pop(path, None)

    def builder(self, meta: Meta) -> GraphBuilder:
        """The warm builder, or a cold one loaded from the store (when this process never
        built one, or another process wrote the graph since)."""
        with self._using:
            meta = {**meta, **self._write_computed()}
            if not self._warm(meta):
                self._layout = meta.get("graph_layout", "")  # as the run that stored it had it
                self._files = self._catalog_files()
                self._load(meta, self._config(), Tally())
            assert self._builder is not None
            return self._builder

    def _config(self) -> str:
        """What resolution depends on besides the files' content: project files (tsconfig,
        go.mod, …) and the package layout of the module names."""
        return config_fingerprint(self.root, self._files) + "|" + sha1(self._layout)

    def _warm(self, meta: Meta) -> bool:
        return (
            self._builder is not None
            and meta.get("graph_epoch") == self._epoch
            and meta.get("graph_layout", "") == self._layout
        )

    def _load(
        self, meta: Meta, config: str, tally: Tally, stop: Callable[[], bool] | None = None
    ) -> tuple[GraphUpdate, tuple[int, int]]:
        """A cold builder from the stored derivations and edges, brought up to date (what
        the stored ones still cover is reused, the rest re-derived) and stored. It starts
        from the last used derivation of each file and loads the rest only when one of
        those no longer holds (decoding all of them was 0.63 s of a one-file CLI run on
        flask: 533 derivations of 83 files)."""
        if meta.get("graph") != GRAPH_VERSION or meta.get("graph_layout", "") != self._layout:
            self.store.drop_graph_states()  # derivations name modules under another layout
        contents = {f"{p}|{h}": (p, h) for p, h in self._files.items()}  # the stored keys
        names = ModuleNames.on_disk(self.root)
        listed = self.store.graph_state_listing(contents)
        stored = map(decode_variant, self.store.graph_states_by_id(i[0] for i in listed.values()))
        rest = [i for ids in listed.values() for i in ids[1:]]
        more = MoreVariants(
            frozenset(contents[k] for k, ids in listed.items() if len(ids) > 1),
            frozenset(contents[k] for k in listed),
            lambda: map(decode_variant, self.store.graph_states_by_id(rest)),
        )
        builder = GraphBuilder(self.root, stored, names, more)
        builder.load(
            (Edge(r["src"], r["dst"], r["kind"], r["path"], r["line"]), r["resolver"])
            for r in self.store.live_edges()
        )
        self._builder = builder
        return self._apply(builder, config, tally, stop)

    def _apply(
        self,
        builder: GraphBuilder,
        config: str,
        tally: Tally,
        stop: Callable[[], bool] | None = None,
    ) -> tuple[GraphUpdate, tuple[int, int]]:
        """Update and store; the update and the edges (added, removed)."""
        update = builder.update(self._files, config, tally, stop)
        written = self._write_edges(update.edges)
        self._write_variants(update.created)
        self.store.touch_graph_states(update.revived)  # the last used come first next time
        return update, written

    def _catalog_files(self) -> dict[str, str]:
        """The indexed graph files, by the language the scan gave each (`language_at`, kept
        in the catalog): no file is opened again to read its `#!` line."""
        return {
            p: r.file_hash
            for p, r in self.store.catalog().items()
            if r.status == "indexed" and r.language in GRAPH_LANGUAGES
        }

    def _state(self, snapshot_hash: str) -> Meta:
        assert self._builder is not None
        return {
            "graph": GRAPH_VERSION,
            "graph_snapshot": snapshot_hash,
            "graph_epoch": self._epoch,
            "graph_layout": self._layout,
            "jedi_pending": str(len(self._builder.pending()) if self.settings.jedi else 0),
        }

    def _write_edges(self, edges: dict[str, list[Resolved]]) -> tuple[int, int]:
        """Store these files' edges, one commit."""
        rows = [_edge_row(e, resolver) for items in edges.values() for e, resolver in items]
        if not edges:
            return 0, 0
        self._epoch = uuid.uuid4().hex
        return self.store.replace_edges(rows, set(edges))

    def _write_variants(self, variants: Iterable[Variant]) -> None:
        self.store.write_graph_states(
            [(v.id, v.path, v.file_hash, encode_variant(v)) for v in variants]
        )

    def prune(self) -> int:
        """Forget old derivations beyond VARIANTS_STORED per file (maintenance)."""
        with self._using:
            self._write_computed()
            builder = self._builder
            current = set() if builder is None else {v.id for v in builder.fast.current.values()}
        return self.store.prune_graph_states(VARIANTS_STORED, current)

    # -- Jedi -------------------------------------------------------------------------------

    def refine(
        self,
        meta: Meta,
        progress: Progress | None = None,
        cancelled: Callable[[], bool] | None = None,
        lock: Callable[[], AbstractContextManager[Any]] | None = None,
    ) -> tuple[Meta, dict[str, Any]]:
        """Jedi for the files waiting for it, stored every few seconds; the meta left to
        record and the figures. Stops early (what is done is kept) when `cancelled`. With
        `lock`, the caller does not hold the index: Jedi thinks without it and each store
        takes it (with the meta as it is by then)."""
        started = time.perf_counter()
        stored, timed_out, total = 0, [], 0
        state: Meta = {}

        def store(results: list[JediResult]) -> int:
            if lock is None:
                found, count = self.apply_jedi({**meta, **state}, results)
            else:
                with lock():
                    found, count = self.apply_jedi(self.store.meta(), results)
            state.update(found)
            return count

        while True:
            jobs = self._locked_jobs(meta, state, lock)
            if not jobs:
                break
            total += len(jobs)
            results: list[JediResult] = []
            last_write, before = time.perf_counter(), stored
            for number, job in enumerate(jobs, 1):
                if cancelled is not None and cancelled():
                    break
                results.append(self.jedi_worker().resolve(job))
                if results[-1].timed_out:
                    timed_out.append(job.path)
                if progress:
                    progress(number, len(jobs), job.path)
                if time.perf_counter() - last_write >= JEDI_WRITE_EVERY_S:
                    stored += store(results)
                    results, last_write = [], time.perf_counter()
            stored += store(results)
            if stored == before or (cancelled is not None and cancelled()):
                break  # nothing could be stored (files changed meanwhile), or told to stop
        figures = {
            "jedi_files": total,
            "jedi_s": round(time.perf_counter() - started, 3),
            "jedi_timed_out": sorted(set(timed_out)),
            "jedi_pending": int(state.get("jedi_pending", "0")),
        }
        return state, figures

    def _locked_jobs(
        self, meta: Meta, state: Meta, lock: Callable[[], AbstractContextManager[Any]] | None
    ) -> list[JediJob]:
        if lock is None:
            return self.jedi_jobs({**meta, **state})
        with lock():
            return self.jedi_jobs(self.store.meta())

    def jedi_jobs(self, meta: Meta) -> list[JediJob]:
        """One job per file waiting for Jedi, with the file's text as it is now and the call
        sites the fast resolver already answered (Jedi need not infer those)."""
        if not self.settings.jedi:
            return []
        builder = self.builder(meta)
        jobs = []
        for variant in builder.pending():
            try:
                data = (self.root / variant.path).read_bytes()
                source = decode_text(variant.path, data)
            except (OSError, ValueError):
                continue  # gone or unreadable: the next index run drops or skips it
            if gitrepo.blob_id(data) != variant.file_hash:
                continue  # changed since it was indexed: the next run re-derives it
            skip = frozenset(builder.resolved_sites(variant.path))
            jobs.append(JediJob(variant.path, source, variant.id, skip))
        return jobs

    def apply_jedi(self, meta: Meta, results: list[JediResult]) -> tuple[Meta, int]:
        """Store Jedi's answers for files whose derivation is still the one Jedi worked
        for; the meta it recorded and how many files it stored."""
        with self._using:
            builder = self.builder(meta)
            variants: list[Variant] = []
            edges: dict[str, list[Resolved]] = {}
            for result in results:
                refined = builder.refine(
                    result.path, result.variant, result.edges, result.timed_out
                )
                if refined is not None:
                    variants.append(refined[0])
                    edges[result.path] = refined[1]
            self._write_edges(edges)
            self._write_variants(variants)
            state = {"graph_epoch": self._epoch, "jedi_pending": str(len(builder.pending()))}
            self.store.set_meta(state)
            return state, len(variants)

    def jedi_worker(self) -> JediWorker:
        """One warm Jedi child per workspace: its module cache makes re-checks fast."""
        if self._jedi is None:
            names = self._builder.fast.index.names if self._builder else None
            roots = names.layout.import_roots() if names and names.layout else set()
            self._jedi = JediWorker(self.root, JEDI_TIME_LIMIT_S, JEDI_DEADLINE_S, roots)
        return self._jedi

    def close(self, final: bool = False) -> None:
        """Stop the Jedi child (a later pass starts another), or `final`ly: no pass of
        this process starts one again."""
        if final:
            self.jedi_worker().retire()
        elif self._jedi is not None:
            self._jedi.close()


def _edge_row(edge: Edge, resolver: str) -> dict[str, Any]:
    key = f"{edge.path}|{edge.src}|{edge.dst}|{edge.kind}|{edge.line}"
    return {
        "id": sha1(key),
        "src": edge.src,
        "dst": edge.dst,
        "kind": edge.kind,
        "path": edge.path,
        "line": edge.line,
        "resolver": resolver,
        "deleted": False,
    }
