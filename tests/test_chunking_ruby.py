"""Ruby chunks: the two sides of a class (its instances' methods and its own)."""

from __future__ import annotations

import textwrap

from codekith.chunking import chunk_file


def test_a_singleton_method_beside_an_instance_method_of_its_name_is_named_self():
    """`def self.call` and `def call` in one class are two methods: the singleton one is
    `Reaper.self.call` (also in `class << self`); one without an instance namesake stays
    `Reaper.build`, as Ruby code calls it."""
    source = textwrap.dedent(
        """
        class Reaper
          def call(env)
            Reaper.call(env)
          end

          # Closes the tempfiles.
          def self.call(env) = env.clear

          def self.build = new

          def [](key) = key

          class << self
            def [](*items) = new
          end
        end
        """
    )
    chunks = chunk_file("lib/reaper.rb", "ruby", source).chunks
    methods = {c.qualname: c for c in chunks if c.kind == "method"}
    assert sorted(methods) == [
        "lib.reaper.Reaper.[]",
        "lib.reaper.Reaper.build",
        "lib.reaper.Reaper.call",
        "lib.reaper.Reaper.self.[]",
        "lib.reaper.Reaper.self.call",
    ]
    singleton = methods["lib.reaper.Reaper.self.call"]
    assert singleton.symbol == "call" and singleton.parent == "lib.reaper.Reaper"
    assert singleton.docstring == "Closes the tempfiles." and singleton.start_line == 8
