"""The fast resolver over a whole workspace, recomputing only what a change can reach.

The computation is defined per file, so that a fresh build and an update agree exactly:

    world_0 is empty;
    in round r every file F yields flow_r(F) (the values its calls pass to parameters)
    and bases_r(F) (its share of the class hierarchy), evaluated against world_{r-1};
    world_r joins them (files in path order); rounds stop once the world stops changing,
    or after ROUNDS;
    edges(F) are resolved against the last world.

Every per-file result is kept with the `Reads` it made, and is reused wherever those reads
still hold: the files it used have the same content or, where it read no more of them than
their interface (`interface`), the same interface; every module and qualified name it
looked up resolves to the same files, and every workspace-wide answer it got (has_module,
parameter values, subclasses) is the same. Recomputing it would then give the same
answer, so an update equals a fresh build. A result reused although a file it used changed
(outside its interface) is recorded again with that file's new content, which is what
recomputing it would record.

A file's results form a `Variant`: one derivation for one content, valid wherever its
reads hold. Several variants of a file are kept (a pool, persisted by the caller), so that
switching back to a branch, or undoing an edit, finds the old derivations still valid and
recomputes nothing; a variant also carries Jedi's edges once they are known.
"""

from __future__ import annotations

import json
import uuid
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from codekith.graph.fast import (
    EMPTY,
    Evaluator,
    ModuleIndex,
    ParamKey,
    Reads,
    Value,
    Values,
    World,
    descendants,
    resolve_file,
)
from codekith.graph.model import Edge
from codekith.progress import Tally
from codekith.qualnames import ModuleNames

ROUNDS = 8
VARIANTS_KEPT = 4  # per file, in memory (the store keeps its own count)


class UpdateYielded(Exception):
    """An update stopped between files (of a round, or while resolving edges) because
    `stop()` turned true. Nothing it computed was kept as a result: the next update starts
    over (and reuses the rounds that still hold), so it equals an update that never
    stopped."""


@dataclass
class RoundResult:
    flow: dict[ParamKey, Values]
    bases: dict[str, tuple[str, ...]]
    reads: Reads


@dataclass
class Variant:
    """One derivation of one file's graph facts, for one content of the file."""

    path: str
    file_hash: str
    defines: frozenset[str] | None  # None: the file does not parse
    rounds: list[RoundResult] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    edge_reads: Reads | None = None
    jedi: list[Edge] | None = None  # Jedi's call edges; None until refined
    provisional: list[Edge] = field(default_factory=list)  # Jedi's edges of an older variant
    jedi_attempts: int = 0  # Jedi passes that timed out
    id: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def parsed(self) -> bool:
        return self.defines is not None

    def jedi_edges(self) -> list[Edge]:
        return self.jedi if self.jedi is not None else self.provisional


@dataclass(frozen=True)
class MoreVariants:
    """Kept variants a pool starts without: the contents (path, content hash) that have
    some, every content that has any kept, and how to load them all at once."""

    contents: frozenset[tuple[str, str]]
    kept: frozenset[tuple[str, str]]
    load: Callable[[], Iterable[Variant]]


class FastGraph:
    def __init__(
        self,
        root: Path,
        pool: Iterable[Variant] = (),
        names: ModuleNames | None = None,
        more: MoreVariants | None = None,
    ) -> None:
        """`pool`: kept variants to start from. `more`: the rest of the kept variants, loaded
        once, when none of a file's variants in the pool still holds and more of its content
        are kept (a cold start loads the last used variant of each file; the others are for
        switching back)."""
        self.root = root
        self._more = more
        self._late: set[str] = set()  # ids of the variants `more` gave
        self.revived: set[str] = set()  # ids of those the last update chose first
        self.index = ModuleIndex(root, names=names)
        self.current: dict[str, Variant] = {}
        self.pool: dict[str, list[Variant]] = {}  # path -> variants, newest first
        self.created: list[Variant] = []  # variants made by the last update
        self.rounds = 0
        self.recomputed = 0  # per-file results computed (not reused) by the last update
        self.resolved: set[str] = set()  # files with any result computed by the last update
        self._hashes: dict[str, str] = {}
        self._cache: dict[tuple[str, str], object] = {}
        self._descendants: dict[str, tuple[str, ...]] = {}
        self.add_variants(pool)

    def add_variants(self, variants: Iterable[Variant]) -> None:
        for variant in variants:
            kept = self.pool.setdefault(variant.path, [])
            if all(v.id != variant.id for v in kept):
                kept.append(variant)

    def update(
        self,
        files: dict[str, str],
        sources: dict[str, str] | None = None,
        tally: Tally | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> dict[str, Variant]:
        """Bring the graph to `files` (path -> content hash; `sources` may give unsaved
        text, whose hash must differ from any other content's). Returns every file's
        variant; `created` lists the ones this update made. `tally` counts a step per file
        of each round and per file finished. UpdateYielded when `stop()` turns true (checked
        before each file of a round and before each file's edges)."""
        counted = tally or Tally()
        self._sync(files, sources or {})
        self.created, self.recomputed, self._cache = [], 0, {}
        self.resolved = set()
        working = {p: Variant(p, h, self.index.defines(p)) for p, h in sorted(files.items())}
        owned = [p for p in working if self.index.owns(p)]
        counted.expect(len(working))
        stop = stop or (lambda: False)
        world = self._rounds(working, owned, counted, stop)
        self._descendants = {}
        chosen: dict[str, Variant] = {}
        for path, variant in working.items():
            if stop():
                self._forget_created()
                raise UpdateYielded
            chosen[path] = self._finish(variant, path in owned, world)
            counted.step(path)
        self.current = chosen
        self.revived = {v.id for v in chosen.values() if v.id in self._late}
        self._late -= self.revived  # told once: a long-lived graph's later updates repeat none
        return chosen

    def broken(self) -> list[str]:
        """Files that do not parse."""
        return sorted(p for p, v in self.current.items() if not v.parsed)

    def all_edges(self) -> list[Edge]:
        return [e for path in sorted(self.current) for e in self.current[path].edges]

    def qualnames(self) -> set[str]:
        return self.index.qualnames()

    # -- steps ------------------------------------------------------------------------------

    def _sync(self, files: dict[str, str], sources: dict[str, str]) -> None:
        """Tell the index which files exist now, what their content is, and what is known
        about each content already (so that checking old results parses nothing)."""
        for path in set(self._hashes) - set(files):
            self.index.remove(path)
        for path, file_hash in files.items():
            if self._hashes.get(path) != file_hash or path in sources:
                self.index.add(path, sources.get(path))
                known = next((v for v in self.pool.get(path, []) if v.file_hash == file_hash), None)
                if known is not None and path not in sources:
                    self.index.know(path, known.defines)
        self._hashes = dict(files)

    def _rounds(
        self,
        working: dict[str, Variant],
        owned: list[str],
        tally: Tally,
        stop: Callable[[], bool],
    ) -> World:
        """Rounds until one changes nothing; the tally expects one round more than those
        run so far (the round that finds nothing changed), up to ROUNDS."""
        world = World()
        planned = min(2, ROUNDS)
        tally.expect(planned * len(owned))
        for number in range(1, ROUNDS + 1):
            self._descendants = {}
            results: dict[str, RoundResult] = {}
            for path in owned:
                if stop():
                    raise UpdateYielded
                results[path] = self._round(working[path], number, world)
                tally.step(path)
            for path, result in results.items():
                working[path].rounds.append(result)
            self.rounds = number
            joined = _join(results.values())
            if joined == world:
                tally.expect(-(planned - number) * len(owned))
                break
            if number == planned < ROUNDS:
                planned += 1
                tally.expect(len(owned))
            world = joined
        return world

    def _round(self, variant: Variant, number: int, world: World) -> RoundResult:
        """This round's result for one file: the previous round's or a kept one when still
        valid, else evaluated afresh."""
        candidates = variant.rounds[-1:] + [
            kept.rounds[min(number, len(kept.rounds)) - 1]
            for kept in self._kept(variant)
            if kept.rounds
        ]
        for candidate in candidates:
            reads = self._current(candidate.reads, world)
            if reads is candidate.reads:
                return candidate
            if reads is not None:
                return RoundResult(candidate.flow, candidate.bases, reads)
        if self._load_more(variant):
            return self._round(variant, number, world)
        self.recomputed += 1
        self.resolved.add(variant.path)
        evaluator = Evaluator(self.index, world)
        flow = evaluator.file_flow(variant.path)
        bases = evaluator.file_bases(variant.path)
        return RoundResult(flow, bases, self._hashed(evaluator.reads, variant.path, flow))

    def _finish(self, variant: Variant, owned: bool, world: World) -> Variant:
        """The file's variant: a kept one that this update reproduced exactly, or the
        working one with its edges resolved (or reused) and added to the pool."""
        kept_edges, edge_reads = self._kept_edges(variant, world)
        if kept_edges is None and self._load_more(variant):
            kept_edges, edge_reads = self._kept_edges(variant, world)
        if not owned:
            variant.rounds = []
        elif kept_edges is not None:
            variant.edges, variant.edge_reads = kept_edges.edges, edge_reads
        else:
            edges, reads = resolve_file(self.index, variant.path, world)
            variant.edges, variant.edge_reads = edges, self._hashed(reads, variant.path)
            self.recomputed += 1
            self.resolved.add(variant.path)
        same = self._kept_same(variant)
        # the same derivation kept already (not loaded yet) carries Jedi's edges
        if same is None and self._may_be_kept(variant) and self._load_more(variant):
            same = self._kept_same(variant)
        if same is not None:
            return same
        # Jedi's answers go with edges whose reads are unchanged to the byte: Jedi reads
        # more of the files than their interface
        if kept_edges is not None and variant.edge_reads is kept_edges.edge_reads:
            variant.jedi, variant.jedi_attempts = kept_edges.jedi, kept_edges.jedi_attempts
        previous = self.current.get(variant.path)
        if (
            variant.jedi is None
            and previous is not None
            and previous.file_hash == variant.file_hash
        ):
            variant.provisional = previous.jedi_edges()
        self._remember(variant)
        return variant

    def _forget_created(self) -> None:
        """Take this update's new variants out of the pool: a yielded update stores none,
        so the next one must make (and its caller store) them again."""
        made = {v.id for v in self.created}
        for variants in self.pool.values():
            variants[:] = [v for v in variants if v.id not in made]
        self.created = []

    def _kept(self, variant: Variant) -> list[Variant]:
        return [v for v in self.pool.get(variant.path, []) if v.file_hash == variant.file_hash]

    def _kept_same(self, variant: Variant) -> Variant | None:
        """A kept variant this update reproduced exactly."""
        return next((kept for kept in self._kept(variant) if _same(kept, variant)), None)

    def _kept_edges(self, variant: Variant, world: World) -> tuple[Variant | None, Reads | None]:
        """A kept variant whose edges still hold, and their reads as they are now."""
        for kept in self._kept(variant):
            if kept.edge_reads is not None:
                edge_reads = self._current(kept.edge_reads, world)
                if edge_reads is not None:
                    return kept, edge_reads
        return None, None

    def _may_be_kept(self, variant: Variant) -> bool:
        """Whether a kept variant not loaded yet can equal this one: only if every content
        it read has variants kept (a derivation that read a content never kept, such as a
        file just edited, was never kept either)."""
        if self._more is None:
            return False
        reads = [r.reads for r in variant.rounds] + [variant.edge_reads or Reads()]
        return all(item in self._more.kept for each in reads for item in each.files.items())

    def _load_more(self, variant: Variant) -> bool:
        """Add the rest of the kept variants to the pool (once, and only for a content that
        has more of them); whether any of this variant's content arrived."""
        if self._more is None or (variant.path, variant.file_hash) not in self._more.contents:
            return False
        more, self._more = list(self._more.load()), None
        known = {v.id for kept in self.pool.values() for v in kept}
        self._late = {v.id for v in more if v.id not in known}
        self.add_variants(more)
        return any(v.id in self._late for v in self._kept(variant))

    def _remember(self, variant: Variant) -> None:
        self.created.append(variant)
        variants = self.pool.setdefault(variant.path, [])
        variants.insert(0, variant)
        del variants[VARIANTS_KEPT:]

    def _hashed(self, reads: Reads, path: str, flow: dict[ParamKey, Values] | None = None) -> Reads:
        """Reads as kept: each file it used named with the content it had and, unless the
        result depends on more of it (its own file, `reads.texts`, or a list or dict
        literal of it in `flow`: a token carries the literal's position), its interface."""
        exact = reads.texts | {path}
        for values in (flow or {}).values():
            exact.update(v.name.split("|", 1)[0] for v in values if v.kind in ("list", "dict"))
        reads.files = {p: self._hashes.get(p, "") for p in reads.files}
        reads.interfaces = {p: self.index.interface(p) for p in reads.files if p not in exact}
        return reads

    def _current(self, reads: Reads, world: World) -> Reads | None:
        """None unless evaluating again (here, now) would read exactly what `reads` did;
        else `reads`, or when some file it used changed outside its interface, the reads
        that evaluating again would record (the files' current content)."""
        hashes = self._hashes
        changed = [path for path, file_hash in reads.files.items() if hashes.get(path) != file_hash]
        if any(path not in reads.interfaces or path not in hashes for path in changed):
            return None
        if any(self._answer("owner", m) != path for m, path in reads.modules.items()):
            return None
        if any(self._answer("holders", q) != paths for q, paths in reads.qualnames.items()):
            return None
        if any(self._answer("prefix", m) != found for m, found in reads.prefixes.items()):
            return None
        if any(world.flow.get(key, EMPTY) != values for key, values in reads.params.items()):
            return None
        for cls, subs in reads.subclasses.items():
            if cls not in self._descendants:
                self._descendants[cls] = tuple(descendants(world.derived, cls))
            if self._descendants[cls] != subs:
                return None
        # last: these parse the changed files
        if any(self.index.interface(path) != reads.interfaces[path] for path in changed):
            return None
        if not changed:
            return reads
        return replace(reads, files={path: hashes[path] for path in reads.files})

    def _answer(self, question: str, name: str) -> object:
        key = (question, name)
        if key not in self._cache:
            if question == "owner":
                self._cache[key] = self.index.owner(name)
            elif question == "holders":
                self._cache[key] = self.index.holders(name)
            else:
                self._cache[key] = self.index.has_module(name)
        return self._cache[key]


def _same(kept: Variant, variant: Variant) -> bool:
    """The working variant reproduced exactly the kept one's results. Compared by value: a
    stored variant is decoded with one object per round, while an update that reuses a
    round's result for the next round holds the same object twice (by identity, nearly
    every file of a cold run made a new variant, stored again)."""
    return (
        kept.defines == variant.defines
        and kept.rounds == variant.rounds
        and kept.edge_reads == variant.edge_reads
    )


def _join(results: Iterable[RoundResult]) -> World:
    """One round's world from its per-file results (in path order)."""
    flow: dict[ParamKey, set] = {}
    derived: dict[str, list[str]] = {}
    for result in results:
        for key, values in result.flow.items():
            flow.setdefault(key, set()).update(values)
        for cls, bases in result.bases.items():
            for base in bases:
                derived.setdefault(base, []).append(cls)
    return World({k: frozenset(v) for k, v in flow.items()}, derived)


def build_edges(root: Path, paths: Iterable[str]) -> list[Edge]:
    """Edges of every file in `paths`, resolved together so imports cross files."""
    graph = FastGraph(root)
    graph.update(dict.fromkeys(paths, ""))
    return graph.all_edges()


# -- the stored form of a variant: JSON (no pickles: an index may come from elsewhere) -------


def encode_variant(variant: Variant) -> bytes:
    def edges(items: list[Edge] | None) -> list[list[object]] | None:
        return None if items is None else [[e.src, e.dst, e.kind, e.path, e.line] for e in items]

    data = {
        "id": variant.id,
        "path": variant.path,
        "file_hash": variant.file_hash,
        "defines": None if variant.defines is None else sorted(variant.defines),
        "rounds": _rounds_json(variant.rounds),
        "edges": edges(variant.edges),
        "edge_reads": None if variant.edge_reads is None else _reads_json(variant.edge_reads),
        "jedi": edges(variant.jedi),
        "provisional": edges(variant.provisional),
        "jedi_attempts": variant.jedi_attempts,
    }
    return zlib.compress(json.dumps(data, separators=(",", ":")).encode())


def decode_variant(blob: bytes) -> Variant:
    data = json.loads(zlib.decompress(blob))

    def edges(items: list[list[object]] | None) -> list[Edge] | None:
        return None if items is None else [Edge(*item) for item in items]  # type: ignore[arg-type]

    rounds: list[RoundResult] = []
    for r in data["rounds"]:
        rounds.append(
            rounds[-1]
            if r is None
            else RoundResult(
                _flow(r["flow"]),
                {cls: tuple(bases) for cls, bases in r["bases"].items()},
                _reads(r["reads"]),
            )
        )
    return Variant(
        data["path"],
        data["file_hash"],
        None if data["defines"] is None else frozenset(data["defines"]),
        rounds,
        edges(data["edges"]) or [],
        None if data["edge_reads"] is None else _reads(data["edge_reads"]),
        edges(data["jedi"]),
        edges(data["provisional"]) or [],
        data["jedi_attempts"],
        data["id"],
    )


def _rounds_json(rounds: list[RoundResult]) -> list[dict[str, object] | None]:
    """Each round's result, or None where it equals the round before: most rounds of a file
    repeat the previous one (on flask 295 of 1014 differ), and decoding is what a cold run
    waits for."""
    items: list[dict[str, object] | None] = []
    for number, result in enumerate(rounds):
        if number and (result is rounds[number - 1] or result == rounds[number - 1]):
            items.append(None)
        else:
            reads = _reads_json(result.reads)
            items.append({"flow": _flow_json(result.flow), "bases": result.bases, "reads": reads})
    return items


def _values_json(values: Values) -> list[list[object]]:
    return sorted([v.kind, v.name, v.bound, v.wraps] for v in values)


def _values(items: list[list[object]]) -> Values:
    return frozenset(Value(str(k), str(n), bool(b), str(w)) for k, n, b, w in items)


def _flow_json(flow: dict[ParamKey, Values]) -> list[list[object]]:
    return [[qn, name, _values_json(values)] for (qn, name), values in flow.items()]


def _flow(items: list[list[object]]) -> dict[ParamKey, Values]:
    return {(str(qn), str(name)): _values(values) for qn, name, values in items}  # type: ignore[arg-type]


def _reads_json(reads: Reads) -> dict[str, object]:
    return {
        "files": reads.files,
        "modules": reads.modules,
        "qualnames": {q: list(paths) for q, paths in reads.qualnames.items()},
        "prefixes": reads.prefixes,
        "params": _flow_json(reads.params),
        "subclasses": {c: list(subs) for c, subs in reads.subclasses.items()},
        "interfaces": reads.interfaces,
    }


def _reads(data: dict[str, object]) -> Reads:
    return Reads(
        dict(data["files"]),  # type: ignore[call-overload]
        dict(data["modules"]),  # type: ignore[call-overload]
        {q: tuple(paths) for q, paths in data["qualnames"].items()},  # type: ignore[attr-defined]
        dict(data["prefixes"]),  # type: ignore[call-overload]
        _flow(data["params"]),  # type: ignore[arg-type]
        {c: tuple(subs) for c, subs in data["subclasses"].items()},  # type: ignore[attr-defined]
        # none in a variant stored before interfaces: it holds while the files are unchanged
        dict(data.get("interfaces", {})),  # type: ignore[call-overload]
    )
