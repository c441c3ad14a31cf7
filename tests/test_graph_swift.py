"""The Swift call graph where the labeled bench does not reach: receivers of unknown type,
modules and visibility, constrained extensions, broken and odd files, and warm rebuilds."""

from __future__ import annotations

from pathlib import Path

from codekith.graph.builder import GraphBuilder
from codekith.graph.index import GraphIndex, config_fingerprint
from tests.conftest import write_files
from tests.graphs import all_edges, calls, cold, files, graph, update


def test_receivers_of_unknown_type_are_never_guessed(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "App/Jobs.swift": """
                func start() {}

                final class Job {
                    var start: (() -> Void)?
                    func run() {}
                    func go(_ any: Any, _ items: [Any]) {
                        any.run()
                        items.forEach { $0.run() }
                        start?()
                        let other = lookup()
                        other.run()
                    }
                }

                final class Other {
                    func run() {}
                    func cancel() {}
                }

                enum Kind {
                    case run
                    static func make() -> Kind { .run }
                }

                func lookup() -> Any { Other() }

                func use(_ job: Job) -> Kind {
                    job.run()
                    let run = { print("closure") }
                    run()
                    let other: Other = .init()
                    other.cancel()
                    return .run
                }
                """,
        },
    )
    found = graph(root)
    assert ("App.Jobs.use", "App.Jobs.Job.run") in found
    assert ("App.Jobs.use", "App.Jobs.Other.cancel") in found  # declared type
    assert ("App.Jobs.Job.go", "App.Jobs.Job.run") not in found  # `any.run()`: Any's
    assert ("App.Jobs.Job.go", "App.Jobs.Other.run") not in found  # `lookup()` returns Any
    assert ("App.Jobs.Job.go", "App.Jobs.start") not in found  # the property hides it
    assert ("App.Jobs.use", "App.Jobs.Other.init") not in found
    assert not any(dst.endswith(".Kind.run") for _, dst in found)


def test_modules_are_targets_and_privates_stay_in_their_file(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "Package.swift": """
                // swift-tools-version:5.9
                import PackageDescription
                let package = Package(
                    name: "Kit",
                    targets: [
                        .target(name: "Core"),
                        .target(name: "Extra", path: "Sources/Plugins/Extra"),
                        .executableTarget(name: "Tool", dependencies: ["Core"]),
                        .testTarget(name: "CoreTests", dependencies: ["Core"]),
                    ]
                )
                """,
            "Sources/Core/Util.swift": """
                func helper() {}
                private func secret() {}
                public func shout() { secret() }
                """,
            "Sources/Core/Use.swift": "func use() {\n    helper()\n    secret()\n}\n",
            "Sources/Plugins/Extra/Extra.swift": "func extra() {\n    helper()\n}\n",
            "Sources/Tool/main.swift": "import Core\n\nhelper()\nshout()\nextra()\n",
            "Sources/Tool/Local.swift": "func shout() {}\n",
            "Tests/CoreTests/UtilTests.swift": "@testable import Core\n\nfunc t() { helper() }\n",
        },
    )
    found = graph(root)
    assert ("Sources.Core.Use.use", "Sources.Core.Util.helper") in found
    assert ("Sources.Core.Util.shout", "Sources.Core.Util.secret") in found
    assert ("Sources.Core.Use.use", "Sources.Core.Util.secret") not in found  # private
    assert ("Sources.Plugins.Extra.Extra.extra", "Sources.Core.Util.helper") not in found
    assert ("Sources.Tool.main", "Sources.Core.Util.helper") in found  # imported
    assert ("Sources.Tool.main", "Sources.Tool.Local.shout") in found  # its own module first
    assert ("Sources.Tool.main", "Sources.Core.Util.shout") not in found
    assert ("Sources.Tool.main", "Sources.Plugins.Extra.Extra.extra") not in found
    assert ("Tests.CoreTests.UtilTests.t", "Sources.Core.Util.helper") in found


def test_extensions_constrained_and_of_library_types(tmp_path: Path) -> None:
    root = write_files(
        tmp_path,
        {
            "Lib/Wrapper.swift": """
                struct Wrapper<Base> {
                    let base: Base
                    func plain() {}
                }

                extension Wrapper where Base: Sequence {
                    func count() -> Int { plain(); return tally() }
                    func tally() -> Int { 0 }
                }

                extension Wrapper {
                    var twice: Wrapper { self }
                    func again() { twice.plain() }
                }

                extension String {
                    func shouted() -> String { uppercased() }
                }
                """,
            "Lib/Use.swift": """
                func use(_ w: Wrapper<[Int]>, name: String) {
                    w.count()
                    w.again()
                    w.twice.plain()
                    _ = name.shouted()
                    _ = "literal".shouted()
                }
                """,
        },
    )
    found = graph(root)
    assert ("Lib.Wrapper.Wrapper.count", "Lib.Wrapper.Wrapper.plain") in found
    assert ("Lib.Wrapper.Wrapper.count", "Lib.Wrapper.Wrapper.tally") in found
    assert ("Lib.Use.use", "Lib.Wrapper.Wrapper.count") not in found  # Base is not shown
    assert ("Lib.Use.use", "Lib.Wrapper.Wrapper.again") in found
    assert ("Lib.Use.use", "Lib.Wrapper.Wrapper.plain") in found  # through the extension's
    assert ("Lib.Wrapper.Wrapper.again", "Lib.Wrapper.Wrapper.plain") in found  # property
    assert ("Lib.Use.use", "Lib.Wrapper.String.shouted") in found


def test_odd_files_cost_only_their_own_edges(tmp_path: Path) -> None:
    chain = "f()" + ".g()" * 3000
    nested = "run { " * 400 + "f()" + " }" * 400
    parens = "(" * 2000 + "f()" + ")" * 2000
    root = write_files(
        tmp_path,
        {
            "ok/Ok.swift": "func f() -> Int { 1 }\n\nfunc k() {\n    _ = f()\n}\n",
            "ok/Broken.swift": "let x = = 1\n\nfunc whole() {\n    _ = f()\n}\n",
            "ok/Deep.swift": f"func d() {{\n    {chain}\n    _ = f()\n}}\n",
            "ok/Nested.swift": f"func n() {{\n    {nested}\n}}\n",
            "ok/Parens.swift": f"func p() {{\n    _ = {parens}\n}}\n",
            "ok/Empty.swift": "",
            "ok/Weird.swift": "class { func ( } } }\nextension { }\n",
            "ok/Binary.swift": b"\x00\xff\xfe",
        },
    )
    index = GraphIndex(root, files(root))
    found = calls(all_edges(index))
    assert ("ok.Ok.k", "ok.Ok.f") in found
    assert ("ok.Broken.whole", "ok.Ok.f") in found  # around a syntax error
    assert ("ok.Deep.d", "ok.Ok.f") in found  # the absurd chain is skipped, the plain call not
    assert index.broken <= {"ok/Binary.swift"}


def test_manifest_is_a_config_file(tmp_path: Path) -> None:
    root = write_files(tmp_path, {"Package.swift": "// swift-tools-version:5.9\n"})
    write_files(root, {"Sources/A/a.swift": "func a() {}\n"})
    before = config_fingerprint(root, files(root))
    write_files(root, {"Package.swift": "// swift-tools-version:5.9\n// targets changed\n"})
    assert config_fingerprint(root, files(root)) != before


EDITS = [  # Use.swift has no edge into the changed files: it reads them through its module
    ("App/Stores.swift", "final class Cache {\n    func find() {}\n}\n"),
    ("App/Disk.swift", "final class Disk {\n    func find() {}\n}\n"),
    ("App/Holder.swift", "struct Holder {\n    let store: Disk\n}\n"),
    ("App/Use.swift", "func use(_ h: Holder) {\n    h.store.find()\n    h.extra()\n}\n"),
    ("App/Holder.swift", "struct Holder {\n    let store: Cache\n}\n"),
    ("App/Holder+Extra.swift", "extension Holder {\n    func extra() {}\n}\n"),
]


def test_warm_builder_equals_a_cold_build_after_edits(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    builder = GraphBuilder(root)

    for path, text in EDITS:
        write_files(root, {path: text})
        warm = update(builder, root)
    assert warm == cold(root, tmp_path / "copy")
    assert ("App.Use.use", "App.Stores.Cache.find", "call") in warm  # the property's new type
    assert ("App.Use.use", "App.Disk.Disk.find", "call") not in warm
    assert ("App.Use.use", "App.Holder+Extra.Holder.extra", "call") in warm  # a new extension
