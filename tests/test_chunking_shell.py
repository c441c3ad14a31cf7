"""Shell chunks: each top-level function is a chunk with the comment above it as its
docstring; the rest of the script is the module's."""

from __future__ import annotations

import textwrap

from codekith.chunking import chunk_file
from codekith.languages import language_of
from codekith.sidecode import is_test_path
from codekith.syntax import grammar_of
from tests.chunks import chunks_of

SCRIPT = """
    #!/usr/bin/env bash
    # Installs the tool for the current user.
    set -euo pipefail

    # Prints a message in green.
    # The terminal may not support colours.
    say() {
      printf '\\033[32m%s\\033[0m\\n' "$1"
    }

    # shellcheck disable=SC2120
    function cleanup {
      rm -rf "$TMP"
    }

    function install_to() {
      local target=$1
      inner() { say "inner"; }
      say "installing to $target" && cp tool "$target"
    }

    trap cleanup EXIT
    install_to "${1:-$HOME/bin}"
"""


def test_every_form_of_function_is_a_chunk_with_the_comment_above_as_its_docstring() -> None:
    chunks, error = chunks_of("scripts/install.sh", "shell", SCRIPT)
    assert error is None
    assert set(chunks) == {
        "scripts.install",
        "scripts.install.say",
        "scripts.install.cleanup",
        "scripts.install.install_to",  # `inner` is its code, not a chunk of its own
    }
    say = chunks["scripts.install.say"]
    assert say.kind == "function"
    assert say.docstring == "Prints a message in green. The terminal may not support colours."
    assert (say.start_line, say.end_line) == (8, 10)  # the source opens with a blank line
    assert say.signature == "say()"
    # a ShellCheck directive is no documentation, nor is the interpreter line
    assert chunks["scripts.install.cleanup"].docstring == ""
    assert "inner()" in chunks["scripts.install.install_to"].code
    module = chunks["scripts.install"]
    assert "trap cleanup EXIT" in module.code and "rm -rf" not in module.code


def test_bash_files_are_shell_and_broken_scripts_still_give_their_functions() -> None:
    assert language_of("lib/prompt.bash") == language_of("x.sh") == "shell"
    assert chunks_of("a.sh", "shell", "") == ({}, None)
    chunks, error = chunks_of("a.sh", "shell", "ok() { :; }\nbroken() {\n  if then\n")
    assert error and "a.ok" in chunks


FALLBACKS = """
    # Helpers that differ by bash version and platform.
    if ((BASH_VERSINFO[0] >= 4)); then
      # Whether every name is a command.
      function exists {
        type -t -- "$@" &>/dev/null
      }
    elif [[ -n ${ZSH_VERSION-} ]]; then
      exists() { whence -- "$@" >/dev/null; }
    else
      # Whether every name is a command (bash 3).
      function exists {
        while (($#)); do type -t -- "$1" >/dev/null || return 1; shift; done
      }
    fi

    case $OSTYPE in
      darwin*) opener() { open "$@"; } ;;
      *) opener() { xdg-open "$@"; } ;;
    esac

    for tool in git make; do
      eval "has_$tool() { exists $tool; }"
      loop_made() { :; }
    done
"""


def test_functions_an_if_or_case_at_the_top_defines_are_chunks_one_per_branch() -> None:
    """Frameworks define their most used helpers so (oh-my-bash's
    `_omb_util_command_exists`, one definition per bash version); a function a loop
    defines stays the loop's code."""
    result = chunk_file("lib/util.sh", "shell", textwrap.dedent(FALLBACKS))
    assert result.error is None
    functions = [
        (c.qualname, c.start_line, c.docstring) for c in result.chunks if c.kind == "function"
    ]
    assert functions == [
        ("lib.util.exists", 5, "Whether every name is a command."),
        ("lib.util.exists", 9, ""),
        ("lib.util.exists", 12, "Whether every name is a command (bash 3)."),
        ("lib.util.opener", 18, ""),
        ("lib.util.opener", 19, ""),
    ]
    assert len({c.id for c in result.chunks}) == len(result.chunks)
    module = next(c for c in result.chunks if c.kind == "module")
    assert "if ((BASH_VERSINFO[0] >= 4)); then" in module.code and "type -t" not in module.code
    assert "loop_made() { :; }" in module.code


BATS = """
    #!/usr/bin/env bats
    load test_helper

    setup() {
      export GREETING=hello
    }

    # The name the user gave comes back.
    @test "greets the user by name" {
      run greet "Ann"
      [ "$status" -eq 0 ]
    }

    @test 'fails without a name' { run -1 greet; }
"""


def test_a_bats_file_is_a_test_file_whose_tests_are_chunks_named_by_their_description() -> None:
    chunks, error = chunks_of("test/greet.bats", "shell", BATS)
    assert error is None
    assert set(chunks) == {
        "test.greet",
        "test.greet.setup",
        "test.greet.greets the user by name",
        "test.greet.fails without a name",
    }
    named = chunks["test.greet.greets the user by name"]
    assert (named.kind, named.start_line, named.end_line) == ("function", 10, 13)
    assert named.docstring == "The name the user gave comes back."
    assert named.signature == '@test "greets the user by name"'
    assert "load test_helper" in chunks["test.greet"].code
    assert language_of("test/greet.bats") == "shell"
    assert is_test_path("greet.bats") and not is_test_path("lib/greet.bash")


ZSH = """
    # Helpers of the command line.
    function _omz::log {
      print -P "%F{yellow}$*%f"
    }

    if (( $+commands[git] )); then
      # The current branch.
      git_branch() { command git symbolic-ref --short HEAD }
    fi

    () {
      local -a parts=(${(s:/:)PWD})
      _omz::log "in ${#parts} folders"
    }
"""


def test_zsh_files_are_read_by_the_zsh_grammar() -> None:
    """`.zsh`, `.zsh-theme` and `.zshrc` are shell read by tree-sitter-zsh (bash's grammar
    fails on most of oh-my-zsh); `_omz::log` is one name, and an anonymous function is
    the module's code."""
    for path in ("lib/cli.zsh", "themes/robbyrussell.zsh-theme", ".zshrc"):
        assert language_of(path) == "shell" and grammar_of(path, "shell") == "zsh"
    assert grammar_of(".bashrc", "shell") == "shell" and language_of(".bashrc") == "shell"
    chunks, error = chunks_of("lib/cli.zsh", "shell", ZSH)
    assert error is None
    assert set(chunks) == {"lib.cli", "lib.cli._omz::log", "lib.cli.git_branch"}
    assert chunks["lib.cli.git_branch"].docstring == "The current branch."
    assert "${(s:/:)PWD}" in chunks["lib.cli"].code


def test_a_script_whose_line_runs_zsh_is_read_by_the_zsh_grammar() -> None:
    """`bin/omz-tool` starting `#!/usr/bin/env zsh` is what a `.zsh` file is; a bash
    script of no suffix stays with bash's grammar."""
    script = "#!/usr/bin/env zsh\n" + textwrap.dedent(ZSH)
    assert grammar_of("bin/omz-tool", "shell", script.encode()) == "zsh"
    assert grammar_of("bin/deploy", "shell", b"#!/bin/bash\nmain() { :; }\n") == "shell"
    assert grammar_of("tool.sh", "shell", script.encode()) == "shell"  # the suffix decides
    chunks, error = chunks_of("bin/omz-tool", "shell", script)
    assert error is None
    assert set(chunks) == {"bin.omz-tool", "bin.omz-tool._omz::log", "bin.omz-tool.git_branch"}


def test_a_zsh_parse_that_would_not_end_falls_back_to_bash() -> None:
    """tree-sitter-zsh 0.63.4 loops forever on this bash idiom (oh-my-bash's
    bash-preexec.sh); the parse is given ZSH_PARSE_SECONDS, then bash's grammar reads
    the file, and the next zsh parse starts afresh."""
    looping = "strip() { x=\"${x//${y}[;$'\\n']}\"; }\nuse() { strip; }\n"
    chunks, _ = chunks_of("hooks.zsh", "shell", looping)
    assert set(chunks) == {"hooks.strip", "hooks.use"}
    chunks, error = chunks_of("lib/cli.zsh", "shell", ZSH)
    assert error is None and "lib.cli._omz::log" in chunks
