"""The composition root: one workspace's settings, store, embedder, indexer and searcher.

The CLI and the language server both build a Project; nothing below it knows which.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from pathlib import Path
from typing import Any

from codekith.config import Settings, apply_overrides, load_settings
from codekith.embedding import Embedder, FastEmbedder
from codekith.indexer import Indexer
from codekith.related import Related
from codekith.search import Searcher
from codekith.store import Store


class Project:
    def __init__(
        self,
        root: Path,
        db: str | None = None,
        overrides: dict[str, Any] | None = None,
        embedder: Embedder | None = None,
    ):
        self.root = root.resolve()
        settings = load_settings(self.root)
        if overrides:
            settings = apply_overrides(settings, overrides, "options")
        if db:
            settings = dataclasses.replace(settings, db=db)
        self.settings: Settings = settings
        self._embedder = embedder

    @cached_property
    def store(self) -> Store:
        return Store(self.settings.db_location(self.root))

    def embedder(self) -> Embedder:
        """Loaded on first use: `status`, `graph` and dry runs never pay for the model."""
        if self._embedder is None:
            self._embedder = FastEmbedder(self.settings.model)
        return self._embedder

    @cached_property
    def indexer(self) -> Indexer:
        return Indexer(self.root, self.settings, self.store, self.embedder)

    @cached_property
    def searcher(self) -> Searcher:
        return Searcher(self.store, self.embedder)

    @cached_property
    def related(self) -> Related:
        return Related(self.store, self.searcher)
