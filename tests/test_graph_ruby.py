"""The Ruby call graph (graph/ruby_resolve) on small workspaces on disk: what is left
unresolved on purpose, constants and requires, odd files, and warm updates that agree
with a cold build."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files, graph, update


def test_unknown_receivers_locals_and_dynamic_calls_get_no_edge(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "job.rb": """
class Job
  def perform(queue, name)
    queue.push(self)          # a parameter: the only `push` of the workspace is no edge
    name.strip
    name = "x"
    label = name
    label                     # a local, not the method
    [1].each { |label| label } # a block parameter
    send(:push, 1)            # dynamic
    public_send(:label)
    label()                   # parentheses: a call even after the local
  end

  def label; end
  def push(x); end
end

class Stack
  def push(x); end
end
""",
        },
    )
    assert graph(root) == {("job.Job.perform", "job.Job.label")}


def test_constants_by_nesting_compact_style_and_value_constants(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "lib/top.rb": "module Cache\n  def self.get; end\nend\n",
            "lib/app/cache.rb": "module App\n  module Cache\n    def self.get; end\n  end\nend\n",
            "lib/app/user.rb": """
module App
  class User
    def load
      Cache.get          # App::Cache, nearer than ::Cache
      ::Cache.get
    end
  end
end

class App::Admin
  def load
    Cache.get            # compact style: App is not in the nesting, so ::Cache
  end
end

module Other
  Cache = Object.new     # a value constant hides the top-level module
  class Reader
    def load
      Cache.get
    end
  end
end
""",
        },
    )
    assert graph(root) == {
        ("lib.app.user.User.load", "lib.app.cache.Cache.get"),
        ("lib.app.user.User.load", "lib.top.Cache.get"),
        ("lib.app.user.Admin.load", "lib.top.Cache.get"),
    }


def test_singleton_and_instance_sides_do_not_mix(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "shape.rb": """
class Shape
  def self.unit; end
  def area; end
end

class Square < Shape
  attr_reader :area       # an attribute hides Shape#area
  def self.build
    unit                  # Shape.unit: the singleton side
    area                  # no singleton `area`
  end
  def show
    area
    unit                  # no instance `unit`
    Square.area           # neither
    Square.new.area
  end
end
""",
        },
    )
    assert graph(root) == {("shape.Square.build", "shape.Shape.unit")}


def test_modules_super_and_requires(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "lib/kit/log.rb": "module Kit\n  module Log\n    def write; super; end\n  end\nend\n",
            "vendor/kit/log.rb": "def vendored; end\n",
            "lib/kit/base.rb": """
require "kit/log"
require "json"
require_relative "../helpers"

module Kit
  class Base
    include Log
    def write
      super
      helper
    end
  end
end
""",
            "lib/helpers.rb": "def helper; end\n",
        },
    )
    edges = all_edges(GraphIndex(root, files(root)))
    assert calls(edges) == {
        ("lib.kit.base.Base.write", "lib.kit.log.Log.write"),  # include: Log before Object
        ("lib.kit.base.Base.write", "lib.helpers.helper"),  # a required file's top-level def
    }
    assert {(e.src, e.dst) for e in edges if e.kind == "import"} == {
        ("lib.kit.base", "lib.kit.log"),  # a load path: lib/ before vendor/
        ("lib.kit.base", "lib.helpers"),
    }
    assert {(e.src, e.dst) for e in edges if e.kind == "inherit"} == {
        ("lib.kit.base.Base", "lib.kit.log.Log")
    }


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    deep = "def deep\n  f(" + "(" * 3000 + "1" + ")" * 3000 + ")\nend\n"
    blocks = "def nest\n" + "[1].each do\n" * 2000 + "f\n" + "end\n" * 2000 + "end\n"
    classes = "".join(f"module M{i}\n" for i in range(500)) + "f\n" + "end\n" * 500
    root = write_files(
        tmp_path,
        {
            "ok.rb": "def f; end\ndef k\n  f\nend\n",
            "broken.rb": "require_relative 'ok'\ndef half(\n  class end\ndef whole\n  f\nend\n",
            "deep.rb": "require_relative 'ok'\n" + deep,
            "nested.rb": "require_relative 'ok'\n" + blocks,
            "modules.rb": "require_relative 'ok'\n" + classes,
            "empty.rb": "",
            "binary.rb": b"\xff\xfe\x00def g\n  f\nend\n",
        },
    )
    index = GraphIndex(root, files(root))
    assert calls(all_edges(index)) == {
        ("ok.k", "ok.f"),
        ("broken.whole", "ok.f"),  # tree-sitter recovered the intact method
        ("deep.deep", "ok.f"),
        ("nested.nest", "ok.f"),  # 2000 nested blocks
        ("modules", "ok.f"),  # 500 nested modules: code of the file
    }
    assert index.broken == {"binary.rb"}  # not text: left out, nothing else lost


EDITS: list[tuple[str, str | None]] = [
    ("lib/base.rb", "class Base\n  def save; end\nend\n"),  # save is now inherited
    ("lib/audit.rb", "module Audit\n  def save; end\nend\n"),
    ("app/user.rb", "class User < Base\n  include Audit\n  def go\n    save\n  end\nend\n"),
    ("lib/audit.rb", None),  # the module is gone: Base#save again
    ("lib/base.rb", "module Store\n  class Base\n    def save; end\n  end\nend\n"),  # moved
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    """A change to one file changes the edges of the files whose constants it defines."""
    root = write_files(
        tmp_path / "ws",
        {
            "lib/base.rb": "class Base\nend\n",
            "app/user.rb": "class User < Base\n  def go\n    save\n  end\nend\n",
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
    assert not any(e[0] == "app.user.User.go" for e in seen[0])
    assert ("app.user.User.go", "lib.base.Base.save", "call") in seen[1]
    assert ("app.user.User.go", "lib.base.Base.save", "call") in seen[2]  # not included yet
    assert ("app.user.User.go", "lib.audit.Audit.save", "call") in seen[3]
    assert ("app.user.User.go", "lib.base.Base.save", "call") not in seen[3]
    assert ("app.user.User.go", "lib.base.Base.save", "call") in seen[4]
    assert ("app.user.User", "lib.base.Base", "inherit") in seen[4]
    assert not any(e[0] == "app.user.User.go" for e in seen[5])  # ::Base is gone
    assert seen[-1] == cold(root, tmp_path / "copy")


def test_a_singleton_method_and_an_instance_method_of_one_name_are_two_nodes(
    tmp_path: Path,
) -> None:
    root = write_files(
        tmp_path,
        {
            "reaper.rb": """
class Reaper
  def call(env)
    Reaper.call(env)      # the singleton side: Reaper.self.call
    close
  end

  def self.call(env)
    new.close
  end

  def close; end
end
""",
        },
    )
    assert graph(root) == {
        ("reaper.Reaper.call", "reaper.Reaper.self.call"),
        ("reaper.Reaper.call", "reaper.Reaper.close"),
        ("reaper.Reaper.self.call", "reaper.Reaper.close"),
    }
