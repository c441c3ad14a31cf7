"""What evaluating one file can read of another: the other file's *interface*.

`fast.Evaluator` enters another file in three ways: `module_of` (a module scope),
`scopes_of` (the scopes of a qualified name) and `container_at` (a list or dict literal
named by a token). From a scope it moves through the file's scope tree (parents, the
definitions bindings name, the methods of instance attributes, lambdas) and reads the
scopes' tables; it never reads the call sites of another file (those count for that file's
own results), nor its stores (read only behind a container token). So, apart from
container tokens, a file's results depend on another file only through:

- every scope: its qualified name, kind and parent, its parameters with their defaults and
  annotations, its decorators, bases, return and yield expressions, instance attributes
  (`self.x = v`, with the method) and star imports;
- the bindings of module and class scopes (read by any name, also from other files), and
  those of function and lambda scopes for the names any of these expressions mentions (a
  function's locals are looked up only by a `Name` inside it or a scope nested in it; the
  words of string constants count too, since string annotations are parsed);
- positions, only as compared with each other: a lookup sees the bindings of the name
  placed before its position (binding positions, `self.x = v` ends, a decorator's or class
  statement's line). Their order is what is read, so each is replaced by its rank among
  those of the file, and a line added or removed elsewhere changes nothing.

`interface` is a digest of exactly that, with each lambda in an expression named by its
scope. What lies outside it (function bodies' calls and other statements that bind no
mentioned name, comments, line shifts) cannot change another file's results, except
through container tokens: a token carries its literal's absolute position, and resolving
one reads the literal and the stores of its file. An evaluation that resolves a token of
a file, or whose result holds one, depends on that file's content (`Reads.texts`,
`incremental.FastGraph._hashed`); one that reads a function scope's bindings by attribute
name (a class and a function sharing a qualified name) also does.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import unicodedata

from codekith.graph.scopes import Binding, Pos, Scope

_WORDS = re.compile(r"\w+")
_OPEN_SCOPES = ("module", "class")  # scopes whose bindings any name may read


def _identifiers(text: str) -> str:
    """Text as the parser reads identifiers (NFKC), for the words of a string annotation."""
    return text if text.isascii() else unicodedata.normalize("NFKC", text)


class _At:
    """A position, written as its rank among the file's positions."""

    __slots__ = ("pos",)

    def __init__(self, pos: Pos) -> None:
        self.pos = pos


def interface(module: Scope) -> str:
    """A digest of what evaluating another file can read of the file `module` heads."""
    return _Interface(module).digest()


class _Interface:
    def __init__(self, module: Scope) -> None:
        self.module = module
        self.scopes = module.walk()
        self.number = {id(s): i for i, s in enumerate(self.scopes)}
        self.lambdas = {id(s.node): i for i, s in enumerate(self.scopes) if s.kind == "lambda"}
        self.names: set[str] = set()  # names the expressions that can be read mention
        self.local: dict[str, set[str]] = {}  # name -> names its function-scope values mention
        self.positions: set[Pos] = set()

    def digest(self) -> str:
        records = [self.record(scope) for scope in self.scopes]
        queue = list(self.names)  # a local is read if a name that can be read is its name
        while queue:
            for word in self.local.get(queue.pop(), ()):
                if word not in self.names:
                    self.names.add(word)
                    queue.append(word)
        for scope, record in zip(self.scopes, records, strict=True):
            bindings: dict[str, list[list[object]]] = record["bindings"]  # type: ignore[assignment]
            record["bindings"] = {
                name: [[kind, self.at(pos), *rest] for kind, pos, *rest in entries]  # type: ignore[arg-type]
                for name, entries in bindings.items()
                if scope.kind in _OPEN_SCOPES or name in self.names
            }
        rank = {pos: i for i, pos in enumerate(sorted(self.positions))}
        text = json.dumps(
            [self.module.module, records], default=lambda at: rank[at.pos], separators=(",", ":")
        )
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()

    def at(self, pos: Pos) -> _At:
        self.positions.add(pos)
        return _At(pos)

    def record(self, scope: Scope) -> dict[str, object]:
        """The scope's tables; binding positions are left raw (`digest` keeps the
        bindings that can be read, and only their positions are ranked)."""
        dump = self.dump
        parent = self.number[id(scope.parent)] if scope.parent is not None else -1
        return {
            "scope": [scope.qualname, scope.kind, parent],
            "params": scope.params,
            "defaults": {name: dump(e) for name, e in scope.defaults.items()},
            "annotations": {name: dump(e) for name, e in scope.annotations.items()},
            "decorators": [[dump(d), self.at((d.lineno, 0))] for d in scope.decorators],
            "bases": [dump(b) for b in scope.bases],
            "line": self.at((scope.line, 0)) if scope.kind == "class" else None,
            "returns": [dump(e) for e in scope.returns],
            "yields": [dump(y) for y in scope.yields],
            "inst_attrs": {
                name: [[dump(e), self.number[id(m)], self.at(pos)] for e, m, pos in entries]
                for name, entries in scope.inst_attrs.items()
            },
            "star_imports": [base for base, _line in scope.star_imports],
            "bindings": {
                name: [self.binding(name, b, scope) for b in bs]
                for name, bs in scope.bindings.items()
            },
        }

    def binding(self, name: str, b: Binding, scope: Scope) -> list[object]:
        """A binding's value is read when the binding is: always in a module or class
        scope, in a function scope only when something that is read mentions its name."""
        words = self.names if scope.kind in _OPEN_SCOPES else self.local.setdefault(name, set())
        node = self.dump(b.node, words) if b.kind in ("value", "iter") else None  # type: ignore[arg-type]
        target = self.number[id(b.scope)] if b.scope is not None else -1
        return [b.kind, b.pos, b.conditional, node, target, b.target, b.name]

    def dump(self, root: ast.AST | None, words: set[str] | None = None) -> list[object] | None:
        """The expression in preorder, without positions; a lambda as its scope's number.
        The names it mentions go to `words` (default: the names read). Iterative:
        generated code nests expressions thousands deep."""
        if root is None:
            return None
        words = self.names if words is None else words
        out: list[object] = []
        stack: list[object] = [root]
        while stack:
            item = stack.pop()
            if isinstance(item, ast.Lambda):
                out.append(["lambda", self.lambdas.get(id(item), -1)])
            elif isinstance(item, ast.AST):
                out.append(type(item).__name__)
                if isinstance(item, ast.Name):
                    words.add(item.id)
                elif isinstance(item, ast.Constant) and isinstance(item.value, str):
                    words.update(_WORDS.findall(_identifiers(item.value)))
                stack.extend(reversed([getattr(item, f, None) for f in item._fields]))
            elif isinstance(item, list):
                out.append(len(item))
                stack.extend(reversed(item))
            else:
                out.append(repr(item))
        return out
