"""Call hierarchy and code lenses for Go, TypeScript and Kotlin through a real LSP client.

The tests only read, so one server per client profile serves the module."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.conftest import git, init_repo, write_files
from tests.lsp_session import end_session
from tests.test_lsp import SERVER, wait_ready

WORKSPACE = {
    "go.mod": "module example.com/inventory\n\ngo 1.22\n",
    "stock/stock.go": """
        package stock

        // Level is the quantity of one product in the warehouse.
        type Level struct {
            Sku string
            Qty int
        }

        // Load reads stock levels from a comma-separated text.
        func Load(text string) []Level {
            var levels []Level
            for _, line := range splitLines(text) {
                levels = append(levels, parseLevel(line))
            }
            return levels
        }

        func parseLevel(line string) Level { return Level{Sku: line} }
        """,
    "stock/lines.go": """
        package stock

        import "strings"

        func splitLines(text string) []string { return strings.Split(text, "\\n") }
        """,
    "main.go": """
        package main

        import "example.com/inventory/stock"

        func report() int {
            return len(stock.Load("a,1"))
        }

        func main() {
            println(report(), len(stock.Load("b,2")))
        }
        """,
    "web/order.ts": """
        export class Order {
          constructor(private sku: string) {}
          describe(): string { return this.sku; }
        }
        """,
    "web/shop.ts": """
        import { Order } from './order';

        export function buy(sku: string): string {
          return new Order(sku).describe();
        }
        """,
    "shop/Cart.kt": """
        package shop

        class Cart {
            private val lines = mutableListOf<Int>()

            fun add(cents: Int): Cart {
                lines.add(cents)
                return this
            }

            class Builder {
                private val cart = Cart()

                fun item(cents: Int): Builder {
                    cart.add(cents)
                    return this
                }

                fun build(): Cart = cart
            }
        }
        """,
    "shop/Checkout.kt": """
        package shop

        fun checkout(): Cart = Cart.Builder().item(3).build()
        """,
}


@pytest_lsp.fixture(config=SERVER, params=["neovim", "visual-studio-code"], scope="module")
async def client(lsp_client: LanguageClient, request, tmp_path_factory: pytest.TempPathFactory):
    root = init_repo(tmp_path_factory.mktemp("polyglot") / "ws")
    write_files(root, WORKSPACE)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    lsp_client.root = root  # type: ignore[attr-defined]
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(request.param),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(root.as_uri(), "ws")],
            initialization_options={"codeLens": True},
        )
    )
    await wait_ready(lsp_client)
    yield
    await end_session(lsp_client)


def position_of(root: Path, path: str, text: str) -> types.Position:
    lines = (root / path).read_text().splitlines()
    line = next(n for n, t in enumerate(lines) if text in t)
    return types.Position(line, lines[line].index(text))


async def prepare(client: LanguageClient, path: str, text: str) -> types.CallHierarchyItem:
    root = client.root  # type: ignore[attr-defined]
    items = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(
            types.TextDocumentIdentifier((root / path).as_uri()), position_of(root, path, text)
        )
    )
    assert items is not None and len(items) == 1
    return items[0]


@pytest.mark.asyncio(loop_scope="module")
async def test_go_call_hierarchy_and_lenses(client: LanguageClient):
    root = client.root  # type: ignore[attr-defined]
    item = await prepare(client, "stock/stock.go", "func Load")
    assert (item.name, item.detail) == ("Load", "stock.stock.Load")
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(item)
    )
    callers = {call.from_.detail: call.from_ranges for call in incoming}
    assert set(callers) == {"main.main", "main.report"}
    call_line = position_of(root, "main.go", 'stock.Load("a,1")').line
    assert [r.start.line for r in callers["main.report"]] == [call_line]
    outgoing = await client.call_hierarchy_outgoing_calls_async(
        types.CallHierarchyOutgoingCallsParams(item)
    )
    callees = {call.to.detail: call.to.uri for call in outgoing}
    assert callees == {
        "stock.lines.splitLines": (root / "stock/lines.go").as_uri(),  # another file of stock
        "stock.stock.parseLevel": (root / "stock/stock.go").as_uri(),
    }
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(types.TextDocumentIdentifier((root / "stock/stock.go").as_uri()))
    )
    titles = {lens.range.start.line: lens.command.title for lens in lenses if lens.command}
    assert titles[item.range.start.line].startswith("2 callers · 2 callees")


@pytest.mark.asyncio(loop_scope="module")
async def test_typescript_class_callers_are_its_constructor_callers(client: LanguageClient):
    item = await prepare(client, "web/order.ts", "class Order")
    assert item.detail == "web.order.Order"
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(item)
    )
    assert [call.from_.detail for call in incoming] == ["web.shop.buy"]
    method = await prepare(client, "web/order.ts", "describe()")
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(method)
    )
    assert [call.from_.detail for call in incoming] == ["web.shop.buy"]


@pytest.mark.asyncio(loop_scope="module")
async def test_kotlin_nested_builder_methods_have_callers_and_callees(client: LanguageClient):
    """Kotlin has a call graph since stop 53, and a type nested in a class is a chunk of its
    own: the Builder's method is an item of the hierarchy with its caller in another file
    of the package and its callee in the outer class."""
    root = client.root  # type: ignore[attr-defined]
    item = await prepare(client, "shop/Cart.kt", "fun item")
    assert (item.name, item.detail) == ("item", "shop.Cart.Cart.Builder.item")
    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(item)
    )
    assert {call.from_.detail for call in incoming} == {"shop.Checkout.checkout"}
    outgoing = await client.call_hierarchy_outgoing_calls_async(
        types.CallHierarchyOutgoingCallsParams(item)
    )
    assert {call.to.detail: call.to.uri for call in outgoing} == {
        "shop.Cart.Cart.add": (root / "shop/Cart.kt").as_uri()
    }
