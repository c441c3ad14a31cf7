"""The Lua call graph where the labeled bench does not reach: values of unknown table,
Lua's scoping corners, `require` resolution, metatable classes and their subclasses,
odd files, and warm rebuilds."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files, graph, update


def test_values_of_unknown_table_are_never_guessed(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "lib/only.lua": """\
                local Only = {}
                Only.__index = Only
                function Only:unique_name() end
                function Only.other() end
                return Only
                """,
            "use.lua": """\
                local Only = require("lib.only")
                local function f(x, opts, cb)
                  x:unique_name()
                  opts.handler:unique_name()
                  cb():unique_name()
                  for _, item in ipairs(opts) do item:unique_name() end
                  ("s"):unique_name()
                  opts[1]:unique_name()
                  local t = {}
                  t.field:unique_name()
                  Only[x]()
                  unknown_global:unique_name()
                end
                return f
                """,
        },
    )
    assert graph(root) == set()


def test_locals_are_scoped_as_in_lua(tmp_path: Path) -> None:
    """A block's local hides an outer one only inside the block; a name used before its
    `local` is the global; `local x = x` reads the outer x; parameters and locals hide
    globals and module functions; a forward-declared local is set later."""
    root = write_files(
        tmp_path,
        {
            "m.lua": """\
                function g() end
                local function a() end
                local function b() end
                local early
                local function too_soon()
                  later()
                end
                local function later() end
                local function blocks()
                  do
                    local a = b
                    a()
                  end
                  a()
                end
                local function shadowed(g)
                  g()
                  local a = 1
                  a()
                end
                local b = b
                local function after()
                  b()
                end
                function early() end
                local function uses_early()
                  early()
                end
                """,
        },
    )
    assert graph(root) == {
        ("m.blocks", "m.b"),
        ("m.blocks", "m.a"),
        ("m.after", "m.b"),
        ("m.uses_early", "m.early"),
    }


def test_globals_reach_other_files_only_when_one_file_defines_them(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "one.lua": "function shared() end\nfunction twice() end\nfunction print(s) end\n",
            "two.lua": "function twice() end\n_G.via_g = function() end\nfunction own() end\n",
            "use.lua": """\
                local function f()
                  shared()
                  twice()
                  print("x")
                  own()
                end
                local function own()
                  string.format("%d", 1)
                end
                """,
            "caller.lua": "shared()\nprint('y')\n",
        },
    )
    found = graph(root)
    assert ("use.f", "one.shared") in found
    assert ("use.f", "two.own") in found  # the local `own` is declared after f
    assert ("caller", "one.shared") in found
    assert not {e for e in found if e[1] in ("one.twice", "two.twice", "one.print")}


def test_require_follows_package_path_roots(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "src/app/util.lua": "local M = {}\nfunction M.f() end\nreturn M\n",
            "src/app/util/init.lua": "local M = {}\nfunction M.f() end\nreturn M\n",
            "src/app/init.lua": "return { go = function() end, name = 'app' }\n",
            "lua/plug/init.lua": "local M = {}\nfunction M.setup() end\nreturn M\n",
            "lua/plug/x.lua": "local M = {}\nfunction M.x() end\nreturn M\n",
            "other/lua/plug/x.lua": "local M = {}\nfunction M.x() end\nreturn M\n",
            "main.lua": """\
                local util = require("app.util")
                util.f()
                require("plug").setup()
                require("plug.x").x()
                local require = function() end
                require("app.util").f()
                """,
            "other/run.lua": "require('plug.x').x()\nrequire('app/util').f()\n",
            "src/twice.lua": "return { f = function() end, g = g }\nfunction g() end\n",
            "lib/twice.lua": "local function g() end\nreturn { g = g }\n",
            "both.lua": "require('twice').g()\n",  # under src/ and lib/: no edge
        },
    )
    index = GraphIndex(root, files(root))
    edges = all_edges(index)
    assert calls(edges) == {
        ("main", "app.util.M.f"),  # `?.lua` before `?/init.lua`
        ("main", "lua.plug.init.M.setup"),
        ("main", "lua.plug.x.M.x"),  # not other/lua/: another project's
        ("main", "main.require"),  # a local function named so
        ("other.run", "other.lua.plug.x.M.x"),  # the root of the requirer's project
        ("other.run", "app.util.M.f"),
    }
    imports = {(e.src, e.dst) for e in edges if e.kind == "import"}
    assert ("main", "app.util") in imports and ("main", "lua.plug.init") in imports


def test_subclass_instances_call_their_own_methods(tmp_path: Path) -> None:
    """Programming in Lua's classes: an inherited `new` doing `setmetatable(o, self)`
    makes an instance of the receiver, so an override is what gets called."""
    root = write_files(
        tmp_path,
        {
            "animal.lua": """\
                local Animal = {}
                function Animal:new(o)
                  o = o or {}
                  setmetatable(o, self)
                  self.__index = self
                  return o
                end
                function Animal:speak() return "..." end
                function Animal:walk() return self:speak() end
                return Animal
                """,
            "dog.lua": """\
                local Animal = require("animal")
                local Dog = Animal:new()
                function Dog:speak() return "woof" end
                return Dog
                """,
            "main.lua": """\
                local Dog = require("dog")
                local d = Dog:new()
                d:speak()
                d:walk()
                """,
            "plain.lua": """                local Animal = require("animal")
                local a = Animal:new()
                a:speak()
                """,
        },
    )
    assert graph(root) == {
        ("dog", "animal.Animal.new"),
        ("main", "animal.Animal.new"),
        ("main", "dog.Dog.speak"),
        ("main", "animal.Animal.walk"),
        ("plain", "animal.Animal.new"),
        ("plain", "animal.Animal.speak"),
        ("animal.Animal.walk", "animal.Animal.speak"),
    }


def test_callable_classes_and_metatables_without_index(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "object.lua": """\
                local Object = {}
                Object.__index = Object
                function Object:extend()
                  local cls = {}
                  cls.__index = cls
                  setmetatable(cls, self)
                  return cls
                end
                function Object:__call(...)
                  local obj = setmetatable({}, self)
                  obj:init(...)
                  return obj
                end
                function Object:init() end
                function Object:describe() return "object" end
                return Object
                """,
            "point.lua": """\
                local Object = require("object")
                local Point = Object:extend()
                function Point:init(x, y) self.x, self.y = x, y end
                function Point:norm() return self:describe() end
                return Point
                """,
            "plain.lua": """\
                local M = setmetatable({}, { __call = function(_, x) return x end })
                function M.run() end
                return M
                """,
            "main.lua": """\
                local Point = require("point")
                local plain = require("plain")
                local p = Point(1, 2)
                p:norm()
                p:describe()
                plain.run()
                plain.describe()
                """,
        },
    )
    found = graph(root)
    assert ("point", "object.Object.extend") in found
    assert ("point.Point.norm", "object.Object.describe") in found
    assert ("main", "point.Point.norm") in found
    assert ("main", "object.Object.describe") in found
    assert ("main", "plain.M.run") in found
    assert ("object.Object.__call", "object.Object.init") in found
    assert not {e for e in found if e[0] == "main" and e[1].endswith(".init")}


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    chain = "f()" + ":g()" * 3000
    ors = " or ".join(["x"] * 3000)
    nested = "(" * 3000 + "f()" + ")" * 3000
    blocks = "do " * 1500 + "f()" + " end" * 1500
    functions = "(function() " * 300 + "f()" + " end)()" * 300
    data = "local t = {\n" + "  { v = f() },\n" * 2000 + "}\n" + "local x = x\n" * 3000
    root = write_files(
        tmp_path,
        {
            "ok/ok.lua": "function f() return 1 end\nlocal function k()\n  f()\nend\n",
            "ok/broken.lua": "local x = = 1\nlocal function whole()\n  f()\nend\n",
            "ok/deep.lua": f"local function d()\n  {chain}\n  f()\nend\n",
            "ok/ors.lua": f"local x\nlocal function o()\n  local y = {ors}\n  f()\nend\n",
            "ok/nested.lua": f"local function n()\n  local x = {nested}\nend\n",
            "ok/blocks.lua": f"local function b()\n  {blocks}\nend\n",
            "ok/functions.lua": f"local function c()\n  {functions}\nend\n",
            "ok/data.lua": data,
            "ok/empty.lua": "",
            "ok/weird.lua": "function ( end end end\nlocal = \n",
            "ok/binary.lua": b"\x00\xff\xfe",
        },
    )
    index = GraphIndex(root, files(root))
    found = calls(all_edges(index))
    assert ("ok.ok.k", "ok.ok.f") in found
    assert ("ok.broken.whole", "ok.ok.f") in found  # around a syntax error
    assert ("ok.deep.d", "ok.ok.f") in found  # the absurd chain is skipped, the plain call not
    assert ("ok.ors.o", "ok.ok.f") in found
    assert ("ok.blocks.b", "ok.ok.f") in found
    assert ("ok.functions.c", "ok.ok.f") in found
    assert ("ok.data", "ok.ok.f") in found  # a generated table's calls are still read
    assert index.broken <= {"ok/binary.lua"}


EDITS = [
    ("store.lua", "local S = {}\nS.__index = S\nfunction S.open() end\nreturn S\n"),
    ("disk.lua", "local D = {}\nD.__index = D\nfunction D.open() end\nreturn D\n"),
    ("pick.lua", "return require('store')\n"),
    ("use.lua", "local backend = require('pick')\nlocal function f()\n  backend.open()\nend\n"),
    ("pick.lua", "return require('disk')\n"),
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    builder = GraphBuilder(root)

    seen = []
    for path, text in EDITS:
        write_files(root, {path: text})
        seen.append(update(builder, root))
    assert ("use.f", "store.S.open", "call") in seen[3]
    warm = seen[-1]
    assert warm == cold(root, tmp_path / "copy")
    assert ("use.f", "disk.D.open", "call") in warm  # what pick.lua now returns
    assert ("use.f", "store.S.open", "call") not in warm


def test_functions_in_table_constructors_and_assigned_globals_are_nodes(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "kit.lua": """
local M = {
  add = function(a, b) return clamp(a + b) end,
}

clamp = function(x) return x end

return { run = function() return M.add(1, 2) end }
""",
        },
    )
    assert graph(root) == {("kit.M.add", "kit.clamp"), ("kit.run", "kit.M.add")}
