"""Secrets are redacted, never stored, and the rest of the file stays searchable
(issue 12, items 8, 17 and 18). Real model, real LanceDB, real git repositories."""

from __future__ import annotations

from pathlib import Path

from codekith.secrets import REDACTED, redact
from tests.conftest import git, write_files

# Each planted value must vanish; the line around it must stay.
PLANTED = {
    "docker-compose.yml": (
        "services:\n  db:\n    image: postgres\n    environment:\n"
        "      POSTGRES_PASSWORD: Xq7pComposePw\n      - MYSQL_ROOT_PASSWORD=Zr8MysqlRootPw\n",
        ["Xq7pComposePw", "Zr8MysqlRootPw"],
    ),
    "kube/config": (
        "apiVersion: v1\nusers:\n- name: admin\n  user:\n"
        "    token: eyJhbGciOiJSUzI1NiJ9.kubeTokenQ29udGVudA.c2lnbmF0dXJl\n"
        "    client-key-data: LS0tLS1CRUdJTiBSU0EgS0VZIGRhdGEgaGVyZQo=\n",
        ["kubeTokenQ29udGVudA", "LS0tLS1CRUdJTiBSU0EgS0VZIGRhdGEgaGVyZQo="],
    ),
    "config.yaml": (
        "cache:\n  signing: 4f1c9a7be22d40a1b6c58e3f0d9a7c21e5b8f3d6a9c0e1f2\n"
        "  blob: dGhpcyBpcyBhIHZlcnkgc2VjcmV0IHZhbHVlMTIz\n  ttl: 300\n",
        [
            "4f1c9a7be22d40a1b6c58e3f0d9a7c21e5b8f3d6a9c0e1f2",
            "dGhpcyBpcyBhIHZlcnkgc2VjcmV0IHZhbHVlMTIz",
        ],
    ),
    "app/settings.py": (
        'DB_PASSWORD = "Hunter2Hunter2db"\n'
        'DATABASE_URL = "postgres://admin:Pa55wordInUrl@db.internal:5432/app"\n'
        'API_TOKEN = "ghp_splitPartOne" "SplitPartTwo42"\n'
        'aws_key = "AKIAIOSFODNN7EXAMPLE"\n\n\n'
        "def connect_database():\n"
        '    """Open the application database connection."""\n'
        "    return DATABASE_URL\n",
        [
            "Hunter2Hunter2db",
            "Pa55wordInUrl",
            "ghp_splitPartOne",
            "SplitPartTwo42",
            "AKIAIOSFODNN7EXAMPLE",
        ],
    ),
    "deploy.sh": (
        "#!/bin/sh\nexport DEPLOY_TOKEN=Shell9ExportTok\nexec ./server --port 8080\n",
        ["Shell9ExportTok"],
    ),
    "docs/setup.md": (
        "# Setup\n\nSet the database password before starting:\n\n"
        "```\nDB_PASSWORD=MarkdownPw77\n```\n",
        ["MarkdownPw77"],
    ),
    "README": (
        "Frobnicator service\n\nThe quasar splines are reticulated nightly.\n"
        "admin_password: ReadmePw55x\n",
        ["ReadmePw55x"],
    ),
    "setup.ini": ("[server]\nhost = 0.0.0.0\npassword = IniFilePw3!\n", ["IniFilePw3!"]),
}


def all_bytes(location: Path) -> bytes:
    return b"".join(p.read_bytes() for p in location.rglob("*") if p.is_file())


def test_planted_secrets_are_redacted_and_files_stay_searchable(workspace, project_for):
    root = workspace({path: content for path, (content, _) in PLANTED.items()})
    git(root, "add", "-A")
    project = project_for(root)
    report = project.indexer.run()
    assert set(report.redacted) == set(PLANTED)
    assert not report.skipped
    documents = "\n".join(r["document"] for r in project.store.rows("true"))
    for path, (_, values) in PLANTED.items():
        for value in values:
            assert value not in documents, (path, value)
    assert documents.count(REDACTED) >= 13
    on_disk = all_bytes(root / ".codekith")
    leaked = [v for _, values in PLANTED.values() for v in values if v.encode() in on_disk]
    assert leaked == []
    hits = project.searcher.search("connect to the application database", 3)
    assert hits[0].qualname == "app.settings.connect_database"
    readme = project.searcher.search("quasar splines reticulated", 1)
    assert readme[0].path == "README"
    status = project.store.summary(runs=1)
    assert status["redacted"]["setup.ini"] == "redacted 1 secret: line 3 (secret-named value)"


def test_a_new_secret_pattern_rechecks_every_file_and_forgets_old_versions(workspace, project_for):
    leak = "internal-id-QWERTY-998877"
    root = workspace({"ids.py": f'SERVICE_ID = "{leak}"\n\n\ndef service():\n    return 1\n'})
    project = project_for(root)
    project.indexer.run()
    assert leak.encode() in all_bytes(root / ".codekith")  # not a secret by default rules
    write_files(root, {".codekith.toml": 'secret-patterns = ["internal-id-[A-Z]+-[0-9]+"]\n'})
    project = project_for(root)
    report = project.indexer.run()
    assert "ids.py" in report.redacted and report.maintenance["old_versions_removed"]
    assert leak.encode() not in all_bytes(root / ".codekith")
    assert project.searcher.search("service", 1)[0].qualname == "ids.service"


def test_a_secret_split_over_lines_is_redacted_and_plain_strings_stay():
    text = (
        'API_TOKEN = (\n    "ghp4f8a9c1e7b2d"\n    "6a0f3e5c9b1d7a2f"\n)\n'
        'greeting = (\n    "hello"\n    "world"\n)\n'
        'secret_key = \\\n    "Zq81kXp0vB7m" \\\n    "Lw92nYt4"\n'
        "password = (\n    read_password()\n)\n"
    )
    redacted, findings = redact("settings.py", text)
    for part in ("ghp4f8a9c1e7b2d", "6a0f3e5c9b1d7a2f", "Zq81kXp0vB7m", "Lw92nYt4"):
        assert part not in redacted
    assert '"hello"' in redacted and "read_password()" in redacted
    assert [f.line for f in findings] == [2, 3, 10, 11]
    assert len(redacted.splitlines()) == len(text.splitlines())


def test_a_private_key_is_redacted_whole_and_the_code_after_it_stays():
    """A key block loses every line from BEGIN to END; a key written on one line (as tests
    hold them) loses everything from its BEGIN to its END, its body too. That one-line key
    used to open a block only a later END closed: the code below it was redacted."""
    body = "MIIEowIBAAKCAQEAx3Lk9Qw2Vb8nT5rY0pZ"
    one_line = (
        f'KEY = "-----BEGIN RSA PRIVATE KEY-----\\n{body}\\n-----END RSA PRIVATE KEY-----\\n"\n'
    )
    block = (
        f'PEM = """\n-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n{body[::-1]}\n'
        '-----END OPENSSH PRIVATE KEY-----\n"""\n'
    )
    code = "\n\ndef sign(message):\n    return hmac(KEY, message)\n"
    text = one_line + code + block + code.replace("sign", "verify")
    redacted, findings = redact("tests/test_signing.py", text)
    assert body not in redacted and body[::-1] not in redacted
    assert "def sign(message):\n    return hmac(KEY, message)" in redacted
    assert "def verify(message):\n    return hmac(KEY, message)" in redacted
    assert {f.line for f in findings} == {1, 7, 8, 9}  # 7: the BEGIN line itself
    compile(redacted, "tests/test_signing.py", "exec")  # still Python: chunks by definition


def test_a_name_a_number_or_a_formatted_string_that_is_no_secret_stays():
    """Seen on codekith itself: a name that runs on past a secret word (`_TOKENIZER`), a
    number under a secret-named key, an f-string the code fills in. The secrets beside
    them still go."""
    code = (
        '_TOKENIZER = "embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json"\n'
        'token = f"codekith-{id(title)}-{loop.time()}"\n'
        'API_TOKEN = "ghp4f8a9c1e7b2d6a0f3e5c9"\n'
        'apiToken = "Zq81kXp0vB7mLw92nYt4"\n'
        'password = f"hunter2hunter2"\n'
    )
    redacted, findings = redact("settings.py", code)
    assert [f.line for f in findings] == [3, 4, 5]
    assert "tokenizer.json" in redacted and "{id(title)}" in redacted
    assert "ghp4f8a9c1e7b2d6a0f3e5c9" not in redacted and "hunter2" not in redacted
    table = '{\n  "token": 0.818,\n  "secret": "Zq81kXp0vB7mLw92nYt4"\n}\n'
    redacted, findings = redact("weights.json", table)
    assert [f.line for f in findings] == [3] and '"token": 0.818' in redacted


def test_the_cheap_test_that_skips_a_line_never_skips_one_with_a_secret():
    """Code lines without a URL or a secret word skip the assignment rule's regex; the rules
    ignore case, so the skip test must too (`ſ` is an `s` to them, the Kelvin sign a `k`)."""
    text = (
        "db = 'postgres://admin:Xk4vQ9pLm2@db.local/app'\n"
        "PAſſWORD = 'Hq7vRe2kLp9z'\n"
        "API_\u212aEY = 'Tz8mNc4pWq1x'\n"
        "Bearer = 'Yb5nKd8sLq3w'\n"
        "CREDENTIALS = 'Pq9zXc2vBn7m'\n"
        "total = price * count  # plain code stays\n"
    )
    redacted, findings = redact("settings.py", text)
    for value in ("Xk4vQ9pLm2", "Hq7vRe2kLp9z", "Tz8mNc4pWq1x", "Yb5nKd8sLq3w", "Pq9zXc2vBn7m"):
        assert value not in redacted
    assert [f.line for f in findings] == [1, 2, 3, 4, 5]
    assert redacted.splitlines()[5] == text.splitlines()[5]


def test_a_detector_that_ignores_case_is_asked_about_upper_case_lines_too():
    """detect-secrets compiles some patterns case-insensitively (AWS's keyword form among
    them); the combined pattern that picks the lines to scan kept them case-sensitive, so an
    upper-case name in a dict was never scanned and its key stayed in the index."""
    text = 'creds = {"AWS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}\n'
    redacted, findings = redact("settings.py", text)
    assert "wJalrXUtnFEMI" not in redacted
    assert [(f.line, f.kind) for f in findings] == [(1, "AWS Access Key")]


def test_secrets_among_other_keys_on_one_line_go_and_their_neighbours_stay():
    """A secret-named key given a literal anywhere on a line is redacted: in a dict or object
    literal, one-line JSON, keyword arguments, a struct literal, an annotated assignment,
    and a written-down Authorization value. Before, a line's first secret-named key took
    the rest of the line as its value, which was no literal, so none of these was redacted,
    while `connect(password="…", user="admin")` lost the user name as well."""
    lines = {
        "app.py": [
            'config = {"user": "admin", "password": "Hq7vRe2kLp9zW"}',
            'API_KEY: str = "Tz8mNc4pWq1xQ"',
            'client = connect(password="Yb5nKd8sLq3wE", user="admin")',
            'headers = {"Authorization": "Bearer Pq9zXc2vBn7mR4"}',
        ],
        "settings.json": [
            '{"api_key": "Hq7vRe2kLp9zW", "name": "billing", "token": "Tz8mNc4pWq1xQ"}'
        ],
        "client.ts": ["const client = new Client({ apiKey: 'Yb5nKd8sLq3wE', region: 'eu' });"],
        "config.go": ['cfg := Config{Password: "Pq9zXc2vBn7mR4", User: "admin"}'],
        "client.rb": ["Client.new(api_key: 'Hq7vRe2kLp9zW', timeout: 5)"],
    }
    for path, written in lines.items():
        redacted, findings = redact(path, "\n".join(written) + "\n")
        assert len(findings) == len(written), (path, redacted)
        for secret in ("Hq7vRe2kLp9zW", "Tz8mNc4pWq1xQ", "Yb5nKd8sLq3wE", "Pq9zXc2vBn7mR4"):
            assert secret not in redacted, (path, redacted)
        for kept in ('"admin"', '"billing"', "'eu'", "timeout: 5", "Bearer "):
            if kept in "\n".join(written):
                assert kept in redacted, (path, redacted)


def test_a_literal_that_is_part_of_an_expression_or_a_label_stays():
    """Computed values and words under secret-named keys are no secrets (echo's
    `TokenLookup: "header:" + …`, falcon's `_TOKEN = r'…'.format(…)`)."""
    code = (
        'TokenLookup: "header:" + echo.HeaderXCSRFToken,\n'
        "_TOKEN = r'[!#$%&]+'.format(tchar=_TCHAR)\n"
        'label = {"password": "Your password", "token_type": "bearer"}\n'
        'form = {"password": "", "token": None}\n'
        'challenge = {"WWW-Authenticate": "Bearer realm"}\n'
    )
    assert redact("config.py", code) == (code, [])
