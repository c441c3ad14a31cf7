"""tree-sitter chunks for JavaScript, TypeScript, Go, Rust and Java."""

from __future__ import annotations

import textwrap

from codekith.chunking import chunk_file


def chunks_of(path: str, language: str, source: str):
    result = chunk_file(path, language, textwrap.dedent(source))
    return {c.qualname: c for c in result.chunks}, result.error


def test_javascript_functions_classes_methods_and_arrow_functions():
    chunks, error = chunks_of(
        "src/web/cart.js",
        "javascript",
        """
        import { price } from './price.js';

        // Adds up the items of a cart.
        export function total(items) {
          return items.reduce((sum, item) => sum + price(item), 0);
        }

        export const double = (x) => x * 2;

        /** A shopping cart. */
        class Cart {
          constructor() { this.items = []; }
          add(item) {
            this.items.push(item);
            return this;
          }
        }
    """,
    )
    assert error is None
    assert set(chunks) == {
        "web.cart",
        "web.cart.total",
        "web.cart.double",
        "web.cart.Cart",
        "web.cart.Cart.constructor",
        "web.cart.Cart.add",
    }
    total = chunks["web.cart.total"]
    assert total.kind == "function" and total.docstring == "Adds up the items of a cart."
    assert total.signature == "export function total(items)"
    assert (total.start_line, total.end_line) == (5, 7)
    cart = chunks["web.cart.Cart"]
    assert cart.docstring == "A shopping cart." and "this.items.push" not in cart.code
    assert chunks["web.cart.Cart.add"].parent == "web.cart.Cart"
    assert "import { price }" in chunks["web.cart"].code


def test_typescript_and_tsx():
    chunks, _ = chunks_of(
        "app/service.ts",
        "typescript",
        """
        interface Repo { find(id: string): User; }
        export class UserService {
          constructor(private repo: Repo) {}
          async load(id: string): Promise<User> { return this.repo.find(id); }
        }
    """,
    )
    assert {"app.service.Repo", "app.service.UserService", "app.service.UserService.load"} <= set(
        chunks
    )
    view, error = chunks_of(
        "app/View.tsx", "typescript", "export function View() {\n  return <div>hi</div>;\n}\n"
    )
    assert "app.View.View" in view and error is None


def test_go_rust_java():
    go, _ = chunks_of(
        "pkg/store.go",
        "go",
        """
        package store

        // Store keeps users.
        type Store struct { users map[string]int }

        func (s *Store) Get(name string) int { return s.users[name] }

        func New() *Store { return &Store{} }
    """,
    )
    assert {"pkg.store.Store", "pkg.store.Store.Get", "pkg.store.New"} <= set(go)
    assert go["pkg.store.Store.Get"].kind == "method"
    assert go["pkg.store.Store"].docstring == "Store keeps users."
    rust, _ = chunks_of(
        "src/lib.rs",
        "rust",
        """
        pub struct Point { x: f64 }
        impl Point {
            /// Distance from the origin.
            pub fn norm(&self) -> f64 { self.x.abs() }
        }
        fn helper() {}
    """,
    )
    assert {"lib.Point", "lib.Point.norm", "lib.helper"} <= set(rust)
    assert rust["lib.Point.norm"].docstring == "Distance from the origin."
    java, _ = chunks_of(
        "src/main/App.java",
        "java",
        """
        public class App {
            public App() {}
            public static void main(String[] args) { System.out.println("hi"); }
        }
    """,
    )
    assert {"main.App.App", "main.App.App.App", "main.App.App.main"} <= set(java)


def test_broken_source_keeps_what_parses():
    chunks, error = chunks_of(
        "x.js", "javascript", "function ok() { return 1 }\nfunction broken( {\n"
    )
    assert error and "x.ok" in chunks


def test_go_grouped_types_interface_methods_and_generic_receivers():
    chunks, _ = chunks_of(
        "pkg/shapes.go",
        "go",
        """
        package shapes

        type (
            // Point is a place.
            Point struct{ X, Y int }
            Shape interface {
                // Area is the surface.
                Area() float64
            }
        )

        func (s *Stack[T]) Push(x T) {}
    """,
    )
    assert {"pkg.shapes.Point", "pkg.shapes.Shape", "pkg.shapes.Shape.Area"} <= set(chunks)
    assert chunks["pkg.shapes.Point"].docstring == "Point is a place."
    assert chunks["pkg.shapes.Shape.Area"].kind == "method"
    assert chunks["pkg.shapes.Shape.Area"].docstring == "Area is the surface."
    assert "pkg.shapes.Stack.Push" in chunks  # not `T.Push`: the receiver's type names it


def test_a_doc_comment_of_several_line_comments_is_whole():
    """Go (and `//`-style JavaScript) doc comments are one comment node per line: the
    docstring holds all of them, and none of them is left in the module chunk."""
    chunks, _ = chunks_of(
        "pkg/run.go",
        "go",
        """
        package pkg

        var limit = 3

        // Run starts every worker and waits for them.
        // It returns the first error any worker reported.
        func Run() error { return nil }
    """,
    )
    run = chunks["pkg.run.Run"]
    assert run.docstring == (
        "Run starts every worker and waits for them. "
        "It returns the first error any worker reported."
    )
    assert "starts every worker" not in chunks["pkg.run"].code


def test_class_fields_holding_functions_are_methods():
    chunks, _ = chunks_of(
        "src/context.ts",
        "typescript",
        """
        export class Context {
          count = 0;
          /** Set a response header. */
          header = (name: string, value: string): void => {
            this.set(name, value);
          };
          set(name: string, value: string) {}
        }
    """,
    )
    header = chunks["context.Context.header"]
    assert header.kind == "method" and header.docstring == "Set a response header."
    assert "this.set(name, value)" not in chunks["context.Context"].code
    js, _ = chunks_of("a.js", "javascript", "class A {\n  run = () => go();\n  n = 1;\n}\n")
    assert set(js) == {"a.A", "a.A.run"}


def test_functions_assigned_at_the_top_level_are_definitions():
    """CommonJS code defines its API by assignment (express's `app.use = function use`,
    `View.prototype.render`, `exports.compileETag`); axios exports its adapters behind a
    guard. Each is a function or a method of what it is assigned to, with its doc comment,
    and leaves the rest of the file."""
    chunks, error = chunks_of(
        "lib/application.js",
        "javascript",
        """
        var app = exports = module.exports = {};

        /** Proxy `Router#use()` to add middleware. */
        app.use = function use(fn) {
          return this.router.use(fn);
        };

        View.prototype.render = function render(options, callback) {
          this.engine(this.path, options, callback);
        };

        exports.compileETag = function(val) {
          return val;
        };

        app.settings.env = function () {};
        app[method] = function () {};
        app.count = 1;
    """,
    )
    assert error is None
    use = chunks["lib.application.app.use"]
    assert use.kind == "method" and use.parent == "lib.application.app"
    assert use.docstring == "Proxy `Router#use()` to add middleware."
    assert chunks["lib.application.View.render"].parent == "lib.application.View"
    assert chunks["lib.application.compileETag"].kind == "function"
    assert set(chunks) == {
        "lib.application",
        "lib.application.app.use",
        "lib.application.View.render",
        "lib.application.compileETag",
    }
    rest = chunks["lib.application"].code
    assert "this.router.use" not in rest and "app.settings.env" in rest and "app.count" in rest


def test_a_function_exported_as_an_expression_is_a_definition():
    """`export default supported && function httpAdapter(config) {…}` is named by its own
    name; an anonymous one, or `module.exports = function`, by its module."""
    http, _ = chunks_of(
        "lib/adapters/http.js",
        "javascript",
        """
        const isHttpAdapterSupported = typeof process !== 'undefined';

        export default isHttpAdapterSupported && function httpAdapter(config) {
          return dispatch(config);
        };
    """,
    )
    adapter = http["lib.adapters.http.httpAdapter"]
    assert adapter.kind == "function" and adapter.start_line == 4
    assert "dispatch(config)" not in http["lib.adapters.http"].code
    fetch, _ = chunks_of(
        "lib/adapters/fetch.js",
        "javascript",
        "export default isFetchSupported && (async (config) => {\n  await send(config);\n});\n",
    )
    assert set(fetch) == {"lib.adapters.fetch.fetch"}
    guarded, _ = chunks_of("lib/guard.js", "javascript", "const run = ready || (() => start());\n")
    assert guarded["lib.guard.run"].kind == "function"
    only, _ = chunks_of(
        "lib/only.js", "javascript", "module.exports = function (obj, keys) {\n  return obj;\n};\n"
    )
    assert set(only) == {"lib.only.only"}


def test_functions_in_a_top_level_object_literal_are_definitions():
    """Koa writes its request as `module.exports = {get header() {…}, …}` and axios its
    adapter lookup as `export default {getAdapter: (…) => {…}}`: each function is the
    module's own, as `exports.name = function` makes it. A `const`'s object holds methods
    of that name. Only the functions leave the module code; the object's other keys stay."""
    request, error = chunks_of(
        "lib/request.js",
        "javascript",
        """
        module.exports = {
          /** Return request header. */
          get header() {
            return this.req.headers;
          },

          is: function (types) {
            return types.includes(this.type);
          },
          'x-y': function () {},
          [computed]() {},
        };
    """,
    )
    assert error is None
    header = request["lib.request.header"]
    assert header.kind == "function" and header.parent == ""
    assert header.docstring == "Return request header." and header.start_line == 4
    assert request["lib.request.is"].code.strip().startswith("is: function (types)")
    assert set(request) == {"lib.request", "lib.request.header", "lib.request.is"}
    rest = request["lib.request"].code
    assert "module.exports = {" in rest and "this.req.headers" not in rest and "'x-y'" in rest
    helpers, _ = chunks_of(
        "src/util.ts",
        "typescript",
        """
        export const helpers = {
          trim(value: string) {
            return value.trim();
          },
          lower: (value: string) => helpers.trim(value).toLowerCase(),
          limit: 10,
        } as const;
        const plain = {limit: 10};
        export default {getAdapter: (names: string[]) => names[0]};
    """,
    )
    trim = helpers["util.helpers.trim"]
    assert trim.kind == "method" and trim.parent == "util.helpers"
    assert helpers["util.helpers.lower"].start_line == 6
    assert helpers["util.getAdapter"].kind == "function"
    assert "limit: 10," in helpers["util"].code and "plain" in helpers["util"].code


def test_a_class_assigned_to_module_exports_is_a_definition():
    """Koa's `module.exports = class Application extends Emitter {…}` is a class with its
    methods, as its declaration would be; an anonymous one is named by its module."""
    application, _ = chunks_of(
        "lib/application.js",
        "javascript",
        """
        module.exports = class Application extends Emitter {
          listen(...args) {
            return this.callback();
          }
        };
        exports.Router = class {
          route() {}
        };
    """,
    )
    klass = application["lib.application.Application"]
    assert klass.kind == "class" and "return this.callback()" not in klass.code
    listen = application["lib.application.Application.listen"]
    assert listen.kind == "method" and listen.parent == "lib.application.Application"
    assert application["lib.application.Router.route"].parent == "lib.application.Router"
    source = "module.exports = class {\n  run() {}\n};\n"
    anonymous, _ = chunks_of("lib/app.js", "javascript", source)
    assert set(anonymous) == {"lib.app.app", "lib.app.app.run"}
