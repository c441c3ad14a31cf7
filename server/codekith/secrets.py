"""Secrets: file-name rules, and redaction of secret values inside files that are indexed.

A file named like a key store (`.env`, `id_rsa`, `*.pem`) is never read. In every other file
each secret value is replaced by `[redacted]` before chunking, so the value never reaches
chunks, documents, the full-text index or vectors, and the rest of the file stays searchable.
Detected: detect-secrets' token formats (AWS, GitHub, Slack, private keys …), the user's
`secret-patterns`, values assigned to secret-like names (`DB_PASSWORD = "…"`, `token: …`,
`export API_KEY=…`, compose and kubeconfig keys, also split across adjacent string literals),
credentials in URLs, and high-entropy values of config keys. detect-secrets' own entropy and
keyword plugins flag ordinary code far too often, so the rules for those cases are ours: a
name rule needs a literal value (not a call, variable or placeholder) and an entropy rule
needs a key/value line in a config file.
"""

from __future__ import annotations

import fnmatch
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

from codekith.languages import file_name

REDACTED = "[redacted]"

SECRET_FILE_GLOBS = (
    ".env",
    ".env.*",
    "*.env",
    ".envrc",
    "*.pem",
    "*.key",
    "*.p12",
    "*.pfx",
    "*.jks",
    "*.keystore",
    "id_rsa*",
    "id_dsa*",
    "id_ecdsa*",
    "id_ed25519*",
    ".netrc",
    ".pgpass",
    ".pypirc",
    ".npmrc",
    ".git-credentials",
    "credentials",
    "credentials.json",
    "*credentials*.json",
    "*.kdbx",
    "secrets.yaml",
    "secrets.yml",
    "secrets.json",
    "*.tfstate",
    "service-account*.json",
    "htpasswd",
    ".htpasswd",
)
SAFE_SUFFIXES = (".example", ".sample", ".template", ".dist")
CONFIG_SUFFIXES = (
    ".yaml",
    ".yml",
    ".toml",
    ".ini",
    ".cfg",
    ".conf",
    ".properties",
    ".json",
    ".env",
    ".sh",
    ".bash",
    ".zsh",
)

DOC_SUFFIXES = (".md", ".markdown", ".rst", ".txt", ".adoc")

_EXCLUDED_PLUGINS = {
    "Base64HighEntropyString",
    "HexHighEntropyString",
    "KeywordDetector",
    "IPPublicDetector",
    "BasicAuthDetector",
}

_SECRET_WORD = (
    r"pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|"
    r"private[_-]?key|client[_-]?key(?:[_-]?data)?|auth[_-]?key|credentials?|"
    r"signing[_-]?key|encryption[_-]?key|session[_-]?key|bearer"
)
# a name holding a secret word, as a key may be quoted
_SECRET_NAME = (
    r"""(?<![\w-])(?P<name>(?:[\w.-]*[_.-]|[\w.-]*[a-z](?-i:(?=[A-Z])))?"""
    r"""(?:""" + _SECRET_WORD + r""")(?-i:(?![a-z]))[\w.-]*)["']?"""
)
# NAME = "value" | NAME: value | export NAME=value | "NAME": "value" | - NAME=value
_ASSIGNMENT = re.compile(
    _SECRET_NAME + r"""\s*(?::=|=>|=|:)\s*(?P<value>.+?)\s*[,;]?\s*$""", re.IGNORECASE
)
# NAME = "v" | NAME: T = "v" | "NAME": "v" | NAME: 'v' | NAME => "v", anywhere on a line:
# several such pairs share a line in dict and object literals, JSON, keyword arguments and
# struct literals (`{"password": "…", "user": "admin"}`), where `_ASSIGNMENT`'s value, the
# rest of the line, is no string literal and none of them was redacted
_PAIR = re.compile(
    _SECRET_NAME + r"""\s*(?::\s*[\w.\[\]|, ]+?\s*=|:=|=>|=|:)\s*"""
    r"""(?P<value>[rbfu]*(?P<q>["'])(?:\\.|(?!(?P=q)).)*(?P=q)"""
    r"""(?:\s*\+?\s*[rbfu]*(?P<q2>["'])(?:\\.|(?!(?P=q2)).)*(?P=q2))*)""",
    re.IGNORECASE,
)
# what may follow a literal that is a whole value; else it is part of an expression,
# `"header:" + name`, `r"…".format(…)`, computed rather than written down
_VALUE_ENDS = ("", ",", ")", "}", "]", ";", "#", "/")
# every secret word and authorization scheme holds one of these (case-folded)
_SECRET_WORD_PARTS = ("pass", "pwd", "secret", "token", "key", "credent", "bearer", "basic")
MAX_SPLIT_LINES = 8  # lines of string literals a split value may span
LINES_REMEMBERED = 1 << 16  # per-line verdicts kept: a save re-reads mostly the same lines
_STRING = re.compile(r"""(?P<q>["'])(?P<body>(?:\\.|(?!(?P=q)).)*)(?P=q)""")
_JOINED_STRINGS = re.compile(r"""^[rbfu]*(["']).*\1(?:\s*\+?\s*[rbfu]*(["']).*\2)*\)?$""")
_URL_CREDENTIALS = re.compile(
    r"(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<user>[^/\s:@]+):(?P<pw>[^/\s@]+)@"
)
# an HTTP Authorization value written down: `"Bearer x9Dk3…"`, `'token ghp_…'`, `"Basic dXN…"`
_AUTH_CREDENTIALS = re.compile(
    r"""(?P<scheme>\b(?:bearer|basic|token)\s+)(?P<credential>[\w\-.~+/]{12,}=*)(?=["'`])""",
    re.IGNORECASE,
)
_CONFIG_VALUE = re.compile(
    r"""^\s*-?\s*["']?[\w.-]+["']?\s*[:=]\s*["']?(?P<value>[^\s"']{20,})["']?\s*,?$"""
)
_PLACEHOLDER = re.compile(
    r"""^(?:|none|null|nil|true|false|changeme|change_me|password|secret|token|xxx+|\*+|
    \.\.\.|<[^>]*>|\$\{[^}]*\}|\$\w+|\{\{.*\}\}|%\([^)]*\)s|%s|\{\w*\})$""",
    re.IGNORECASE | re.VERBOSE,
)
_URL_EXAMPLES = {"pass", "passwd", "password", "secret", "pwd", "pw", "user", "port"}
_CODE_VALUE = re.compile(r"[()\[\]{}]")  # a call, subscript or template
_DOTTED_NAME = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_SECRET_WORD_RE = re.compile(_SECRET_WORD, re.IGNORECASE)
_KEY_END = re.compile(r"-----END[A-Z0-9 ]*PRIVATE KEY-----")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")  # `"token": 0.818` is no secret


@dataclass(frozen=True)
class Finding:
    line: int
    kind: str


# the globs as one expression: every scanned file and watched event asks, and thirty
# fnmatch calls took ~25 us a name
_SECRET_FILE_NAME = re.compile("|".join(fnmatch.translate(g) for g in SECRET_FILE_GLOBS))


def secret_file_reason(path: str) -> str | None:
    """A reason when the file name alone marks a secret (keys, .env, credential stores)."""
    name = file_name(path).lower()
    if name.endswith(SAFE_SUFFIXES) or not _SECRET_FILE_NAME.match(name):
        return None
    pattern = next(g for g in SECRET_FILE_GLOBS if fnmatch.fnmatchcase(name, g))
    return f"secret file ({pattern})"


def redact(path: str, text: str, extra_patterns: Iterable[str] = ()) -> tuple[str, list[Finding]]:
    """`text` with every secret value replaced by REDACTED, and where they were."""
    name = file_name(path).lower()
    config = name.endswith(CONFIG_SUFFIXES + DOC_SUFFIXES) or "." not in name
    tokens = _token_lines(text)
    extras = [re.compile(p) for p in extra_patterns]
    lines = text.split("\n")
    findings: list[Finding] = []
    for index, line in enumerate(lines):
        line_tokens = tokens.get(index + 1, [])
        if line_tokens or extras:
            new, kinds = _redact_line(line, line_tokens, extras, config)
            opens = True
        elif _may_hold_secret(line, config):
            new, plain_kinds, opens = _plain_line(line, config)
            kinds = list(plain_kinds)
        else:
            kinds, opens = [], False
        if kinds:
            lines[index] = new
            findings.extend(Finding(index + 1, kind) for kind in kinds)
        elif opens:
            for number in _split_value(lines, index):
                lines[number] = _STRING.sub(_redacted_string, lines[number])
                findings.append(Finding(number + 1, "secret-named value split over lines"))
    return ("\n".join(lines), findings) if findings else (text, [])


def load_scanner() -> None:
    """Load detect-secrets and compile its patterns now rather than on the first file read
    (~0.17 s): a language server does it before its first save."""
    _token_lines('aws_key = "AKIAIOSFODNN7EXAMPLE"')


def describe(findings: list[Finding]) -> str:
    """One line for reports: `redacted 2 secrets: line 3 (password assignment), …`."""
    if not findings:
        return ""
    shown = ", ".join(f"line {f.line} ({f.kind})" for f in findings[:10])
    more = f", and {len(findings) - 10} more" if len(findings) > 10 else ""
    plural = "s" if len(findings) > 1 else ""
    return f"redacted {len(findings)} secret{plural}: {shown}{more}"


def _redact_line(
    line: str, tokens: list[tuple[str, str]], extras: list[re.Pattern[str]], config: bool
) -> tuple[str, list[str]]:
    kinds: list[str] = []
    for kind, value in tokens:
        if value and value in line:
            line = line.replace(value, REDACTED)
            kinds.append(kind)
    for pattern in extras:
        line, count = pattern.subn(REDACTED, line)
        if count:
            kinds.append(f"matches {pattern.pattern!r}")
    line, count = _URL_CREDENTIALS.subn(_redact_url_password, line)
    if count and REDACTED in line:
        kinds.append("credentials in a URL")
    line, count = _AUTH_CREDENTIALS.subn(_redact_auth_credentials, line)
    if count and REDACTED in line:
        kinds.append("authorization credentials")
    assigned = _secret_assignment(line, config)
    if assigned is not None:
        line = assigned
        kinds.append("secret-named value")
    elif config and (entropic := _entropic_config_value(line)) is not None:
        line = entropic
        kinds.append("high-entropy value")
    return line, kinds


@lru_cache(maxsize=LINES_REMEMBERED)
def _plain_line(line: str, config: bool) -> tuple[str, tuple[str, ...], bool]:
    """`_redact_line` of a line without detector tokens or extra patterns, and whether it
    may open a split value (`_split_value` then looks at the lines below)."""
    new, kinds = _redact_line(line, [], [], config)
    match = _ASSIGNMENT.search(line)
    return new, tuple(kinds), match is not None and match.group("value") in ("(", "\\")


def _may_hold_secret(line: str, config: bool) -> bool:
    """False only for a line that `_plain_line` gives back as it is: no URL, so no
    credentials in one; in a config or doc file no `key: value` of 20+ characters, so no
    high-entropy value; and no secret word, so no secret-named value. A substring test of
    the case-folded line (the rules ignore case, `ſ` for `s` included) costs 1.5 us, the
    assignment rule's regex 8.7 (flask's Python lines), and 96% of those lines have
    neither."""
    if "://" in line or (config and _CONFIG_VALUE.match(line)):
        return True
    folded = line.casefold()
    return any(part in folded for part in _SECRET_WORD_PARTS)


def _split_value(lines: list[str], index: int) -> list[int]:
    """The lines holding the string literals of a secret-named value that line `index`
    opens without giving it (`TOKEN = (` or `TOKEN = \\`, the parts on the lines below),
    when their joined bodies look like a secret; else none."""
    match = _ASSIGNMENT.search(lines[index])
    if match is None or match.group("value") not in ("(", "\\"):
        return []
    parts: list[int] = []
    bodies: list[str] = []
    for number in range(index + 1, min(len(lines), index + 1 + MAX_SPLIT_LINES)):
        rest = lines[number].strip().rstrip("\\").strip()
        strings = list(_STRING.finditer(rest))
        if not strings or not _JOINED_STRINGS.match(rest.rstrip(",").strip()):
            break
        parts.append(number)
        bodies += [s.group("body") for s in strings]
        if rest.endswith(")"):
            break
    return parts if parts and _looks_secret("".join(bodies)) else []


def _redacted_string(match: re.Match[str]) -> str:
    return f"{match.group('q')}{REDACTED}{match.group('q')}"


def _redact_url_password(match: re.Match[str]) -> str:
    """`user:[redacted]@` unless the password is a placeholder (`user:pass@`, `{}`)."""
    password = match.group("pw")
    if len(password) < 4 or _PLACEHOLDER.match(password) or password.lower() in _URL_EXAMPLES:
        return match.group(0)
    return f"{match.group('scheme')}{match.group('user')}:{REDACTED}@"


def _redact_auth_credentials(match: re.Match[str]) -> str:
    credential = match.group("credential")
    if not _looks_secret(credential) or credential.isalpha():
        return match.group(0)  # `"Bearer realm"`, `"token expired"` are words
    return f"{match.group('scheme')}{REDACTED}"


def _secret_assignment(line: str, config: bool) -> str | None:
    """The line with the value of a secret-named key redacted, or None. Where secret-named
    keys are given string literals, those literals decide, each on its own; else the rest of
    the line after the first such key is its value (a config file's bare value)."""
    pairs = [m for m in _PAIR.finditer(line) if _names_a_secret(m.group("name"))]
    if pairs:
        return _redacted_pairs(line, pairs)
    match = _ASSIGNMENT.search(line)
    if match is None or not _names_a_secret(match.group("name")):
        return None
    value = match.group("value")
    strings = list(_STRING.finditer(value))
    if strings and _JOINED_STRINGS.match(value):
        if not _written_secret(value):
            return None
        redacted = _STRING.sub(_redacted_string, value)
        return line[: match.start("value")] + redacted + line[match.end("value") :]
    bare = value.strip("\"'")
    if strings or not (config or _shell_export(line)):
        return None  # code: only string literals count; `password = get_password()` does not
    if _CODE_VALUE.search(bare) or (_DOTTED_NAME.match(bare) and len(bare) < 30):
        return None
    if not _looks_secret(bare):
        return None
    return line[: match.start("value")] + REDACTED + line[match.end("value") :]


def _redacted_pairs(line: str, pairs: list[re.Match[str]]) -> str | None:
    """The line with the literal bodies of the pairs that look secret redacted, or None."""
    out, last = [], 0
    for pair in pairs:
        value = pair.group("value")
        computed = line[pair.end() :].lstrip()[:1] not in _VALUE_ENDS
        if computed or not _written_secret(value):
            continue
        out.append(line[last : pair.start("value")] + _STRING.sub(_redacted_string, value))
        last = pair.end("value")
    return "".join(out) + line[last:] if out else None


def _written_secret(value: str) -> bool:
    """Whether a value's string literals, joined, are a secret written down: not an
    f-string the code fills in, and looking like one (`_looks_secret`)."""
    strings = list(_STRING.finditer(value))
    bodies = "".join(s.group("body") for s in strings)
    return not _interpolated(value, strings) and _looks_secret(bodies)


def _names_a_secret(name: str) -> bool:
    """A secret word that ends where the name's word ends: `API_TOKEN`, `apiToken`,
    `tokenValue`, not `_TOKENIZER` (the regex's own test, no lower-case letter after the
    word, let an upper-case name run on)."""
    for found in _SECRET_WORD_RE.finditer(name):
        after = name[found.end() : found.end() + 1]
        if not after.isalpha() or (after.isupper() and found.group()[-1].islower()):
            return True
    return False


def _interpolated(value: str, strings: list[re.Match[str]]) -> bool:
    """An f-string with a placeholder: its value is computed, not written down."""
    return any("{" in s.group("body") and "f" in _prefix(value, s.start()) for s in strings)


def _prefix(value: str, quote: int) -> str:
    """A string literal's prefix, lower-cased: `f`, `rb`, `u` …"""
    start = quote
    while start > 0 and value[start - 1].isalpha():
        start -= 1
    return value[start:quote].lower()


def _shell_export(line: str) -> bool:
    return line.lstrip().startswith(("export ", "set ", "- ")) or bool(
        re.match(r"^\s*[A-Z][A-Z0-9_]*=\S", line)
    )


def _looks_secret(value: str) -> bool:
    """A literal that can be a secret: no placeholder, prose, path, template or label
    (`"X-Auth-Token"`), and either long or mixing letters with digits, case or symbols."""
    value = value.strip()
    if (
        len(value) < 4
        or " " in value
        or _PLACEHOLDER.match(value)
        or (len(value) < 20 and _SECRET_WORD_RE.search(value))
        or value.startswith(("http://", "https://", "/", "./", "$", "%", "{"))
        or _NUMBER.fullmatch(value)
    ):
        return False
    classes = sum(
        bool(re.search(rx, value)) for rx in (r"[a-z]", r"[A-Z]", r"[0-9]", r"[^A-Za-z0-9]")
    )
    return classes >= 2 or len(value) >= 16


def _entropic_config_value(line: str) -> str | None:
    match = _CONFIG_VALUE.match(line)
    if match is None:
        return None
    value = match.group("value")
    if not _high_entropy(value):
        return None
    return line[: match.start("value")] + REDACTED + line[match.end("value") :]


def _high_entropy(value: str) -> bool:
    """Hex of 32+ characters or base64-like of 20+ with high Shannon entropy (not a path or
    a dotted name)."""
    if re.fullmatch(r"[0-9a-fA-F]{32,}", value):
        return _entropy(value) > 3.0
    if not re.fullmatch(r"[A-Za-z0-9+/=_-]{20,}", value) or not re.search(r"\d", value):
        return False
    return _entropy(value) > 4.0


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(c / len(value) * math.log2(c / len(value)) for c in counts.values())


@cache
def _detectors() -> tuple[list[dict[str, str]], re.Pattern[str]]:
    """detect-secrets' plugins, loaded on the first file read (not by `status`)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    known: dict[str, type] = get_mapping_from_secret_type_to_class()
    classes = [cls for cls in known.values() if cls.__name__ not in _EXCLUDED_PLUGINS]
    patterns = [
        _with_flags(rx)
        for cls in classes
        if issubclass(cls, RegexBasedDetector)
        for rx in cls().denylist
    ]
    combined = re.compile("|".join(patterns))
    return [{"name": cls.__name__} for cls in classes], combined


def _with_flags(rx: re.Pattern[str]) -> str:
    """A detector's pattern as a group of the combined one, keeping the case-insensitivity
    it was compiled with (without it an upper-case `{"AWS_KEY": "…"}` was never scanned)."""
    flags = "".join(f for f, bit in (("i", re.I), ("m", re.M), ("s", re.S)) if rx.flags & bit)
    return f"(?{flags}:{rx.pattern})" if flags else f"(?:{rx.pattern})"


def _token_lines(text: str) -> dict[int, list[tuple[str, str]]]:
    """detect-secrets' token formats by line: (kind, value). A private key block has every
    line from BEGIN to END redacted."""
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    plugins = _detectors()[0]
    lines = text.split("\n")
    suspects = [(number, line) for number, line in enumerate(lines, 1) if _suspect(line)]
    if not suspects and not ("PRIVATE KEY" in text and _detectors()[1].search(text)):
        return {}
    found: dict[int, list[tuple[str, str]]] = {}
    for number, key in _private_keys(lines):  # first: the whole key before its marker
        found.setdefault(number, []).append(("Private Key", key))
    with transient_settings({"plugins_used": plugins}):
        for number, line in suspects:
            for secret in scan_line(line):
                found.setdefault(number, []).append((secret.type, secret.secret_value or ""))
    return found


@lru_cache(maxsize=LINES_REMEMBERED)
def _suspect(line: str) -> bool:
    """Whether a detector's pattern matches somewhere in the line (then detect-secrets
    scans it); remembered, so a save scans only the lines it changed."""
    return _detectors()[1].search(line) is not None


def _private_keys(lines: list[str]) -> Iterator[tuple[int, str]]:
    """Each line of a key block between BEGIN and END; a key written on one line (a
    string with `\\n` in it, as tests hold them) from its BEGIN to its END. Such a line
    opened a block that only a later END closed: every line of code below it was
    redacted (codekith's own tests/test_workspace.py: 128 of its 167 lines)."""
    inside = False
    for number, line in enumerate(lines, 1):
        begin = line.find("-----BEGIN")
        if begin >= 0 and "PRIVATE KEY" in line:
            end = _KEY_END.search(line, begin)
            if end is not None:
                yield number, line[begin : end.end()]
            inside = end is None
            continue
        if "-----END" in line:
            inside = False
        elif inside and line.strip():
            yield number, line.strip()
