"""The language server: a thin protocol layer (pygls/lsprotocol) over the domain core."""
