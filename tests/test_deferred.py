"""Packages registered without their __init__ (how lancedb loads without ~200 REST models):
nothing of the package is lost, and a stand-in behaves as the name it stands for."""

from __future__ import annotations

import sys

import pytest

from codekith import deferred
from tests.conftest import write_files

PACKAGE = "codekith_deferred_probe"


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """A package whose __init__ counts its runs and re-exports a class of a submodule."""
    write_files(
        tmp_path,
        {
            f"{PACKAGE}/__init__.py": (
                "import builtins\n"
                "builtins.probe_inits = getattr(builtins, 'probe_inits', 0) + 1\n"
                "from .models.shape import Shape\n"
                "def connect():\n    return 'connected'\n"
                "VERSION = '1'\n"
            ),
            f"{PACKAGE}/models/__init__.py": "",
            f"{PACKAGE}/models/shape.py": (
                "class Shape:\n    def __init__(self, n):\n        self.n = n\n"
            ),
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import builtins

    monkeypatch.setattr(builtins, "probe_inits", 0, raising=False)
    yield
    for name in [m for m in sys.modules if m.startswith(PACKAGE)]:
        del sys.modules[name]


def inits() -> int:
    import builtins

    return builtins.probe_inits  # type: ignore[attr-defined]


def test_stand_ins_resolve_on_use_and_end_when_told(probe):
    end = deferred.defer_package_init(PACKAGE, {"Shape": f"{PACKAGE}.models.shape", "connect": ""})
    from codekith_deferred_probe import Shape, connect  # what an importer binds

    assert isinstance(Shape, deferred.StandIn) and inits() == 0
    shape = Shape(3)  # resolved from its own module: the __init__ still has not run
    assert shape.n == 3 and isinstance(shape, Shape) and inits() == 0

    class Square(Shape):  # type: ignore[misc,valid-type]
        pass

    assert issubclass(Square, Shape) and Square(2).n == 2 and inits() == 0
    assert connect() == "connected" and inits() == 1  # defined by the __init__ itself
    end()
    package = sys.modules[PACKAGE]
    assert package.Shape is type(shape) and package.VERSION == "1" and inits() == 1


def test_any_other_name_runs_the_init_once(probe):
    deferred.defer_package_init(PACKAGE, {"Shape": f"{PACKAGE}.models.shape"})
    import codekith_deferred_probe as package

    assert inits() == 0
    assert package.VERSION == "1" and package.connect() == "connected"
    assert package.Shape.__name__ == "Shape" and inits() == 1
