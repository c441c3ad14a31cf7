"""Lua chunks: functions assigned to globals and dotted names, and functions in tables."""

from __future__ import annotations

import textwrap

from tests.chunks import chunks_of


def test_assigned_functions_and_functions_in_table_constructors_are_definitions():
    """`f = function` is the function `f`, `a.b.c = function` the method `c` of `a.b` (as
    `function a.b.c` is); a function under a plain key of a table constructor assigned to a
    name is a method of that table, of the module's returned table the module's own."""
    source = textwrap.dedent(
        """
        local M = {
          -- Adds two numbers.
          add = function(a, b) return a + b end,
          n = 1,
          ["odd key"] = function() end,
          nested = { deep = function() end },
        }

        clamp = function(x) return x end
        a.b.c = function() end
        R = { h = function() end }

        return { k = function() return M.add(1, 2) end }
        """
    )
    chunks, _ = chunks_of("lua/kit/t.lua", "lua", source)
    assert set(chunks) == {
        "lua.kit.t",
        "lua.kit.t.M.add",
        "lua.kit.t.clamp",
        "lua.kit.t.a.b.c",
        "lua.kit.t.R.h",
        "lua.kit.t.k",
    }
    add = chunks["lua.kit.t.M.add"]
    assert add.kind == "method" and add.parent == "lua.kit.t.M"
    assert add.docstring == "Adds two numbers." and add.start_line == 4
    assert chunks["lua.kit.t.clamp"].kind == "function"
    assert chunks["lua.kit.t.k"].kind == "function"
    assert "n = 1," in chunks["lua.kit.t"].code and "deep" in chunks["lua.kit.t"].code
