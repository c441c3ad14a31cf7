"""Words every layer shares (search modes, chunk kinds), in a module that imports nothing:
the CLI builds its parser from them without loading the engine."""

MODES = ("hybrid", "vector", "text")
KINDS = ("module", "class", "function", "method", "section")
