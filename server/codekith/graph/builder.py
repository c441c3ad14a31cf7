"""A workspace's edges: the fast resolver's (kept exact by `incremental`) merged with Jedi's.

The builder holds every file's edges in memory between updates, so a long-lived process
never reads them back; a short-lived one starts from the stored edges and the stored
per-file derivations, and re-resolves only what a change can reach.

Jedi is slow, so it is a separate step (`refine`) that runs after the fast edges are
stored, on the files whose derivation has no Jedi answer yet. Until then a file whose
content is unchanged keeps the Jedi edges of its previous derivation (where the fast
resolver leaves the call site open); a changed file has none.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from codekith.graph.incremental import FastGraph, MoreVariants, Variant
from codekith.graph.index import split_python
from codekith.graph.merge import call_sites, merge_edges
from codekith.graph.model import Edge
from codekith.graph.syntax_engine import SyntaxIndex
from codekith.memory import cycle_collector_paused
from codekith.progress import Tally
from codekith.qualnames import ModuleNames

Resolved = tuple[Edge, str]  # an edge and its resolver: fast | jedi
JEDI_RETRIES = 3  # Jedi passes that time out before a file keeps its partial answer


@dataclass
class GraphUpdate:
    edges: dict[str, list[Resolved]]  # the new edges of every file whose edges changed
    created: list[Variant]  # derivations to store
    resolved: int  # files with fast results computed afresh (the others were reused)
    rounds: int
    fast_seconds: float
    broken: list[str] = field(default_factory=list)
    revived: list[str] = field(default_factory=list)  # stored derivations used again (ids)
    syntax_resolved: int = 0  # tree-sitter-language files resolved again


class GraphBuilder:
    def __init__(
        self,
        root: Path,
        pool: Iterable[Variant] = (),
        names: ModuleNames | None = None,
        more: MoreVariants | None = None,
    ) -> None:
        """`names`: the module names the chunks carry (qualnames.ModuleNames); `pool` and
        `more`: kept variants, as `FastGraph` takes them."""
        self.root = root
        self.fast = FastGraph(root, pool, names, more)
        self.edges: dict[str, set[Resolved]] = {}
        self._syntax: dict[str, str] | None = None  # the other languages' files, last resolved
        self._config = ""
        self._index: SyntaxIndex | None = None  # their parsed facts and what each file's
        # resolution read, kept between updates

    def load(self, stored: Iterable[Resolved]) -> None:
        """The edges the store holds (a cold start): updates write only what differs."""
        self.edges = {}
        for edge, resolver in stored:
            self.edges.setdefault(edge.path, set()).add((edge, resolver))

    def update(
        self,
        files: dict[str, str],
        config: str = "",
        tally: Tally | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> GraphUpdate:
        """Edges after the graph files became `files` (path -> content hash); `config` is
        the fingerprint of the project files the other languages' imports depend on.
        `tally` counts the files as they are parsed, resolved and finished; `stop` may end
        the Python files' update early (UpdateYielded, nothing changed here)."""
        started = time.perf_counter()
        counted = tally or Tally()
        python_paths, other_paths = split_python(self.root, files)
        others = {p: files[p] for p in other_paths}
        if self._syntax != others or self._config != config:
            counted.expect(2 * len(others))  # parsed (at most) and resolved
        python = {p: files[p] for p in python_paths}
        with cycle_collector_paused():
            chosen = self.fast.update(python, tally=counted, stop=stop)
            syntax = self._other_languages(others, config, counted)
        changed = {p: self._merged(v) for p, v in chosen.items()}
        changed.update(syntax)
        changed = {p: e for p, e in changed.items() if set(e) != self.edges.get(p, set())}
        changed.update({p: [] for p in set(self.edges) - set(files)})
        for path, edges in changed.items():
            self._store(path, edges)
        return GraphUpdate(
            changed,
            list(self.fast.created),
            len(self.fast.resolved),
            self.fast.rounds,
            time.perf_counter() - started,
            self.fast.broken(),
            sorted(self.fast.revived),
            len(syntax),
        )

    def _other_languages(
        self, files: dict[str, str], config: str, tally: Tally
    ) -> dict[str, list[Resolved]]:
        """The tree-sitter languages' edges of every file that a change can reach: the
        changed files and those whose last resolution read what changed (`reads`). Only
        the changed files are parsed again: a file's facts depend on its content alone."""
        if self._syntax == files and self._config == config:
            return {}
        before = self._syntax or {}
        counted_before = tally.done
        if self._index is None or self._config != config:
            self._index = SyntaxIndex(self.root, sorted(files), loaded=tally.step)
            dirty = set(files)
        else:
            dirty = self._reparse(self._index, before, files, tally)
        tally.expect(tally.done - counted_before - len(files))  # unchanged files: no parse
        tally.expect(len(dirty) - len(files))  # files nothing reached: not resolved
        self._syntax, self._config = dict(files), config
        resolved: dict[str, list[Resolved]] = {}
        for path in sorted(dirty):
            resolved[path] = [(e, "fast") for e in self._index.resolve(path)]
            tally.step(path)
        return resolved

    def _reparse(
        self, index: SyntaxIndex, before: dict[str, str], files: dict[str, str], tally: Tally
    ) -> set[str]:
        """Parse the changed files again; the files to resolve again."""
        changed: set[int] = set()
        for path in sorted(set(before) - set(files)):
            changed |= index.remove(path)
        edited = [p for p in sorted(files) if before.get(p) != files[p]]
        for path in edited:
            changed |= index.update(path)
            tally.step(path)
        return (index.readers(changed) | set(edited)) & set(files)

    def pending(self) -> list[Variant]:
        """Resolved files Jedi has not answered for yet."""
        return [v for _, v in sorted(self.fast.current.items()) if v.rounds and v.jedi is None]

    def refine(
        self, path: str, variant_id: str, jedi: list[Edge], timed_out: bool
    ) -> tuple[Variant, list[Resolved]] | None:
        """Record Jedi's answer for the file's derivation `variant_id` (None when the file
        has another derivation by now): the derivation to store and the file's new edges.
        A timed-out answer counts only after JEDI_RETRIES attempts; until then the file
        stays pending."""
        variant = self.fast.current.get(path)
        if variant is None or variant.id != variant_id or variant.jedi is not None:
            return None
        if timed_out:
            variant.jedi_attempts += 1
        if not timed_out or variant.jedi_attempts >= JEDI_RETRIES:
            variant.jedi = jedi
        edges = self._merged(variant)
        self._store(path, edges)
        return variant, edges

    def resolved_sites(self, path: str) -> set[tuple[str, int]]:
        """(caller, line) of the call sites the fast resolver resolved in `path`: Jedi's
        answers there would be dropped by the merge, so Jedi need not look at them."""
        variant = self.fast.current.get(path)
        return call_sites(variant.edges) if variant is not None else set()

    def edge_count(self) -> int:
        return sum(len(edges) for edges in self.edges.values())

    def _merged(self, variant: Variant) -> list[Resolved]:
        fast = set(variant.edges)
        merged = merge_edges(variant.edges, variant.jedi_edges())
        return [(e, "fast" if e in fast else "jedi") for e in merged]

    def _store(self, path: str, edges: list[Resolved]) -> None:
        if edges:
            self.edges[path] = set(edges)
        else:
            self.edges.pop(path, None)
