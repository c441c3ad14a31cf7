"""The Scala call graph where the labeled bench does not reach: receivers of unknown type,
terms and types apart (a companion object is not its class), imports that hide, rename or
nest, broken and odd files, and warm rebuilds."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files, graph, update


def test_receivers_of_unknown_type_are_never_guessed(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "a/A.scala": """\
                package a

                class A {
                  def only(): Int = 1
                  def unique: Int = 2
                }
                """,
            "a/B.scala": """\
                package a

                class B(val a: A) {
                  val count: Int = 3

                  def g(x: Any, xs: Seq[Int], f: Int => A): Unit = {
                    x.only()
                    unknown().only()
                    xs.map(_.only())
                    xs.foreach { y => y.unique }
                    f(1)
                    mystery.unique
                    "text".shout
                    count
                    this.count
                  }
                }

                object Ext {
                  extension (s: String) def shout: String = s
                  given A = new A
                }
                """,
        },
    )
    assert graph(root) == {("a.B.Ext.given_A", "a.A.A")}  # only the given's `new A`


def test_a_companion_object_is_not_its_class(tmp_path: Path) -> None:
    """Both are chunks of one qualname, but `Foo.m` reaches only the object's members and
    `foo.m` only the class's; `Foo(...)` calls the object's apply, else the class."""
    root = write_files(
        tmp_path,
        {
            "p/Foo.scala": """\
                package p

                class Foo(n: Int) {
                  def size: Int = n
                }

                object Foo {
                  def make(): Foo = new Foo(1)
                }

                case class Bar(n: Int) {
                  def twice: Int = n * 2
                }

                object Bar {
                  def apply(s: String): Bar = new Bar(s.length)
                }

                case class Baz(n: Int)
                """,
            "p/Use.scala": """\
                package p

                object Use {
                  def run(): Unit = {
                    Foo.size
                    val foo = Foo.make()
                    foo.make()
                    foo.size
                    Bar("x").twice
                    Baz(3)
                  }
                }
                """,
        },
    )
    assert graph(root) == {
        ("p.Foo.Foo.make", "p.Foo.Foo"),
        ("p.Foo.Bar.apply", "p.Foo.Bar"),
        ("p.Use.Use.run", "p.Foo.Foo.make"),
        ("p.Use.Use.run", "p.Foo.Foo.size"),
        ("p.Use.Use.run", "p.Foo.Bar.apply"),
        ("p.Use.Use.run", "p.Foo.Bar.twice"),
        ("p.Use.Use.run", "p.Foo.Baz"),
    }


def test_imports_hide_rename_and_nest(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "x/Tools.scala": "package x\n\nobject Tools {\n  def run(): Int = 1\n}\n",
            "y/Tools.scala": "package y\n\nobject Tools {\n  def run(): Int = 2\n}\n",
            "z/Use.scala": """\
                package z

                import x.{Tools => XTools}
                import y.{Tools => _}

                object Use {
                  def a(): Int = XTools.run()
                  def b(): Int = Tools.run()
                  def c(): Int = {
                    import y.Tools._
                    run()
                  }
                  def d(): Int = run()
                }
                """,
            "z/Later.scala": """\
                package z

                object Later {
                  def e(): Int = y.Tools.run()
                }
                """,
        },
    )
    assert graph(root) == {
        ("z.Use.Use.a", "x.Tools.Tools.run"),
        ("z.Use.Use.c", "y.Tools.Tools.run"),
        ("z.Later.Later.e", "y.Tools.Tools.run"),  # a fully qualified name
    }


def test_chained_packages_see_the_outer_package(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "acme/Util.scala": "package acme\n\nobject Util {\n  def help(): Int = 1\n}\n",
            "acme/shop/Chained.scala": """\
                package acme
                package shop

                object Chained {
                  def f(): Int = Util.help()
                }
                """,
            "acme/shop/Single.scala": """\
                package acme.shop

                object Single {
                  def g(): Int = Util.help()
                  def h(): Int = Chained.f()
                }
                """,
        },
    )
    assert graph(root) == {
        ("acme.shop.Chained.Chained.f", "acme.Util.Util.help"),
        ("acme.shop.Single.Single.h", "acme.shop.Chained.Chained.f"),
    }


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    chain = "f()" + ".g()" * 3000
    path = "a" + ".b" * 3000
    nested = "(" * 1500 + "f()" + ")" * 1500
    blocks = "{ " * 1500 + "f()" + " }" * 1500
    root = write_files(
        tmp_path,
        {
            "ok/Ok.scala": "package ok\n\ndef f(): Int = 1\n\ndef k(): Int = f()\n",
            "ok/Broken.scala": "package ok\n\nval x = = 1\n\ndef whole(): Int = f()\n",
            "ok/Deep.scala": f"package ok\n\ndef d(): Unit = {{\n  {chain}\n  {path}\n  f()\n}}\n",
            "ok/Nested.scala": f"package ok\n\ndef n(): Int = {nested}\n",
            "ok/Blocks.scala": f"package ok\n\ndef b(): Int = {blocks}\n",
            "ok/Empty.scala": "",
            "ok/Weird.scala": "class { def ( } } }\nobject = \n",
            "ok/Binary.scala": b"\x00\xff\xfe",
        },
    )
    index = GraphIndex(root, files(root))
    found = calls(all_edges(index))
    assert ("ok.Ok.k", "ok.Ok.f") in found
    assert ("ok.Broken.whole", "ok.Ok.f") in found  # around a syntax error
    assert ("ok.Deep.d", "ok.Ok.f") in found  # the absurd chain is skipped, the plain call not
    assert index.broken <= {"ok/Binary.scala"}


EDITS = [  # Use.scala has no edge into the changed files: it reads them through its package
    (
        "app/Stores.scala",
        "package app\n\nclass Cache {\n  def find(): Int = 1\n}\n\nclass Disk {\n"
        "  def find(): Int = 2\n}\n",
    ),
    ("app/Holder.scala", "package app\n\nclass Holder(val store: Disk)\n"),
    ("app/Use.scala", "package app\n\ndef use(h: Holder): Int = h.store.find()\n"),
    ("app/Holder.scala", "package app\n\nclass Holder(val store: Cache)\n"),
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    builder = GraphBuilder(root)

    for path, text in EDITS:
        write_files(root, {path: text})
        warm = update(builder, root)
    assert warm == cold(root, tmp_path / "copy")
    assert ("app.Use.use", "app.Stores.Cache.find", "call") in warm  # the field's new type
    assert ("app.Use.use", "app.Stores.Disk.find", "call") not in warm


def test_a_curried_constructor_is_one_call(tmp_path: Path) -> None:
    """`new Attr(a)(b)` constructs an Attr; its value is an Attr, not what Attr's `apply`
    returns."""
    root = write_files(
        tmp_path,
        {
            "f/Attr.scala": """\
                package f

                class Str {
                  def ++(other: Str): Str = this
                }

                class Attr(code: String)(name: String) {
                  def apply(s: Str): Str = s
                  def ++(other: Attr): Attr = this
                }

                object Use {
                  def run(): Unit = {
                    val bold = new Attr("1")("bold")
                    bold ++ bold
                  }
                }
                """,
        },
    )
    assert graph(root) == {("f.Attr.Use.run", "f.Attr.Attr"), ("f.Attr.Use.run", "f.Attr.Attr.++")}


def test_calls_in_package_objects_givens_and_extensions_are_their_own(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "a/util.scala": """
                package a

                object Log { def info(s: String): Unit = () }

                package object util {
                  def helper(): Unit = Log.info("helper")
                }

                extension (s: String) def shout: String = { Log.info(s); s }

                given Ordering[String] with {
                  def compare(x: String, y: String): Int = { Log.info(x); 0 }
                }
                """,
        },
    )
    assert graph(root) == {
        ("a.util.util.helper", "a.util.Log.info"),
        ("a.util.shout", "a.util.Log.info"),
        ("a.util.given_Ordering_String.compare", "a.util.Log.info"),
    }


def test_every_method_of_an_extension_block_has_its_calls(tmp_path: Path) -> None:
    """An indented extension's methods are all children of its node, whose `body` field
    names only the first; a braced one's are its body's."""
    root = write_files(
        tmp_path,
        {
            "a/Strings.scala": """
                package a

                object Log { def info(s: String): Unit = () }

                object Strings:
                  extension (s: String)
                    def shout: String = { Log.info("shout"); s }
                    def whisper: String = { Log.info("whisper"); s }

                  extension (n: Int) {
                    def twice: Int = { Log.info("twice"); n }
                    def thrice: Int = { Log.info("thrice"); n }
                  }
                """,
        },
    )
    callers = {caller for caller, callee in graph(root) if callee == "a.Strings.Log.info"}
    assert callers == {f"a.Strings.Strings.{m}" for m in ("shout", "whisper", "twice", "thrice")}
