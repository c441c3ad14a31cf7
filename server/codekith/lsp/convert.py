"""Domain objects <-> LSP types and JSON shapes; no behaviour, only conversion."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from codekith.answers import Lens
from codekith.indexer import IndexReport
from codekith.qualnames import accessor_of
from codekith.workspace import relative_path

SYMBOL_KINDS = {
    "module": types.SymbolKind.Module,
    "class": types.SymbolKind.Class,
    "function": types.SymbolKind.Function,
    "method": types.SymbolKind.Method,
    "section": types.SymbolKind.String,
}


def path_of(root: Path, uri: str) -> str:
    """Workspace-relative POSIX path of a file URI; OutsideWorkspaceError otherwise."""
    fs_path = to_fs_path(uri) if uri.startswith("file:") else None
    if fs_path is None:
        from codekith.workspace import OutsideWorkspaceError

        raise OutsideWorkspaceError(f"not a file URI: {uri}")
    return relative_path(root, fs_path)


def uri_of(root: Path, path: str) -> str:
    return from_fs_path(str(root / path)) or ""


def line_range(start_line: int, end_line: int) -> types.Range:
    """1-based inclusive lines -> an LSP range covering them."""
    return types.Range(
        types.Position(max(start_line - 1, 0), 0), types.Position(max(end_line, 1), 0)
    )


def hit_json(item: dict[str, Any], root: Path, dirty: set[str]) -> dict[str, Any]:
    """An answer's hit or bundle item plus `uri` and `dirty` (an unsaved buffer)."""
    return {**item, "uri": uri_of(root, item["path"]), "dirty": item["path"] in dirty}


def symbol_information(row: dict[str, Any], root: Path) -> types.SymbolInformation:
    return types.SymbolInformation(
        name=row["symbol"],
        kind=SYMBOL_KINDS.get(row["kind"], types.SymbolKind.Variable),
        location=types.Location(
            uri_of(root, row["path"]), line_range(row["start_line"], row["end_line"])
        ),
        container_name=row.get("parent") or row["qualname"].rsplit(".", 1)[0],
    )


def call_item(row: dict[str, Any], root: Path) -> types.CallHierarchyItem:
    full = line_range(row["start_line"], row["end_line"])
    first = line_range(row["start_line"], row["start_line"])
    return types.CallHierarchyItem(
        name=row["symbol"],
        kind=SYMBOL_KINDS.get(row["kind"], types.SymbolKind.Function),
        uri=uri_of(root, row["path"]),
        range=full,
        selection_range=types.Range(first.start, types.Position(first.start.line, 0)),
        detail=row["qualname"],
        data={"qualname": row["qualname"], "accessor": accessor_of(row), "root": str(root)},
    )


def edge_ranges(lines: list[int]) -> list[types.Range]:
    return [
        types.Range(types.Position(line - 1, 0), types.Position(line - 1, 0))
        for line in sorted(set(lines))
    ]


def code_lens(lens: Lens, uri: str) -> types.CodeLens:
    """`N callers · M callees · related` above a definition; the command relates it."""
    line = lens.row["start_line"] - 1
    command = types.Command(
        title=f"{_counted(lens.callers, 'caller')} · {_counted(lens.callees, 'callee')} · related",
        command="codekith.related",
        arguments=[{"uri": uri, "position": {"line": line, "character": 0}}],
    )
    return types.CodeLens(range=line_range(line + 1, line + 1), command=command)


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def indexed_params(root: Path, report: IndexReport) -> dict[str, Any]:
    """`codekith/indexed`: what a finished run made searchable (and removed) in a folder."""
    return {
        "root": root.as_uri(),
        "indexed": [uri_of(root, path) for path in sorted(report.indexed)],
        "deleted": [uri_of(root, path) for path in sorted(report.deleted)],
        "chunks": report.chunks_total,
    }
