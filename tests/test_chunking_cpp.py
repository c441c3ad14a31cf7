"""C++ chunks: googletest's test macros and functions defined under their namespace's
name."""

from __future__ import annotations

import textwrap

from codekith.chunking import chunk_file


def chunks_of(path: str, source: str):
    return {c.qualname: c for c in chunk_file(path, "cpp", textwrap.dedent(source)).chunks}


def test_each_googletest_test_is_a_function_named_by_its_suite_and_name():
    """All of a file's `TEST(…)` bodies were one qualname, `….TEST`; each is now its own
    (`format_test.width`), its symbol still the macro written."""
    chunks = chunks_of(
        "test/format-test.cc",
        """
        // Formats a width.
        TEST(format_test, width) {
          EXPECT_EQ("  1", fmt::format("{:3}", 1));
        }

        TEST_F(file_test, read) { read(); }

        TYPED_TEST(int_test, sign) {}
        """,
    )
    tests = {q: c for q, c in chunks.items() if c.kind != "module"}
    assert sorted(tests) == [
        "test.format-test.file_test.read",
        "test.format-test.format_test.width",
        "test.format-test.int_test.sign",
    ]
    width = tests["test.format-test.format_test.width"]
    assert width.kind == "function" and width.symbol == "TEST" and width.parent == ""
    assert width.docstring == "Formats a width." and width.signature == "TEST(format_test, width)"


def test_a_function_defined_under_its_namespace_name_is_no_method():
    """`void detail::f() {}` defines the function `f` of the namespace `detail` (opened in
    the file); `Foo::bar` is still the method of the class `Foo`, also when `Foo` is
    declared elsewhere."""
    chunks = chunks_of(
        "src/format.cc",
        """
        namespace fmt { namespace detail {
        void vprint(int);
        } }

        namespace a::b { struct Foo { void bar(); }; }

        void fmt::detail::vprint(int n) {}
        void a::b::Foo::bar() {}
        void Widget::draw() {}
        """,
    )
    vprint = chunks["format.vprint"]
    assert vprint.kind == "function" and vprint.parent == ""
    assert chunks["format.Foo.bar"].kind == "method"
    assert chunks["format.Widget.draw"].parent == "format.Widget"
