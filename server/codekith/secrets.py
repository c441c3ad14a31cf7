"""Secret detection: file-name rules plus detect-secrets' high-precision detectors.

detect-secrets' entropy and keyword plugins flag ordinary code (hashes, test data) far too
often to decide what gets indexed, so only the token-format detectors are used. Their regexes
run over the whole text first; `scan_line` confirms the few lines that hit.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from functools import cache
from pathlib import PurePosixPath

from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
from detect_secrets.core.scan import scan_line
from detect_secrets.plugins.base import RegexBasedDetector
from detect_secrets.settings import transient_settings

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

_EXCLUDED_PLUGINS = {
    "Base64HighEntropyString",
    "HexHighEntropyString",
    "KeywordDetector",
    "IPPublicDetector",
    "BasicAuthDetector",
}


def secret_file_reason(path: str) -> str | None:
    """A reason when the file name alone marks a secret (keys, .env, credential stores)."""
    name = PurePosixPath(path).name.lower()
    if name.endswith(SAFE_SUFFIXES):
        return None
    for pattern in SECRET_FILE_GLOBS:
        if fnmatch.fnmatchcase(name, pattern):
            return f"secret file ({pattern})"
    return None


@cache
def _detectors() -> tuple[list[dict[str, str]], re.Pattern[str]]:
    known: dict[str, type] = get_mapping_from_secret_type_to_class()
    classes = [cls for cls in known.values() if cls.__name__ not in _EXCLUDED_PLUGINS]
    patterns = [
        rx.pattern
        for cls in classes
        if issubclass(cls, RegexBasedDetector)
        for rx in cls().denylist
    ]
    combined = re.compile("|".join(f"(?:{p})" for p in patterns))
    return [{"name": cls.__name__} for cls in classes], combined


def find_secret(text: str, extra_patterns: Iterable[str] = ()) -> str | None:
    """The kind of the first secret found in `text` with its line, or None."""
    plugins, combined = _detectors()
    for extra in extra_patterns:
        match = re.search(extra, text)
        if match:
            number = text.count("\n", 0, match.start()) + 1
            return f"matches secret pattern {extra!r} (line {number})"
    if not combined.search(text):
        return None
    with transient_settings({"plugins_used": plugins}):
        for number, line in enumerate(text.splitlines(), 1):
            if not combined.search(line):
                continue
            for found in scan_line(line):
                return f"{found.type} (line {number})"
    return None
