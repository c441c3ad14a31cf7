"""How far the index is behind git and the disk: the freshness contract of every answer.

An answer is fresh only when HEAD is the commit the index was built at and no indexed file
differs (size or mtime) from what was indexed. With git, only the files git reports as
changed are stat-ed; without it, every file is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from codekith import gitrepo
from codekith.config import Settings
from codekith.store import FileRecord, Store
from codekith.workspace import scan


@dataclass
class Freshness:
    index_head: str
    head: str
    stale: list[str] = field(default_factory=list)
    dirty: list[str] = field(default_factory=list)

    @property
    def fresh(self) -> bool:
        return not self.stale and self.head == self.index_head

    @cached_property
    def _stale_set(self) -> frozenset[str]:
        return frozenset(self.stale)

    def mark(self, item: dict[str, Any]) -> dict[str, Any]:
        """An answer item (a hit, a bundle item) with `stale`: its file changed since
        indexing. The one place items get marked."""
        return {**item, "stale": item["path"] in self._stale_set}

    def to_json(self) -> dict[str, Any]:
        return {
            "index_head": self.index_head,
            "head": self.head,
            "fresh": self.fresh,
            "stale": self.stale,
            "dirty": self.dirty,
        }


def check(
    root: Path, settings: Settings, store: Store, dirty_buffers: set[str] | None = None
) -> Freshness:
    """Compare the catalog with the workspace; `dirty_buffers` are unsaved editor files."""
    meta, catalog = store.meta_and_catalog()
    index_head = meta.get("head", "")
    head = gitrepo.head(root) or ""
    only: set[str] | None = None
    if index_head and meta.get("scan_settings") == settings.scan_fingerprint():
        changed = gitrepo.changes_since(root, index_head, head)
        if changed is not None:
            only = changed | set(json.loads(meta.get("dirty", "[]")))
    if only is not None:
        only |= diverged_from_head(root, catalog, head)
    stale: set[str] = set()
    seen: set[str] = set()
    for candidate in scan(root, settings, only):
        seen.add(candidate.path)
        old = catalog.get(candidate.path)
        if old is None:
            if candidate.reason is None:
                stale.add(candidate.path)
        elif (old.size, old.mtime_ns) != (candidate.size, candidate.mtime_ns):
            stale.add(candidate.path)
    scope = set(catalog) if only is None else only & set(catalog)
    stale |= scope - seen
    return Freshness(index_head, head, sorted(stale), sorted(dirty_buffers or ()))


def diverged_from_head(
    root: Path, catalog: dict[str, FileRecord], head: str | None = None
) -> set[str]:
    """Catalogued files whose indexed content is not HEAD's (`head`, when known): dirty
    files, and files reverted behind the index's back (a run recorded the edit, no run saw
    the `git checkout --`)."""
    blobs = gitrepo.head_blobs(root, head or None)
    if blobs is None:
        return set()
    return {
        path
        for path, record in catalog.items()
        if record.file_hash and path in blobs and blobs[path] != record.file_hash
    }
