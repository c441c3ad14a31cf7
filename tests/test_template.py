"""The full-text words of code and of questions: identifiers whole, in parts, and the words
a lower-case compound name runs together."""

from __future__ import annotations

import pytest

from codekith.template import compound_pieces, search_text


@pytest.mark.parametrize(
    ("part", "pieces"),
    [
        ("partitionby", ("partition", "by")),
        ("keymap", ("key", "map")),
        ("itemfilter", ("item", "filter")),
        ("isinstance", ("is", "instance")),
        ("startswith", ("starts", "with")),
        ("readline", ("read", "line")),
    ],
)
def test_a_lower_case_compound_name_gives_its_words(part: str, pieces: tuple[str, ...]) -> None:
    assert compound_pieces(part) == pieces


@pytest.mark.parametrize(
    "part",
    [
        "dictionary",  # a word of its own
        "kwargs",  # k, war, gs: syllables of an abbreviation
        "getattr",  # get, at, tr
        "sanic",  # s, anic
        "noop",  # shorter than COMPOUND_LETTERS
        "Keymap",  # not a lower-case part (search_text lowers parts before asking)
        "utf8codec",  # not letters only
    ],
)
def test_words_abbreviations_and_short_parts_stay_whole(part: str) -> None:
    assert compound_pieces(part) == ()


def test_the_full_text_keeps_each_name_whole_and_adds_its_words() -> None:
    words = search_text("def partitionby(func, seq): return itemFilter(seq)").split()
    assert words == [
        "def",
        "partitionby",
        "partition",
        "by",
        "func",
        "seq",
        "return",
        "itemfilter",
        "item",
        "filter",
        "seq",
    ]


def test_a_question_and_the_code_it_asks_about_share_the_compound_words() -> None:
    question = set(search_text("Partition a sequence according to a function").split())
    code = set(search_text("def partitionby(func, seq): ...").split())
    assert "partition" in question & code
