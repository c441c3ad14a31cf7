"""The composition root: one workspace's settings, store, embedder, indexer and searcher.

The CLI and the language server both build a Project; nothing below it knows which.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from codekith.config import Settings, apply_overrides, load_settings
from codekith.embedding import Embedder, FastEmbedder
from codekith.layered import LayeredStore
from codekith.related import Related
from codekith.search import Searcher
from codekith.store import Store, is_uri
from codekith.workspace import WorkspaceFilter

if TYPE_CHECKING:  # loaded by the first index run: `status` and queries never need it
    from codekith.indexer import Indexer


IndexFolder = tuple[int, int] | None


class Project:
    def __init__(
        self,
        root: Path,
        db: str | None = None,
        overrides: dict[str, Any] | None = None,
        embedder: Embedder | None = None,
        embedder_factory: Callable[[str], Embedder] | None = None,
        remote_index: str | None = None,
        snapshots: bool = False,
    ):
        """`snapshots`: answer has_index, meta and freshness from the index's saved
        snapshot (Store) - for short read-only processes such as `codekith status`."""

        self.root = root.resolve()
        self._given = (overrides, db, remote_index)
        self.settings: Settings = self._read_settings()
        self._embedder = embedder
        self._embedder_lock = threading.Lock()
        self._snapshots = snapshots
        self._embedder_factory = embedder_factory or FastEmbedder

    def _read_settings(self) -> Settings:
        """The workspace's settings files under what the caller gave (options, flags)."""
        overrides, db, remote_index = self._given
        settings = load_settings(self.root)
        if overrides:
            settings = apply_overrides(settings, overrides, "options")
        if db:
            settings = dataclasses.replace(settings, db=db)
        if remote_index:
            settings = dataclasses.replace(settings, remote_index=remote_index)
        return settings

    def reopened(self) -> Project:
        """This workspace opened again, for a long-lived process: with the settings its
        files give now, over the index folder now at its place, keeping the loaded model
        while the settings name the same one."""
        overrides, db, remote_index = self._given
        again = Project(
            self.root,
            db=db,
            overrides=overrides,
            remote_index=remote_index,
            embedder_factory=self._embedder_factory,
            snapshots=self._snapshots,
        )
        if again.settings.model == self.settings.model:
            again._embedder = self._embedder
        return again

    def close_graph(self) -> None:
        """Stop the Jedi child process a run of this project started, if any: a replaced
        project's would live on beside its successor's."""
        if "indexer" in vars(self):
            self.indexer.graph.close()

    def settings_changed(self) -> bool:
        """Whether `.codekith.toml` or `[tool.codekith]` now say something else, or warn of
        something else (a long-lived process then opens a new Project)."""
        now = self._read_settings()
        return (now, now.warnings) != (self.settings, self.settings.warnings)

    @cached_property
    def store(self) -> Store:
        """The writer's connection (indexing)."""
        return self._connect()

    @cached_property
    def read_store(self) -> Store:
        """A separate connection for queries, so reads never share state with a running
        index in another thread. It creates nothing: a team index's overlay folder appears
        only when something is indexed locally."""
        return self._connect(create=False)

    def index_exists(self) -> bool:
        """False when the index folder is missing: readers then never open a store, which
        would create one (object storage: True, the store itself says what it holds). With
        a `remote-index` the published index is what must exist."""
        location = self.settings.remote_index or self.settings.db_location(self.root)
        return is_uri(location) or Path(location).is_dir()

    def index_folder(self) -> IndexFolder:
        """The local index folder's (device, inode), None while there is none (or the index
        is on object storage): a long-lived process tells by it that the folder it opened
        was deleted or replaced (`rm -rf .codekith`), and opens the new one."""
        try:
            found = os.stat(self.settings.db_location(self.root))
        except (OSError, ValueError):
            return None
        return found.st_dev, found.st_ino

    def _connect(self, create: bool = True) -> Store:
        """The index, or with `remote-index` the published index under the local overlay."""
        location = self.settings.db_location(self.root)
        options = self.settings.storage_options
        if not self.settings.remote_index:
            return Store(
                location, storage_options=options, create=create, snapshots=self._snapshots
            )
        remote = Store(self.settings.remote_index, storage_options=options, create=create)
        return LayeredStore(remote, Store(location, create=create))

    def embedder(self) -> Embedder:
        """Loaded on first use: `status`, `graph` and dry runs never pay for the model. Once:
        a language server's warm-up and a save may ask for it together."""
        with self._embedder_lock:
            if self._embedder is None:
                self._embedder = self._embedder_factory(self.settings.model)
            return self._embedder

    @cached_property
    def workspace_filter(self) -> WorkspaceFilter:
        return WorkspaceFilter(self.root, self.settings)

    @cached_property
    def indexer(self) -> Indexer:
        from codekith.indexer import Indexer

        return Indexer(self.root, self.settings, self.store, self.embedder)

    @cached_property
    def searcher(self) -> Searcher:
        return Searcher(self.read_store, self.embedder, model=self.settings.model)

    @cached_property
    def related(self) -> Related:
        return Related(self.read_store, self.searcher)
