"""C: calls by name, linked the way a C build links them, through `#include`.

A call `f(...)` names the `f` of its own file (static or not), else a function defined
in a file it includes, directly or not (`static inline` in a header), else a non-static
`f` defined anywhere in the workspace. When several files define a non-static `f`
(programs side by side in one repository, `unix/` and `win/` variants), it is the one
implementing a header the caller includes, unless another sits beside it (variants),
else the one in the caller's directory, unless another is above it (shared code); else
no edge. A file's facts depend on its text alone; the linking (`Linker`) looks names,
paths and file names up in the evaluator's recorded tables (`c_rows`) and memoises each
file's include closure and each name it links, with what they read: an edit relinks only
the files whose lookups it changed.

Macros are not functions: a name `#define`d in the file or in a header it includes is
no call. A parameter or local hides a function; a local pointer set to a known function
(`fn = twice; fn(1)`) calls it; calls through struct fields (`ops->read(x)`) get no edge.
A C library function (`snprintf`) defined in another file is a platform shim: no edge.
Headers are read with the C++ grammar (`syntax.grammar_of`); C++ in them (classes,
namespaces, templates, `extern "C++"`, functions under `#ifdef __cplusplus`) is skipped, and
a header holding C++ is handed to `cpp_resolve` (with the linking facts read here).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, cast

from codekith.chunking.treesitter import Definition, definitions
from codekith.graph.frontend import (
    Extractor,
    Frontend,
    end,
    extracted,
    field_text,
    file_ending,
    line,
    one_function,
    pos,
)
from codekith.graph.syntax_model import (
    EMPTY,
    UNKNOWN,
    Binding,
    Call,
    Expr,
    FileFacts,
    Import,
    Known,
    Name,
    Scope,
    Site,
    Value,
    Values,
)
from codekith.qualnames import module_name
from codekith.syntax import Node, grammar_of, parse, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator

# declarators that wrap a name: `*p`, `a[4]`, `(*fp)`, `f(int)`, `x = 1`
_WRAPPERS = frozenset(
    {
        "pointer_declarator",
        "array_declarator",
        "parenthesized_declarator",
        "function_declarator",
        "init_declarator",
        "attributed_declarator",
        "reference_declarator",
    }
)
_NAMES = frozenset({"identifier", "field_identifier", "type_identifier"})
# C++ in a header: its calls are methods and namespaced functions, not C's
_CPP_ONLY = ("namespace_definition", "class_specifier", "template_declaration")
_COMMENTS = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)
_MENTIONS = re.compile(rb"\b([A-Za-z_]\w*)\s*\(")
# C library functions: another file of the workspace that defines one (`snprintf` for old
# MSVC, `strlcpy` where libc lacks it) is a shim some platforms link, not what calls reach
_LIBC_NAMES = """
printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf asprintf vasprintf
dprintf scanf fscanf sscanf vscanf vfscanf vsscanf fopen fdopen freopen fclose fflush
fread fwrite fgets fputs puts putchar getchar fgetc fputc getc putc ungetc fseek ftell
fseeko ftello rewind feof ferror clearerr perror remove rename tmpfile setvbuf setbuf
fileno popen pclose getline getdelim malloc calloc realloc reallocarray free aligned_alloc
posix_memalign abort exit atexit getenv setenv unsetenv putenv system qsort bsearch abs
labs llabs atoi atol atoll atof strtol strtoul strtoll strtoull strtod strtof strtold rand
srand random srandom mkstemp mkdtemp realpath memcpy memmove memset memcmp memchr memrchr
memmem strcpy strncpy strcat strncat strcmp strncmp strchr strrchr strstr strcasestr
strspn strcspn strpbrk strtok strtok_r strlen strnlen strerror strerror_r strdup strndup
strlcpy strlcat strsep strcasecmp strncasecmp stpcpy isalnum isalpha isdigit isspace
isupper islower isxdigit isprint ispunct toupper tolower time clock mktime timegm gmtime
localtime gmtime_r localtime_r strftime strptime gettimeofday clock_gettime nanosleep
sleep usleep open close read write lseek pipe dup dup2 fork waitpid kill getpid unlink
mkdir rmdir stat fstat lstat access chdir getcwd opendir readdir closedir basename dirname
signal sigaction select poll socket connect bind listen accept send recv sendto recvfrom
getaddrinfo freeaddrinfo inet_pton inet_ntop
"""
_LIBC = frozenset(_LIBC_NAMES.split())


@dataclass(eq=False)
class CFacts(FileFacts):
    """A C file's facts plus what linking needs: its includes, prototypes and macros."""

    includes: list[tuple[str, bool]] = field(default_factory=list)  # (spec, quoted)
    declared: set[str] = field(default_factory=set)  # names written before a `(`: what a
    # header declares (prototypes often sit in an ERROR node: `extern "C" {` under `#ifdef`)
    macros: set[str] = field(default_factory=set)  # names `#define`d here
    defined: dict[str, tuple[str, bool]] = field(default_factory=dict)  # name -> (qualname,
    # static) of each top-level function defined here


class CExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.c_facts = CFacts(path, language, module_name(path), Scope("module", None))
        self.c_facts.definitions = self.facts.definitions
        self.facts = self.c_facts
        self.handlers.update(
            {
                "function_definition": self.function_definition,
                "declaration": self.declaration,
                "assignment_expression": self.assignment,
                "call_expression": self.call,
                "preproc_include": self.include,
                "preproc_def": self.macro,
                "preproc_function_def": self.macro,
                "field_declaration_list": self.skip,  # struct bodies: fields, C++ methods
                "linkage_specification": self.linkage,
                "preproc_ifdef": self.ifdef,
                **dict.fromkeys(_CPP_ONLY, self.skip),
            }
        )

    def skip(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        return None

    def linkage(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`extern "C" {…}` holds C; `extern "C++" {…}` overloads in a C header do not."""
        return None if "C++" in field_text(node, "value") else scope

    def ifdef(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Functions right inside `#ifdef __cplusplus` are C++ overloads, unseen by C (the
        `extern "C" {` opener such a block usually holds wraps the header, and is kept)."""
        if node.children[0].type != "#ifdef" or field_text(node, "name") != "__cplusplus":
            return scope
        for child in reversed(node.named_children):
            if child.type != "function_definition":
                self.visit(child, scope, owner)
        return None

    # -- file level ------------------------------------------------------------------------
    def include(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        path = node.child_by_field_name("path")
        if path is None or path.type not in ("string_literal", "system_lib_string"):
            return None  # `#include MACRO`
        spec = text(path).strip().strip('"<>').strip()
        quoted = path.type == "string_literal"
        if spec:
            self.c_facts.includes.append((spec, quoted))
            self.facts.imports.append((Import(("q:" if quoted else "a:") + spec), line(node)))
        return None

    def macro(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A macro hides a function of the same name: its calls expand to something else."""
        name = text(node.child_by_field_name("name"))
        if name:
            self.c_facts.macros.add(name)
            self.facts.scope.bind(name, Binding(pos(node), UNKNOWN))
        return None

    def function_definition(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        definition = self.definition(node)
        if definition is not None and definition.kind == "method":
            return None  # C++ `A::f() {…}` in a header
        declarator = _function_declarator(node.child_by_field_name("declarator"))
        name = _name_of(declarator.child_by_field_name("declarator")) if declarator else ""
        static = any(
            c.type == "storage_class_specifier" and text(c) == "static" for c in node.children
        )
        if definition is not None and name == definition.name:
            self.facts.scope.bind(
                name, Binding(pos(node), Known(Value("func", definition.qualname)))
            )
            self.c_facts.defined.setdefault(name, (definition.qualname, static))
        body = Scope("function", scope)
        if declarator is not None:
            self.parameters(declarator.child_by_field_name("parameters"), body)
        self.visit(node.child_by_field_name("body"), body, owner)
        return None

    def parameters(self, node: Node | None, scope: Scope) -> None:
        for parameter in node.named_children if node is not None else []:
            if parameter.type == "identifier":  # K&R `f(a, b) int a; …`
                scope.bind(text(parameter), Binding(pos(parameter), UNKNOWN))
            elif parameter.type in ("parameter_declaration", "optional_parameter_declaration"):
                name = _name_of(parameter.child_by_field_name("declarator"))
                scope.bind(name, Binding(pos(parameter), UNKNOWN))

    def declaration(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """A prototype declares; a variable hides a function of its name, and a local one
        set to a plain function name (`int (*op)(int) = twice;`) holds that function."""
        for declarator in node.children_by_field_name("declarator"):
            name = _name_of(declarator)
            if _is_prototype(declarator):
                continue
            value = declarator.child_by_field_name("value")
            held = _function_named(value) if scope.kind == "function" else None
            at = end(declarator) if scope.kind == "function" else pos(node)
            scope.bind(name, Binding(at, Name(text(held), pos(held)) if held else UNKNOWN))
        return scope

    def assignment(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """`fn = other;` of a local: it holds `other` from here on."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if (
            left is not None
            and left.type == "identifier"
            and text(node.child_by_field_name("operator")) == "="
        ):
            declaring = scope.declaring(text(left))
            if declaring is not None and declaring.kind == "function":
                held = _function_named(right)
                expr: Expr = Name(text(held), pos(held)) if held else UNKNOWN
                declaring.bind(text(left), Binding(end(node), expr))
        return scope

    # -- calls -----------------------------------------------------------------------------
    def call(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        callee = _callee(node.child_by_field_name("function"))
        expr: Expr = Name(text(callee), pos(callee)) if callee is not None else UNKNOWN
        self.facts.sites.append(Site(owner, scope, Call(expr), line(node)))
        return scope


def _name_of(declarator: Node | None) -> str:
    """The name a declarator declares: `p` of `*p`, `fp` of `(*fp)(int)`, `a` of `a[4] = …`."""
    node = declarator
    while node is not None and node.type in _WRAPPERS:
        node = node.child_by_field_name("declarator") or (
            node.named_children[0] if node.named_children else None
        )
    return text(node) if node is not None and node.type in _NAMES else ""


def _function_declarator(declarator: Node | None) -> Node | None:
    """The `f(…)` of a definition's declarator (`*f(void)` returns a pointer)."""
    node = declarator
    while node is not None and node.type in ("pointer_declarator", "attributed_declarator"):
        node = node.child_by_field_name("declarator")
    return node if node is not None and node.type == "function_declarator" else None


def _is_prototype(declarator: Node) -> bool:
    """`int f(void);` and `char *g(int);` declare functions; `int (*fp)(int);` a variable."""
    function = _function_declarator(declarator)
    inner = function.child_by_field_name("declarator") if function is not None else None
    return inner is not None and inner.type == "identifier"


def _function_named(value: Node | None) -> Node | None:
    """`twice` of `= twice` or `= &twice`: a name a pointer may be set to."""
    if value is not None and value.type == "pointer_expression" and text(value.children[0]) == "&":
        value = value.child_by_field_name("argument")
    return value if value is not None and value.type == "identifier" else None


def _callee(node: Node | None) -> Node | None:
    """The name called: `f` of `f(x)`, `(f)(x)` and `(*f)(x)`; None for `ops->f(x)`."""
    while node is not None:
        if node.type == "identifier":
            return node
        if node.type == "parenthesized_expression" and node.named_children:
            node = node.named_children[0]
        elif node.type == "pointer_expression" and text(node.children[0]) == "*":
            node = node.child_by_field_name("argument")
        else:
            return None
    return None


class Defined(NamedTuple):
    """A top-level function definition, as the linker lists them by name."""

    path: str
    qualname: str
    static: bool


def c_rows(facts: CFacts) -> Iterator[tuple[str, str, object]]:
    """The rows a C file (or a C++ one: C links against it too) adds to the linker's
    tables: its path, its file name, its top-level functions by name."""
    yield "c.files", facts.path, facts.path
    yield "c.by_base", posixpath.basename(facts.path), facts.path
    for name, (qualname, static) in facts.defined.items():
        yield "c.by_name", name, Defined(facts.path, qualname, static)


class Linker:
    """What the C files define and include, looked up in the evaluator's recorded tables
    (`c_rows`); include targets, closures and the function a name links to are memoised
    with what they read, so an edit recomputes only what it reaches."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self.tables = evaluator.tables
        self.paths = evaluator.tables.of("c.files")
        self.by_base = evaluator.tables.of("c.by_base")  # file name -> paths
        self.by_name = evaluator.tables.of("c.by_name")  # function name -> Defined

    def facts(self, path: str) -> CFacts:
        """A C file's facts, its declarations read (includes, macros, prototypes and
        definitions are all outside function bodies)."""
        self.evaluator.recorder.reads.add(self.evaluator.index.decl_read(path))
        return cast(CFacts, self.evaluator.index.files[path])

    def include(self, source: str, spec: str, quoted: bool) -> str | None:
        """The workspace file `#include spec` names: beside the including file (quoted
        includes), else the file whose path ends with spec, nearest the includer."""
        here = posixpath.dirname(source)
        if quoted:
            beside = posixpath.normpath(posixpath.join(here, spec))
            if beside in self.paths:
                return beside
        spec = posixpath.normpath(spec)
        if spec.startswith("../"):
            return None
        return file_ending(self.by_base.get(posixpath.basename(spec)), spec, source)

    def includes(self, path: str) -> list[str]:
        return self.evaluator.memoised(("c.includes", path), lambda: self._includes(path), [])

    def _includes(self, path: str) -> list[str]:
        found = (self.include(path, spec, quoted) for spec, quoted in self.facts(path).includes)
        return [p for p in dict.fromkeys(found) if p and p != path]

    def closure(self, path: str) -> frozenset[str]:
        """Every file `path` includes, directly or through others."""
        return self.evaluator.memoised(
            ("c.closure", path), lambda: self._closure(path), frozenset()
        )

    def _closure(self, path: str) -> frozenset[str]:
        seen: set[str] = set()
        pending = list(self.includes(path))
        while pending:
            current = pending.pop()
            if current not in seen and current != path:
                seen.add(current)
                pending += self.includes(current)
        return frozenset(seen)

    def included_macros(self, path: str) -> frozenset[str]:
        """The names the files `path` includes `#define`: no function of theirs is called."""
        return self.evaluator.memoised(
            ("c.macros", path), lambda: self._included_macros(path), frozenset()
        )

    def _included_macros(self, path: str) -> frozenset[str]:
        return frozenset(name for p in self.closure(path) for name in self.facts(p).macros)

    def function(self, name: str, caller: str) -> Values:
        return self.evaluator.memoised(
            ("c.function", caller, name), lambda: self._function(name, caller), EMPTY
        )

    def _function(self, name: str, caller: str) -> Values:
        """The `name` a file without its own sees: see the module docstring for the order."""
        seen = self.closure(caller)
        if name in self.included_macros(caller):
            return EMPTY
        definitions = [d for d in self.by_name.get(name) if d.path != caller]
        included = {d.qualname for d in definitions if d.path in seen}
        if included or name in _LIBC:  # another file's `snprintf` is a shim for some platform
            return one_function(included)
        candidates = [d for d in definitions if not d.static]
        if len({d.qualname for d in candidates}) <= 1:
            return one_function({d.qualname for d in candidates})
        implementing = [d for d in candidates if self.implements(d.path, name, seen)]
        if len({d.qualname for d in implementing}) == 1:
            chosen = implementing[0]
            variants = [d for d in candidates if _dir(d.path) == _dir(chosen.path)]
            if len({d.qualname for d in variants}) == 1:
                return one_function({chosen.qualname})
        here = _dir(caller)
        if any(_above(_dir(d.path), here) for d in candidates):
            return EMPTY  # shared code (src/uv-common.c) competes with src/unix/os390.c
        return one_function({d.qualname for d in candidates if _dir(d.path) == here})

    def implements(self, path: str, name: str, seen: frozenset[str]) -> bool:
        """Whether `path` defines what a header among `seen` declares: the header is one
        `path` includes, or is named like it (`foo.h` of `foo.c`)."""
        paired = posixpath.splitext(path)[0] + ".h"
        reached = self.closure(path)
        return any(
            name in self.facts(header).declared
            for header in seen
            if header == paired or header in reached
        )


def _dir(path: str) -> str:
    return posixpath.dirname(path)


def _above(directory: str, here: str) -> bool:
    """Whether `directory` holds `here` (and is not it): `src` holds `src/unix`."""
    return directory != here and (not directory or here.startswith(directory + "/"))


class CFrontend(Frontend):
    languages = ("c",)
    extractor = CExtractor

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self._linker: Linker | None = None

    def extract(self, path: str, language: str, source: bytes) -> FileFacts:
        """The facts, and the names the text writes before a `(` (what a header declares:
        its prototypes may sit in ERROR nodes, which tree-sitter leaves unstructured)."""
        grammar = grammar_of(path, language)
        root = parse(grammar, source).root_node
        found = definitions(root, path, grammar)
        facts = extracted(self.extractor(path, language, root, found))
        if not isinstance(facts, CFacts):
            return facts
        code = _COMMENTS.sub(b" ", source)
        facts.declared = {m.decode("utf-8", "replace") for m in _MENTIONS.findall(code)}
        if grammar != "cpp":
            return facts
        from codekith.graph.cpp_resolve import cpp_header  # imports this module

        return cpp_header(path, root, found, facts)  # a header holding C++: C++'s reading

    def linker(self, evaluator: Evaluator) -> Linker:
        """The lookups of the evaluator's tables (made again when they are built again)."""
        if self._linker is None or self._linker.tables is not evaluator.tables:
            self._linker = Linker(evaluator)
        return self._linker

    def rows(self, facts: FileFacts) -> Iterator[tuple[str, str, object]]:
        """`c_rows`, and the functions again in `c.plain`: C++ links against a C file's
        functions by name, beside its own names (a C++ file is never this front end's)."""
        if not isinstance(facts, CFacts):
            return
        yield from c_rows(facts)
        for name, (qualname, static) in facts.defined.items():
            yield "c.plain", name, Defined(facts.path, qualname, static)

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        if not isinstance(facts, CFacts):
            return EMPTY
        return self.linker(evaluator).function(name, facts.path)

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """An include as a module (for import edges); a file's own header is no import."""
        kind, _, target = spec.partition(":")
        found = self.linker(evaluator).include(facts.path, target, kind == "q")
        if found is None or module_name(found) == facts.module:
            return EMPTY
        return frozenset({Value("module", found)})
