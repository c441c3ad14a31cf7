"""The readable text of each tool answer, made from its structured content (a dict).

Assistants that read only the text get the same facts as those that read the structured
content: locations as `path:line`, ids for follow-up calls, why items are there, whether the
index is behind, and whether the answer was cut.
"""

from __future__ import annotations

from typing import Any

from codekith.related import markdown_of


def _freshness_note(data: dict[str, Any]) -> str:
    if data.get("fresh", True):
        return ""
    moved = "" if data.get("head") == data.get("index_head") else "; HEAD moved since indexing"
    shown = ", ".join(data.get("stale", [])[:10])
    more = data.get("stale_count", 0) - min(10, len(data.get("stale", [])))
    listed = f": {shown}" + (f" and {more} more" if more > 0 else "") if shown else ""
    return (
        f"\nNote: the index is behind ({data.get('stale_count', 0)} files changed on disk"
        f"{listed}{moved}); items from them are marked [stale].\n"
    )


def _cut_note(data: dict[str, Any]) -> str:
    if not data.get("truncated"):
        return ""
    return (
        f"\n(truncated to fit {data['budget_tokens']} tokens; ask for less or raise the budget)\n"
    )


def _fence(language: str, code: str) -> list[str]:
    return [f"```{language}", code, "```"]


def _stale(item: dict[str, Any]) -> str:
    return " [stale]" if item.get("stale") else ""


def search(data: dict[str, Any]) -> str:
    lines = [f"{len(data['hits'])} hits for {data['query']!r} ({data['mode']} search)."]
    lines += _hit_lines(data["hits"])
    if data.get("tests"):
        lines += ["", f"Tests, apart from the code: {len(data['tests'])}."]
        lines += _hit_lines(data["tests"])
    if data.get("docs"):
        lines += ["", f"Documentation, apart from the code: {len(data['docs'])} sections."]
        lines += _hit_lines(data["docs"])
    return "\n".join(lines) + "\n" + _freshness_note(data) + _cut_note(data)


def _hit_lines(hits: list[dict[str, Any]]) -> list[str]:
    lines: list[str] = []
    for rank, hit in enumerate(hits, 1):
        lines += [
            "",
            f"{rank}. {_repo(hit)}{hit['path']}:{hit['start_line']}-{hit['end_line']} · "
            f"{hit['kind']} {hit['qualname']} · score {hit['score']:.4f} · id {hit['id']}"
            f"{_stale(hit)}",
            *_fence(hit["language"], hit["snippet"]),
        ]
    return lines


def _repo(hit: dict[str, Any]) -> str:
    return f"{hit['repo']}: " if hit.get("repo") else ""


def related(data: dict[str, Any]) -> str:
    text = markdown_of({**data, "budget": data["budget_tokens"]})
    return text + _freshness_note(data) + _cut_note(data)


def symbols(data: dict[str, Any]) -> str:
    found = data["definitions"]
    lines = [f"{len(found)} definitions for {data['name']!r}."]
    for item in found:
        lines += [
            "",
            f"- {item['qualname']} ({item['kind']}) at {_repo(item)}{item['path']}:"
            f"{item['start_line']}-{item['end_line']} · id {item['id']}{_stale(item)}",
        ]
        if item["signature"]:
            lines.append(f"  {item['signature']}")
        if item["docstring"]:
            lines.append(f"  {item['docstring']}")
        if item.get("code") is not None:
            lines += _fence(item["language"], item["code"])
    return "\n".join(lines) + "\n" + _freshness_note(data) + _cut_note(data)


PROPERTY_ACCESS = {"read": ", reads the property", "write": ", writes the property"}


def call_graph(data: dict[str, Any]) -> str:
    lines = [
        f"Call graph of {data['qualname']} ({data['direction']}, depth {data['depth']}): "
        f"{len(data['edges'])} calls."
    ]
    for edge in data["edges"]:
        how = PROPERTY_ACCESS.get(edge["how"], "")
        lines.append(
            f"- {edge['caller']} -> {edge['callee']} at {edge['path']}:{edge['line']}"
            f" (step {edge['depth']}{how})"
        )
    if data["locations"]:
        lines += ["", "Definitions:"]
        lines += [
            f"- {name}: {where['path']}:{where['start_line']}-{where['end_line']} ({where['kind']})"
            for name, where in sorted(data["locations"].items())
        ]
    return "\n".join(lines) + "\n" + _freshness_note(data) + _cut_note(data)


def code(data: dict[str, Any]) -> str:
    state = "indexed, unchanged" if not data["changed"] else "differs from the indexed version"
    if not data["indexed"]:
        state = "not in the index yet"
    title = f"{data['path']}:{data['start_line']}-{data['end_line']} of {data['total_lines']} lines"
    lines = [f"{title} ({state})", *_fence(data["language"], data["code"])]
    if data.get("next_start_line"):
        lines.append(f"(more from line {data['next_start_line']}: call get_code again)")
    return "\n".join(lines) + "\n" + _cut_note(data)


def status(data: dict[str, Any]) -> str:
    if not data["ready"]:
        return f"No index yet at {data['root']}; the first question builds it.\n"
    lines = [
        f"Index of {data['root']}: {data['files']} files, {data['chunks']} chunks, "
        f"{data['edges']} call-graph edges; model {data['model']}.",
        f"Skipped {data['skipped_count']} files"
        + (
            ": " + ", ".join(f"{n} {r}" for r, n in sorted(data["skipped_reasons"].items()))
            if data["skipped_reasons"]
            else ""
        )
        + ".",
    ]
    if data["indexing"]:
        lines.append("An index run is under way.")
    state = "fresh" if data["fresh"] else "behind"
    lines.append(f"Index at commit {data['index_head'][:12] or '-'}; it is {state}.")
    return "\n".join(lines) + "\n" + _freshness_note(data)


def reindex(data: dict[str, Any]) -> str:
    return (
        f"Indexed {data['indexed']} files ({data['chunks_written']} chunks, {data['embedded']} "
        f"embedded), {data['unchanged']} unchanged, {data['deleted']} deleted, "
        f"{data['skipped']} skipped; {data['chunks_total']} chunks in the index "
        f"({data['mode']} run, {data['seconds']:.1f} s).\n"
    )


def feedback(data: dict[str, Any]) -> str:
    return f"Recorded a {data['vote']} vote for {data['id']} on {data['query']!r}.\n"
