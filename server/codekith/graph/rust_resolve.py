"""Rust: `use` and `mod` paths through the module tree of each crate, impls and traits.

A crate is a Cargo.toml directory; `crate::` starts at its root (src/lib.rs, else
src/main.rs; binaries, tests and examples are their own roots), `self::`/`super::` move
from the file's module, `mod x;` is `x.rs` or `x/mod.rs` beside it, and another crate of the
workspace is reached by its (lib) name. Methods of `impl T` and `impl Trait for T` belong to
T wherever they are written; T inherits the trait's provided methods. Calls inside macro
arguments (`assert_eq!(f(x), …)`) are read from their tokens.
"""

from __future__ import annotations

import posixpath
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from codekith.chunking.treesitter import Definition
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    children,
    config_ancestors,
    end,
    field_text,
    line,
    pos,
    returned,
)
from codekith.graph.syntax_model import (
    EMPTY,
    UNKNOWN,
    Binding,
    Call,
    Expr,
    FileFacts,
    FuncDecl,
    Import,
    Instance,
    Known,
    Member,
    Name,
    Scope,
    Site,
    This,
    TraitImpl,
    TypeDecl,
    Unwrap,
    Value,
    Values,
    Wrapped,
)
from codekith.syntax import Node, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator

WRAPPERS = frozenset({"Option", "Result", "Poll"})
TRANSPARENT = frozenset({"Box", "Rc", "Arc", "Cow", "Pin"})
UNWRAPPING = frozenset(
    {"unwrap", "expect", "unwrap_or_default", "unwrap_or", "unwrap_or_else", "unwrap_unchecked"}
)
_TYPES = ("struct_item", "enum_item", "union_item")
_STRAIGHT = ("reference_expression", "parenthesized_expression", "unary_expression")


class RustExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.inline_depth = 0
        self.handlers.update(
            {
                "use_declaration": self.use_declaration,
                "mod_item": self.mod_item,
                "function_item": self.function_item,
                "function_signature_item": self.function_item,
                "struct_item": self.type_item,
                "enum_item": self.type_item,
                "union_item": self.type_item,
                "trait_item": self.trait_item,
                "impl_item": self.impl_item,
                "let_declaration": self.let_declaration,
                "let_condition": self.let_condition,
                "match_arm": self.match_arm,
                "for_expression": self.for_expression,
                "closure_expression": self.closure,
                "call_expression": self.call,
                "macro_invocation": self.macro,
            }
        )

    # -- modules and use -------------------------------------------------------------------
    def use_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        public = any(c.type == "visibility_modifier" for c in node.children)
        argument = node.child_by_field_name("argument")
        if argument is not None:
            self.use_tree(argument, None, scope, public, line(node))
        return None

    def use_tree(
        self, node: Node, prefix: Expr | None, scope: Scope, public: bool, at: int
    ) -> None:
        kind = node.type
        if kind == "use_list":
            for item in node.named_children:
                self.use_tree(item, prefix, scope, public, at)
        elif kind == "scoped_use_list":
            path = node.child_by_field_name("path")
            inner = self.use_path(path, prefix) if path is not None else prefix
            items = node.child_by_field_name("list")
            if items is not None:
                self.use_tree(items, inner, scope, public, at)
        elif kind == "use_wildcard":
            path = node.named_children[0] if node.named_children else None
            target = self.use_path(path, prefix) if path is not None else prefix
            if target is not None:
                self.facts.import_stars.append(target)
                if public:
                    self.facts.export_stars.append(target)
        elif kind == "use_as_clause":
            path = node.child_by_field_name("path")
            alias = field_text(node, "alias")
            if path is not None and alias != "_":
                self.bind_use(scope, alias, self.use_path(path, prefix), at)
        elif kind == "self" and prefix is not None:
            self.bind_use(scope, _last_name(prefix), prefix, at)
        else:
            name = field_text(node, "name") if kind == "scoped_identifier" else text(node)
            self.bind_use(scope, name, self.use_path(node, prefix), at)

    def bind_use(self, scope: Scope, name: str, target: Expr, at: int) -> None:
        scope.bind(name, Binding((at - 1, 0), target, imported=True))
        self.facts.imports.append((target, at))

    def use_path(self, node: Node, prefix: Expr | None) -> Expr:
        """A `use` path: its first segment is a crate, `crate`/`self`/`super`, or an item of
        this module (not another `use`), so a name never resolves through itself."""
        if node.type == "scoped_identifier":
            path = node.child_by_field_name("path")
            base = self.use_path(path, prefix) if path is not None else prefix
            return Member(base, field_text(node, "name")) if base is not None else UNKNOWN
        if prefix is not None:
            return Member(prefix, text(node))
        return self.root_segment(text(node), use=True)

    def root_segment(self, name: str, use: bool) -> Expr:
        if name in ("crate", "self", "super"):
            if self.inline_depth and name == "super":
                return Import("self")
            return Import(name)
        if name == "Self":
            return Name("Self")
        return Import(f"root:{name}") if use else Name(name)

    def mod_item(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        body = node.child_by_field_name("body")
        if body is None:
            scope.bind(name, Binding(pos(node), Import(f"mod:{name}")))
            return None
        scope.bind(name, Binding(pos(node), UNKNOWN))
        inline = Scope("module", scope)
        self.inline_depth += 1
        try:
            for child in body.named_children:  # an inline module: read now, in its own scope
                self.visit(child, inline, owner)
                self.drain()
        finally:
            self.inline_depth -= 1
        return None

    def drain(self) -> None:
        """Process the queued nodes now (inline modules need `inline_depth` while read)."""
        depth = len(self._stack) - 1
        while len(self._stack) > depth:
            node, scope, owner = self._stack.pop()
            definition = self.defs.get(node.id)
            owner = definition.qualname if definition is not None else owner
            handler = self.handlers.get(node.type)
            inner = handler(node, scope, owner) if handler is not None else scope
            if inner is not None:
                self.visit_children(node, inner, owner)

    # -- items -----------------------------------------------------------------------------
    def function_item(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        if scope.kind != "type":
            scope.bind(name, Binding(pos(node), Known(Value("func", qualname))))
        body = Scope("function", scope)
        self.generics(node, body)
        self.parameters(node.child_by_field_name("parameters"), body)
        returns = returned(self.declared(node.child_by_field_name("return_type")), body)
        container = _container(scope)
        self.facts.functions.append(FuncDecl(qualname, name, body, returns, container, scope))
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    def type_item(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        scope.bind(name, Binding(pos(node), Known(Value("type", qualname))))
        body = Scope("type", scope, type_qualname=qualname)
        self.generics(node, body)
        decl = TypeDecl(qualname, body, line(node), is_class=False)
        self.facts.types.append(decl)
        fields = node.child_by_field_name("body")
        for item in fields.named_children if fields is not None else []:
            if item.type == "field_declaration":
                declared = self.declared(item.child_by_field_name("type"))
                if declared is not None:
                    decl.add_field(field_text(item, "name"), declared, body)
        return None

    def trait_item(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        name = field_text(node, "name")
        definition = self.definition(node)
        qualname = definition.qualname if definition else f"{owner}.<{name}>"
        scope.bind(name, Binding(pos(node), Known(Value("type", qualname))))
        trait = Known(Value("type", qualname))
        body = Scope("type", scope, this=Instance(trait), type_qualname=qualname)
        body.bind("Self", Binding(pos(node), trait))
        self.generics(node, body)
        decl = TypeDecl(qualname, body, line(node), is_class=False)
        bounds = node.child_by_field_name("bounds")
        decl.bases = [r for r in map(self.type_ref, children(bounds)) if r is not None]
        self.facts.types.append(decl)
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    def impl_item(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        kind = self.type_ref(node.child_by_field_name("type"))
        trait = self.type_ref(node.child_by_field_name("trait"))
        body = Scope("type", scope, this=Instance(Name("Self")))
        self.generics(node, body)
        body.bind("Self", Binding(pos(node), kind or UNKNOWN))
        if kind is not None and trait is not None:
            self.facts.impls.append(TraitImpl(kind, trait, body, line(node)))
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    def generics(self, node: Node, scope: Scope) -> None:
        """Type parameters stand for their first bound (`T: Shape`), or for nothing."""
        parameters = node.child_by_field_name("type_parameters")
        for parameter in children(parameters):
            if parameter.type not in ("type_parameter", "constrained_type_parameter"):
                continue
            name = field_text(parameter, "name") or field_text(parameter, "left")
            bounds = children(parameter.child_by_field_name("bounds"))
            bound = self.type_ref(bounds[0]) if bounds else None
            scope.bind(name, Binding(pos(parameter), bound or UNKNOWN))
            scope.type_params.add(name)

    def parameters(self, node: Node | None, scope: Scope) -> None:
        for parameter in children(node):
            pattern = parameter.child_by_field_name("pattern")
            if parameter.type == "self_parameter" or pattern is None:
                continue
            declared = self.declared(parameter.child_by_field_name("type"))
            names = _pattern_names(pattern)
            for name in names:
                single = len(names) == 1 and declared is not None
                value = declared if single and declared is not None else UNKNOWN
                scope.bind(name, Binding(pos(parameter), value, typed=single))

    # -- bindings --------------------------------------------------------------------------
    def let_declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        pattern = node.child_by_field_name("pattern")
        if pattern is None:
            return scope
        declared = self.declared(node.child_by_field_name("type"))
        value = node.child_by_field_name("value")
        names = _pattern_names(pattern)
        for name in names:
            if len(names) == 1 and declared is not None:
                scope.bind(name, Binding(end(node), declared, typed=True))
            elif len(names) == 1 and value is not None and _is_name(pattern):
                scope.bind(name, Binding(end(node), self.expr(value)))
            else:
                scope.bind(name, Binding(end(node), self.unwrapped(pattern, value)))
        return scope

    def unwrapped(self, pattern: Node, value: Node | None) -> Expr:
        """`Some(x)` / `Ok(x)` against a value: x is what the value wraps."""
        if value is None or pattern.type != "tuple_struct_pattern":
            return UNKNOWN
        kind = text(pattern.child_by_field_name("type"))
        if kind in ("Some", "Ok") and len(_pattern_names(pattern)) == 1:
            return Unwrap(self.expr(value))
        return UNKNOWN

    def let_condition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        pattern, value = node.child_by_field_name("pattern"), node.child_by_field_name("value")
        if pattern is not None:
            for name in _pattern_names(pattern):
                scope.bind(name, Binding(end(node), self.unwrapped(pattern, value)))
        return scope

    def match_arm(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        pattern = node.child_by_field_name("pattern")
        match = node.parent.parent if node.parent is not None else None
        value = match.child_by_field_name("value") if match is not None else None
        inner = pattern.named_children[0] if pattern and pattern.named_children else None
        if inner is not None:
            for name in _pattern_names(inner):
                scope.bind(name, Binding(pos(node), self.unwrapped(inner, value)))
        return scope

    def for_expression(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        pattern = node.child_by_field_name("pattern")
        for name in _pattern_names(pattern) if pattern is not None else []:
            scope.bind(name, Binding(pos(node), UNKNOWN))
        return scope

    def closure(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        body = Scope("function", scope)
        for parameter in children(node.child_by_field_name("parameters")):
            declared = self.declared(parameter.child_by_field_name("type"))
            target = parameter.child_by_field_name("pattern") or parameter
            for name in _pattern_names(target):
                body.bind(name, Binding(pos(parameter), declared or UNKNOWN, typed=bool(declared)))
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    # -- calls -----------------------------------------------------------------------------
    def call(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        function = node.child_by_field_name("function")
        if function is not None:
            self.facts.sites.append(Site(owner, scope, Call(self.callee(function)), line(node)))
        return scope

    def macro(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Macro arguments are tokens, not expressions: calls are read from token runs such as
        `f (…)`, `a::b (…)`, `x.m (…)`, `self.m (…)`."""
        for tree in (c for c in node.children if c.type == "token_tree"):
            self.token_calls(tree, scope, owner)
        return None

    def token_calls(self, tree: Node, scope: Scope, owner: str) -> None:
        chain: Expr | None = None
        joiner = ""
        for token in tree.children:
            kind = token.type
            if kind in ("identifier", "self", "crate", "super") and (chain is None or joiner):
                name = text(token)
                if chain is None and kind == "identifier":
                    chain = Name(name, pos(token))
                elif chain is None:
                    chain = This() if kind == "self" else self.root_segment(name, use=False)
                else:
                    chain = Member(chain, name)
                joiner = ""
            elif kind in ("::", ".") and chain is not None and not joiner:
                joiner = kind
            elif kind == "token_tree":
                opens_call = token.children and token.children[0].type == "("
                if chain is not None and not joiner and opens_call:
                    self.facts.sites.append(Site(owner, scope, Call(chain), line(token)))
                    chain = Call(chain)
                else:
                    chain = None
                self.token_calls(token, scope, owner)
            else:
                chain, joiner = None, ""

    # -- expressions and types -------------------------------------------------------------
    def callee(self, node: Node) -> Expr:
        if node.type == "generic_function":
            function = node.child_by_field_name("function")
            return self.expr(function) if function is not None else UNKNOWN
        return self.expr(node)

    def convert(self, node: Node) -> Expr:
        kind = node.type
        if kind == "identifier":
            return Name(text(node), pos(node))
        if kind == "self":
            return This()
        if kind in ("scoped_identifier", "scoped_type_identifier", "generic_type"):
            return self.path(node)
        if kind == "field_expression":
            value = node.child_by_field_name("value")
            return Member(self.expr(value), field_text(node, "field")) if value else UNKNOWN
        if kind == "call_expression":
            function = node.child_by_field_name("function")
            if function is None:
                return UNKNOWN
            if function.type == "field_expression" and field_text(function, "field") in UNWRAPPING:
                value = function.child_by_field_name("value")
                return Unwrap(self.expr(value)) if value is not None else UNKNOWN
            return Call(self.callee(function))
        if kind == "struct_expression":
            ref = self.type_ref(node.child_by_field_name("name"))
            return Instance(ref) if ref is not None else UNKNOWN
        if kind in ("try_expression", "await_expression") and node.named_children:
            return Unwrap(self.expr(node.named_children[0]))
        if kind in _STRAIGHT and node.named_children:
            return self.expr(node.named_children[-1])
        return UNKNOWN

    def path(self, node: Node) -> Expr:
        """`a::b::c` in code or types; generic arguments dropped."""
        if node.type == "generic_type":
            inner = node.child_by_field_name("type")
            return self.path(inner) if inner is not None else UNKNOWN
        if node.type in ("scoped_identifier", "scoped_type_identifier"):
            prefix = node.child_by_field_name("path")
            name = field_text(node, "name")
            return Member(self.path(prefix), name) if prefix is not None else Name(name, pos(node))
        return self.root_segment(text(node), use=False) if text(node) else UNKNOWN

    def type_ref(self, node: Node | None) -> Expr | None:
        if node is None:
            return None
        kind = node.type
        if kind in ("reference_type", "pointer_type"):
            return self.type_ref(node.child_by_field_name("type"))
        if kind in ("dynamic_type", "abstract_type"):
            return self.type_ref(node.child_by_field_name("trait"))
        if kind == "generic_type":
            if field_text(node, "type") in TRANSPARENT:
                return self.type_ref(_first_argument(node))
            return self.type_ref(node.child_by_field_name("type"))
        if kind in ("type_identifier", "scoped_type_identifier", "identifier"):
            return self.path(node)
        return None

    def declared(self, node: Node | None) -> Expr | None:
        """The value a declared type promises: an instance, or an Option/Result of one."""
        if node is None:
            return None
        if node.type in ("reference_type", "pointer_type"):
            return self.declared(node.child_by_field_name("type"))
        if node.type == "generic_type" and field_text(node, "type") in WRAPPERS:
            ref = self.type_ref(_first_argument(node))
            return Wrapped(ref) if ref is not None else None
        if node.type == "generic_type" and field_text(node, "type") in TRANSPARENT:
            return self.declared(_first_argument(node))
        ref = self.type_ref(node)
        return Instance(ref) if ref is not None else None


def _container(scope: Scope) -> Expr | None:
    """The type a function declared in `scope` belongs to: the impl's Self, or the trait."""
    if scope.kind != "type":
        return None
    if scope.type_qualname:
        return Known(Value("type", scope.type_qualname))
    return Name("Self")


def _first_argument(node: Node) -> Node | None:
    arguments = node.child_by_field_name("type_arguments")
    return arguments.named_children[0] if arguments and arguments.named_children else None


def _is_name(pattern: Node) -> bool:
    return pattern.type == "identifier" or (
        pattern.type == "mut_pattern" and any(c.type == "identifier" for c in pattern.children)
    )


def _pattern_names(node: Node) -> list[str]:
    """Names a pattern binds (constructor names like `Some` are not bindings)."""
    if node.type == "identifier":
        return [text(node)]
    names: list[str] = []
    skip = node.child_by_field_name("type") if node.type == "tuple_struct_pattern" else None
    for child in node.named_children:
        if skip is not None and child == skip:
            continue
        if node.type == "field_pattern" and child == node.child_by_field_name("name"):
            if node.child_by_field_name("pattern") is not None:
                continue
            names.append(text(child))
            continue
        if child.type in ("scoped_identifier", "type_identifier", "field_identifier"):
            continue
        names += _pattern_names(child)
    return names


def _last_name(expr: Expr) -> str:
    if isinstance(expr, Member):
        return expr.name
    if isinstance(expr, Import):
        return expr.spec.rpartition(":")[2]
    return expr.id if isinstance(expr, Name) else ""


class _Crate:
    def __init__(self, name: str, directory: str, lib: str):
        self.name, self.directory, self.lib = name, directory, lib


class RustFrontend(Frontend):
    languages = ("rust",)
    extractor = RustExtractor

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.crates: dict[str, _Crate] = {}  # by directory
        self.by_name: dict[str, _Crate] = {}

    def config_files(self, paths: Iterable[str]) -> set[str]:
        return {p for p in config_ancestors(paths, ("Cargo.toml",)) if (self.root / p).is_file()}

    def configure(self, paths: Iterable[str]) -> None:
        self.crates, self.by_name = {}, {}
        for path in sorted(self.config_files(paths)):
            try:
                data = tomllib.loads((self.root / path).read_text("utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
            package, lib = data.get("package") or {}, data.get("lib") or {}
            name = lib.get("name") or package.get("name")
            if not isinstance(name, str):
                continue
            directory = posixpath.dirname(path)
            lib_path = lib.get("path")
            lib_path = lib_path if isinstance(lib_path, str) else "src/lib.rs"
            crate = _Crate(name.replace("-", "_"), directory, posixpath.join(directory, lib_path))
            self.crates[directory] = crate
            self.by_name[crate.name] = crate

    # -- the module tree -------------------------------------------------------------------
    def crate_of(self, path: str) -> _Crate | None:
        directory = posixpath.dirname(path)
        while True:
            if directory in self.crates:
                return self.crates[directory]
            if not directory:
                return None
            directory = posixpath.dirname(directory)

    def crate_root(self, path: str, files: Mapping[str, FileFacts]) -> str:
        crate = self.crate_of(path)
        base = crate.directory if crate is not None else _source_base(path)
        src = posixpath.join(base, "src") if base or crate is not None else "src"
        relative = posixpath.relpath(path, base) if base else path
        first = relative.split("/")[0]
        if first in ("tests", "examples", "benches") or relative.startswith("src/bin/"):
            parts = relative.split("/")
            depth = 3 if relative.startswith("src/bin/") else 2
            own = posixpath.join(base, *parts[:depth]) if len(parts) > depth else path
            return own if own.endswith(".rs") else posixpath.join(own, "main.rs")
        lib = crate.lib if crate is not None else posixpath.join(src, "lib.rs")
        main = posixpath.join(src, "main.rs")
        if path == main or lib not in files:
            return main
        return lib

    def module_dir(self, path: str) -> str:
        """Where the submodules of a module file live."""
        name = posixpath.basename(path)
        if name in ("lib.rs", "main.rs", "mod.rs"):
            return posixpath.dirname(path)
        return path[: -len(".rs")]

    def parent_module(self, path: str, files: Mapping[str, FileFacts]) -> str:
        root = self.crate_root(path, files)
        if path == root:
            return ""
        directory = posixpath.dirname(path)
        if posixpath.basename(path) == "mod.rs":
            directory = posixpath.dirname(directory)
        if directory == posixpath.dirname(root):
            return root
        for candidate in (posixpath.join(directory, "mod.rs"), directory + ".rs"):
            if candidate in files:
                return candidate
        return ""

    def child_module(self, path: str, name: str, files: Mapping[str, FileFacts]) -> str:
        directory = self.module_dir(path)
        for candidate in (f"{directory}/{name}.rs", f"{directory}/{name}/mod.rs"):
            candidate = candidate.removeprefix("/")
            if candidate in files:
                return candidate
        return ""

    # -- hooks -----------------------------------------------------------------------------
    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        files = evaluator.files
        target = ""
        if spec == "crate":
            target = self.crate_root(facts.path, files)
        elif spec == "self":
            target = facts.path
        elif spec == "super":
            target = self.parent_module(facts.path, files)
        elif spec.startswith("mod:"):
            target = self.child_module(facts.path, spec[4:], files)
        elif spec.startswith("root:"):
            return self.first_segment(spec[5:], facts, evaluator)
        return frozenset({Value("module", target)}) if target in files else EMPTY

    def first_segment(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """The first name of a `use` path: an item of this module, else a crate."""
        items = [b for b in facts.scope.bindings.get(name, []) if not b.imported]
        if items:
            return frozenset(v for b in items for v in evaluator.eval(b.expr, facts.scope))
        return self.fallback(name, facts, evaluator)

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """A crate of the workspace by its name (`other_crate::f()`)."""
        crate = self.by_name.get(name)
        files = evaluator.files
        if crate is not None and crate.lib in files:
            return frozenset({Value("module", crate.lib)})
        return EMPTY

    def submodule(self, module: str, name: str, evaluator: Evaluator) -> Values:
        """`a::b` where b is a file module below a; `super::super` climbs."""
        files = evaluator.files
        if name == "super":
            target = self.parent_module(module, files)
        else:
            target = module if name == "self" else self.child_module(module, name, files)
        return frozenset({Value("module", target)}) if target else EMPTY


def _source_base(path: str) -> str:
    """Without a Cargo.toml: the directory above the nearest `src`."""
    parts = path.split("/")
    if "src" in parts:
        return "/".join(parts[: parts.index("src")])
    return ""
