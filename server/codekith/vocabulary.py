"""Words every layer shares (search modes, chunk kinds), in a module that imports nothing:
the CLI builds its parser from them without loading the engine."""

MODES = ("hybrid", "vector", "text")
KINDS = ("module", "class", "function", "method", "section")
# A kind filter may name a group: `code` is every kind but documentation sections, for a
# question about code (documentation otherwise competes with it: docs/DESIGN.md).
KIND_GROUPS = {"code": ("module", "class", "function", "method")}
KIND_FILTERS = (*KINDS, *KIND_GROUPS)
