"""Python chunks from the AST: functions, classes (methods collapsed), methods, module rest.

A function decorated inside another (`@server.feature(...) def did_save` in a setup
function, `@app.route("/") def index` in an app factory) is a chunk of its own, collapsed in
its parent as a method is in its class: the decorator hands it to a framework that runs it,
so it is a definition a user looks for by name, not a detail of the code around it. A
closure its parent returns (a decorator's `wrapper`) stays its parent's, and so does all a
test registers: the routes and handlers a test sets up are what it tests, the test the
unit a question asks for (flask's `TestGenericHandlers` lost three of its docstring
questions when they were cut out).

When `ast` rejects a file, parso's error-recovering parser still finds the definitions, so a
file with one typo keeps almost all of its chunks.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

import parso
from parso.python import tree as parso_tree

from codekith.chunking.model import Chunk, ChunkResult
from codekith.chunking.split import collapse, line_parts, split_oversized
from codekith.chunking.text import chunk_windows
from codekith.qualnames import import_table, join, module_name
from codekith.sidecode import is_test_path

DefNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass
class _Context:
    path: str
    lines: list[str]
    imports: dict[str, str]
    chunks: list[Chunk]
    registering: bool  # whether functions registered inside functions are chunks (not in tests)


def chunk_python(path: str, source: str, module: str | None = None) -> ChunkResult:
    """`module`: the file's module name (qualnames.ModuleNames); the path rule without it."""
    module = module_name(path) if module is None else module
    try:
        return _chunk_parsed(path, source, module)
    except RecursionError:
        error = "nested too deeply for the Python parser; indexed as line windows"
        return ChunkResult(chunk_windows(path, "python", source), error=error)


def _chunk_parsed(path: str, source: str, module: str) -> ChunkResult:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        error = f"syntax error: {getattr(exc, 'msg', exc)}" + (f" (line {line})" if line else "")
        return ChunkResult(_recover_with_parso(path, source, module), error=error)
    is_package = path.endswith(("__init__.py", "__init__.pyi"))
    imports = import_table(tree, module, is_package)
    ctx = _Context(path, source.splitlines(), imports, [], not is_test_path(path))
    covered: set[int] = set()
    for node in tree.body:
        if isinstance(node, DefNode):
            _add_definition(ctx, node, module, parent_kind="module", parent="")
            covered.update(range(_start(node), _end(node) + 1))
    _add_module_rest(ctx, module, covered, tree)
    return ChunkResult(split_oversized(ctx.chunks))


def _start(node: DefNode) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _start_of(statement: ast.stmt) -> int:
    return _start(statement) if isinstance(statement, DefNode) else statement.lineno


def _end(node: ast.stmt) -> int:
    return node.end_lineno or node.lineno


def _used_imports(node: ast.AST, imports: dict[str, str]) -> list[str]:
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    return sorted({imports[name] for name in names if name in imports})


def _signature(node: DefNode) -> str:
    if isinstance(node, ast.ClassDef):
        bases = [ast.unparse(b) for b in node.bases] + [ast.unparse(k) for k in node.keywords]
        return f"class {node.name}({', '.join(bases)})" if bases else f"class {node.name}"
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    returns = f" -> {ast.unparse(node.returns)}" if node.returns else ""
    return f"{prefix} {node.name}({ast.unparse(node.args)}){returns}"


def _add_definition(
    ctx: _Context, node: DefNode, scope: str, parent_kind: str, parent: str
) -> None:
    qualname = join(scope, node.name)
    if isinstance(node, ast.ClassDef):
        kind = "class"
        children = [c for c in node.body if isinstance(c, DefNode)]
    else:
        kind = "method" if parent_kind == "class" else "function"
        registers = ctx.registering and _decorates_inside(ctx.lines, node)
        children = _registered_functions(node) if registers else []
    code, numbers = _collapse(ctx.lines, _start(node), _end(node), children)
    chunk = Chunk(
        path=ctx.path,
        language="python",
        kind=kind,
        symbol=node.name,
        qualname=qualname,
        code=code,
        start_line=_start(node),
        end_line=_end(node),
        signature=_signature(node),
        docstring=ast.get_docstring(node) or "",
        imports=_used_imports(node, ctx.imports),
        bases=[ast.unparse(b) for b in node.bases] if isinstance(node, ast.ClassDef) else [],
        decorators=[ast.unparse(d) for d in node.decorator_list],
        parent=parent,
    )
    ctx.chunks += line_parts(chunk, numbers)
    for child in children:
        _add_definition(ctx, child, qualname, parent_kind=kind, parent=qualname)


def _registered_functions(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[DefNode]:
    """The decorated functions defined in `function`'s own body (in any block of it, not in
    a definition inside it), but a closure it returns (`return update_wrapper(inner, f)`:
    flask's `with_appcontext`) or a decorator wraps (`@functools.wraps(f)`)."""
    found: list[DefNode] = []
    returned: set[str] = set()
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if any(not _is_wraps(d) for d in node.decorator_list):
                found.append(node)
        elif isinstance(node, ast.Return) and node.value is not None:
            returned.update(n.id for n in ast.walk(node.value) if isinstance(n, ast.Name))
        elif not isinstance(node, ast.ClassDef | ast.Lambda):
            pending.extend(ast.iter_child_nodes(node))
    return sorted((f for f in found if f.name not in returned), key=_start)


def _decorates_inside(lines: list[str], function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a line of the body opens with `@`: most functions register nothing, and a
    look at their lines costs a fifth of a walk of their trees."""
    body = range(_start_of(function.body[0]), _end(function) + 1)
    return any(lines[n - 1].lstrip().startswith("@") for n in body)


def _is_wraps(decorator: ast.expr) -> bool:
    called = decorator.func if isinstance(decorator, ast.Call) else decorator
    return ast.unparse(called).rpartition(".")[2] == "wraps"


def _collapse(
    lines: list[str], start: int, end: int, children: list[DefNode]
) -> tuple[str, list[int | None]]:
    """The text with each child's body (a class's methods and nested classes, a function's
    registered functions) replaced by `...` (`split.collapse`)."""
    members = []
    for child in sorted(children, key=_start):
        body_line = _start_of(child.body[0])
        body = lines[body_line - 1]
        marker = (
            f"{body[: len(body) - len(body.lstrip())]}..." if body_line > child.lineno else None
        )
        members.append((max(body_line - 1, child.lineno), marker, _end(child)))
    return collapse(lines, start, end, members)


def _add_module_rest(ctx: _Context, module: str, covered: set[int], tree: ast.Module) -> None:
    kept = [(n, text) for n, text in enumerate(ctx.lines, 1) if n not in covered and text.strip()]
    if not kept:
        return
    code_lines: list[str] = []
    numbers: list[int | None] = []
    previous = kept[0][0]
    for number, text in kept:
        if number > previous + 1 and code_lines:
            code_lines.append("")
            numbers.append(None)
        code_lines.append(text)
        numbers.append(number)
        previous = number
    rest = Chunk(
        path=ctx.path,
        language="python",
        kind="module",
        symbol=module.rsplit(".", 1)[-1],
        qualname=module,
        code="\n".join(code_lines),
        start_line=kept[0][0],
        end_line=kept[-1][0],
        docstring=ast.get_docstring(tree) or "",
        imports=sorted(set(ctx.imports.values())),
    )
    ctx.chunks += line_parts(rest, numbers)


def _recover_with_parso(path: str, source: str, module: str) -> list[Chunk]:
    """Definitions that parso can see in a file that `ast` rejects."""
    lines = source.splitlines()
    chunks: list[Chunk] = []
    tree = parso.parse(source)
    for node, scope, parent_kind in _parso_definitions(
        tree, module, "module", not is_test_path(path)
    ):
        start, end = node.start_pos[0], _parso_end(node, lines)
        is_class = node.type == "classdef"
        kind = "class" if is_class else ("method" if parent_kind == "class" else "function")
        chunks.append(
            Chunk(
                path=path,
                language="python",
                kind=kind,
                symbol=node.name.value,
                qualname=join(scope, node.name.value),
                code="\n".join(lines[start - 1 : end]),
                start_line=start,
                end_line=end,
                signature=lines[start - 1].strip().rstrip(":"),
                parent=scope if parent_kind != "module" else "",
            )
        )
    return split_oversized(chunks)


def _parso_definitions(
    node: parso_tree.BaseNode, scope: str, kind: str, registering: bool
) -> Iterator[tuple[parso_tree.ClassOrFunc, str, str]]:
    for child in getattr(node, "children", []):
        if child.type in ("funcdef", "classdef"):
            yield child, scope, kind
            inner = join(scope, child.name.value)
            if child.type == "classdef":
                yield from _parso_definitions(child, inner, "class", registering)
            elif registering:
                yield from _parso_registered(child, inner)
        elif child.type != "lambdef":
            yield from _parso_definitions(child, scope, kind, registering)


def _parso_registered(
    function: parso_tree.BaseNode, scope: str
) -> Iterator[tuple[parso_tree.ClassOrFunc, str, str]]:
    """`_registered_functions` in parso's tree."""
    found: list[parso_tree.ClassOrFunc] = []
    returned: set[str] = set()
    pending = list(function.children)
    while pending:
        node = pending.pop()
        if node.type == "decorated":
            definition = node.children[-1]
            if definition.type == "async_funcdef":
                definition = definition.children[-1]
            first = node.children[0]
            decorators = first.children if first.type == "decorators" else [first]
            if definition.type == "funcdef" and any(
                _parso_decorator_name(d) != "wraps" for d in decorators
            ):
                found.append(definition)
        elif node.type == "return_stmt":
            returned.update(_parso_names(node))
        elif node.type not in ("funcdef", "classdef", "lambdef"):
            pending.extend(getattr(node, "children", []))
    for definition in sorted(found, key=lambda d: d.start_pos):
        if definition.name.value not in returned:
            yield definition, scope, "function"
            yield from _parso_registered(definition, join(scope, definition.name.value))


def _parso_names(node: parso_tree.BaseNode) -> Iterator[str]:
    if node.type == "name":
        yield node.value  # type: ignore[attr-defined]
    for child in getattr(node, "children", []):
        yield from _parso_names(child)


def _parso_decorator_name(decorator: parso_tree.BaseNode) -> str:
    return decorator.get_code().strip().lstrip("@").partition("(")[0].rpartition(".")[2]


def _parso_end(node: parso_tree.BaseNode, lines: list[str]) -> int:
    end_line, end_col = node.end_pos
    if end_col == 0:
        end_line -= 1
    return max(node.start_pos[0], min(end_line, len(lines)))
