"""C chunks: a function whose opening line an `#if` splits."""

from __future__ import annotations

import textwrap

from tests.chunks import chunks_of


def test_a_function_opened_in_each_branch_of_an_if_is_read_with_the_last_branch():
    """jq's `int umain(…) {` / `#else` / `int main(…) {` / `#endif` share one body; the
    tree was an ERROR from there on. The last branch's opening is read (the other's is
    blank to the parser, not what comes before it), so `main` is a function, `wmain` stays
    one, and what follows keeps its rows."""
    source = textwrap.dedent(
        """
        #include <stdio.h>

        #ifdef WIN32
        int umain(int argc, char* argv[]);

        int wmain(int argc, wchar_t* wargv[]) {
          return umain(argc, 0);
        }

        int umain(int argc, char* argv[]) {
        #else /*}*/
        int main(int argc, char* argv[]) {
        #endif
          int ret = 0;
        #ifdef A
          if (argc > 1) {
        #else
          if (argc > 2) { /* { */
        #endif
            ret = run(argv[1], "}");
          }
          return ret;
        }

        /* Runs a command. */
        int run(const char *name, const char *arg) { return 0; }
        """
    )
    chunks, error = chunks_of("src/main.c", "c", source)
    assert error is None
    assert set(chunks) == {"main", "main.wmain", "main.main", "main.run"}
    main = chunks["main.main"]
    assert (main.start_line, main.end_line) == (13, 24)
    assert "int ret = 0;" in main.code and "if (argc > 1) {" in main.code
    run = chunks["main.run"]
    assert run.start_line == 27 and run.docstring == "Runs a command."
