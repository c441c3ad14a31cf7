"""How far the index is behind the disk (git HEAD is compared too once it is recorded)."""

from __future__ import annotations

from pathlib import Path

from codekith.config import Settings
from codekith.store import FileRecord
from codekith.workspace import scan


def stale_files(root: Path, settings: Settings, catalog: dict[str, FileRecord]) -> list[str]:
    """Files whose size or mtime differs from the catalog, new files, and vanished ones."""
    stale = []
    seen = set()
    for candidate in scan(root, settings):
        seen.add(candidate.path)
        old = catalog.get(candidate.path)
        if old is None:
            if candidate.reason is None:
                stale.append(candidate.path)
        elif (old.size, old.mtime_ns) != (candidate.size, candidate.mtime_ns):
            stale.append(candidate.path)
    stale.extend(p for p in catalog if p not in seen)
    return sorted(stale)
