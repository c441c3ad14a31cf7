"""Scala chunks: package objects, givens and extension methods."""

from __future__ import annotations

import textwrap

from tests.chunks import chunks_of


def test_package_objects_givens_and_extension_methods_are_definitions():
    """A package object is an object; a `given … with` is one too, named by itself or as
    Scala names an anonymous one (`given_Ord_String`); extension methods are functions at
    the top level and methods of the object that holds them."""
    source = textwrap.dedent(
        """
        package os

        /** Helpers for the package. */
        package object util {
          def helper(x: Int): Int = x + 1
        }

        given intOrd: Ord[Int] with
          def compare(a: Int, b: Int): Int = a - b

        given Ord[String] with {
          def compare(a: String, b: String): Int = 0
        }

        given listOrd[T](using ord: Ord[T]): Ord[List[T]] = ListOrd(ord)

        // Shouts.
        extension (s: String)
          def shout: String = s.toUpperCase
          def whisper: String = s.toLowerCase

        object Impl {
          extension [T](xs: List[T]) def second: T = xs(1)
          given [T]: Ord[Set[T]] with { def compare(a: Set[T], b: Set[T]) = 0 }
        }
        """
    )
    chunks, error = chunks_of("src/os/util.scala", "scala", source)
    assert error is None
    assert set(chunks) == {
        "os.util",
        "os.util.util",
        "os.util.util.helper",
        "os.util.intOrd",
        "os.util.intOrd.compare",
        "os.util.given_Ord_String",
        "os.util.given_Ord_String.compare",
        "os.util.listOrd",
        "os.util.shout",
        "os.util.whisper",
        "os.util.Impl",
        "os.util.Impl.second",
        "os.util.Impl.given_Ord_Set",
        "os.util.Impl.given_Ord_Set.compare",
    }
    package = chunks["os.util.util"]
    assert package.kind == "class" and package.docstring == "Helpers for the package."
    assert chunks["os.util.util.helper"].parent == "os.util.util"
    shout = chunks["os.util.shout"]
    assert shout.kind == "function" and shout.code == "  def shout: String = s.toUpperCase"
    assert chunks["os.util.Impl.second"].kind == "method"
    assert "extension (s: String)" in chunks["os.util"].code
