"""PHP chunks: functions and classes declared under a top-level `if`."""

from __future__ import annotations

import textwrap

from tests.chunks import chunks_of


def test_functions_and_classes_declared_under_a_top_level_if_are_definitions():
    """`if (!function_exists('x')) { function x() {} }` (a polyfill, a helper a framework
    lets the user override) declares the global function `x`, in whichever branch."""
    source = textwrap.dedent(
        """
        <?php
        namespace Monolog;

        if (!function_exists('json_encode_safe')) {
            /**
             * Encodes safely.
             */
            function json_encode_safe($x) { return helper($x); }
        }

        if (!function_exists('other')):
            function other() {}
        endif;

        if (PHP_VERSION_ID < 80000) {
            class Compat { public function run() {} }
        } elseif (PHP_VERSION_ID < 90000) {
            function newer() {}
        } else {
            function newest() {}
        }
        """
    )
    chunks, _ = chunks_of("src/Monolog/helpers.php", "php", source)
    assert set(chunks) == {
        "Monolog.helpers",
        "Monolog.helpers.json_encode_safe",
        "Monolog.helpers.other",
        "Monolog.helpers.Compat",
        "Monolog.helpers.Compat.run",
        "Monolog.helpers.newer",
        "Monolog.helpers.newest",
    }
    encode = chunks["Monolog.helpers.json_encode_safe"]
    assert encode.kind == "function" and encode.docstring == "Encodes safely."
    assert "function_exists('json_encode_safe')" in chunks["Monolog.helpers"].code
