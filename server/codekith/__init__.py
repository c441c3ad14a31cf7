"""codekith: a local retrieval index that answers "what code is related to this?"."""

__version__ = "0.1.0"
