"""Words every layer shares (search modes, chunk kinds), in a module that imports nothing:
the CLI builds its parser from them without loading the engine."""

MODES = ("hybrid", "vector", "text")
KINDS = ("module", "class", "function", "method", "section")
# A kind filter may name a group: `code` is every kind but documentation sections, for a
# question about code (documentation otherwise competes with it: docs/DESIGN.md).
KIND_GROUPS = {"code": ("module", "class", "function", "method")}
KIND_FILTERS = (*KINDS, *KIND_GROUPS)
# Documentation sections a search lists apart from its code hits unless told otherwise
# (CLI `--docs`, MCP `docs`; VS Code and Neovim ask for as many): five hold a section
# question's answer about as often as ten ranked with the code did (R@5 .708 vs R@10 .716
# over the fourteen quality repositories; docs/DESIGN.md, "Documentation apart").
DOCS_APART = 5
# Tests a search lists apart from its hits unless tests are wanted among them (CLI
# `--tests-apart`, MCP `tests_apart`; VS Code and Neovim ask for as many): as many as
# documentation, chosen before measuring (docs/DESIGN.md, "Tests apart").
TESTS_APART = 5
