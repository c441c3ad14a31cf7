"""The fast resolver on small real packages written to disk."""

from __future__ import annotations

import json
import textwrap
import zlib
from pathlib import Path

import pytest

from codekith.graph import graph_for_root
from codekith.graph.fast import ModuleIndex, resolve_file
from codekith.graph.incremental import FastGraph, build_edges, decode_variant, encode_variant
from codekith.graph.model import Edge

FILES = {
    "src/shop/__init__.py": "from .models import Cart\nfrom .util import *\n",
    "src/shop/util.py": """
        def helper():
            pass

        def _private():
            pass
        """,
    "src/shop/models.py": """
        from . import util
        from .util import helper as assist

        class Base:
            def __init__(self):
                self.setup()

            def setup(self):
                pass

            def total(self):
                return 0

        class Cart(Base):
            def total(self):
                assist()
                return super().total()

            def checkout(self):
                self.total()
                util.helper()

                def audit():
                    pass

                audit()
        """,
    "app/main.py": """
        from shop import Cart, helper
        from shop.models import Base

        def run(cart: Cart):
            cart.checkout()

        def build() -> Base:
            return Base()

        def main():
            c = Cart()
            c.total()
            helper()
            run(c)
            build().setup()
        """,
}


def write(root: Path, files: dict[str, str]) -> list[str]:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(textwrap.dedent(text))
    return sorted(files)


def pairs(edges: list[Edge], kind: str = "call") -> set[tuple[str, str]]:
    return {(e.src, e.dst) for e in edges if e.kind == kind}


@pytest.fixture
def shop(tmp_path: Path) -> tuple[Path, list[str]]:
    return tmp_path, write(tmp_path, FILES)


def test_imports_reexports_and_relative_imports(shop: tuple[Path, list[str]]) -> None:
    calls = pairs(build_edges(*shop))
    assert ("app.main.main", "shop.util.helper") in calls  # star re-export through __init__
    assert ("shop.models.Cart.total", "shop.util.helper") in calls  # `as` alias, relative
    assert ("shop.models.Cart.checkout", "shop.util.helper") in calls  # module attribute


def test_self_super_and_nested(shop: tuple[Path, list[str]]) -> None:
    calls = pairs(build_edges(*shop))
    assert ("shop.models.Base.__init__", "shop.models.Base.setup") in calls
    assert ("shop.models.Cart.checkout", "shop.models.Cart.total") in calls
    assert ("shop.models.Cart.total", "shop.models.Base.total") in calls
    assert ("shop.models.Cart.checkout", "shop.models.Cart.checkout.audit") in calls


def test_constructor_typed_locals_annotations_and_init(shop: tuple[Path, list[str]]) -> None:
    calls = pairs(build_edges(*shop))
    assert ("app.main.main", "shop.models.Base.__init__") in calls  # inherited __init__
    assert ("app.main.main", "shop.models.Cart.total") in calls  # c = Cart(); c.total()
    assert ("app.main.run", "shop.models.Cart.checkout") in calls  # parameter annotation
    assert ("app.main.main", "shop.models.Base.setup") in calls  # return annotation
    assert not any(dst.endswith(".Cart") for _, dst in calls)  # no edge to a class itself


def test_inherit_import_and_decorate_edges(tmp_path: Path) -> None:
    files = {
        "m.py": """
            import os
            from k import Base, register

            @register
            class Thing(Base):
                pass

            @register
            def f():
                pass
            """,
        "k.py": "class Base:\n    pass\n\ndef register(x):\n    return x\n",
    }
    edges = build_edges(tmp_path, write(tmp_path, files))
    assert pairs(edges, "inherit") == {("m.Thing", "k.Base")}
    assert pairs(edges, "import") == {("m", "k.Base"), ("m", "k.register")}  # os is external
    assert pairs(edges, "decorate") == {("m.Thing", "k.register"), ("m.f", "k.register")}
    assert ("m", "k.register") in pairs(edges)
    assert all(e.path == "m.py" and e.line > 0 for e in edges)


def test_decorators_that_return_their_argument_or_a_wrapper(tmp_path: Path) -> None:
    """`register` returns what it is given: a call of one function it registers reached
    every other one (the workspace's flow into its parameter). `logged` returns a wrapper:
    the call is the wrapper's ("call", as PyCG answers) and the function's ("wrapped")."""
    files = {
        "k.py": """
            import functools

            def register(f):
                return f

            def logged(f):
                @functools.wraps(f)
                def wrapper(*args):
                    return f(*args)
                return wrapper
            """,
        "m.py": """
            from k import logged, register

            @register
            def one():
                pass

            @register
            def two():
                pass

            @register
            @logged
            def ship():
                pass

            class Service:
                @logged
                def handle(self):
                    pass

            def use():
                one()
                ship()
                Service().handle()
            """,
    }
    edges = build_edges(tmp_path, write(tmp_path, files))
    calls = {dst for src, dst in pairs(edges) if src == "m.use"}
    assert calls == {"m.one", "k.logged.wrapper"}  # `two` was there too
    assert pairs(edges, "wrapped") == {("m.use", "m.ship"), ("m.use", "m.Service.handle")}
    assert ("k.logged.wrapper", "m.ship") in pairs(edges)  # the wrapper calls what it wraps


def test_reading_a_property_runs_its_getter(tmp_path: Path) -> None:
    """`client.total` runs `Client.total`: a "property" edge (calls for call hierarchy,
    lenses and bundles; PyCG counts no such call), and `self.session.get()` calls what the
    getter returns. `Client.total`, read on the class, runs nothing."""
    files = {
        "m.py": """
            import functools

            class Session:
                def get(self, url):
                    return url

            class Client:
                def __init__(self):
                    self._session = Session()

                @property
                def session(self):
                    return self._session

                @functools.cached_property
                def total(self):
                    return 1

                def fetch(self, url):
                    return self.session.get(url)

            def use(client: Client):
                print(client.total)
                return Client.total
            """,
    }
    edges = build_edges(tmp_path, write(tmp_path, files))
    assert pairs(edges, "property") == {
        ("m.Client.fetch", "m.Client.session"),
        ("m.use", "m.Client.total"),
    }
    assert ("m.Client.fetch", "m.Session.get") in pairs(edges)
    assert not any(dst.endswith((".session", ".total")) for _, dst in pairs(edges))


def test_writing_a_property_runs_its_setter(tmp_path: Path) -> None:
    """`order.total = 0` runs the setter: a "setter" edge (none without a setter, none for a
    plain attribute), `order.total += 1` runs the getter first. A property wins over the
    instance attribute that `self.total = ...` in `__init__` seemed to make (that runs the
    setter too): `order.total.cents()` reached the value assigned, not what the getter
    returns."""
    files = {
        "m.py": """
            class Money:
                def cents(self):
                    return 1

            class Order:
                def __init__(self, amount):
                    self.total = amount
                    self.note = ""

                @property
                def total(self):
                    return Money()

                @total.setter
                def total(self, value):
                    self._total = value

                @property
                def size(self):
                    return 1

            def reset(order: Order):
                order.total = 0
                order.note = "reset"
                order.size = 2

            def bump(order: Order):
                order.total += 1
                return order.total.cents()
            """,
    }
    edges = build_edges(tmp_path, write(tmp_path, files))
    assert pairs(edges, "setter") == {
        ("m.Order.__init__", "m.Order.total"),
        ("m.reset", "m.Order.total"),
        ("m.bump", "m.Order.total"),
    }
    assert pairs(edges, "property") == {("m.bump", "m.Order.total")}
    assert ("m.bump", "m.Money.cents") in pairs(edges)


def test_making_an_instance_of_a_class_without_its_own_init(tmp_path: Path) -> None:
    """`Order(...)` of a dataclass, `raise Missing(...)`, `Sub()` of a subclass that keeps
    its base's `__init__`: no edge reached the class (the call edge goes to the `__init__`
    that runs, if the workspace has one), so call hierarchy and lenses listed no caller of
    it. Now a "new" edge to the class; a class with its own `__init__` keeps its call edge
    alone (PyCG's answer, the export's)."""
    files = {
        "m.py": """
            from dataclasses import dataclass

            @dataclass
            class Order:
                total: int

            class Missing(Exception):
                pass

            class Base:
                def __init__(self):
                    self.ready = True

                @classmethod
                def create(cls):
                    return cls()

            class Sub(Base):
                pass

            def checkout(total):
                if total < 0:
                    raise Missing("negative")
                if total == 0:
                    raise Missing
                return Order(total), Sub(), Base()
            """,
    }
    edges = build_edges(tmp_path, write(tmp_path, files))
    assert pairs(edges, "new") == {
        ("m.checkout", "m.Order"),
        ("m.checkout", "m.Missing"),
        ("m.checkout", "m.Sub"),
    }
    assert pairs(edges) == {
        ("m.checkout", "m.Base.__init__"),
        ("m.Base.create", "m.Base.__init__"),
    }


def test_a_partial_calls_its_function(tmp_path: Path) -> None:
    """`functools.partial(send, "ops")` resolved to nothing (functools is outside the
    workspace): calling it reached no function."""
    files = {
        "m.py": """
            import functools as ft
            from functools import partial as bind

            def send(channel, message):
                return channel, message

            def notify(message):
                post = ft.partial(send, "ops")
                return post(message)

            def shout(message):
                return bind(send, "all")(message)

            class Mailer:
                def deliver(self, to, body):
                    return to, body

                def later(self):
                    return ft.partial(self.deliver, "me")("hi")

            class Relay:
                bind = None  # a class body's name: its methods read the module's

                def forward(self, message):
                    return bind(send, "relay")(message)

            def replay(bind, message):  # a parameter: no longer functools' partial
                return bind(send, "replay")(message)
            """,
    }
    edges = build_edges(tmp_path, write(tmp_path, files))
    assert pairs(edges) == {
        ("m.notify", "m.send"),
        ("m.shout", "m.send"),
        ("m.Mailer.later", "m.Mailer.deliver"),
        ("m.Relay.forward", "m.send"),
    }


def test_annotated_fields_type_instance_attributes(tmp_path: Path) -> None:
    """A dataclass's fields, a class-level `customer: "Customer"` and `self.backup: T` in a
    method say what the attribute holds: `self.customer.email()` resolved to nothing."""
    files = {
        "m.py": """
            from dataclasses import dataclass
            from typing import Optional

            class Customer:
                def email(self):
                    return "x"

            @dataclass
            class Order:
                customer: Customer
                backup: Optional[Customer] = None

                def notify(self):
                    return self.customer.email(), self.backup.email()

            class Plain:
                customer: "Customer"

                def __init__(self, customer):
                    self.customer = customer
                    self.backup: Customer | None = None

                def notify(self):
                    return self.customer.email(), self.backup.email()

            def use(order: Order):
                return order.customer.email()

            class Mixin:
                state: Customer  # declared for the type checker: the app defines it

                def ping(self):
                    return self.state.email()

            class App(Mixin):
                @property
                def state(self):
                    return Customer()
            """,
    }
    edges = build_edges(tmp_path, write(tmp_path, files))
    callers = {src for src, dst in pairs(edges) if dst == "m.Customer.email"}
    assert callers == {"m.Order.notify", "m.Plain.notify", "m.use", "m.Mixin.ping"}
    assert pairs(edges, "property") == {("m.Mixin.ping", "m.App.state")}


def test_with_as_binds_what_enter_returns(tmp_path: Path) -> None:
    """`with Pool() as conn` binds what `Pool.__enter__` returns, `with opened() as s` what
    a `@contextmanager` yields; both were the context manager itself (no `get` there). A
    base class's `return self` keeps the subclass."""
    files = {
        "m.py": """
            import contextlib

            class Session:
                def __enter__(self):
                    return self

                def __exit__(self, *exc):
                    return False

                def get(self):
                    return 1

            class Traced(Session):
                def trace(self):
                    return 2

            class Pool:
                def __enter__(self) -> Session:
                    return Session()

                def __exit__(self, *exc):
                    return False

            @contextlib.contextmanager
            def opened():
                yield Session()

            def use():
                with Pool() as conn:
                    conn.get()
                with opened() as session:
                    session.get()
                with Traced() as traced:
                    traced.trace()
            """,
    }
    edges = build_edges(tmp_path, write(tmp_path, files))
    calls = {dst for src, dst in pairs(edges) if src == "m.use"}
    assert calls >= {"m.Session.get", "m.Traced.trace"}
    assert len([e for e in edges if e.src == "m.use" and e.dst == "m.Session.get"]) == 2


def test_a_list_holds_what_it_unpacks(tmp_path: Path) -> None:
    """`[Default(), *self.extra]` held nothing for the resolver (an unpacked item shifts
    every index after it): iterating it reached no `format`. Now the plain items, at no
    index, and the unpacked list's items."""
    files = {
        "m.py": """
            class Default:
                def format(self, value):
                    return value

            class Upper:
                def format(self, value):
                    return value.upper()

            class Renderer:
                def __init__(self):
                    self.extra = [Upper()]

                def columns(self):
                    return [Default(), *self.extra]

                def render(self, value):
                    for column in self.columns():
                        column.format(value)
                    return self.columns()[1].format(value)
            """,
    }
    edges = build_edges(tmp_path, write(tmp_path, files))
    called = {dst for src, dst in pairs(edges) if src == "m.Renderer.render"}
    assert {"m.Default.format", "m.Upper.format"} <= called


def test_bare_method_name_is_never_guessed(tmp_path: Path) -> None:
    files = {
        "a.py": "class A:\n    def only(self):\n        pass\n",
        "b.py": "def g(x):\n    x.only()\n",
    }
    assert pairs(build_edges(tmp_path, write(tmp_path, files))) == set()


def test_incremental_update_and_removal(shop: tuple[Path, list[str]]) -> None:
    root, paths = shop
    graph = FastGraph(root)
    files = dict.fromkeys(paths, "v1")

    def main_calls() -> set[tuple[str, str]]:
        return {(e.src, e.dst) for e in graph.current["app/main.py"].edges if e.kind == "call"}

    graph.update(files)
    assert ("app.main.main", "shop.util.helper") in main_calls()
    graph.update(
        {**files, "src/shop/util.py": "v2"}, {"src/shop/util.py": "def renamed():\n    pass\n"}
    )
    assert ("app.main.main", "shop.util.helper") not in main_calls()
    assert ("app.main.main", "shop.models.Cart.total") in main_calls()
    main = "from shop import renamed\n\ndef main():\n    renamed()\n"
    graph.update({**files, "src/shop/util.py": "v2", "app/main.py": "v2"}, {"app/main.py": main})
    assert main_calls() == {("app.main.main", "shop.util.renamed")}
    files = {p: "v2" for p in paths if p != "src/shop/util.py"}
    graph.update(files, {"app/main.py": main})
    assert "shop.util.renamed" not in graph.qualnames()
    assert main_calls() == set()


def test_a_stored_derivation_decodes_to_what_was_derived_and_repeats_no_round(
    shop: tuple[Path, list[str]],
) -> None:
    """Most rounds of a file repeat the round before: stored once, decoded as one shared
    result, and a builder fed the decoded variants reuses them all."""
    root, paths = shop
    graph = FastGraph(root)
    files = dict.fromkeys(paths, "v1")
    derived = graph.update(files)
    assert graph.rounds >= 2
    repeats = 0
    for variant in derived.values():
        blob = encode_variant(variant)
        stored = json.loads(zlib.decompress(blob))["rounds"]
        rounds = variant.rounds
        assert [r is None for r in stored] == [
            n > 0 and rounds[n] == rounds[n - 1] for n in range(len(rounds))
        ]
        repeats += stored.count(None)
        decoded = decode_variant(blob)
        assert decoded.rounds == rounds
        assert (decoded.edges, decoded.edge_reads) == (variant.edges, variant.edge_reads)
        assert (decoded.defines, decoded.id) == (variant.defines, variant.id)
    assert repeats > 0
    cold = FastGraph(root, (decode_variant(encode_variant(v)) for v in derived.values()))
    cold.update(files)
    assert cold.recomputed == 0
    assert cold.all_edges() == graph.all_edges()


def test_syntax_error_file_is_skipped(shop: tuple[Path, list[str]]) -> None:
    root, paths = shop
    (root / "broken.py").write_text("def oops(:\n")
    graph = FastGraph(root)
    graph.update(dict.fromkeys([*paths, "broken.py"], ""))
    assert graph.broken() == ["broken.py"]
    assert graph.current["broken.py"].edges == []
    assert graph.current["app/main.py"].edges


def test_graph_for_root_lists_every_function(shop: tuple[Path, list[str]]) -> None:
    graph = graph_for_root(*shop, use_jedi=False)
    assert graph["shop.util._private"] == []
    assert "shop.util.helper" in graph["app.main.main"]
    assert graph["app.main.main"] == sorted(graph["app.main.main"])


def test_deeply_nested_expressions_do_not_crash(tmp_path: Path) -> None:
    chain = "f()" + ".g()" * 400  # parses, but evaluating it recurses past the limit
    concat = " + ".join(["f()"] * 800)
    files = {"d.py": f"def f():\n    pass\n\nx = {chain}\ny = {concat}\nf()\n"}
    index = ModuleIndex(tmp_path, write(tmp_path, files))
    assert ("d", "d.f") in pairs(resolve_file(index, "d.py")[0])
    assert not index.broken


def test_each_string_annotation_names_its_own_class(tmp_path: Path) -> None:
    """A string annotation is parsed once per evaluation and the parse kept: memo keys hold
    node ids, and a parse let go lent its id, and so its answer, to the next one (here most
    functions' `a.go()` went to C0.go)."""
    count = 20
    classes = "".join(f"class C{i}:\n    def go(self):\n        pass\n\n\n" for i in range(count))
    users = "".join(f"def use{i}(a: 'C{i}'):\n    a.go()\n\n\n" for i in range(count))
    edges = build_edges(tmp_path, write(tmp_path, {"m.py": classes + users}))
    assert pairs(edges) == {(f"m.use{i}", f"m.C{i}.go") for i in range(count)}
