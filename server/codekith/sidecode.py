"""Which paths hold side code, tests and vendored copies, in a module that imports only
`re`: the store filters tests out of a search (or keeps them alone) with the same pattern
the ranking gives their share by."""

from __future__ import annotations

import re

# Tests and their fixtures: test folders (`e2e-tests/`, Go's `testdata/` too), pytest's
# `test_*.py`, `*_test.py` and `conftest.py`, Go's `_test.go`, JS/TS `.test.`/`.spec.` files;
# since stop 53 other languages' layouts (`scripts/eval_test_paths.py`): `Tests/` folders
# (SwiftPM, C#'s `Foo.Tests/`, `FuzzTests/`), Kotlin's source sets (`jvmTest/`), JUnit's
# `FooTest.java` and the like, `FooSpec.scala`, RSpec's `foo_spec.rb`, gtest's `foo_test.cc`.
# Written so that LanceDB's `regexp_like` (Rust's regex) reads it as Python does.
TEST_PATH = re.compile(
    r"(^|/)(tests?|testing|__tests__|spec|testdata|[\w.-]+-tests?)/"
    r"|(^|/)(test_[^/]*|[^/]+_test\.py|conftest\.py)$|_test\.go$|\.(test|spec)\.[cm]?[jt]sx?$"
    r"|(^|/)([\w.-]*[a-z0-9.-])?Tests?/"
    r"|[a-z0-9]Tests?\.(java|kt|kts|scala|cs|swift|php|groovy)$"
    r"|[a-z0-9]Specs?\.(scala|kt|swift|groovy)$"
    r"|[^/]_(unit)?tests?\.(c|cc|cpp|cxx|rb|lua|rs)$|[^/]_spec\.(rb|lua)$|\.bats$"
)
# Copies of other projects that stay indexed (the walk skips vendor/ and third_party/):
# pip's _vendor/, requests/packages/ (a top-level packages/ is a monorepo's own code).
VENDORED_PATH = re.compile(r"(^|/)(_vendor|vendored|_vendored)/|[^/]/packages/")


def is_test_path(path: str) -> bool:
    """Tests and their fixtures, by path (`TEST_PATH`)."""
    return bool(TEST_PATH.search(path))


def is_vendored_path(path: str) -> bool:
    """A copy of another project kept inside this one (`VENDORED_PATH`)."""
    return bool(VENDORED_PATH.search(path))
