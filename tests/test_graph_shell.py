"""The shell call graph where the labeled bench does not reach: ShellCheck's `source=`
directive for a `source` whose path is held in a variable."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.index import GraphIndex
from tests.conftest import write_files
from tests.graphs import all_edges, files, graph

# two files define `log`: only what a script sources decides which one it calls
LIBRARIES = {
    "lib/log.sh": 'log() { echo "$*"; }\n',
    "vendor/other/log.sh": "log() { printf '%s' \"$*\"; }\n",
    "lib/my utils.sh": "trim() { echo; }\n",
}


def imports(root: Path) -> set[tuple[str, str]]:
    return {(e.src, e.dst) for e in all_edges(GraphIndex(root, files(root))) if e.kind == "import"}


def test_a_directive_names_the_file_a_variable_holds(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            **LIBRARIES,
            "bin/run.sh": """\
                # shellcheck source=lib/log.sh
                # shellcheck disable=SC2154
                source "$LOG_LIBRARY"
                # shellcheck disable=SC1091 source="./lib/my utils.sh"
                . "$UTILS" || exit 1
                main() { log started; trim; }
                """,
        },
    )
    assert imports(root) == {("bin.run", "lib.log"), ("bin.run", "lib.my utils")}
    assert {("bin.run.main", "lib.log.log"), ("bin.run.main", "lib.my utils.trim")} <= graph(root)
    assert ("bin.run.main", "vendor.other.log.log") not in graph(root)


def test_a_directive_is_the_comment_right_above(tmp_path: Path) -> None:
    """Apart by a blank line it is another statement's; `/dev/null` follows nothing, not
    even a tail the written path has (`$NVM_DIR/lib/log.sh` is the user's, not ours)."""
    root = write_files(
        tmp_path,
        {
            "lib/log.sh": LIBRARIES["lib/log.sh"],
            "apart.sh": '# shellcheck source=lib/log.sh\n\nsource "$LOG"\n',
            "null.sh": '# shellcheck source=/dev/null\nsource "$NVM_DIR/lib/log.sh"\n',
            "tail.sh": 'source "$NVM_DIR/lib/log.sh"\n',
        },
    )
    assert imports(root) == {("tail", "lib.log")}


def test_functions_defined_in_a_top_level_if_are_called_and_call(tmp_path: Path) -> None:
    """One qualname for every branch's definition: a call reaches it, and the calls in
    each body are that function's, not the file's."""
    root = write_files(
        tmp_path,
        {
            "lib/util.sh": """\
                if ((BASH_VERSINFO[0] >= 4)); then
                  exists() { type -t -- "$@" >/dev/null; }
                else
                  exists() { each_name "$@"; }
                fi
                each_name() { :; }
                """,
            "run.sh": "source lib/util.sh\nrun() { exists make; }\n",
        },
    )
    assert graph(root) == {
        ("run.run", "lib.util.exists"),
        ("lib.util.exists", "lib.util.each_name"),
    }


def test_bats_tests_load_helpers_and_run_functions(tmp_path: Path) -> None:
    """`load helper` reads `helper.bash` beside the test file; `run [options] f` calls f;
    a test's calls are the test's. Outside a `.bats` file `load` and `run` are commands
    like any other."""
    root = write_files(
        tmp_path,
        {
            "lib/greet.sh": 'greet() { echo "hello $1"; }\nrun() { :; }\n',
            "test/test_helper.bash": "source ../lib/greet.sh\nfixture() { :; }\n",
            "test/greet.bats": """\
                load test_helper

                @test "greets by name" {
                  run greet Ann
                  fixture
                }

                @test "fails without a name" { run -1 greet; run ! greet; }
                """,
            "other.sh": "load test_helper\nf() { run greet; }\n",
        },
    )
    assert graph(root) == {
        ("test.greet.greets by name", "lib.greet.greet"),
        ("test.greet.greets by name", "test.test_helper.fixture"),
        ("test.greet.fails without a name", "lib.greet.greet"),
        ("other.f", "lib.greet.run"),
    }
    assert ("test.greet", "test.test_helper") in imports(root)


def test_zsh_names_with_double_colons_are_called(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "lib/cli.zsh": 'function _omz::log {\n  print -- "$*"\n}\n',
            "plugins/git.plugin.zsh": """\
                function git_sync {
                  _omz::log syncing
                  command git pull
                }
                () {
                  _omz::log loaded
                }
                """,
        },
    )
    assert graph(root) == {
        ("plugins.git.plugin.git_sync", "lib.cli._omz::log"),
        ("plugins.git.plugin", "lib.cli._omz::log"),
    }


def test_a_tail_that_is_a_file_name_alone_names_a_file_beside_the_script_or_at_the_root(
    tmp_path: Path,
) -> None:
    """`${fzf_shell}/completion.zsh` is the user's fzf, not oh-my-zsh's `lib/completion.zsh`;
    `$plugin_dir/helpers.zsh` is the plugin's own, `$ZSH/oh-my-zsh.sh` the root's."""
    root = write_files(
        tmp_path,
        {
            "oh-my-zsh.sh": "omz_main() { :; }\n",
            "lib/completion.zsh": "complete_all() { :; }\n",
            "plugins/fzf/helpers.zsh": "fzf_help() { :; }\n",
            "plugins/fzf/fzf.plugin.zsh": (
                'source "${fzf_shell}/completion.zsh"\nsource "$plugin_dir/helpers.zsh"\n'
            ),
            "tools/chooser.sh": 'source "$ZSH/oh-my-zsh.sh"\n',
        },
    )
    assert imports(root) == {
        ("plugins.fzf.fzf.plugin", "plugins.fzf.helpers"),
        ("tools.chooser", "oh-my-zsh"),
    }
