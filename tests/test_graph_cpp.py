"""The C++ call graph (graph/cpp_resolve) on small workspaces on disk: name lookup through
namespaces and includes, what gets no edge, headers beside C, odd files, and warm updates
that agree with a cold build."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files, graph, update


def test_names_are_looked_up_through_namespaces_and_includes(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "util.h": """
                namespace util {
                int clamp(int v);
                namespace detail { int raw(int v); }
                }
                int clamp(int v);
                """,
            "util.cpp": """
                #include "util.h"
                namespace util {
                namespace detail { int raw(int v) { return v; } }
                int clamp(int v) { return detail::raw(v); }
                }
                int clamp(int v) { return v; }
                """,
            "hidden.cpp": "namespace util { int secret() { return 1; } }\n",
            "a.cpp": """
                #include "util.h"
                namespace app {
                int global() { return ::clamp(1); }
                int inner() { return util::clamp(2); }
                }
                int plain() { return clamp(3); }
                int secret_caller() { return util::secret(); }
                """,
            "b.cpp": """
                #include "util.h"
                using namespace util;
                namespace u = util::detail;
                int by_alias() { return u::raw(1); }
                """,
            "c.cpp": """
                #include "util.h"
                using util::clamp;
                namespace {
                int helper() { return 0; }
                }
                int declared() { return clamp(1) + helper(); }
                """,
            "d.cpp": "int helper() { return 1; }\nint other() { return helper(); }\n",
            "e.cpp": "int e() { return helper(); }\n",  # declares no helper
        },
    )
    assert graph(root) == {
        ("util.clamp", "util.raw"),
        ("a.global", "util.clamp"),
        ("a.inner", "util.clamp"),
        ("a.plain", "util.clamp"),
        ("b.by_alias", "util.raw"),
        ("c.declared", "util.clamp"),
        ("c.declared", "c.helper"),  # its anonymous namespace's, not d.cpp's
        ("d.other", "d.helper"),
    }


def test_members_constructors_and_bases(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "include/shape.h": """
                #pragma once
                #include <memory>
                #include <vector>
                namespace geo {
                class Shape {
                 public:
                  explicit Shape(int id);
                  virtual ~Shape() = default;
                  virtual int area() const = 0;
                  virtual int id() const { return id_; }
                 private:
                  int id_;
                };
                class Square : public Shape {
                 public:
                  Square();
                  int area() const override;
                  int id() const override;
                };
                struct Plain { int x; };
                }
                """,
            "src/shape.cpp": """
                #include "shape.h"
                namespace geo {
                Shape::Shape(int id) : id_(id) {}
                Square::Square() : Shape(4) {}
                int Square::area() const { return Shape::id() * 2; }
                }
                """,
            "src/main.cpp": """
                #include <memory>
                #include "shape.h"
                using geo::Shape;
                int total(const std::vector<std::unique_ptr<Shape>>& all, Shape* one) {
                  int sum = one->area() + one->id();
                  for (const auto& s : all) sum += s->id();
                  return sum;
                }
                int main() {
                  auto sq = std::make_unique<geo::Square>();
                  geo::Square other;
                  geo::Plain plain{1};
                  std::unique_ptr<Shape> base = std::move(sq);
                  base.reset();
                  return other.area() + other.id() + base->id();
                }
                """,
        },
    )
    assert graph(root) == {
        ("shape.Square.Square", "shape.Shape.Shape"),
        ("shape.Square.area", "include.shape.Shape.id"),
        # one->area() is pure virtual: no node; Square::id is declared only: no edge
        ("main.total", "include.shape.Shape.id"),
        ("main.main", "shape.Square.Square"),
        ("main.main", "shape.Square.area"),
        ("main.main", "include.shape.Shape.id"),
    }


def test_what_gets_no_edge(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "lib.hpp": """
                #pragma once
                #include <functional>
                struct Job { void run() const {} };
                struct Other { void run() const {} };
                template <typename T> struct Codec;
                template <> struct Codec<int> { static int encode(int v) { return v; } };
                template <> struct Codec<long> { static long encode(long v) { return v; } };
                #define RUN(x) (x).run()
                template <typename J> void run_all(const J& job) { job.run(); }
                inline void each(const std::function<void()>& fn) { fn(); }
                """,
            "use.cpp": """
                #include "lib.hpp"
                void use(Job* unknown_owner) {
                  auto lambda = [] { return 1; };
                  lambda();
                  int encoded = Codec<int>::encode(1);
                  Job job;
                  RUN(job);
                  auto copy = make_thing();
                  copy.run();
                  each([] {});
                  unknown_owner->run();
                }
                """,
        },
    )
    assert graph(root) == {
        ("use.use", "lib.each"),
        ("use.use", "lib.Job.run"),  # `unknown_owner` is declared a Job*
    }


WIDGET = """
    class Widget {
     public:
      int size() { return 1; }
      int area() { return size() * size(); }
    };
    namespace detail { inline int twice() { return size() * 2; } }
    """


def test_headers_are_cpp_beside_cpp_sources_only(tmp_path: Path) -> None:
    """A `.h` holding C++ in a C workspace keeps the C front end's reading (its C++ left
    out); beside a C++ source it is C++, and C files still link against its C parts."""
    c_only = {
        "util.c": "int size(void) { return 0; }\n",
        "widget.h": WIDGET + "static inline int c_side(void) { return size(); }\n",
        "main.c": '#include "widget.h"\nint main(void) { return c_side(); }\n',
    }
    root = write_files(tmp_path / "c", c_only)
    assert graph(root) == {("widget.c_side", "util.size"), ("main.main", "widget.c_side")}
    mixed = write_files(
        tmp_path / "mixed",
        {
            **c_only,
            "util.h": "int size(void);\n",
            "app.cpp": '#include "widget.h"\nint run() { Widget w; return w.area(); }\n',
        },
    )
    assert graph(mixed) == {
        ("widget.c_side", "util.size"),
        ("main.main", "widget.c_side"),
        ("widget.Widget.area", "widget.Widget.size"),
        ("app.run", "widget.Widget.area"),
    }


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    deep = "int deep() { return " + "(" * 3000 + "f()" + ")" * 3000 + "; }\n"
    nested = "void nest() { " + "{" * 2000 + " f(); " + "}" * 2000 + " }\n"
    chain = "int chain() { return f()" + ".g()" * 3000 + "; }\n"
    root = write_files(
        tmp_path,
        {
            "f.hpp": "int f();\n",
            "ok.cpp": '#include "f.hpp"\nint f() { return 1; }\nint k() { return f(); }\n',
            "broken.cpp": '#include "f.hpp"\nint half( {\nint whole() { return f(); }\n',
            "deep.cpp": '#include "f.hpp"\n' + deep,
            "nested.cpp": '#include "f.hpp"\n' + nested,
            "chain.cpp": '#include "f.hpp"\n' + chain,
            "empty.cpp": "",
            "empty.hpp": "",
            "binary.cpp": b"\xff\xfe\x00int g() { return f(); }\n",
            # a macro before the class name: tree-sitter misreads the class and the
            # namespace around it; both are recovered
            "api.h": """
                namespace lib {
                class LIB_API Engine {
                 public:
                  int start();
                  int speed() { return start(); }
                };
                }
                """,
            "api.cpp": '#include "api.h"\nnamespace lib { int Engine::start() { return 0; } }\n'
            "int drive(lib::Engine& e) { return e.speed(); }\n",
        },
    )
    index = GraphIndex(root, files(root))
    assert calls(all_edges(index)) == {
        ("ok.k", "ok.f"),
        ("broken.whole", "ok.f"),
        ("deep.deep", "ok.f"),
        ("nested.nest", "ok.f"),
        ("chain.chain", "ok.f"),
        ("api.Engine.speed", "api.Engine.start"),
        ("api.drive", "api.Engine.speed"),
    }
    assert index.broken == {"binary.cpp"}


SERVICE = """
    #include "../lib/io.h"
    {using}
    class Service {{
     public:
      void run();
     private:
      {field} out_;
    }};
    """

EDITS: list[tuple[str, str | None]] = [
    ("app/service.h", SERVICE.format(using="", field="Logger")),
    (
        "lib/io.h",
        "class Printer { public: void write(); };\n"
        "namespace io { class Logger { public: void write(); }; }\n",
    ),
    ("app/service.h", SERVICE.format(using="using io::Logger;", field="Logger")),
    ("lib/logger.cpp", '#include "io.h"\nnamespace io { void Logger::write() {} }\n'),
    ("lib/logger.cpp", None),
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    """A change to a header changes the edges of the files that include it."""
    root = write_files(
        tmp_path / "ws",
        {
            "lib/io.h": "class Printer { public: void write(); };\n"
            "class Logger { public: void write(); };\n",
            "lib/printer.cpp": '#include "io.h"\nvoid Printer::write() {}\n',
            "lib/logger.cpp": '#include "io.h"\nvoid Logger::write() {}\n',
            "app/service.h": SERVICE.format(using="", field="Printer"),
            "app/service.cpp": '#include "service.h"\nvoid Service::run() { out_.write(); }\n',
        },
    )
    builder = GraphBuilder(root)

    def callees(edges: set[tuple[str, str, str]]) -> set[str]:
        return {e[1] for e in edges if e[0] == "app.service.Service.run" and e[2] == "call"}

    seen = [update(builder, root)]
    for path, text in EDITS:
        if text is None:
            (root / path).unlink()
        else:
            write_files(root, {path: text})
        seen.append(update(builder, root))
    assert callees(seen[0]) == {"lib.printer.Printer.write"}
    assert callees(seen[1]) == {"lib.logger.Logger.write"}  # the field's class changed
    assert callees(seen[2]) == set()  # Logger moved into io: unnamed here
    assert callees(seen[3]) == set()  # named again, but logger.cpp defines ::Logger's write
    assert callees(seen[4]) == {"lib.logger.Logger.write"}
    assert callees(seen[5]) == set()  # declared only: no node
    assert seen[-1] == cold(root, tmp_path / "copy")


def test_googletest_tests_are_nodes_of_their_own_and_no_callee(tmp_path: Path) -> None:
    """Each `TEST(suite, name)` is the chunk `suite.name`; a call to `width` in a test file
    still means the function, not the test named `width`."""
    root = write_files(
        tmp_path,
        {
            "src/util.h": "int width(int n);\nint sign(int n);\n",
            "src/util.cc": '#include "util.h"\nint width(int n) { return sign(n); }\n'
            "int sign(int n) { return n; }\n",
            "test/util-test.cc": """
                #include "../src/util.h"
                TEST(util_test, width) { width(1); }
                TEST(util_test, sign) { sign(1); }
                namespace detail { void helper(); }
                void detail::helper() { width(3); }
                TEST(util_test, helper) { detail::helper(); }
                """,
        },
    )
    assert graph(root) == {
        ("util.width", "util.sign"),
        ("test.util-test.util_test.width", "util.width"),
        ("test.util-test.util_test.sign", "util.sign"),
        ("test.util-test.helper", "util.width"),
        ("test.util-test.util_test.helper", "test.util-test.helper"),
    }
