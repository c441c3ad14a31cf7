"""The C# call graph where the labeled bench does not reach: odd files, what is never
guessed, namespaces and projects, and warm updates that agree with a cold build."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files, graph, update

UTIL = "namespace Lib;\n\npublic static class Util\n{\n    public static int One() => 1;\n}\n"


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    chain = "Util.One()" + ".ToString().Trim()" * 2000
    nested = "(" * 3000 + "Util.One()" + ")" * 3000
    root = write_files(
        tmp_path,
        {
            "Lib/Util.cs": UTIL,
            "App/Ok.cs": "using Lib;\n\nclass Ok\n{\n    void Run() => Util.One();\n}\n",
            "App/Broken.cs": "using Lib;\n\nclass Broken\n{\n    void Half( {\n"
            "    void Whole() { Util.One(); }\n}\n",
            "App/Deep.cs": f"using Lib;\n\nclass Deep\n{{\n    void D() {{ var s = {chain}; "
            f"var n = {nested}; Util.One(); }}\n}}\n",
            "App/Empty.cs": "",
            "App/Junk.cs": "}}} namespace ; class { void ( => ;\n",
        },
    )
    index = GraphIndex(root, files(root))
    found = calls(all_edges(index))
    assert ("App.Ok.Ok.Run", "Lib.Util.Util.One") in found
    assert ("App.Deep.Deep.D", "Lib.Util.Util.One") in found  # the plain call past the chain
    # tree-sitter recovered: the call belongs to whatever chunk the chunker made of it
    assert any(src.startswith("App.Broken.") and dst == "Lib.Util.Util.One" for src, dst in found)
    assert index.broken == set()


def test_receivers_of_unknown_type_are_never_guessed(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "A.cs": "namespace P;\n\nclass A\n{\n    public void Only() {}\n}\n",
            "B.cs": """namespace P;

class B
{
    void G(object x, dynamic d, System.Func<int> f)
    {
        ((System.IDisposable)x).Dispose();
        d.Only();
        var y = Make();
        y.Only();
        f();
    }

    object Make() => new object();
}
""",
            "Other/C.cs": "namespace Q;\n\nclass C\n{\n    void H(A a) { a.Only(); }\n}\n",
        },
    )
    # Q does not see P.A: `a` has no known type; `Make()` is the one call known
    assert graph(root) == {("B.B.G", "B.B.Make")}


def test_names_follow_namespaces_aliases_and_local_functions(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "Lib/Text.cs": """namespace Lib.Text
{
    public static class Fmt
    {
        public static string Pad(string s) => s;
    }
}
""",
            "Lib/Old.cs": """namespace Lib.Old
{
    public static class Fmt
    {
        public static string Pad(string s) => s;
    }
}
""",
            "App/Main.cs": """using F = Lib.Text.Fmt;
using static Lib.Text.Fmt;

namespace App
{
    class Main
    {
        void Run()
        {
            F.Pad("a");
            Pad("b");
            Lib.Old.Fmt.Pad("c");
            Local();

            void Local() => Helper();
        }

        void Helper() {}

        void Local() {}
    }
}
""",
        },
    )
    assert graph(root) == {
        ("App.Main.Main.Run", "Lib.Text.Fmt.Pad"),  # the alias and `using static`
        ("App.Main.Main.Run", "Lib.Old.Fmt.Pad"),  # fully qualified
        ("App.Main.Main.Run", "App.Main.Main.Helper"),  # in the local function: Run's
    }  # `Local()` is the local function, not the method


def test_base_is_the_first_declared_class_only(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "Shapes.cs": """namespace S;

interface IShape { string Name(); }

class Base
{
    public Base(int n) {}
    public virtual string Name() => "base";
}

class Square : Base, IShape
{
    public Square() : base(4) {}
    public override string Name() => base.Name() + "square";
}

class Loose : IShape
{
    public string Name() => base.ToString();
}
""",
        },
    )
    assert graph(root) == {
        ("Shapes.Square.Square", "Shapes.Base.Base"),
        ("Shapes.Square.Name", "Shapes.Base.Name"),
    }


def test_global_usings_and_types_stay_in_their_project(tmp_path: Path) -> None:
    """Two test projects with the same helper namespace layout: each sees its own."""
    helper = (
        "namespace {ns};\n\npublic static class Some\n{{\n    public static int Value() => 1;\n}}\n"
    )
    user = "class UseIt\n{\n    int Run() => Some.Value();\n}\n"
    root = write_files(
        tmp_path,
        {
            "one/One.csproj": "<Project />\n",
            "one/Usings.cs": "global using One.Support;\n",
            "one/Support/Some.cs": helper.format(ns="One.Support"),
            "one/UseIt.cs": user,
            "two/Two.csproj": "<Project />\n",
            "two/Usings.cs": "global using Two.Support;\n",
            "two/Support/Some.cs": helper.format(ns="Two.Support"),
            "two/UseIt.cs": user,
        },
    )
    assert graph(root) == {
        ("one.UseIt.UseIt.Run", "one.Support.Some.Some.Value"),
        ("two.UseIt.UseIt.Run", "two.Support.Some.Some.Value"),
    }


EDITS = [  # each changes what another file's calls mean, without touching that file
    ("Lib/Store.cs", "namespace Lib;\n\npublic class Store\n{\n    public void Save() {}\n}\n"),
    (
        "App/Use.cs",
        "namespace App;\n\nusing Lib;\n\npartial class Use\n{\n"
        "    void Run() { _store.Save(); Extra(); }\n}\n",
    ),
    (
        "App/Use.Fields.cs",
        "namespace App;\n\nusing Lib;\n\npartial class Use\n{\n    Store _store = new();\n}\n",
    ),
    ("App/Use.Extra.cs", "namespace App;\n\npartial class Use\n{\n    void Extra() {}\n}\n"),
    ("Lib/Disk.cs", "namespace Lib;\n\npublic class Disk\n{\n    public void Save() {}\n}\n"),
    (
        "App/Use.Fields.cs",
        "namespace App;\n\nusing Lib;\n\npartial class Use\n{\n    Disk _store = new();\n}\n",
    ),
    ("App/Use.Extra.cs", None),
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    """A partial class's other parts, a field's type in another part, a file removed: a
    long-lived builder agrees with a cold build after each edit."""
    root = write_files(tmp_path / "ws", {"Lib/Util.cs": UTIL})
    builder = GraphBuilder(root)

    update(builder, root)
    seen: list[set[tuple[str, str, str]]] = []
    for path, text in EDITS:
        if text is None:
            (root / path).unlink()
        else:
            write_files(root, {path: text})
        warm = update(builder, root)
        assert warm == cold(root, tmp_path / "copy")
        seen.append(warm)
    assert ("App.Use.Use.Run", "Lib.Store.Store.Save", "call") in seen[3]
    assert ("App.Use.Use.Run", "App.Use.Extra.Use.Extra", "call") in seen[3]
    assert ("App.Use.Use.Run", "Lib.Disk.Disk.Save", "call") in seen[5]
    assert ("App.Use.Use.Run", "Lib.Store.Store.Save", "call") not in seen[5]
    assert not any("Extra" in edge[1] for edge in seen[6])


def test_a_new_project_file_re_scopes_global_usings(tmp_path: Path) -> None:
    """A .csproj is a project file: adding one re-resolves every file."""
    root = write_files(
        tmp_path / "ws",
        {
            "lib/Usings.cs": "global using Lib.Support;\n",
            "lib/Support/Some.cs": "namespace Lib.Support;\n\npublic static class Some\n{\n"
            "    public static int Value() => 1;\n}\n",
            "app/UseIt.cs": "class UseIt\n{\n    int Run() => Some.Value();\n}\n",
        },
    )
    builder = GraphBuilder(root)

    edge = ("app.UseIt.UseIt.Run", "lib.Support.Some.Some.Value", "call")
    assert edge in update(
        builder, root
    )  # no project file: one project, the global using counts everywhere
    write_files(root, {"lib/Lib.csproj": "<Project />\n"})
    assert edge not in update(builder, root)  # app/ is outside lib's project
