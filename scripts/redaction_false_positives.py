"""How many lines of real repositories does redaction touch? (issue 12, items 8/17)

Every file the workspace rules index is decoded and redacted as `codekith index` does; the
script prints per repository the files and lines seen, the lines redacted, and each redacted
line (path:line, kind, the line with its value already redacted) so that false positives can
be judged by eye. Usage:
    scripts/redaction_false_positives.py /work/bench/trust-data/flask \
        /work/bench/trust-data/requests
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from codekith.config import load_settings
from codekith.secrets import redact
from codekith.workspace import NotIndexableError, cap_long_lines, decode_text, scan


def measure(root: Path) -> None:
    settings = load_settings(root)
    files = lines = 0
    kinds: Counter[str] = Counter()
    shown: list[str] = []
    for candidate in scan(root, settings):
        if candidate.reason is not None:
            continue
        try:
            text = decode_text(candidate.path, (root / candidate.path).read_bytes())
        except (NotIndexableError, OSError):
            continue
        text, _ = cap_long_lines(text)
        files += 1
        lines += text.count("\n") + 1
        redacted, findings = redact(candidate.path, text, settings.secret_patterns)
        out = redacted.split("\n")
        for finding in findings:
            kinds[finding.kind] += 1
            line = out[finding.line - 1].strip()[:110]
            shown.append(f"  {candidate.path}:{finding.line} [{finding.kind}] {line}")
    touched = len({s.split(" [")[0] for s in shown})
    print(
        f"{root.name}: {files} files, {lines} lines, {touched} lines redacted "
        f"({touched / max(lines, 1):.4%}); by kind: {dict(kinds)}"
    )
    print("\n".join(shown))


if __name__ == "__main__":
    for argument in sys.argv[1:] or ["."]:
        measure(Path(argument).resolve())
