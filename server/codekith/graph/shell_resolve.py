"""Shell (bash) front end: a command calls the function of its name.

Shell functions live in one global namespace: whatever a script defines or sources is
callable by name from then on. A command word resolves, in this order, to

1. a top-level function of the file itself, wherever the file defines it (a function body
   runs after the whole script is read);
2. a top-level function of a file it sources (`source F`, `. F`), directly or through the
   files those source (a sourced file's own function hides those of the files it
   sources). F is a literal path from the file's folder or the workspace root, or a
   literal tail after a prefix for the script's folder (`"$DIR/lib/log.sh"`,
   `"${BASH_SOURCE%/*}/log.sh"`, `"$(dirname "$0")/log.sh"`): the file ending so, the
   nearest of several; a tail that is a file name alone names a file beside the script
   or at the root, else none (`"$NVM_DIR/nvm.sh"` is the user's nvm, not a workspace
   `lib/nvm.sh`). A ShellCheck directive in the comment right above
   (`# shellcheck source=lib/log.sh`, for `source "$logfile"`) names F instead, as it does
   for ShellCheck;
3. the one function of that name in the workspace, unless the name is a builtin or a
   common command: frameworks source their files in loops (`for f in lib/*.sh; do
   source "$f"; done`), which names no file.

A function defined inside another one (or inside a loop) is no node: its calls count
for the definition around it, and a call of it has no edge. One an `if` or `case` at the
top defines (a fallback per bash version or platform) is a node, one per branch under
one qualname. `command f`, `builtin f`, `exec f` and the like run programs, not
functions; names in strings (`trap 'f' EXIT`) and commands held in variables are not
calls.

In a Bats test file (`.bats`) each `@test` block owns the calls in its body, `load
helper` sources `helper.bash` beside the test, and `run [options] f args` calls f.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from codekith.chunking.treesitter import Definition, shell_function_name
from codekith.graph.frontend import Extractor, Frontend, file_ending, line, pos, words
from codekith.graph.syntax_model import (
    EMPTY,
    UNKNOWN,
    Binding,
    Call,
    FileFacts,
    Import,
    Known,
    Name,
    Scope,
    Site,
    Value,
    Values,
)
from codekith.syntax import Node, text

if TYPE_CHECKING:
    from codekith.graph.syntax_engine import Evaluator

START = (0, 0)  # a shell function is callable from anywhere in the file that defines it
FUNCTION_NAME = re.compile(r"[A-Za-z_][\w:.@+-]*")
# the script's folder or another root, before the literal tail of a sourced path
DIRECTORY_PREFIX = re.compile(r"^.*(\$\w+|[)}])/*")  # up to the last `$DIR`, `}` or `)`
SOURCE_DIRECTIVE = re.compile(
    r"""#\s*shellcheck\s+(?:\S+\s+)*?source=(?:"([^"]*)"|'([^']*)'|(\S+))"""
)
# what holds a command in one statement (`source "$f" || exit`, `! f`, `f > log`)
STATEMENT_PARTS = frozenset({"list", "pipeline", "negated_command", "redirected_statement"})
# run their arguments as programs, or only ask about a name: no call of a function
NOT_CALLING = words(
    "command builtin exec sudo env xargs nohup type declare typeset unset alias trap eval",
    "hash which timeout nice time",
)
# builtins and common commands: a function of this name elsewhere is no target of the
# unsourced fallback (a `git()` wrapper in one script is not what every script runs)
COMMANDS = words(
    "alias bg bind break builtin caller cd command compgen complete compopt continue declare",
    "dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs",
    "kill let local logout mapfile popd printf pushd pwd read readarray readonly return set",
    "shift shopt source suspend test times trap true type typeset ulimit umask unalias unset",
    "wait awk basename bash cat chmod chown cp curl cut date diff dirname du env expr find",
    "git grep gzip head hostname id install jq less ln ls make mkdir mktemp mv node npm open",
    "perl ps python python3 readlink realpath rm rmdir rsync scp sed seq sh sleep sort ssh",
    "stat sudo tail tar tee touch tput tr uname uniq wc wget which xargs yes zip unzip docker",
    "kubectl brew apt apt-get yum dnf pip pip3 go cargo ruby gem java mvn gradle npx yarn",
)


class ShellExtractor(Extractor):
    def __init__(self, path: str, language: str, root: Node, found: list[Definition]):
        super().__init__(path, language, root, found)
        self.handlers.update({"function_definition": self.function, "command": self.command})
        self.bats = path.endswith(".bats")  # `load` and `run` are Bats' own commands

    def function(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        """Bind the name in the file's one namespace (a body has no names of its own)."""
        definition = self.definition(node)
        name = shell_function_name(node)
        if not name:  # zsh's anonymous `() { … }` runs where it stands: its calls are ours
            return scope
        if definition is None:  # inside another definition: no node, and not a target
            self.facts.scope.bind(name, Binding(START, UNKNOWN))
        else:
            self.facts.scope.bind(name, Binding(START, Known(Value("func", definition.qualname))))
        return scope

    def command(self, node: Node, scope: Scope, owner: str) -> Scope | None:
        word = _command_word(node)
        if word in ("source", "."):
            self.source(node, _directed(node) or _sourced(node))
        elif self.bats and word == "load":  # `load helper` reads helper.bash beside the test
            spec = _sourced(node)
            self.source(node, spec if not spec or PurePosixPath(spec).suffix else f"{spec}.bash")
        elif self.bats and word == "run":  # `run -1 f args` runs the function f
            self.call(node, _run_target(node), scope, owner)
        elif word not in NOT_CALLING:
            self.call(node, word, scope, owner)
        return scope

    def source(self, node: Node, spec: str) -> None:
        if spec:
            sourced = Import(spec)
            self.facts.import_stars.append(sourced)  # its functions are callable here
            self.facts.export_stars.append(sourced)  # and where this file is sourced
            self.facts.imports.append((sourced, line(node)))

    def call(self, node: Node, word: str, scope: Scope, owner: str) -> None:
        if word and FUNCTION_NAME.fullmatch(word):
            self.facts.sites.append(Site(owner, scope, Call(Name(word, pos(node))), line(node)))


def _command_word(node: Node) -> str:
    """The command's name when it is a plain word (not `$cmd` nor `"${x}"`); zsh's grammar
    reads `foo::bar` as words that touch: in one concatenation, or as the name `foo::`
    and the argument `bar`."""
    name = node.child_by_field_name("name")
    word = name.named_children[0] if name is not None and name.named_children else None
    if word is not None and word.type == "concatenation":
        plain = all(part.type == "word" for part in word.named_children)
        return text(word) if plain else ""
    if word is None or word.type != "word":
        return ""
    found, end = text(word), word.end_byte
    for argument in node.children_by_field_name("argument"):
        if argument.start_byte != end or argument.type != "word":
            break
        found, end = found + text(argument), argument.end_byte
    return found


def _run_target(node: Node) -> str:
    """The command Bats' `run` runs: its first argument after the options (`-1`, `!`,
    `--separate-stderr`), when a plain word."""
    for argument in node.children_by_field_name("argument"):
        found = text(argument)
        if argument.type == "number" or found == "!" or found.startswith("-"):
            continue
        return found if argument.type == "word" else ""
    return ""


def _sourced(node: Node) -> str:
    """The path a `source` command names, as written, quotes taken off; "" for none."""
    arguments = node.children_by_field_name("argument")
    if not arguments:
        return ""
    return re.sub(r"""["']""", "", text(arguments[0]))


def _directed(node: Node) -> str:
    """The path a `# shellcheck source=PATH` directive in the comments right above the
    command's statement names ("" for none; `/dev/null`, ShellCheck's "follow nothing",
    names no workspace file)."""
    statement = node
    while statement.parent is not None and statement.parent.type in STATEMENT_PARTS:
        statement = statement.parent
    above, row = statement.prev_sibling, statement.start_point[0]
    while above is not None and above.type == "comment" and above.end_point[0] == row - 1:
        directive = SOURCE_DIRECTIVE.match(text(above))
        if directive:
            return next(group for group in directive.groups() if group is not None)
        row = above.start_point[0]
        above = above.prev_sibling
    return ""


def _candidates(spec: str, path: str) -> tuple[list[str], str]:
    """The paths `spec` may name read literally (from the file's folder, from the root),
    and the literal tail to match against every file's end when a prefix is a variable."""
    tail = DIRECTORY_PREFIX.sub("", spec)
    if not tail or any(c in tail for c in "$`*?[~"):  # a variable or a glob: no one file
        return [], ""
    if tail != spec:
        return [], tail.lstrip("/")
    here = posixpath.dirname(path)
    literal = [posixpath.normpath(posixpath.join(here, spec)), posixpath.normpath(spec)]
    return [p for p in literal if not p.startswith("..")], ""


class ShellFrontend(Frontend):
    languages = ("shell",)
    extractor = ShellExtractor

    def rows(self, facts: FileFacts) -> Iterator[tuple[str, str, object]]:
        """Each top-level function by name ("shell.functions": its qualname), each file by
        its file name ("shell.files": its path), for sourced tails."""
        yield "shell.files", PurePosixPath(facts.path).name, facts.path
        for name, bindings in facts.scope.bindings.items():
            for binding in bindings:
                if isinstance(binding.expr, Known):
                    yield "shell.functions", name, binding.expr.value.name

    def resolve(self, spec: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """The file a `source` names."""
        literal, tail = _candidates(spec, facts.path)
        for candidate in literal:
            if candidate != facts.path and candidate in evaluator.files:
                return frozenset({Value("module", candidate)})
        if not tail:
            return EMPTY
        named = evaluator.tables.of("shell.files").get(PurePosixPath(tail).name)
        if "/" not in tail:  # `$fzf_shell/completion.zsh`: beside the script, or none
            near = {posixpath.dirname(facts.path), ""}
            named = [p for p in named if posixpath.dirname(p) in near]
        chosen = file_ending(named, tail, facts.path)
        return frozenset({Value("module", chosen)}) if chosen else EMPTY

    def fallback(self, name: str, facts: FileFacts, evaluator: Evaluator) -> Values:
        """A function neither the file nor what it sources defines: the workspace's one
        function of that name, unless the name is a command's."""
        if name in COMMANDS:
            return EMPTY
        defined = set(evaluator.tables.of("shell.functions").get(name))
        return frozenset({Value("func", defined.pop())}) if len(defined) == 1 else EMPTY
