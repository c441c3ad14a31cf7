"""Kotlin chunks where tree-sitter-kotlin misreads a class header."""

from __future__ import annotations

import textwrap

from tests.chunks import chunks_of


def test_a_nested_class_with_its_constructor_on_the_next_line_keeps_the_file():
    """kotlinpoet writes `public class Builder` and `internal constructor(…)` on two lines;
    tree-sitter-kotlin 1.1.0 read that in a class body as an ERROR reaching to the end of
    the file (its methods became top-level functions). Every line keeps its row."""
    source = textwrap.dedent(
        """
        package com.squareup.kotlinpoet

        public class TypeAliasSpec
        private constructor(builder: Builder) : Taggable {
          public val name: String = builder.name

          public fun toBuilder(): Builder = Builder(name)

          public class Builder
          internal actual constructor(
            internal val name: String,
          ) : Taggable.Builder<Builder> {
            /** Builds the spec. */
            public fun build(): TypeAliasSpec = TypeAliasSpec(this)
          }
        }

        /** After the class. */
        public fun alias(name: String): TypeAliasSpec = TypeAliasSpec.Builder(name).build()
        """
    )
    chunks, error = chunks_of("src/main/kotlin/TypeAliasSpec.kt", "kotlin", source)
    assert error is None
    spec = "main.kotlin.TypeAliasSpec.TypeAliasSpec"
    assert set(chunks) == {
        "main.kotlin.TypeAliasSpec",
        spec,
        f"{spec}.toBuilder",
        f"{spec}.Builder",
        f"{spec}.Builder.build",
        "main.kotlin.TypeAliasSpec.alias",
    }
    builder = chunks[f"{spec}.Builder"]
    assert (builder.start_line, builder.end_line) == (10, 16)
    assert builder.code.split("\n")[:2] == [
        "  public class Builder",
        "  internal actual constructor(",
    ]
    build = chunks[f"{spec}.Builder.build"]
    assert build.docstring == "Builds the spec." and build.start_line == 15
    assert chunks["main.kotlin.TypeAliasSpec.alias"].docstring == "After the class."
