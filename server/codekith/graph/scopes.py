"""Per-file scope tables for the fast resolver: what each scope binds, calls, returns.

Built from one file's `ast` alone, so a changed file is re-collected without looking at
any other; all cross-file meaning is left to the evaluator in `fast`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from codekith.qualnames import join

Pos = tuple[int, int]
END: Pos = (1 << 30, 0)


@dataclass
class Binding:
    """One way a name gets a value. `kind` says how to read `node`:

    value: an expression; def/class: `scope` is the definition; import: module `target`
    (`name` set for `from target import name`); iter: the iterable `node`; enter: the
    context manager `node` of `with node as name`; unknown: nothing.
    """

    kind: str
    pos: Pos
    conditional: bool
    node: ast.AST | None = None
    scope: Scope | None = None
    target: str = ""
    name: str = ""


@dataclass
class Site:
    """Something in a scope that runs code: a call, a raise, a for-loop, a decorator, an
    attribute read (a property's getter runs) or write (its setter runs)."""

    kind: str
    node: ast.expr
    line: int
    decorated: Scope | None = None


@dataclass
class Store:
    """`container[key] = value` (key None: slice or unknown index), or `container.update({...})`."""

    container: ast.expr
    key: ast.expr | None
    value: ast.expr
    pos: Pos


@dataclass
class Scope:
    qualname: str
    kind: str  # module | class | function | lambda
    node: ast.AST
    parent: Scope | None
    path: str
    module: str
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    sites: list[Site] = field(default_factory=list)
    returns: list[ast.expr] = field(default_factory=list)
    yields: list[ast.expr] = field(default_factory=list)
    params: list[str] = field(default_factory=list)
    defaults: dict[str, ast.expr] = field(default_factory=dict)
    annotations: dict[str, ast.expr] = field(default_factory=dict)
    decorators: list[ast.expr] = field(default_factory=list)
    bases: list[ast.expr] = field(default_factory=list)
    inst_attrs: dict[str, list[tuple[ast.expr, Scope, Pos]]] = field(default_factory=dict)
    star_imports: list[tuple[str, int]] = field(default_factory=list)
    imports: list[Binding] = field(default_factory=list)
    global_names: set[str] = field(default_factory=set)
    children: list[Scope] = field(default_factory=list)
    stores: list[Store] = field(default_factory=list)
    lambdas: int = 0

    @property
    def line(self) -> int:
        return getattr(self.node, "lineno", 1)

    def decorator_names(self) -> set[str]:
        return {_tail(d) for d in self.decorators}

    def bind(self, name: str, binding: Binding) -> None:
        owner = self.module_scope() if name in self.global_names else self
        owner.bindings.setdefault(name, []).append(binding)

    def module_scope(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def walk(self) -> list[Scope]:
        out = [self]
        for child in self.children:
            out.extend(child.walk())
        return out


def _tail(expr: ast.expr) -> str:
    if isinstance(expr, ast.Call):
        expr = expr.func
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return expr.id if isinstance(expr, ast.Name) else ""


def _unpack(target: ast.Tuple | ast.List, value: ast.expr | None) -> list[ast.expr] | None:
    """Values for each element of a tuple target from a tuple literal; a starred target
    element receives a list literal of the values it swallows."""
    if not isinstance(value, ast.Tuple | ast.List):
        return None
    elts = value.elts
    stars = [i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)]
    if any(isinstance(e, ast.Starred) for e in elts) or len(stars) > 1:
        return None
    if not stars:
        return list(elts) if len(elts) == len(target.elts) else None
    star, after = stars[0], len(target.elts) - stars[0] - 1
    if len(elts) < star + after:
        return None
    middle = ast.List(elts=elts[star : len(elts) - after], ctx=ast.Load())
    ast.copy_location(middle, value)
    return [*elts[:star], middle, *elts[len(elts) - after :]]


def _end(node: ast.AST) -> Pos:
    return (getattr(node, "end_lineno", 0) or 0, getattr(node, "end_col_offset", 0) or 0)


def collect(tree: ast.Module, path: str, module: str) -> Scope:
    """The module scope of `tree` with every nested scope hanging below it."""
    scope = Scope(module, "module", tree, None, path, module)
    _Collector().body(tree.body, scope, False)
    return scope


class _Collector:
    def __init__(self) -> None:
        self.called: set[int] = set()  # ids of the attributes that calls call: no reads

    def body(self, stmts: list[ast.stmt], scope: Scope, cond: bool) -> None:
        for stmt in stmts:
            self.stmt(stmt, scope, cond)

    def stmt(self, stmt: ast.stmt, scope: Scope, cond: bool) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            self.function(stmt, scope, cond)
        elif isinstance(stmt, ast.ClassDef):
            self.klass(stmt, scope, cond)
        elif isinstance(stmt, ast.Assign):
            self.expr(stmt.value, scope)
            for target in stmt.targets:
                self.written(target, scope, stmt.lineno, False)
                self.assign(target, stmt.value, scope, cond, _end(stmt))
        elif isinstance(stmt, ast.AnnAssign | ast.AugAssign):
            self.expr(stmt.value, scope)
            self.written(stmt.target, scope, stmt.lineno, isinstance(stmt, ast.AugAssign))
            if isinstance(stmt, ast.AnnAssign):
                self.expr(stmt.annotation, scope)
                if scope.kind == "class" and isinstance(stmt.target, ast.Name):
                    scope.annotations.setdefault(stmt.target.id, stmt.annotation)  # a field
            if stmt.value is not None and not isinstance(stmt, ast.AugAssign):
                self.assign(stmt.target, stmt.value, scope, cond, _end(stmt))
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            self.imports(stmt, scope, cond)
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            self.expr(stmt.iter, scope)
            scope.sites.append(Site("iter", stmt.iter, stmt.lineno))
            self.iter_target(stmt.target, stmt.iter, scope, _end(stmt.iter))
            self.body(stmt.body + stmt.orelse, scope, True)
        elif isinstance(stmt, ast.With | ast.AsyncWith):
            for item in stmt.items:
                self.expr(item.context_expr, scope)
                names = item.optional_vars
                if isinstance(names, ast.Name):
                    scope.bind(names.id, Binding("enter", _end(item), True, item.context_expr))
                elif names is not None:
                    self.assign(names, item.context_expr, scope, True, _end(item))
            self.body(stmt.body, scope, True)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            self.body(stmt.body + stmt.orelse + stmt.finalbody, scope, True)
            for handler in stmt.handlers:
                self.handler(handler, scope)
        elif isinstance(stmt, ast.If | ast.While):
            self.expr(stmt.test, scope)
            self.body(stmt.body + stmt.orelse, scope, True)
        elif isinstance(stmt, ast.Match):
            self.expr(stmt.subject, scope)
            for case in stmt.cases:
                self.body(case.body, scope, True)
        elif isinstance(stmt, ast.Return):
            self.expr(stmt.value, scope)
            if stmt.value is not None:
                scope.returns.append(stmt.value)
        elif isinstance(stmt, ast.Raise):
            self.expr(stmt.exc, scope)
            if stmt.exc is not None:
                scope.sites.append(Site("raise", stmt.exc, stmt.lineno))
        elif isinstance(stmt, ast.Global | ast.Nonlocal):
            scope.global_names.update(stmt.names if isinstance(stmt, ast.Global) else ())
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self.expr(child, scope)

    def handler(self, handler: ast.ExceptHandler, scope: Scope) -> None:
        self.expr(handler.type, scope)
        if handler.name and handler.type is not None:
            call = ast.Call(func=handler.type, args=[], keywords=[])
            scope.bind(handler.name, Binding("value", _end(handler.type), True, call))
        self.body(handler.body, scope, True)

    def function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, cond: bool
    ) -> None:
        for expr in [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults]:
            self.expr(expr, scope)
        child = self.new_scope(node, node.name, "function", scope)
        child.decorators = list(node.decorator_list)
        self.arguments(node.args, child, scope)
        if node.returns is not None:
            child.annotations["return"] = node.returns
        for dec in node.decorator_list:
            scope.sites.append(Site("decorator", dec, dec.lineno, child))
        scope.bind(node.name, Binding("def", (node.lineno, node.col_offset), cond, scope=child))
        self.body(node.body, child, False)

    def arguments(self, args: ast.arguments, child: Scope, outer: Scope) -> None:
        positional = [*args.posonlyargs, *args.args]
        child.params = [a.arg for a in positional]
        for arg, default in zip(reversed(positional), reversed(args.defaults), strict=False):
            child.defaults[arg.arg] = default
        for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
            child.params.append(arg.arg)
            if kw_default is not None:
                child.defaults[arg.arg] = kw_default
        for arg in [*positional, *args.kwonlyargs]:
            if arg.annotation is not None:
                child.annotations[arg.arg] = arg.annotation

    def klass(self, node: ast.ClassDef, scope: Scope, cond: bool) -> None:
        for expr in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]:
            self.expr(expr, scope)
        child = self.new_scope(node, node.name, "class", scope)
        child.bases = list(node.bases)
        child.decorators = list(node.decorator_list)
        for dec in node.decorator_list:
            scope.sites.append(Site("decorator", dec, dec.lineno, child))
        scope.bind(node.name, Binding("class", (node.lineno, node.col_offset), cond, scope=child))
        self.body(node.body, child, False)
        for method in child.children:
            self.self_attrs(method, child)

    def self_attrs(self, method: Scope, klass: Scope) -> None:
        """`self.x = v` in any method makes `x` an instance attribute of the class, and
        `self.x: T` annotates it as a class-level `x: T` does."""
        if method.kind != "function" or not method.params:
            return
        me = method.params[0]
        for node in ast.walk(method.node):
            if not isinstance(node, ast.Assign | ast.AnnAssign):
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if not (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == me
                ):
                    continue
                if node.value is not None:
                    entry = (node.value, method, _end(node))
                    klass.inst_attrs.setdefault(target.attr, []).append(entry)
                if isinstance(node, ast.AnnAssign):
                    klass.annotations.setdefault(target.attr, node.annotation)

    def new_scope(self, node: ast.AST, name: str, kind: str, parent: Scope) -> Scope:
        qualname = join(parent.qualname, name)
        child = Scope(qualname, kind, node, parent, parent.path, parent.module)
        parent.children.append(child)
        return child

    def imports(self, stmt: ast.Import | ast.ImportFrom, scope: Scope, cond: bool) -> None:
        pos = _end(stmt)
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    binding = Binding("import", pos, cond, node=stmt, target=alias.name)
                    scope.bind(alias.asname, binding)
                else:
                    root = alias.name.split(".")[0]
                    scope.bind(root, Binding("import", pos, cond, node=stmt, target=root))
                    binding = Binding("import", pos, cond, node=stmt, target=alias.name)
                scope.imports.append(binding)
            return
        base = "." * stmt.level + (stmt.module or "")
        for alias in stmt.names:
            if alias.name == "*":
                scope.module_scope().star_imports.append((base, stmt.lineno))
                scope.imports.append(Binding("import", pos, cond, node=stmt, target=base))
                continue
            binding = Binding("import", pos, cond, node=stmt, target=base, name=alias.name)
            scope.bind(alias.asname or alias.name, binding)
            scope.imports.append(binding)

    def assign(
        self, target: ast.expr, value: ast.expr | None, scope: Scope, cond: bool, pos: Pos
    ) -> None:
        """Bind names in `target`, pairing tuple targets with tuple literals element-wise."""
        if isinstance(target, ast.Name):
            scope.bind(target.id, Binding("value" if value else "unknown", pos, cond, value))
        elif isinstance(target, ast.Tuple | ast.List):
            values = _unpack(target, value)
            for i, elt in enumerate(target.elts):
                self.assign(elt, values[i] if values else None, scope, cond, pos)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, value, scope, cond, pos)
        elif isinstance(target, ast.Subscript) and value is not None:
            key = None if isinstance(target.slice, ast.Slice) else target.slice
            scope.stores.append(Store(target.value, key, value, pos))

    def written(self, target: ast.expr, scope: Scope, line: int, augmented: bool) -> None:
        """What assigning to `target` runs: `obj.x = v` a property's setter (`obj.x += v` its
        getter first), and the reads and calls in `obj` or in a subscript's container and key
        (`self.headers[k] = v` reads `self.headers`)."""
        if isinstance(target, ast.Attribute):
            self.expr(target.value, scope)
            if augmented:
                scope.sites.append(Site("read", target, line))
            scope.sites.append(Site("write", target, line))
        elif isinstance(target, ast.Subscript):
            self.expr(target.value, scope)
            self.expr(target.slice, scope)
        elif isinstance(target, ast.Tuple | ast.List):
            for elt in target.elts:
                self.written(elt, scope, line, augmented)
        elif isinstance(target, ast.Starred):
            self.written(target.value, scope, line, augmented)

    def iter_target(self, target: ast.expr, iterable: ast.expr, scope: Scope, pos: Pos) -> None:
        if isinstance(target, ast.Name):
            scope.bind(target.id, Binding("iter", pos, True, iterable))
        else:
            self.assign(target, None, scope, True, pos)

    def expr(self, root: ast.expr | None, scope: Scope) -> None:
        """Record calls, lambdas, yields and walrus bindings of an expression, in source
        order; iterative, since generated code nests expressions thousands deep."""
        stack: list[ast.AST] = [root] if root is not None else []
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Lambda):
                self.lambda_(node, scope)
                continue
            self.expr_node(node, scope)
            children = [
                c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr | ast.comprehension)
            ]
            stack.extend(reversed(children))

    def expr_node(self, node: ast.AST, scope: Scope) -> None:
        if isinstance(node, ast.Call):
            scope.sites.append(Site("call", node, node.lineno))
            self.called.add(id(node.func))
            self.update_store(node, scope)
        elif isinstance(node, ast.Attribute) and id(node) not in self.called:
            if isinstance(node.ctx, ast.Load):
                scope.sites.append(Site("read", node, node.lineno))
        elif isinstance(node, ast.Yield | ast.YieldFrom):
            scope.yields.append(node)
        elif isinstance(node, ast.NamedExpr):
            scope.bind(node.target.id, Binding("value", _end(node), True, node.value))
        elif isinstance(node, ast.comprehension):
            self.iter_target(node.target, node.iter, scope, _end(node.iter))
            scope.sites.append(Site("iter", node.iter, node.iter.lineno))

    def update_store(self, call: ast.Call, scope: Scope) -> None:
        """`d.update({k: v})` and `ls.append(v)` add entries to a container."""
        func = call.func
        if not isinstance(func, ast.Attribute) or len(call.args) != 1:
            return
        arg = call.args[0]
        if func.attr == "update" and isinstance(arg, ast.Dict):
            for key, value in zip(arg.keys, arg.values, strict=True):
                if key is not None:
                    scope.stores.append(Store(func.value, key, value, _end(call)))
        elif func.attr == "append":
            scope.stores.append(Store(func.value, None, arg, _end(call)))

    def lambda_(self, node: ast.Lambda, scope: Scope) -> None:
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            self.expr(default, scope)
        scope.lambdas += 1
        child = self.new_scope(node, f"<lambda{scope.lambdas}>", "lambda", scope)
        self.arguments(node.args, child, scope)
        child.returns.append(node.body)
        self.expr(node.body, child)
