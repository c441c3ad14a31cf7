"""What was pasted finds the code that holds it, with the real model: an error message the
code that printed it, lines of code the definition they are in. Hybrid search ranked them
below code that is only like them, where grep and full-text search put them first."""

from __future__ import annotations

from typing import Any

from codekith.answers import Answers
from codekith.search import PASTED_LEAD, message_matches, printed_literals, snippet_matches
from codekith.template import HEADER_END

TEMPLATES = {
    "tpl/environment.py": (
        "from tpl.exceptions import TemplateNotFound\n\n\n"
        "class Environment:\n"
        "    def __init__(self, loader=None, cache_size=400):\n"
        "        self.loader = loader\n        self.cache = {}\n\n"
        "    def _load_template(self, name, globals):\n"
        "        if self.loader is None:\n"
        '            raise TypeError("no loader for this environment specified")\n'
        "        template = self.cache.get(name)\n"
        "        if template is None:\n"
        "            template = self.loader.load(self, name, globals)\n"
        "            self.cache[name] = template\n"
        "        return template\n\n"
        "    def get_template(self, name, parent=None, globals=None):\n"
        "        if parent is not None:\n            name = self.join_path(name, parent)\n"
        "        return self._load_template(name, globals)\n\n"
        "    def select_loader(self, loaders):\n"
        "        for loader in loaders:\n"
        "            if loader.environment is self:\n                return loader\n"
        "        raise TemplateNotFound(loaders)\n"
    ),
    "tpl/exceptions.py": (
        "class TemplateError(Exception):\n    pass\n\n\n"
        "class TemplateNotFound(TemplateError):\n"
        "    def __init__(self, name, message=None):\n"
        "        self.name = name\n        self.message = message or name\n\n\n"
        "class FilterArgumentError(TemplateError):\n    pass\n\n\n"
        "class SecurityError(TemplateError):\n    pass\n"
    ),
    "tpl/filters.py": (
        "from tpl.exceptions import FilterArgumentError\n\n\n"
        "def prepare_map(context, args, kwargs):\n"
        "    if len(args) == 0 and 'attribute' not in kwargs:\n"
        '        raise FilterArgumentError("map requires a filter argument")\n'
        "    name = args[0]\n"
        "    return lambda item: context.environment.call_filter(name, item)\n\n\n"
        "def to_bytes(value, blob_type=None):\n"
        "    if blob_type is not None and isinstance(value, blob_type):\n"
        "        raise TypeError('Blob is not supported')\n"
        "    return bytes(value)\n\n\n"
        "def to_form(value, blob_type=None):\n"
        "    if blob_type is not None and isinstance(value, blob_type):\n"
        "        raise TypeError('Blob is not supported. Use a Buffer instead.')\n"
        "    return {'value': value}\n"
    ),
    "tpl/markup.py": (
        "from tpl.runtime import Undefined\n\n\n"
        "def do_items(value):\n"
        "    if isinstance(value, Undefined):\n        return\n"
        "    if not isinstance(value, dict):\n"
        "        raise TypeError('Can only get item pairs from a mapping.')\n"
        "    yield from value.items()\n\n\n"
        "def do_attributes(d, autospace=True):\n"
        "    items = []\n"
        "    for key, value in d.items():\n"
        "        if value is None or isinstance(value, Undefined):\n"
        "            continue\n"
        "        if not key.isidentifier():\n"
        "            raise ValueError(f'Invalid character in attribute name: {key!r}')\n"
        "        items.append(f'{escape(key)}=\"{escape(value)}\"')\n"
        "    rv = ' '.join(items)\n"
        "    if autospace and rv:\n        rv = ' ' + rv\n"
        "    return rv\n\n\n"
        "def do_dictsort(value, case_sensitive=False, by='key', reverse=False):\n"
        "    def sort_func(item):\n"
        "        value = item[0 if by == 'key' else 1]\n"
        "        if not case_sensitive:\n            value = value.lower()\n"
        "        return value\n"
        "    return sorted(value.items(), key=sort_func, reverse=reverse)\n\n\n"
        "def escape(value):\n"
        "    return str(value).replace('&', '&amp;').replace('\"', '&quot;')\n"
    ),
    "tpl/sandbox.py": (
        "from tpl.exceptions import SecurityError\n\n\n"
        "class SandboxedEnvironment:\n"
        "    def is_safe_callable(self, obj):\n"
        "        return not getattr(obj, 'unsafe_callable', False)\n\n"
        "    def call(self, __context, __obj, *args, **kwargs):\n"
        "        if not self.is_safe_callable(__obj):\n"
        '            raise SecurityError(f"{__obj!r} is not safely callable")\n'
        "        return __context.call(__obj, *args, **kwargs)\n"
    ),
    "tpl/templates.py": (
        "class Template:\n"
        "    def __init__(self, environment, code, globals):\n"
        "        self.environment = environment\n        self.code = code\n"
        "        self.globals = globals\n        self._module = None\n\n"
        "    def render_async(self, *args, **kwargs):\n"
        "        if not self.environment.is_async:\n"
        "            raise RuntimeError('The environment was not created with async mode.')\n"
        "        return self.environment.run_async(self.code, dict(*args, **kwargs))\n\n"
        "    async def make_module_async(self, vars=None, shared=False, locals=None):\n"
        "        context = self.new_context(vars, shared, locals)\n"
        "        return await self.environment.module_type.create_async(self, context)\n\n"
        "    @property\n"
        "    def module(self):\n        return self._get_default_module()\n\n"
        "    def _get_default_module(self, ctx=None):\n"
        "        if self.environment.is_async:\n"
        '            raise RuntimeError("Module is not available in async mode.")\n'
        "        if ctx is not None:\n"
        "            keys = ctx.globals_keys - self.globals.keys()\n"
        "            if keys:\n"
        "                return self.make_module({k: ctx.parent[k] for k in keys})\n"
        "        if self._module is None:\n"
        "            self._module = self.make_module()\n"
        "        return self._module\n\n"
        "    def make_module(self, vars=None, shared=False, locals=None):\n"
        "        context = self.new_context(vars, shared, locals)\n"
        "        return self.environment.module_type(self, context)\n"
    ),
    "tpl/cli.py": (
        "import ast\nimport importlib\nimport inspect\nimport sys\n\n\n"
        "class NoAppException(Exception):\n    pass\n\n\n"
        "def find_best_app(module):\n"
        "    for attr_name in ('app', 'application'):\n"
        "        app = getattr(module, attr_name, None)\n"
        "        if app is not None and hasattr(app, 'wsgi_app'):\n            return app\n"
        "    matches = [v for v in module.__dict__.values() if hasattr(v, 'wsgi_app')]\n"
        "    if len(matches) == 1:\n        return matches[0]\n"
        "    for attr_name in ('create_app', 'make_app'):\n"
        "        app_factory = getattr(module, attr_name, None)\n"
        "        if inspect.isfunction(app_factory):\n"
        "            try:\n"
        "                app = app_factory()\n"
        "                if hasattr(app, 'wsgi_app'):\n                    return app\n"
        "            except TypeError as e:\n"
        "                if not _called_with_wrong_args(app_factory):\n                    raise\n"
        "                raise NoAppException(\n"
        '                    f"Detected factory {attr_name!r} in module {module.__name__!r},"\n'
        '                    " but could not call it without arguments."\n'
        "                ) from e\n"
        "    raise NoAppException(f'Failed to find an application in {module.__name__!r}.')\n\n\n"
        "def _called_with_wrong_args(f):\n"
        "    tb = sys.exc_info()[2]\n"
        "    try:\n"
        "        while tb is not None:\n"
        "            if tb.tb_frame.f_code is f.__code__:\n                return False\n"
        "            tb = tb.tb_next\n"
        "        return True\n"
        "    finally:\n        del tb\n\n\n"
        "def locate_app(module_name, app_name, raise_if_not_found=True):\n"
        "    try:\n        __import__(module_name)\n"
        "    except ImportError:\n"
        "        if sys.exc_info()[2].tb_next:\n"
        "            raise NoAppException(\n"
        '                f"While importing {module_name!r}, an ImportError was raised."\n'
        "            ) from None\n"
        "        elif raise_if_not_found:\n"
        "            raise NoAppException(f'Could not import {module_name!r}.') from None\n"
        "        return None\n"
        "    module = sys.modules[module_name]\n"
        "    if app_name is None:\n        return find_best_app(module)\n"
        "    expr = ast.parse(app_name.strip(), mode='eval').body\n"
        "    return getattr(module, expr.id)\n"
    ),
    "tests/test_environment.py": (
        "import pytest\n\nfrom tpl.environment import Environment\n\n\n"
        "def test_no_loader():\n"
        '    with pytest.raises(TypeError, match="no loader for this environment specified"):\n'
        "        Environment().get_template('index.html')\n"
    ),
}


def _first(searcher: Any, query: str) -> str:
    return str(searcher.search(query, 3)[0].qualname)


def test_a_pasted_error_message_finds_the_code_that_raises_it(workspace, project_for) -> None:
    """Without the lead the exception the message names comes first (`NoAppException`, as
    on flask, where a message's raiser was first for 36 of 50)."""
    project = project_for(workspace(TEMPLATES))
    project.indexer.run()
    searcher = project.searcher
    importing = "NoAppException: While importing 'app', an ImportError was raised."
    assert _first(searcher, importing) == "tpl.cli.locate_app"
    factory = "Detected factory 'make' in module 'app', but could not call it without arguments."
    assert _first(searcher, f"NoAppException: {factory}") == "tpl.cli.find_best_app"
    loads = "tpl.environment.Environment._load_template"
    assert _first(searcher, "TypeError: no loader for this environment specified") == loads
    assert _first(searcher, "FilterArgumentError: map requires a filter argument") == (
        "tpl.filters.prepare_map"
    )
    assert _first(searcher, "RuntimeError: Module is not available in async mode.") == (
        "tpl.templates.Template._get_default_module"
    )
    # printed from a template: the value where the placeholder was
    assert _first(searcher, "SecurityError: <function f at 0x7f> is not safely callable") == (
        "tpl.sandbox.SandboxedEnvironment.call"
    )
    # the literal that explains more of the message first
    assert _first(searcher, "TypeError: Blob is not supported. Use a Buffer instead.") == (
        "tpl.filters.to_form"
    )
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "app.py", line 3, in <module>\n'
        "    app = locate_app('app', None)\n"
        "tpl.cli.NoAppException: While importing 'app', an ImportError was raised."
    )
    assert _first(searcher, traceback) == "tpl.cli.locate_app"
    # the test that matches the message comes apart, after the code
    answer = Answers(project).search(
        "TypeError: no loader for this environment specified", 3, tests_apart=3
    )
    assert answer.hits[0].qualname == loads
    assert answer.tests[0].qualname == "tests.test_environment.test_no_loader"
    led = {
        row["qualname"]: lead
        for row, lead in message_matches(
            "TypeError: Blob is not supported. Use a Buffer instead.",
            project.store.text_search("blob supported buffer", 10),
        )
    }
    assert led["tpl.filters.to_form"] > led["tpl.filters.to_bytes"] > PASTED_LEAD


def test_pasted_code_finds_the_definition_that_holds_it(workspace, project_for) -> None:
    """Without the lead `do_items`, whose words are the paste's, comes first (jinja's
    `do_xmlattr` lines: 6th)."""
    project = project_for(workspace(TEMPLATES))
    project.indexer.run()
    searcher = project.searcher
    pasted = (
        "for key, value in d.items():\n"
        "    if value is None or isinstance(value, Undefined):\n"
        "        continue"
    )
    assert _first(searcher, pasted) == "tpl.markup.do_attributes"
    line = "if value is None or isinstance(value, Undefined):"
    assert _first(searcher, line) == "tpl.markup.do_attributes"
    # a paste across two definitions: the one that holds more of it first
    across = (
        "    return sorted(value.items(), key=sort_func, reverse=reverse)\n\n\n"
        "def escape(value):\n"
        "    return str(value).replace('&', '&amp;').replace('\"', '&quot;')"
    )
    assert _first(searcher, across) == "tpl.markup.escape"


def _rows(codes: dict[str, str]) -> list[dict[str, Any]]:
    return [{"id": name, "document": f"{name}{HEADER_END}{code}"} for name, code in codes.items()]


def test_only_lines_a_chunk_holds_as_written_lead() -> None:
    rows = _rows(
        {
            "attributes": "for key, value in d.items():\n    if value is None:\n        continue",
            "items": "if isinstance(value, Undefined):\n    return\nyield from value.items()",
            "prose": "# if isinstance value Undefined return it",
            "names": "call(tpl.markup.do_attributes.items)",
        }
    )
    held = snippet_matches("for  key, value   in d.items():\n  if value is None:", rows)
    line, whole = "for key, value in d.items():", "for key, value in d.items(): if value is None:"
    assert [(row["id"], lead) for row, lead in held] == [
        ("attributes", PASTED_LEAD + 0.1 * (len(line) + len(whole)))
    ]  # whitespace aside; `if value is None:` is under SNIPPET_MIN_CHARS, but all of it
    # in one run counts too
    assert snippet_matches("how are the items of a mapping listed", rows) == []
    assert snippet_matches("if isinstance value Undefined return", rows) == []  # not code
    assert snippet_matches("tpl.markup.do_attributes.items", rows) == []  # a name
    doctest = _rows({"doc": ">>> str(foo)\nTraceback (most recent call last):\n  ...\nError: x"})
    pasted = 'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n'
    assert snippet_matches(pasted + "    str(foo)", doctest) == []  # its lines are no code


def test_only_a_message_the_query_holds_as_printed_leads() -> None:
    rows = _rows(
        {
            "load": 'raise TypeError("no loader for this environment specified")',
            "short": 'raise KeyError("no loader")',  # too short to be a message
            "other": 'log.warning("the loader for %s was replaced by %r", name, new)',
        }
    )
    assert message_matches("how does the environment choose a loader", rows) == []
    led = message_matches("TypeError: no loader for this environment specified", rows)
    assert [(row["id"], lead) for row, lead in led] == [
        ("load", PASTED_LEAD + 0.1 * len("no loader for this environment specified"))
    ]
    warned = message_matches("the loader for 'a.html' was replaced by <Loader>", rows)
    assert [row["id"] for row, _ in warned] == ["other"]
    # the pieces must come in order: the same words shuffled are no print of it
    assert message_matches("was replaced by <Loader> the loader for 'a.html'", rows) == []
    assert message_matches("no loader", rows) == []  # under MESSAGE_MIN_WORDS words


def test_printed_literals_read_each_languages_placeholders() -> None:
    code = (
        "throw new TypeError(`Request failed with status ${status} after retries`)\n"
        'return fmt.Errorf("could not read the config file %q: %w", path, err)\n'
        "raise ValueError('cannot parse {} as a header value'.format(line))\n"
    )
    assert printed_literals(code, "TypeError: Request failed with status 502 after retries") == [
        "Request failed with status after retries"
    ]
    assert printed_literals(code, 'could not read the config file "a.toml": no such file') == [
        "could not read the config file :"
    ]
    assert printed_literals(code, "ValueError: cannot parse 'x' as a header value") == [
        "cannot parse as a header value"
    ]
