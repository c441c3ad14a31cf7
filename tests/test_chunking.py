from __future__ import annotations

import itertools
import textwrap

from codekith.chunking import chunk_file
from codekith.chunking.split import MAX_CHUNK_CHARS
from tests.conftest import HTTP_MODULE


def chunks_of(path: str, source: str, language: str = "python"):
    return {c.qualname: c for c in chunk_file(path, language, textwrap.dedent(source)).chunks}


def test_python_definitions_become_chunks_with_metadata():
    chunks = chunks_of("src/web/http.py", HTTP_MODULE)
    assert set(chunks) == {
        "web.http",
        "web.http.parse_header",
        "web.http.Session",
        "web.http.Session.send",
        "web.http.fetch_json",
    }
    parse = chunks["web.http.parse_header"]
    assert parse.kind == "function"
    assert parse.signature == "def parse_header(line: str) -> tuple[str, str]"
    assert parse.docstring == "Split an HTTP header line into its name and value."
    assert (parse.start_line, parse.end_line) == (8, 11)
    send = chunks["web.http.Session.send"]
    assert (send.kind, send.parent) == ("method", "web.http.Session")
    assert chunks["web.http.fetch_json"].signature.startswith("async def fetch_json")
    module = chunks["web.http"]
    assert module.kind == "module" and "HEADER = re.compile" in module.code
    assert "def parse_header" not in module.code
    assert module.imports == ["re"]


def test_class_chunk_collapses_method_bodies():
    session = chunks_of("http.py", HTTP_MODULE)["http.Session"]
    assert "timeout: float = 10.0" in session.code
    assert "def send(self, request):" in session.code
    assert "self.cookies.update" not in session.code
    assert session.docstring == "Keeps cookies between requests."


def test_nested_functions_decorators_bases_and_imports():
    source = """
        from .util import helper as h
        import numpy as np

        @register("x")
        class Child(Base, metaclass=Meta):
            @property
            def value(self):
                def inner():
                    return np.zeros(3)
                return h(inner())
    """
    chunks = chunks_of("pkg/mod.py", source)
    assert "pkg.mod.Child.value.inner" not in chunks
    child = chunks["pkg.mod.Child"]
    assert child.decorators == ["register('x')"] and child.bases == ["Base"]
    assert child.signature == "class Child(Base, metaclass=Meta)"
    value = chunks["pkg.mod.Child.value"]
    assert value.decorators == ["property"]
    assert "def inner" in value.code
    assert value.imports == ["numpy", "pkg.util.helper"]


REGISTERING = '''
    import functools

    def create_app(config):
        app = Flask(__name__)

        @app.route("/")
        def index():
            """The home page."""
            return render("index.html")

        if config.debug:
            @app.errorhandler(404)
            async def missing(error):
                return "gone", 404

        def helper(x):
            return x + 1

        return app

    def logged(f):
        @functools.wraps(f)
        def wrapper(*args):
            return f(*args)
        return wrapper

    def with_context(f):
        @click.pass_context
        def decorator(ctx, *args):
            return f(ctx, *args)
        return functools.update_wrapper(decorator, f)

    class Server:
        def setup(self):
            @self.feature("didSave")
            def did_save(params):
                @retry
                def again():
                    pass
                schedule(again)
'''


def test_a_function_decorated_inside_another_is_a_chunk_collapsed_in_it():
    chunks = chunks_of("app.py", REGISTERING)
    index = chunks["app.create_app.index"]
    assert (index.kind, index.parent, index.docstring) == (
        "function",
        "app.create_app",
        "The home page.",
    )
    assert (index.start_line, index.end_line) == (7, 10) and index.decorators == ["app.route('/')"]
    assert chunks["app.create_app.missing"].signature == "async def missing(error)"
    factory = chunks["app.create_app"]
    assert (factory.start_line, factory.end_line) == (4, 20)
    assert '@app.route("/")\n    def index():\n        ...' in factory.code
    assert "render(" not in factory.code and '"gone"' not in factory.code
    assert "return x + 1" in factory.code and "app.create_app.helper" not in chunks
    assert "app.logged.wrapper" not in chunks and "return f(*args)" in chunks["app.logged"].code
    assert "app.with_context.decorator" not in chunks  # a closure it returns is its own
    did_save = chunks["app.Server.setup.did_save"]
    assert (did_save.kind, did_save.parent) == ("function", "app.Server.setup")
    assert "@retry\n            def again():\n                ..." in did_save.code
    assert chunks["app.Server.setup.did_save.again"].parent == "app.Server.setup.did_save"
    assert chunks["app.Server.setup"].code.endswith("def did_save(params):\n            ...")
    in_a_test = chunks_of("tests/test_app.py", REGISTERING)  # what a test sets up is the test
    assert [c.qualname for c in in_a_test.values() if c.kind == "function"] == [
        "tests.test_app.create_app",
        "tests.test_app.logged",
        "tests.test_app.with_context",
    ]
    assert 'return "gone", 404' in in_a_test["tests.test_app.create_app"].code


def test_a_file_with_a_syntax_error_keeps_its_registered_functions():
    result = chunk_file("app.py", "python", textwrap.dedent(REGISTERING) + "\ndef oops(:\n")
    assert result.error and "syntax error" in result.error
    parents = {c.qualname: c.parent for c in result.chunks}
    assert parents["app.create_app.index"] == "app.create_app"
    assert parents["app.create_app.missing"] == "app.create_app"
    assert parents["app.Server.setup.did_save.again"] == "app.Server.setup.did_save"
    assert "app.create_app.helper" not in parents and "app.logged.wrapper" not in parents
    assert "app.with_context.decorator" not in parents
    broken = chunk_file("tests/test_app.py", "python", textwrap.dedent(REGISTERING) + "\n(:\n")
    assert not any(c.parent.startswith("tests.test_app.create_app") for c in broken.chunks)


def test_ids_are_stable_across_line_shifts_and_change_with_content():
    before = chunks_of("m.py", HTTP_MODULE)
    shifted = chunks_of("m.py", "\n\n\n# a comment\n" + textwrap.dedent(HTTP_MODULE))
    assert before["m.parse_header"].id == shifted["m.parse_header"].id
    assert shifted["m.parse_header"].start_line == before["m.parse_header"].start_line + 4
    edited = chunks_of("m.py", HTTP_MODULE.replace("value.strip()", "value"))
    assert edited["m.parse_header"].id != before["m.parse_header"].id
    assert edited["m.Session.send"].id == before["m.Session.send"].id


def test_syntax_error_keeps_what_parses_and_reports():
    source = (
        "def ok():\n    return 1\n\ndef broken(:\n    pass\n\n"
        "class K:\n    def m(self):\n        return 2\n"
    )
    result = chunk_file("bad.py", "python", source)
    assert result.error and "syntax error" in result.error and "line 4" in result.error
    names = {c.qualname for c in result.chunks}
    assert {"bad.ok", "bad.K", "bad.K.m"} <= names


def test_huge_definition_is_split_into_parts_sharing_the_symbol():
    body = "\n".join(
        f"    x{i} = compute_something_long({i}, 'padding text here')" for i in range(300)
    )
    result = chunk_file("big.py", "python", f"def huge():\n{body}\n")
    parts = [c for c in result.chunks if c.symbol == "huge"]
    assert len(parts) > 1
    assert all(len(c.code) <= MAX_CHUNK_CHARS for c in parts)
    assert len({c.id for c in parts}) == len(parts)
    assert parts[0].start_line == 1 and parts[-1].end_line == 301
    assert all(b.start_line == a.end_line + 1 for a, b in itertools.pairwise(parts))


def long_class(language: str, methods: int) -> str:
    """A class whose collapsed text is over MAX_CHUNK_CHARS: its chunk comes in parts."""
    if language == "python":
        head, tail = ["class Registry:", '    """Keeps every handler."""', ""], []
        signature = "    def handler_{}(self, request, response, *, retries=3, timeout=10.0):"
        body = [f"        step_{j} = request.get('field') + {j}" for j in range(30)]
        body += ["        return response", ""]
    else:
        head, tail = ["export class Registry {", "  private count = 0;", ""], ["}"]
        signature = "  handler_{}(request: Request, response: Response, retries = 3): Response {{"
        body = [f"    const step{j} = request.get('field') + {j};" for j in range(30)]
        body += ["    return response;", "  }", ""]
    members = [line for i in range(methods) for line in [signature.format(i), *body]]
    return "\n".join([*head, *members, *tail]) + "\n"


def test_the_parts_of_a_long_class_span_the_lines_they_hold():
    """A collapsed class's parts counted their lines from the class's first as if no method
    body were collapsed: flask's `Flask` part 2 claimed lines 336-415, httpx's `Client`
    part claimed `Client.send`'s `def` line, so `related` and call hierarchy there took the
    class for the method."""
    for language, path in (("python", "reg.py"), ("typescript", "reg.ts")):
        source = long_class(language, 80)
        lines = source.split("\n")
        chunks = chunk_file(path, language, source).chunks
        parts = [c for c in chunks if c.kind == "class"]
        assert len(parts) > 1 and all(len(p.code) <= MAX_CHUNK_CHARS for p in parts)
        for part in parts:  # its lines, in order, within its range, first and last at its ends
            held = [t for t in part.code.split("\n") if t.strip() not in ("...", "…")]
            spanned = iter(lines[part.start_line - 1 : part.end_line])
            assert all(line in spanned for line in held), (language, part.start_line)
            assert lines[part.start_line - 1] == held[0], (language, part.start_line)
            assert lines[part.end_line - 1] == held[-1], (language, part.end_line)


def test_markdown_sections_follow_headings_outside_code_fences():
    source = "Intro text\n# Guide\nSome words\n## Install\n```\n# not a heading\n```\n# FAQ\nQ\n"
    chunks = chunk_file("docs/guide.md", "markdown", source).chunks
    assert [c.symbol for c in chunks] == ["guide.md", "Guide", "Guide > Install", "FAQ"]
    assert chunks[2].start_line == 4 and chunks[2].end_line == 7


def test_rst_toml_yaml_sections():
    rst = chunk_file("a.rst", "rst", "Title\n=====\n\ntext\n\nUsage\n-----\nrun it\n").chunks
    assert [c.symbol for c in rst] == ["Title", "Usage"]
    toml = chunk_file(
        "p.toml", "toml", 'name = "x"\n[tool.ruff]\nline = 1\n[[bin]]\nn = 2\n'
    ).chunks
    assert [c.symbol for c in toml] == ["p.toml", "tool.ruff", "bin"]
    yaml = chunk_file("c.yml", "yaml", "jobs:\n  test:\n    run: x\non: push\n").chunks
    assert [c.symbol for c in yaml] == ["jobs", "on"]


def test_duplicate_headings_get_unique_qualnames():
    chunks = chunk_file("r.md", "markdown", "# Example\na\n# Example\nb\n").chunks
    assert len({c.qualname for c in chunks}) == 2


def test_the_parts_of_a_long_rest_of_a_file_span_their_own_lines():
    """Top-level code past MAX_CHUNK_CHARS comes in parts, each spanning the lines it holds
    (not the whole file), in order, with the definitions between them left out."""
    calls = [f"app.use(middleware_number_{i}(option='value {i}', retries={i}))" for i in range(160)]
    source = "\n".join([*calls[:80], "", "def ready():", "    return True", "", *calls[80:]]) + "\n"
    chunks = chunk_file("server.py", "python", source).chunks
    rest = [c for c in chunks if c.kind == "module"]
    (ready,) = [c for c in chunks if c.symbol == "ready"]
    assert len(rest) > 2 and all(len(c.code) <= MAX_CHUNK_CHARS for c in rest)
    lines = source.splitlines()
    for part in rest:
        held = [line for line in part.code.split("\n") if line]
        assert lines[part.start_line - 1] == held[0] and lines[part.end_line - 1] == held[-1]
    assert all(a.end_line < b.start_line for a, b in itertools.pairwise(rest))
    assert rest[0].start_line == 1 and rest[-1].end_line == len(lines)
    assert (ready.start_line, ready.end_line) == (82, 83)
    assert not any("return True" in part.code for part in rest)
