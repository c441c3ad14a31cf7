"""The C call graph (graph/c_resolve) on small workspaces on disk: linking through
`#include`, what hides a function, odd files, and warm updates that agree with a cold build."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files, graph, update


def test_static_functions_are_seen_only_in_their_own_file_or_includers(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "a.c": "static int helper(void) { return 1; }\nint a(void) { return helper(); }\n",
            "b.c": "int helper(void) { return 2; }\n",
            "c.c": "int c(void) { return helper(); }\n",  # a.c's static is not c's helper
            "inl.h": "static inline int twice(int x) { return 2 * x; }\n",
            "d.c": '#include "inl.h"\nint d(void) { return twice(1); }\n',
            "e.c": "int e(void) { return twice(1); }\n",  # includes no inl.h
        },
    )
    assert graph(root) == {
        ("a.a", "a.helper"),
        ("c.c", "b.helper"),
        ("d.d", "inl.twice"),
    }


def test_includes_resolve_beside_the_file_under_include_roots_and_by_suffix(
    tmp_path: Path,
) -> None:
    root = write_files(
        tmp_path,
        {
            "include/proj/api.h": "int api(void);\n",
            "lib/api.c": '#include "proj/api.h"\nint api(void) { return 0; }\n',
            "tools/x/util.h": "int util(void);\n",
            "tools/x/util.c": '#include "util.h"\nint util(void) { return 1; }\n',
            "tools/y/util.c": "int util(void) { return 2; }\n",
            "tools/x/main.c": '#include <proj/api.h>\n#include "util.h"\n'
            "int main(void) { return api() + util(); }\n",
            "tools/main.c": '#include "x/util.h"\nint run(void) { return util(); }\n',
        },
    )
    assert graph(root) == {
        ("tools.x.main.main", "lib.api.api"),
        ("tools.x.main.main", "tools.x.util.util"),  # same directory, and implements util.h
        ("tools.main.run", "tools.x.util.util"),  # implements the header it includes
    }
    imports = {(e.src, e.dst) for e in all_edges(GraphIndex(root, files(root)))}
    assert ("tools.x.main", "include.proj.api") in imports
    assert ("tools.x.util", "tools.x.util") not in imports  # its own header: no import edge


def test_platform_variants_and_libc_shims_get_no_edge(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "fs.h": "int fs_open(const char *p);\n",
            "unix/fs.c": '#include "../fs.h"\nint fs_open(const char *p) { return 0; }\n',
            "win/fs.c": '#include "../fs.h"\nint fs_open(const char *p) { return 1; }\n',
            "unix/use.c": "int use(void) { return fs_open(0); }\n",
            "core.c": '#include "fs.h"\nint core(void) { return fs_open(0); }\n',
            "compat/snprintf.c": "int snprintf(char *b, unsigned n, const char *f, ...) {"
            " return 0; }\n",
            "log.c": '#include <stdio.h>\nvoid log_it(char *b) { snprintf(b, 4, "x"); }\n',
            # only the Windows runner includes the header, yet the Unix one sits beside it
            "test/task.h": "void notify(void);\n",
            "test/runner-unix.c": "void notify(void) {}\n",
            "test/runner-win.c": '#include "task.h"\nvoid notify(void) {}\n',
            "test/echo.c": '#include "task.h"\nint echo(void) { notify(); return 0; }\n',
            # shared code above the caller's directory competes with a platform's own
            "shared.c": "void fs_free(void) {}\n",
            "unix/zos.c": "void fs_free(void) {}\n",
            "unix/aix.c": "void aix(void) { fs_free(); }\n",
        },
    )
    assert graph(root) == {("unix.use.use", "unix.fs.fs_open")}


def test_macros_locals_and_pointers(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "mem.h": "#define mem_alloc(n) mem_alloc_at((n), __FILE__)\n",
            "old/mem.c": "void *mem_alloc(unsigned n) { return 0; }\n",
            "t.c": '#include "mem.h"\nvoid *t(void) { return mem_alloc(4); }\n',
            "ops.c": """
                static int one(int x) { return x; }
                static int two(int x) { return x; }
                struct ops { int (*run)(int); };
                int by_field(struct ops *o) { return o->run(1); }
                int by_param(int (*one)(int)) { return one(1); }
                int by_local(void) {
                    int (*fn)(int) = one;
                    fn(1);
                    fn = &two;
                    return (*fn)(2);
                }
                """,
        },
    )
    assert graph(root) == {("ops.by_local", "ops.one"), ("ops.by_local", "ops.two")}


def test_cpp_in_headers_is_left_out(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "util.c": "int size(void) { return 0; }\nint run(int m) { return m; }\n",
            "api.h": """
                int run(int mode);
                #ifdef __cplusplus
                inline int run(long mode) { return run((int)mode); }
                #endif
                """,
            "widget.h": """
                class Widget {
                  int size() { return 1; }
                  int area() { return size() * size(); }
                };
                namespace detail { inline int twice() { return size() * 2; } }
                """,
            "ext.h": 'extern "C++" {\ninline int run(char m) { return run((int)m); }\n}\n',
            "main.c": '#include "api.h"\n#include "ext.h"\nint main(void) { return run(1); }\n',
        },
    )
    assert graph(root) == {("main.main", "util.run")}


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    deep = "int deep(void) { return " + "(" * 3000 + "f()" + ")" * 3000 + "; }\n"
    nested = "void nest(void) { " + "{" * 2000 + " f(); " + "}" * 2000 + " }\n"
    root = write_files(
        tmp_path,
        {
            "ok.c": "int f(void) { return 1; }\nint k(void) { return f(); }\n",
            "broken.c": "int half( {\nint whole(void) { return f(); }\n",
            "deep.c": deep,
            "nested.c": nested,
            "empty.c": "",
            "empty.h": "",
            "binary.c": b"\xff\xfe\x00int g(void) { return f(); }\n",
        },
    )
    index = GraphIndex(root, files(root))
    assert calls(all_edges(index)) == {
        ("ok.k", "ok.f"),
        ("broken.whole", "ok.f"),  # tree-sitter recovered the intact function
        ("deep.deep", "ok.f"),
        ("nested.nest", "ok.f"),
    }
    assert index.broken == {"binary.c"}  # not text: left out, nothing else lost


EDITS: list[tuple[str, str | None]] = [
    ("lib/a.c", "static int helper(void) { return 1; }\n"),  # now invisible to main.c
    ("lib/b.c", '#include "b.h"\nint helper(void) { return 2; }\n'),
    ("lib/b.h", "int helper(void);\n"),
    ("app/main.c", '#include "../lib/b.h"\nint main(void) { return helper() + twice(); }\n'),
    ("lib/b.h", "int helper(void);\nstatic inline int twice(void) { return 2; }\n"),
    ("other/b.c", "int helper(void) { return 3; }\n"),  # a second one: b.c implements b.h
    ("lib/b.h", "#define helper() 4\nstatic inline int twice(void) { return 2; }\n"),
    ("lib/b.c", None),
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    """A change to one file changes the edges of the files that include or link it."""
    root = write_files(
        tmp_path / "ws",
        {
            "lib/a.c": "int helper(void) { return 1; }\n",
            "app/main.c": "int main(void) { return helper(); }\n",
        },
    )
    builder = GraphBuilder(root)

    seen = [update(builder, root)]
    for path, text in EDITS:
        if text is None:
            (root / path).unlink()
        else:
            write_files(root, {path: text})
        seen.append(update(builder, root))
    call = "call"
    assert ("app.main.main", "lib.a.helper", call) in seen[0]
    assert not any(e[0] == "app.main.main" for e in seen[1])  # helper turned static
    assert ("app.main.main", "lib.b.helper", call) in seen[4]
    assert ("app.main.main", "lib.b.twice", call) in seen[5]
    assert ("app.main.main", "lib.b.helper", call) in seen[6]  # b.c implements b.h
    assert ("app.main.main", "lib.b.helper", call) not in seen[7]  # now a macro of b.h
    assert seen[-1] == cold(root, tmp_path / "copy")


def test_a_function_opened_in_each_branch_of_an_if_has_its_calls(tmp_path: Path) -> None:
    """jq's `int umain(…) {` / `#else` / `int main(…) {` / `#endif`: main's calls were the
    module's, the parser having given up there."""
    root = write_files(
        tmp_path,
        {
            "main.c": """
                #ifdef WIN32
                int umain(int argc, char* argv[]) {
                #else
                int main(int argc, char* argv[]) {
                #endif
                  return run(argc);
                }

                int run(int n) { return n; }
                """,
        },
    )
    assert graph(root) == {("main.main", "main.run")}
