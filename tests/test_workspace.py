from __future__ import annotations

import os
from pathlib import Path

import pytest

from codekith.config import Settings, load_settings
from codekith.secrets import REDACTED, redact, secret_file_reason
from codekith.workspace import OutsideWorkspaceError, relative_path, scan
from tests.conftest import init_repo, write_files

PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n"


def decisions(root: Path, settings: Settings | None = None) -> dict[str, str | None]:
    return {c.path: c.reason for c in scan(root, settings or load_settings(root))}


def test_git_workspace_lists_tracked_and_untracked_but_not_ignored(tmp_path):
    root = init_repo(tmp_path / "r")
    write_files(
        root,
        {
            ".gitignore": "ignored/\n*.log\n",
            "a.py": "x = 1\n",
            "ignored/b.py": "y = 2\n",
            "run.log": "log\n",
            "new/c.py": "z = 3\n",
        },
    )
    found = decisions(root)
    assert found["a.py"] is None and found["new/c.py"] is None
    assert "ignored/b.py" not in found and "run.log" not in found


def test_non_git_walk_honours_nested_gitignore(tmp_path):
    write_files(
        tmp_path,
        {
            ".gitignore": "build.py\n",
            "pkg/.gitignore": "secret_dir/\n",
            "build.py": "",
            "pkg/a.py": "",
            "pkg/secret_dir/b.py": "",
            "other/secret_dir/c.py": "",
        },
    )
    found = decisions(tmp_path)
    assert "pkg/a.py" in found and "other/secret_dir/c.py" in found
    assert "build.py" not in found and "pkg/secret_dir/b.py" not in found


def test_vendored_size_type_and_secret_file_reasons(tmp_path):
    write_files(
        tmp_path,
        {
            "node_modules/x/index.js": "",
            ".venv/lib/a.py": "",
            "big.py": "x = 1\n" * 400,
            "image.png": "",
            ".env": "A=1",
            ".env.example": "A=",
            "keys/id_rsa": PRIVATE_KEY,
            "deploy/server.pem": PRIVATE_KEY,
            "app.min.js": "",
        },
    )
    found = decisions(tmp_path, Settings(max_file_bytes=1000))
    assert "vendored" in found["node_modules/x/index.js"]
    assert "vendored" in found[".venv/lib/a.py"]
    assert "too large" in found["big.py"]
    assert found["image.png"] == "binary file type"
    assert "secret file" in found[".env"] and "secret file" in found["keys/id_rsa"]
    assert "secret file" in found["deploy/server.pem"]
    assert found[".env.example"] is None  # any text file is indexed (values redacted)
    assert found["app.min.js"] == "generated file"


def test_include_exclude_from_pyproject(tmp_path):
    write_files(
        tmp_path,
        {
            "pyproject.toml": '[tool.codekith]\ninclude = ["src/**"]\nexclude = ["src/gen/**"]\n',
            "src/a.py": "",
            "src/gen/b.py": "",
            "tests/t.py": "",
        },
    )
    found = decisions(tmp_path)
    assert found["src/a.py"] is None
    assert found["src/gen/b.py"] == "excluded by configuration"
    assert found["tests/t.py"] == "not included by configuration"


def test_bad_configuration_warns_and_keeps_defaults(tmp_path):
    write_files(tmp_path, {".codekith.toml": 'k = "ten"\nunknown = 1\nmax-file-bytes = 5\n'})
    settings = load_settings(tmp_path)
    assert settings.k == 10 and settings.max_file_bytes == 5
    assert len(settings.warnings) == 2


def test_symlinks_are_skipped_and_outside_paths_rejected(tmp_path):
    outside = write_files(tmp_path / "outside", {"x.py": "a = 1\n"})
    root = write_files(tmp_path / "ws", {"a.py": ""})
    os.symlink(outside / "x.py", root / "link.py")
    assert decisions(root)["link.py"] == "symbolic link"
    with pytest.raises(OutsideWorkspaceError):
        relative_path(root, root / "link.py")
    with pytest.raises(OutsideWorkspaceError):
        relative_path(root, "../outside/x.py")
    assert relative_path(root, root / "a.py") == "a.py"


@pytest.mark.parametrize(
    "text",
    [
        'aws = "AKIAIOSFODNN7EXAMPLE"',
        "token = 'ghp_" + "a1B2" * 9 + "'",
        PRIVATE_KEY,
        'slack = "xoxb-1234567890-1234567890123-abcdefghijklmnopqrstuvwx"',
    ],
)
def test_secret_content_is_found(text):
    redacted, findings = redact("config.py", "import os\n" + text + "\n")
    assert findings and REDACTED in redacted
    assert "AKIAIOSFODNN7EXAMPLE" not in redacted and "MIIEowIBAAKCAQEA" not in redacted
    assert "ghp_" + "a1B2" * 9 not in redacted and "xoxb-" not in redacted
    assert redacted.startswith("import os\n")


def test_ordinary_code_is_not_a_secret():
    code = 'digest = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"\n'
    code += "password = get_password()\nsecret_key = os.environ['SECRET_KEY']\n"
    code += 'TOKEN_TYPE = "bearer"\nheader = "X-Auth-Token"\npassword = None\n'
    assert redact("settings.py", code) == (code, [])
    assert redact("x.py", "x = 'sk_live_custom'", ["sk_live_[a-z]+"])[1]
    assert secret_file_reason("config/credentials.json") is not None
    assert secret_file_reason("src/credentials.py") is None


def test_a_file_event_is_judged_by_its_path_alone(tmp_path: Path):
    """A watcher reports every file of the tree: a build's output, a virtualenv's files and
    secrets are dropped without reading them; scripts (no suffix) and text files pass."""
    from codekith.gitrepo import rescans
    from codekith.workspace import WorkspaceFilter

    every = WorkspaceFilter(tmp_path, Settings())
    assert every.event_reason("bin/deploy") is None  # may be a script: its `#!` decides
    assert every.event_reason("deploy/hosts.cfg") is None  # text, indexed as windows
    assert every.event_reason(".zshrc") is None
    assert every.event_reason("gone/never_existed.py") is None  # a deletion is judged too
    assert every.event_reason("pkg/__pycache__/m.cpython-311.pyc") is not None
    assert every.event_reason(".venv/lib/site.py") is not None
    assert every.event_reason("build/lib/pkg/m.py") is not None
    assert every.event_reason(".env") is not None
    assert every.event_reason("logo.png") == "binary file type"
    python_only = WorkspaceFilter(tmp_path, Settings(languages=("python",)))
    assert python_only.event_reason("deploy/hosts.cfg") == "language text not configured"
    assert python_only.event_reason("bin/deploy") is None
    assert python_only.event_reason(".zshrc") == "language shell not configured"  # its name decides
    assert python_only.event_reason("m.py") is None

    assert rescans("/ws/.git/HEAD") and rescans("/ws/.git/refs/heads/main")
    assert rescans("/ws/.git/packed-refs") and rescans("/ws/.git/info/exclude")
    assert not rescans("/ws/.git/index") and not rescans("/ws/.git/objects/ab/cdef")
    assert not rescans("/ws/.git/index.lock") and not rescans("/ws/.git/FETCH_HEAD")
