"""tree-sitter chunks for JavaScript, TypeScript, Go, Rust, Java, C, C++, C#, Ruby, PHP,
Kotlin, Swift, Scala and Lua."""

from __future__ import annotations

from pathlib import Path

from codekith.graph import in_graph
from codekith.syntax import grammar_of
from tests.chunks import chunks_of


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


def test_c_functions_structs_and_typedefs():
    """A C file's functions and its structs, unions and enums with a body are definitions;
    `typedef struct {…} name;` is the class `name`. A prototype, a forward declaration and
    an anonymous enum define nothing and stay module code, like the preprocessor lines; a
    function inside `#ifdef` is a function all the same."""
    chunks, error = chunks_of(
        "src/sds.c",
        "c",
        """
        #include <stdlib.h>
        #define SDS_MAX_PREALLOC (1024*1024)

        /* A string buffer that keeps its length. */
        typedef struct {
            size_t len;
            char *buf;
        } sds;

        struct sdshdr8 {
            unsigned char len;
        };

        struct sdsfwd;
        enum { SDS_TYPE_5, SDS_TYPE_8 };
        sds *sdsnew(const char *init);

        /* Create a new sds string
         * from a buffer and its length. */
        static sds *sdsnewlen(const void *init, size_t initlen) {
            sds *s = malloc(sizeof(sds));
            return s;
        }

        #ifdef SDS_TEST
        int sdsTest(void) {
            return 0;
        }
        #endif
    """,
    )
    assert error is None
    assert set(chunks) == {"sds", "sds.sds", "sds.sdshdr8", "sds.sdsnewlen", "sds.sdsTest"}
    buffer = chunks["sds.sds"]
    assert buffer.kind == "class" and buffer.docstring == "A string buffer that keeps its length."
    assert (buffer.start_line, buffer.end_line) == (6, 9) and "} sds;" in buffer.code
    new = chunks["sds.sdsnewlen"]
    assert new.kind == "function" and new.parent == ""
    assert new.docstring == "Create a new sds string from a buffer and its length."
    assert new.signature == "static sds *sdsnewlen(const void *init, size_t initlen)"
    assert (new.start_line, new.end_line) == (21, 24)
    rest = chunks["sds"].code
    for kept in ("#define SDS_MAX_PREALLOC", "struct sdsfwd;", "SDS_TYPE_5", "sdsnew(", "#ifdef"):
        assert kept in rest
    assert "malloc" not in rest and "return 0" not in rest


def test_cpp_namespaces_templates_and_out_of_line_methods():
    """Classes of a C++ header in nested namespaces are found as if at the top level and
    named without them; a method defined outside its class (`Foo<Char>::operator==`) is a
    method of `Foo`, its template header included; `extern "C" {…}` holds functions. A
    `.h` file is read with the C++ grammar: C++ projects keep their classes in headers."""
    assert grammar_of("include/fmt/base.h", "c") == "cpp"
    assert grammar_of("src/sds.c", "c") == "c"
    chunks, error = chunks_of(
        "include/fmt/base.h",
        "c",
        """
        #pragma once
        #include <string>

        namespace fmt {
        inline namespace v11 {

        /// A view of a string: a pointer and a size.
        template <typename Char>
        class basic_string_view {
         public:
          constexpr basic_string_view() noexcept : data_(nullptr), size_(0) {}

          /// Returns the string size.
          constexpr size_t size() const noexcept {
            return size_;
          }
          bool operator==(basic_string_view other) const;

         private:
          const Char* data_;
          size_t size_;
        };

        }  // namespace v11
        }  // namespace fmt

        // Compares the views char by char.
        template <typename Char>
        bool basic_string_view<Char>::operator==(basic_string_view other) const {
          return size_ == other.size_;
        }

        extern "C" {
        int fmt_c_version(void) { return 11; }
        }
    """,
    )
    assert error is None
    view = "include.fmt.base.basic_string_view"
    assert set(chunks) == {
        "include.fmt.base",
        view,
        f"{view}.basic_string_view",
        f"{view}.size",
        f"{view}.operator==",
        "include.fmt.base.fmt_c_version",
    }
    klass = chunks[view]
    assert klass.kind == "class" and klass.docstring == "A view of a string: a pointer and a size."
    assert klass.signature == "class basic_string_view" and klass.start_line == 9
    assert "return size_;" not in klass.code and "bool operator==(" in klass.code
    size = chunks[f"{view}.size"]
    assert size.kind == "method" and size.parent == view
    assert size.docstring == "Returns the string size."
    assert (size.start_line, size.end_line) == (15, 17)
    equals = chunks[f"{view}.operator=="]
    assert equals.kind == "method" and equals.parent == view
    assert equals.docstring == "Compares the views char by char."
    assert (equals.start_line, equals.end_line) == (29, 32) and equals.code.startswith("template")
    assert chunks["include.fmt.base.fmt_c_version"].kind == "function"
    rest = chunks["include.fmt.base"].code
    assert "namespace fmt {" in rest and "}  // namespace fmt" in rest and 'extern "C" {' in rest
    assert "data_" not in rest and "#pragma once" in rest


def test_csharp_namespaces_classes_and_xml_doc_comments():
    """C# types in a namespace (braced or file-scoped) are top-level definitions; an XML
    doc comment becomes plain text (`<see cref="JToken"/>` names JToken), and a signature
    is the line below the attributes. Operators and destructors have names of their own."""
    chunks, error = chunks_of(
        "Src/Newtonsoft.Json/Linq/JArray.cs",
        "csharp",
        """
        using System;

        namespace Newtonsoft.Json.Linq
        {
            /// <summary>
            /// Represents a JSON array, see <see cref="JToken"/>.
            /// </summary>
            [Serializable]
            public partial class JArray : JContainer
            {
                private readonly List<JToken> _values = new();

                public JArray() { }
                ~JArray() { }

                /// <summary>Adds an item.</summary>
                [Obsolete]
                public void Add(object? item)
                {
                    _values.Add(item);
                }

                public static JArray operator +(JArray a, JArray b) => a;
            }

            public interface IJsonLineInfo
            {
                bool HasLineInfo();
            }
        }
    """,
    )
    assert error is None
    array = "Src.Newtonsoft.Json.Linq.JArray.JArray"
    assert {f"{array}.JArray", f"{array}.~JArray", f"{array}.operator+"} < set(chunks)
    klass = chunks[array]
    assert klass.docstring == "Represents a JSON array, see JToken."
    assert klass.signature == "public partial class JArray : JContainer" and klass.start_line == 9
    add = chunks[f"{array}.Add"]
    assert add.kind == "method" and add.parent == array and add.docstring == "Adds an item."
    assert add.signature == "public void Add(object? item)" and add.start_line == 18
    info = chunks["Src.Newtonsoft.Json.Linq.JArray.IJsonLineInfo.HasLineInfo"]
    assert info.parent == "Src.Newtonsoft.Json.Linq.JArray.IJsonLineInfo"
    rest = chunks["Src.Newtonsoft.Json.Linq.JArray"].code
    assert "namespace Newtonsoft.Json.Linq" in rest and "_values" not in rest
    scoped, _ = chunks_of(
        "Json/Token.cs", "csharp", "namespace Json;\n\npublic enum Token { Start, End }\n"
    )
    assert set(scoped) == {"Json.Token", "Json.Token.Token"}


def test_a_method_a_syntax_error_put_outside_its_class_stays_its_method():
    """A stray brace (or a C# `#if` splitting an `if … else`) ends a class early for
    tree-sitter; the methods after it are still the methods of that class."""
    chunks, error = chunks_of(
        "src/Acme/Reader.cs",
        "csharp",
        """
        namespace Acme
        {
            public class Reader
            {
                void Skip()
                {
                    }
                }

                /// <summary>Reads the next token.</summary>
                public bool Read()
                {
                    return true;
                }
            }
        }
    """,
    )
    read = chunks["Acme.Reader.Reader.Read"]
    assert error and read.kind == "method" and read.parent == "Acme.Reader.Reader"
    assert read.docstring == "Reads the next token."


def test_ruby_modules_classes_and_singleton_methods():
    """A Ruby module that only holds other definitions is a namespace (its lines are
    module code); one with methods of its own (`def self.escape`, `def unescape`) is
    class-like, as a mixin is. Classes nested in either are classes of their own; methods
    in `class << self` and behind `private` are the class's. A comment tree-sitter puts
    before a body (in the module, not the body) is still the doc of the first definition."""
    chunks, error = chunks_of(
        "lib/rack/utils.rb",
        "ruby",
        """
        # frozen_string_literal: true

        module Rack
          # Rack::Utils contains a grab-bag of useful methods.
          module Utils
            DEFAULT_SEP = /[&;] */n

            # Escapes a string for a URL query.
            def self.escape(s)
              URI.encode_www_form_component(s)
            end

            def unescape(s)
              URI.decode_www_form_component(s)
            end

            # A case-insensitive Hash of headers.
            class HeaderHash < Hash
              def [](key)
                super(key.downcase)
              end
            end
          end

          class Request
            class << self
              def default_ip_filter(ip) = ip.start_with?("10.")
            end

            private def secret
              @secret
            end
          end
        end
    """,
    )
    assert error is None
    utils = "lib.rack.utils.Utils"
    assert set(chunks) == {
        "lib.rack.utils",
        utils,
        f"{utils}.escape",
        f"{utils}.unescape",
        "lib.rack.utils.HeaderHash",
        "lib.rack.utils.HeaderHash.[]",
        "lib.rack.utils.Request",
        "lib.rack.utils.Request.default_ip_filter",
        "lib.rack.utils.Request.secret",
    }
    module = chunks[utils]
    assert (
        module.kind == "class"
        and module.docstring == "Rack::Utils contains a grab-bag of useful methods."
    )
    assert "DEFAULT_SEP" in module.code and "class HeaderHash < Hash" in module.code
    assert "URI.encode_www_form_component" not in module.code and "downcase" not in module.code
    escape = chunks[f"{utils}.escape"]
    assert escape.kind == "method" and escape.parent == utils
    assert escape.docstring == "Escapes a string for a URL query."
    assert (escape.start_line, escape.end_line) == (10, 12)
    header = chunks["lib.rack.utils.HeaderHash"]
    assert header.docstring == "A case-insensitive Hash of headers." and header.start_line == 19
    assert chunks["lib.rack.utils.Request.secret"].parent == "lib.rack.utils.Request"
    rest = chunks["lib.rack.utils"].code
    assert rest.split("\n") == ["# frozen_string_literal: true", "module Rack", "end"]


def test_php_namespace_classes_traits_and_functions():
    """PHP classes, traits and functions after `namespace X;` or inside `namespace X {…}`
    are top-level definitions; a `/** … */` or `#` comment above one is its doc."""
    chunks, error = chunks_of(
        "src/Monolog/Handler/AbstractHandler.php",
        "php",
        """
        <?php

        declare(strict_types=1);

        namespace Monolog\\Handler;

        use Monolog\\LogRecord;

        /**
         * Base Handler class providing basic level support.
         */
        abstract class AbstractHandler extends Handler
        {
            protected bool $bubble = true;

            /**
             * Whether the handler handles the record.
             */
            public function isHandling(LogRecord $record): bool
            {
                return $record->level->value >= $this->level->value;
            }

            abstract protected function write(LogRecord $record): void;
        }

        # Gives a handler a formatter.
        trait FormattableHandlerTrait
        {
            public function setFormatter(FormatterInterface $formatter): self
            {
                $this->formatter = $formatter;

                return $this;
            }
        }

        function level_name(int $level): string
        {
            return (string) $level;
        }
    """,
    )
    assert error is None
    handler = "Monolog.Handler.AbstractHandler.AbstractHandler"
    klass = chunks[handler]
    assert (
        klass.kind == "class"
        and klass.docstring == "Base Handler class providing basic level support."
    )
    assert "$record->level" not in klass.code and "protected bool $bubble" in klass.code
    handling = chunks[f"{handler}.isHandling"]
    assert (
        handling.parent == handler
        and handling.docstring == "Whether the handler handles the record."
    )
    assert (handling.start_line, handling.end_line) == (20, 23)
    assert chunks[f"{handler}.write"].kind == "method"
    trait = chunks["Monolog.Handler.AbstractHandler.FormattableHandlerTrait"]
    assert trait.kind == "class" and trait.docstring == "Gives a handler a formatter."
    assert chunks["Monolog.Handler.AbstractHandler.level_name"].kind == "function"
    rest = chunks["Monolog.Handler.AbstractHandler"].code
    assert "namespace Monolog\\Handler;" in rest and "use Monolog\\LogRecord;" in rest
    braced, _ = chunks_of(
        "tests/TestCase.php",
        "php",
        "<?php\nnamespace Monolog\\Test {\n    class TestCase\n    {\n"
        "        public function getRecord() { return []; }\n    }\n}\n",
    )
    assert set(braced) == {
        "tests.TestCase",
        "tests.TestCase.TestCase",
        "tests.TestCase.TestCase.getRecord",
    }


def test_kotlin_classes_objects_companions_and_top_level_functions():
    """Kotlin classes (interfaces too) and objects are class-like; a companion object's
    functions are the class's methods; a top-level `fun` is a function. A signature skips
    the annotations above a declaration."""
    chunks, error = chunks_of(
        "src/okio/Buffer.kt",
        "kotlin",
        """
        package okio

        import kotlin.jvm.JvmStatic

        /**
         * A collection of bytes in memory.
         */
        class Buffer : BufferedSource {
          /** Returns the number of bytes in this buffer. */
          fun size(): Long {
            return size
          }

          companion object {
            @JvmStatic
            fun of(vararg data: Byte): Buffer = Buffer().write(data)
          }
        }

        // Encodes and decodes UTF-8.
        object Utf8 {
          fun size(string: String): Long = string.length.toLong()
        }

        interface Source {
          fun read(sink: Buffer, byteCount: Long): Long
        }

        /** Returns a sink that writes nowhere. */
        fun blackholeSink(): Sink = BlackholeSink()

        val EMPTY = Buffer()
    """,
    )
    assert error is None
    assert set(chunks) == {
        "okio.Buffer",
        "okio.Buffer.Buffer",
        "okio.Buffer.Buffer.size",
        "okio.Buffer.Buffer.of",
        "okio.Buffer.Utf8",
        "okio.Buffer.Utf8.size",
        "okio.Buffer.Source",
        "okio.Buffer.Source.read",
        "okio.Buffer.blackholeSink",
    }
    buffer = chunks["okio.Buffer.Buffer"]
    assert buffer.kind == "class" and buffer.docstring == "A collection of bytes in memory."
    assert "return size" not in buffer.code and (buffer.start_line, buffer.end_line) == (9, 19)
    size = chunks["okio.Buffer.Buffer.size"]
    assert (
        size.parent == "okio.Buffer.Buffer"
        and size.docstring == "Returns the number of bytes in this buffer."
    )
    of = chunks["okio.Buffer.Buffer.of"]
    assert of.kind == "method" and of.parent == "okio.Buffer.Buffer"
    assert of.signature == "fun of(vararg data: Byte): Buffer = Buffer().write(data)"
    assert chunks["okio.Buffer.Utf8"].docstring == "Encodes and decodes UTF-8."
    sink = chunks["okio.Buffer.blackholeSink"]
    assert sink.kind == "function" and sink.docstring == "Returns a sink that writes nowhere."
    rest = chunks["okio.Buffer"].code
    assert "package okio" in rest and "val EMPTY = Buffer()" in rest and "A collection" not in rest


def test_swift_types_extensions_initializers_and_functions():
    """Swift's classes, structs, enums, extensions and protocols are class-like, their
    `func`, `init`, `deinit` and `subscript` methods; an extension is named after the type
    it extends (its last part), so its methods' parent is that type. `///` and `/** */`
    comments above are docstrings, `@available` no signature."""
    chunks, error = chunks_of(
        "Source/Core/Session.swift",
        "swift",
        """
        import Foundation

        /// Creates and manages requests.
        /// Thread-safe.
        open class Session: @unchecked Sendable {
            let rootQueue: DispatchQueue

            /** Creates a session. */
            public init(rootQueue: DispatchQueue) {
                self.rootQueue = rootQueue
            }

            deinit { finishRequests() }

            @available(macOS 10.15, *)
            open func request(_ url: URL) -> Request {
                return Request(url: url)
            }

            subscript(index: Int) -> Request? { nil }
        }

        extension Session.RequestSetup: CustomStringConvertible {
            var description: String { "setup" }
            func isLazy() -> Bool { self == .lazy }
        }

        protocol Interceptor {
            func adapt(_ request: URLRequest) -> URLRequest
        }

        // Encodes a value as JSON.
        func encode<T: Encodable>(_ value: T) throws -> Data {
            try JSONEncoder().encode(value)
        }

        let AF = Session.default
    """,
    )
    assert error is None
    assert set(chunks) == {
        "Source.Core.Session",
        "Source.Core.Session.Session",
        "Source.Core.Session.Session.init",
        "Source.Core.Session.Session.deinit",
        "Source.Core.Session.Session.request",
        "Source.Core.Session.Session.subscript",
        "Source.Core.Session.RequestSetup",
        "Source.Core.Session.RequestSetup.isLazy",
        "Source.Core.Session.Interceptor",
        "Source.Core.Session.Interceptor.adapt",
        "Source.Core.Session.encode",
    }
    session = chunks["Source.Core.Session.Session"]
    assert (
        session.kind == "class"
        and session.docstring == "Creates and manages requests. Thread-safe."
    )
    assert "return Request" not in session.code and "let rootQueue" in session.code
    init = chunks["Source.Core.Session.Session.init"]
    assert init.kind == "method" and init.docstring == "Creates a session."
    assert init.parent == "Source.Core.Session.Session"
    request = chunks["Source.Core.Session.Session.request"]
    assert request.signature == "open func request(_ url: URL) -> Request"
    lazy = chunks["Source.Core.Session.RequestSetup.isLazy"]
    assert lazy.parent == "Source.Core.Session.RequestSetup"
    encode = chunks["Source.Core.Session.encode"]
    assert encode.kind == "function" and encode.docstring == "Encodes a value as JSON."
    rest = chunks["Source.Core.Session"].code
    assert "import Foundation" in rest and "let AF = Session.default" in rest
    assert "Thread-safe" not in rest


def test_scala_classes_objects_traits_and_packages():
    """Scala classes, objects (a companion too), traits and enums are class-like with
    their `def`s (abstract ones too) as methods; a Scala 3 top-level `def` is a function
    and a `package a { … }` holds top-level definitions. Scaladoc is the docstring, also
    where a Scala 3 indented body runs on over the next definition's comment."""
    chunks, error = chunks_of(
        "src/scopt/OParser.scala",
        "scala",
        """
        package scopt

        import scala.collection.mutable

        /** A command line parser.
          * @param name the program name
          */
        abstract class OptionParser[C](name: String) {
          val options = mutable.ListBuffer[String]()

          /** Parses the arguments. */
          def parse(args: Seq[String]): Option[C] = {
            None
          }
        }

        // Builds parsers.
        object OParser {
          def builder[C]: OptionParser[C] = ???
        }

        trait Read[A] {
          def reads: String => A
          def arity: Int = 1
        }

        def render(x: Int): String =
          x.toString

        /** Renders twice. */
        def twice(x: Int): String = render(x) * 2

        package internal {
          class Tokens { def next(): String = "" }
        }
    """,
    )
    assert error is None
    assert set(chunks) == {
        "scopt.OParser",
        "scopt.OParser.OptionParser",
        "scopt.OParser.OptionParser.parse",
        "scopt.OParser.OParser",
        "scopt.OParser.OParser.builder",
        "scopt.OParser.Read",
        "scopt.OParser.Read.reads",
        "scopt.OParser.Read.arity",
        "scopt.OParser.render",
        "scopt.OParser.twice",
        "scopt.OParser.Tokens",
        "scopt.OParser.Tokens.next",
    }
    parser = chunks["scopt.OParser.OptionParser"]
    assert parser.docstring == "A command line parser. @param name the program name"
    assert "None" not in parser.code and "val options" in parser.code
    assert chunks["scopt.OParser.OParser"].docstring == "Builds parsers."
    parse = chunks["scopt.OParser.OptionParser.parse"]
    assert parse.docstring == "Parses the arguments."
    assert parse.parent == "scopt.OParser.OptionParser"
    assert chunks["scopt.OParser.OParser.builder"].parent == "scopt.OParser.OParser"
    assert chunks["scopt.OParser.Read.reads"].kind == "method"
    render = chunks["scopt.OParser.render"]
    assert render.kind == "function" and (render.start_line, render.end_line) == (28, 29)
    assert chunks["scopt.OParser.twice"].docstring == "Renders twice."
    assert chunks["scopt.OParser.Tokens.next"].parent == "scopt.OParser.Tokens"
    rest = chunks["scopt.OParser"].code
    assert "package scopt" in rest and "package internal {" in rest and "def " not in rest


def test_lua_functions_table_methods_and_assigned_functions():
    """`function M.clamp` and `function M:add` are methods of the table `M` (as JavaScript's
    `app.use = function` is of `app`), and so is `M.round = function … end`; `local function`
    is a function, `local M = {}` no class. `---` and `--[[ ]]` comments above are
    docstrings without their dashes."""
    chunks, error = chunks_of(
        "lume.lua",
        "lua",
        """
        local M = { _version = "2.3.0" }

        --- Clamps a number between two bounds.
        -- @param x number
        function M.clamp(x, lo, hi)
          return math.max(lo, math.min(x, hi))
        end

        -- Adds to the counter.
        function M:add(n)
          self.n = self.n + n
        end

        local function iscallable(x)
          return type(x) == "function"
        end

        --[[ Rounds to an increment. ]]
        M.round = function(x, increment)
          return math.floor(x / increment + .5) * increment
        end

        return M
    """,
    )
    assert error is None
    assert set(chunks) == {"lume", "lume.M.clamp", "lume.M.add", "lume.iscallable", "lume.M.round"}
    clamp = chunks["lume.M.clamp"]
    assert clamp.kind == "method" and clamp.parent == "lume.M"
    assert clamp.docstring == "Clamps a number between two bounds. @param x number"
    add = chunks["lume.M.add"]
    assert add.kind == "method" and add.docstring == "Adds to the counter."
    assert add.signature == "function M:add(n)"
    assert chunks["lume.iscallable"].kind == "function"
    round_ = chunks["lume.M.round"]
    assert round_.kind == "method" and round_.docstring == "Rounds to an increment."
    rest = chunks["lume"].code
    assert "local M = {" in rest and "return M" in rest and "Clamps" not in rest


def test_macros_tree_sitter_misreads_still_leave_the_definitions():
    """An export macro before a class name (`class Q_CORE_EXPORT QObject`) or before a
    namespace reads to tree-sitter as a function; the class is still a class, and the
    namespace's definitions are still found."""
    chunks, _ = chunks_of(
        "src/qobject.h",
        "c",
        """
        class Q_CORE_EXPORT QObject {
          void run() {
            start();
          }
        };

        FMT_END_EXPORT
        namespace detail {
        inline int helper(int x) { return x; }
        }
    """,
    )
    assert chunks["qobject.QObject"].kind == "class"
    assert chunks["qobject.QObject.run"].parent == "qobject.QObject"
    assert chunks["qobject.helper"].kind == "function"


def test_bad_input_never_crashes():
    """Empty files, files of preprocessor lines only, broken and deeply nested code (a
    namespace in a namespace thousands deep, a long `#elif` chain) give chunks, not errors."""
    assert chunks_of("src/empty.c", "c", "") == ({}, None)
    only, _ = chunks_of("src/guard.h", "c", "#ifndef GUARD_H\n#define GUARD_H\n#endif\n")
    assert set(only) == {"guard"}
    broken, error = chunks_of("src/broken.kt", "kotlin", "fun ok() = 1\nclass Broken {\n  fun (\n")
    assert error and "broken.ok" in broken
    deep = "namespace a {\n" * 3000 + "void f() {}\n" + "}\n" * 3000
    assert "deep.f" in chunks_of("src/deep.cpp", "cpp", deep)[0]
    branches = "#if A\n" + "".join(
        f"#elif B{i}\nint f{i}(void) {{ return {i}; }}\n" for i in range(1500)
    )
    assert "chain.f1499" in chunks_of("src/chain.c", "c", branches + "#endif\n")[0]
    nested = "".join(f"module M{i}\n  def m{i}; end\n" for i in range(500)) + "end\n" * 500
    assert "lib.nested.M499.m499" in chunks_of("lib/nested.rb", "ruby", nested)[0]


def test_swift_scala_and_lua_bad_input_never_crashes():
    """Empty files and broken Swift, Scala and Lua give chunks (what still parses), not
    errors: an editor indexes files mid-edit."""
    for path, language in (("a.swift", "swift"), ("a.scala", "scala"), ("a.lua", "lua")):
        assert chunks_of(path, language, "") == ({}, None)
    swift, error = chunks_of("s.swift", "swift", "func ok() {}\nclass Broken {\n  func (\n")
    assert error and "s.ok" in swift
    scala, error = chunks_of("s.scala", "scala", "def ok = 1\nobject Broken {\n  def (\n")
    assert error and "s.ok" in scala
    lua, error = chunks_of("s.lua", "lua", "function ok() end\nfunction M.( end\n")
    assert error and "s.ok" in lua


def test_every_chunked_language_reaches_the_call_graph(tmp_path: Path):
    """C, C#, Kotlin, Swift, Ruby, PHP, Lua, Scala and C++ got call-graph front ends at
    stop 53, shell at stop 56: every language the chunker reads by definition has a call
    graph."""
    for path in ("a.c", "a.h", "a.cs", "a.kt", "a.kts", "a.swift", "a.rb", "a.php", "a.lua"):
        assert in_graph(tmp_path, path)
    for path in ("a.scala", "a.cpp", "a.cc", "a.hh", "a.cxx", "a.hxx", "a.hpp"):
        assert in_graph(tmp_path, path)
    assert in_graph(tmp_path, "a.java") and in_graph(tmp_path, "a.go")
    assert in_graph(tmp_path, "install.sh")  # since stop 56
    assert in_graph(tmp_path, "lib/prompt.bash")
    script, _ = chunks_of("build.gradle.kts", "kotlin", "fun configure() {\n  apply()\n}\n")
    assert script["build.gradle.configure"].kind == "function"


def test_types_nested_in_a_type_body_are_classes_with_methods_of_their_own():
    """A Java or Kotlin `Builder`, a C# nested class, a Swift enum inside a struct, a
    Scala object inside an object: each is a class named under its outer type, its methods
    under it, and the outer type's chunk shows the nested one's first line only. C and C++
    types nested in field declarations stay their outer type's code."""
    java, _ = chunks_of(
        "src/main/java/p/TypeSpec.java",
        "java",
        """
        package p;

        public class TypeSpec {
          public void emit() {
            write();
          }

          /** Builds type specs. */
          public static class Builder {
            private int count;

            /** Adds a member. */
            public Builder add(int member) {
              count += member;
              return this;
            }

            enum Kind {
              CLASS, INTERFACE;

              boolean isClass() {
                return this == CLASS;
              }
            }
          }
        }
        """,
    )
    outer = java["main.java.p.TypeSpec.TypeSpec"]
    builder = java["main.java.p.TypeSpec.TypeSpec.Builder"]
    assert builder.kind == "class" and builder.docstring == "Builds type specs."
    assert builder.parent == "main.java.p.TypeSpec.TypeSpec"
    assert "public static class Builder {" in outer.code and "count += member" not in outer.code
    add = java["main.java.p.TypeSpec.TypeSpec.Builder.add"]
    assert add.kind == "method" and add.docstring == "Adds a member."
    assert add.parent == "main.java.p.TypeSpec.TypeSpec.Builder"
    assert java["main.java.p.TypeSpec.TypeSpec.Builder.Kind.isClass"].kind == "method"
    assert "return this == CLASS" not in builder.code

    kotlin, _ = chunks_of(
        "src/p/Spec.kt",
        "kotlin",
        """
        package p

        class Spec {
          class Builder {
            fun build(): Spec = Spec()
          }

          object Keys {
            fun key() = 1
          }

          companion object {
            fun make() = Spec()
          }
        }
        """,
    )
    assert kotlin["p.Spec.Spec.Builder.build"].kind == "method"
    assert kotlin["p.Spec.Spec.Keys.key"].kind == "method"
    assert kotlin["p.Spec.Spec.make"].kind == "method"  # a companion's: the class's own

    csharp, _ = chunks_of(
        "src/Outer.cs",
        "csharp",
        """
        namespace N
        {
            public class Outer
            {
                private sealed class Inner : Base
                {
                    public void Run() { }
                }
            }
        }
        """,
    )
    assert csharp["Outer.Outer.Inner"].kind == "class"
    assert csharp["Outer.Outer.Inner.Run"].kind == "method"

    swift, _ = chunks_of(
        "Sources/Session.swift",
        "swift",
        """
        extension Session {
          enum State {
            case idle

            func name() -> String {
              return ""
            }
          }
        }
        """,
    )
    assert swift["Sources.Session.Session.State.name"].kind == "method"

    scala, _ = chunks_of(
        "src/os.scala",
        "scala",
        """
        object os {
          object Inner {
            def b() = 2
          }
        }
        """,
    )
    assert scala["os.os.Inner.b"].kind == "method"

    cpp, _ = chunks_of(
        "src/a.cpp",
        "cpp",
        """
        class Outer {
          struct Impl {
            int x;
          };
          int f() { return 1; }
        };
        """,
    )
    assert "a.Outer.f" in cpp and not any(".Impl" in name for name in cpp)
