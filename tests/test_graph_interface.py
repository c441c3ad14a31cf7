"""The fast graph reuses a file's results across a change to another file whenever they
read no more of that file than its interface (`graph.interface`), and an update still
equals a fresh build: after edits that leave the interface alone, only the edited file is
resolved again; after edits that change it, its readers are too; and random workspaces
under random edits end with exactly a fresh build's results."""

from __future__ import annotations

import ast
import hashlib
import json
import re
import tempfile
import textwrap
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codekith.graph.incremental import FastGraph, Variant, decode_variant, encode_variant
from codekith.graph.interface import interface
from codekith.graph.scopes import collect

LIB = """
class Base:
    def run(self):
        return helper()


class Mixin:
    def extra(self):
        pass


def helper():
    return Base()


def tool(x, factor=2):
    total = 0
    for item in x:
        total += 1
    print(total)
    return x


HANDLERS = [helper]
LIMIT = 3
"""

FILES = {
    "lib.py": LIB,
    "app.py": """
from lib import Base, helper, tool, LIMIT


class App(Base):
    def start(self):
        self.run().run()
        self.extra()


def main():
    helper().run()
    tool(App()).start()
    LIMIT()
""",
    "other.py": "import lib\n\n\ndef go():\n    lib.helper()\n    lib.tool([]).run()\n",
    "alone.py": "def solo():\n    return 1\n",
}
LOOP = {"loop.py": "from lib import HANDLERS\n\nfor handler in HANDLERS:\n    handler()\n"}

BODY_EDITS = {
    "a call": ("    print(total)\n", "    print(total)\n    print(factor)\n"),
    "an unread local": ("    return x\n", "    count = total + 1\n    return x\n"),
    "a changed call": ("    print(total)\n", "    print(total, total)\n"),
    "lines shifted": ("class Base:\n", "\n\n\nclass Base:\n"),
    "a comment": ("def helper():\n", "# the helper\ndef helper():\n"),
}

INTERFACE_EDITS = {
    "a return expression": ("    return Base()\n", "    return None\n"),
    "a renamed function": ("def helper():\n", "def helper2():\n"),
    "a base class": ("class Base:\n", "class Base(Mixin):\n"),
    "a module-level assignment": ("LIMIT = 3\n", "LIMIT = helper\n"),
    "a local a return reads": ("    total = 0\n", "    total = 0\n    x = Base()\n"),
    "a list literal": ("HANDLERS = [helper]\n", "HANDLERS = [Base]\n"),
}


def sha(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def write(root: Path, files: dict[str, str]) -> dict[str, str]:
    """Write the files; path -> content hash."""
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return {path: sha(text) for path, text in files.items()}


def fresh(root: Path, files: dict[str, str]) -> FastGraph:
    graph = FastGraph(root)
    graph.update(files)
    return graph


def same_as_fresh(graph: FastGraph, files: dict[str, str]) -> None:
    """Edges, and every file's per-round results and reads, equal a fresh build's."""
    other = fresh(graph.root, files)
    assert graph.all_edges() == other.all_edges()
    assert graph.rounds == other.rounds
    for path, variant in other.current.items():
        mine = graph.current[path]
        assert (mine.rounds, mine.edges, mine.edge_reads) == (
            variant.rounds,
            variant.edges,
            variant.edge_reads,
        ), path


def edited(
    tmp_path: Path, old: str, new: str, more: dict[str, str] | None = None
) -> tuple[FastGraph, dict[str, str]]:
    """A graph of FILES (and `more`) brought up to date after lib.py had `old` replaced by
    `new`."""
    files = write(tmp_path, {**FILES, **(more or {})})
    graph = FastGraph(tmp_path)
    graph.update(files)
    assert LIB.count(old) == 1
    files.update(write(tmp_path, {"lib.py": LIB.replace(old, new)}))
    graph.update(files)
    return graph, files


@pytest.mark.parametrize("edit", BODY_EDITS)
def test_an_edit_outside_the_interface_resolves_only_the_edited_file(
    tmp_path: Path, edit: str
) -> None:
    graph, files = edited(tmp_path, *BODY_EDITS[edit])
    assert graph.resolved == {"lib.py"}
    same_as_fresh(graph, files)
    # the readers' derivations are recorded again with lib.py's new content, so that the
    # next check finds it unchanged; Jedi's answers are not carried over (it reads bodies)
    for path in ("app.py", "other.py"):
        variant = graph.current[path]
        assert variant in graph.created and variant.jedi is None
        assert variant.edge_reads is not None
        assert variant.edge_reads.files["lib.py"] == files["lib.py"]


@pytest.mark.parametrize("edit", INTERFACE_EDITS)
def test_an_edit_of_the_interface_resolves_its_readers_again(tmp_path: Path, edit: str) -> None:
    graph, files = edited(tmp_path, *INTERFACE_EDITS[edit])
    assert {"lib.py", "app.py", "other.py"} <= graph.resolved
    assert "alone.py" not in graph.resolved
    calls = {(e.src, e.dst) for e in graph.all_edges()}
    gone = edit in ("a return expression", "a renamed function")  # helper() gives no Base
    assert (("app.main", "lib.Base.run") in calls) != gone
    same_as_fresh(graph, files)


def test_a_list_literal_read_from_another_file_ties_the_reader_to_its_content(
    tmp_path: Path,
) -> None:
    """loop.py iterates lib.HANDLERS: resolving a list token reads the literal (found by
    its position) and its file's stores, beyond the interface. Shifting the literal by a
    line changes its token, so the reader is resolved again."""
    graph, files = edited(tmp_path, "HANDLERS = [helper]\n", "\nHANDLERS = [helper]\n", LOOP)
    assert graph.resolved == {"lib.py", "loop.py"}
    same_as_fresh(graph, files)


def test_a_token_passed_on_ties_the_result_to_the_literal_s_file(tmp_path: Path) -> None:
    """A result that passes a list literal of another file on to a parameter holds its
    token, which moves with the literal's line: such a result depends on that content."""
    sources = {
        "consts.py": "def make():\n    return [1, 2]\n",
        "user.py": "from consts import make\n\n\ndef use(items):\n    pass\n\n\nuse(make())\n",
    }
    files = write(tmp_path, sources)
    graph = FastGraph(tmp_path)
    graph.update(files)
    reads = graph.current["user.py"].rounds[0].reads
    assert "consts.py" in reads.files and "consts.py" not in reads.interfaces
    files.update(write(tmp_path, {"consts.py": "\n" + sources["consts.py"]}))
    graph.update(files)
    assert graph.resolved == {"consts.py", "user.py"}
    same_as_fresh(graph, files)


def test_a_function_s_locals_read_by_attribute_tie_the_reader_to_the_file(
    tmp_path: Path,
) -> None:
    """A class and a function sharing a qualified name: an attribute of the class is
    looked up among the function's locals too, by a name the interface need not hold."""
    shapes = (
        "import os\n\n\ndef helper():\n    pass\n\n\nif os.sep:\n    class K:\n"
        "        pass\nelse:\n    def K():\n        pass\n"
    )
    sources = {
        "shapes.py": shapes,
        "user.py": "from shapes import K\n\n\ndef run():\n    K().go()\n",
    }
    files = write(tmp_path, sources)
    graph = FastGraph(tmp_path)
    graph.update(files)
    assert "shapes.py" not in graph.current["user.py"].edge_reads.interfaces  # type: ignore[union-attr]
    files.update(write(tmp_path, {"shapes.py": shapes[: -len("pass\n")] + "go = helper\n"}))
    graph.update(files)
    assert ("user.run", "shapes.helper") in {(e.src, e.dst) for e in graph.all_edges()}
    assert "user.py" in graph.resolved
    same_as_fresh(graph, files)


def test_a_variant_stored_before_interfaces_holds_only_while_the_files_are_unchanged(
    tmp_path: Path,
) -> None:
    files = write(tmp_path, FILES)
    graph = FastGraph(tmp_path)
    graph.update(files)

    def stored_without_interfaces(variant: Variant) -> bytes:
        data = json.loads(zlib.decompress(encode_variant(variant)))
        for reads in [data["edge_reads"], *(r["reads"] for r in data["rounds"] if r)]:
            if reads is not None:
                del reads["interfaces"]
        return zlib.compress(json.dumps(data).encode())

    old = [decode_variant(stored_without_interfaces(v)) for v in graph.current.values()]
    assert all(not v.edge_reads.interfaces for v in old if v.edge_reads is not None)
    cold = FastGraph(tmp_path, old)
    cold.update(files)
    assert cold.resolved == set()
    files.update(write(tmp_path, {"lib.py": LIB.replace(*BODY_EDITS["a call"])}))
    cold = FastGraph(tmp_path, old)
    cold.update(files)
    assert {"lib.py", "app.py", "other.py"} <= cold.resolved
    same_as_fresh(cold, files)


def test_the_interface_ignores_bodies_and_line_shifts_but_not_what_is_read() -> None:
    def digest(text: str) -> str:
        return interface(collect(ast.parse(textwrap.dedent(text)), "m.py", "m"))

    base = digest(LIB)
    for old, new in BODY_EDITS.values():
        assert digest(LIB.replace(old, new)) == base, new
    for old, new in INTERFACE_EDITS.values():
        assert digest(LIB.replace(old, new)) != base, new
    # the order of bindings and uses is read, not the lines: a class's bases are looked up
    # at its line, so a binding of B before or after it differs
    after = digest("B = 1\nclass C(B):\n    pass\nB = 2\n")
    assert after == digest("B = 1\n\n\nclass C(B):\n    pass\n\nB = 2\n")
    assert after != digest("B = 1\nB = 2\nclass C(B):\n    pass\n")
    # a lambda is named by its place among its scope's lambdas, sites included
    assert digest("def f():\n    g(lambda: 1)\n    return lambda: 1\n") != digest(
        "def f():\n    return lambda: 1\n    g(lambda: 1)\n"
    )


# -- every small edit of a file many others read --------------------------------------------

CORPUS = {
    "util.py": "def helper(x):\n    return x\n",
    "lib.py": """import os
from util import *


def alpha(x, y=None):
    return x


def beta():
    first = alpha
    second = first
    return second


def gamma(x):
    yield Child()


class Base:
    attr = alpha

    def __init__(self, v=None):
        self.v = v
        self.w = beta

    def go(self):
        return self.attr()


class Child(Base):
    def go(self):
        return super().go()


d = alpha


@d
def made():
    return Base()


d = beta
ITEMS = [alpha, beta]
TABLE = {"a": alpha, "b": Child}
ITEMS.append(gamma)
TABLE["c"] = Base
if os.sep:
    CHOICE = alpha
else:
    CHOICE = beta
MAKE = lambda: Child()


def annotated(a: "Child", b: "Base | None" = None):
    return a


if os.sep:
    class Twin:
        pass
else:
    def Twin():
        go = alpha
        return go


def make():
    global LATER
    LATER = beta
    return [alpha, Child]
""",
    "app.py": """import lib
from lib import *


def run(obj):
    obj.go()
    obj.v()
    obj.w()


def main():
    alpha(1)
    beta()()
    for g in gamma(1):
        g.go()
    Child().go()
    run(Child(alpha))
    made().go()
    CHOICE()
    MAKE().go()
    annotated(Child()).go()
    LATER()
    lib.alpha(Base())
    helper(alpha)()
    x = Base()
    x.attr()
""",
    "loops.py": """from lib import *

for f in ITEMS:
    f()
TABLE["a"]()
TABLE["c"]()
for f in make():
    f()
Twin().go()
""",
    "other.py": """from lib import alpha, Base


class Mine(Base):
    def go(self):
        alpha(self)
        return self.v
""",
}
WORDS = "alpha beta gamma Base Child x v w d attr go first second ITEMS TABLE CHOICE MAKE make Twin"
SWAPS = [*WORDS.split(), "LATER", "helper", "a", "b", "y", "os"]
SWAP = re.compile(r"\b(" + "|".join(SWAPS) + r")\b")


def small_edits(text: str) -> list[str]:
    """Each name occurrence replaced by another name, and a line put before each line
    (indented as it): the edits that touch one thing at a time."""
    rows = text.split("\n")
    edits = []
    for number, match in enumerate(SWAP.finditer(text)):
        other = SWAPS[(SWAPS.index(match[0]) + 1 + number % 3) % len(SWAPS)]
        edits.append(text[: match.start()] + other + text[match.end() :])
    for number, row in enumerate(rows):
        line = row[: len(row) - len(row.lstrip())] + ["", "_u = 1", "print(0)"][number % 3]
        edits.append("\n".join([*rows[:number], line, *rows[number:]]))
    return edits


@pytest.mark.parametrize("path", ["lib.py", "util.py"])
def test_every_small_edit_of_a_read_file_ends_with_a_fresh_build(tmp_path: Path, path: str) -> None:
    """Every name swapped for another, every line put in, one edit at a time, each
    followed by the way back: each update equals a fresh build."""
    files = write(tmp_path, CORPUS)
    graph = FastGraph(tmp_path)
    graph.update(files)
    readers = {p for p, v in graph.current.items() if p != path and path in v.edge_reads.files}  # type: ignore[union-attr]
    reused = 0
    for text in small_edits(CORPUS[path]):
        graph.update({**files, **write(tmp_path, {path: text})})
        same_as_fresh(graph, {**files, path: sha(text)})
        reused += bool(readers - graph.resolved)
        graph.update({**files, **write(tmp_path, {path: CORPUS[path]})})
    assert reused >= {"lib.py": 40, "util.py": 3}[path]  # readers not resolved again
    assert graph.resolved == set()  # the way back found every derivation kept


# -- random workspaces under random edits ---------------------------------------------------

MODULES = 3
BLOCKS = [
    "def f{i}(x, y=None):\n{body}",
    "def g{i}():\n{body}",
    "class C{i}({base}):\n    def __init__(self, v=None):\n        self.v = v\n\n"
    "    def go(self):\n{method}",
    "class D{i}:\n    attr = f{j}\n\n    def go(self):\n        return self.attr()\n",
    "X{i} = {value}",
    "if FLAG:\n    X{i} = f{j}\nelse:\n    X{i} = g{k}",
    "d = f{j}\n\n@d\ndef h{i}(a: 'C{j}'):\n    a.go()\n    return a",
    "def deco{i}(fn):\n    return fn",
    "f{j}(X{k})",
    "X{j}[0]()",
    "for item in X{j}:\n    item()",
    "X{j}['a']()",
    "C{j}().go()",
    "C{j}().v()",
    "f{j}(C{k}(g{i}))",
    "f{j}([g{k}])",
    "h{j}(C{k}())",
    "g{j}()()",
    "if FLAG:\n    class K{i}:\n        def go(self):\n            return f{j}\nelse:\n"
    "    def K{i}():\n        go = g{j}\n        return go",
    "K{j}().go()",
    "Y{i} = [f{j}]\nY{i}.append(g{k})\nY{i}[0] = C{j}",
    "for item in Y{j}:\n    item()",
]
BODY = [
    "return x",
    "return y",
    "return C{j}()",
    "return [f{j}, x]",
    "return {{'a': x}}",
    "return lambda: f{j}",
    "v = f{j}\n    return v",
    "v = x\n    w = v\n    return w",
    "print(1)",
    "_t = {j}",
    "x.go()",
    "f{j}(x)",
    "f{j}(C{j}())",
    "f{j}([g{j}])",
    "for item in x:\n        item()",
    "x[0]()",
    "x.v()",
    "yield C{j}()",
    "pass",
    "sorted(x, key=lambda q: q)",
    "w = lambda: g{j}\n    w()",
    "global X{i}\n    X{i} = f{j}",
]
METHOD = [
    "return self.v",
    "self.v()",
    "return super().go()",
    "self.v = f{j}",
    "return f{j}(self)",
    "print(2)",
    "_t = 1",
    "return self",
]
VALUES = [
    "f{j}",
    "[f{j}, g{k}]",
    "{{'a': f{j}, 'b': C{k}}}",
    "C{j}()",
    "lambda: f{j}",
    "m{j}.X{j}",
    "(f{j}, g{k})",
    "f{j}(g{k})",
]
NEUTRAL = ["", "# note", "print(0)", "_u = 1", "pass", "x.go()", "f0(x)"]
NAME = re.compile(r"\b(x|y|v|w|d|item|[fghCDXYK][0-2])\b")
VOCABULARY = ["x", "y", "v", "w", "d", "item", *(f"{c}{n}" for c in "fghCDXYK" for n in range(3))]

index = st.integers(0, MODULES - 1)


@st.composite
def lines(draw: st.DrawFn, menu: list[str], i: int, count: tuple[int, int]) -> str:
    chosen = draw(st.lists(st.sampled_from(menu), min_size=count[0], max_size=count[1]))
    return "\n".join(line.format(i=i, j=draw(index), k=draw(index)) for line in chosen)


@st.composite
def block(draw: st.DrawFn, i: int) -> str:
    template = draw(st.sampled_from(BLOCKS))
    body = draw(lines(BODY, i, (1, 3))).replace("\n", "\n    ")
    method = draw(lines(METHOD, i, (1, 2))).replace("\n", "\n        ")
    base = draw(st.sampled_from(["", "C{j}", "m{j}.C{j}", "D{j}"])).format(j=draw(index))
    value = draw(st.sampled_from(VALUES)).format(j=draw(index), k=draw(index))
    return template.format(
        i=i,
        j=draw(index),
        k=draw(index),
        body="    " + body,
        method="        " + method,
        base=base,
        value=value,
    )


@st.composite
def module(draw: st.DrawFn, i: int) -> str:
    """Every module sees the others' names (star imports) and has a FLAG."""
    header = [f"import m{j}\nfrom m{j} import *" for j in range(MODULES) if j != i]
    blocks = draw(st.lists(block(i), min_size=1, max_size=5))
    return "\n\n\n".join([*header, f"FLAG = {i}", *blocks]) + "\n"


@st.composite
def edit(draw: st.DrawFn, text: str, i: int) -> str:
    """The module after a small edit: a line put in (indented as its neighbour), a name
    replaced by another, two lines swapped, or a block added."""
    rows = text.split("\n")
    found = [(r, m.start(), m.end()) for r, row in enumerate(rows) for m in NAME.finditer(row)]
    kind = draw(st.sampled_from(["line", "name", "name", "swap", "block"]))
    if kind == "line" or (kind == "name" and not found):
        at = draw(st.integers(0, len(rows)))
        near = rows[min(at, len(rows) - 1)]
        rows.insert(at, near[: len(near) - len(near.lstrip())] + draw(st.sampled_from(NEUTRAL)))
    elif kind == "name":
        r, start, end = draw(st.sampled_from(found))
        rows[r] = rows[r][:start] + draw(st.sampled_from(VOCABULARY)) + rows[r][end:]
    elif kind == "swap":
        r = draw(st.integers(0, len(rows) - 2))
        rows[r], rows[r + 1] = rows[r + 1], rows[r]
    else:
        rows += ["", "", *draw(block(i)).split("\n")]
    return "\n".join(rows)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_random_edits_end_with_a_fresh_build(data: st.DataObject) -> None:
    """Each update (one to three edits in a row, or back to the start) equals a fresh
    build, file by file: edges, every round's results and what they read."""
    texts = {f"m{i}.py": data.draw(module(i)) for i in range(MODULES)}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        graph = FastGraph(root)
        graph.update(write(root, texts))
        first = dict(texts)
        for step in range(data.draw(st.integers(1, 3))):
            if step and data.draw(st.booleans()):
                texts = dict(first)  # back to the start: kept derivations hold again
            else:
                i = data.draw(index)
                texts[f"m{i}.py"] = data.draw(edit(texts[f"m{i}.py"], i))
            files = write(root, texts)
            graph.update(files)
            same_as_fresh(graph, files)
