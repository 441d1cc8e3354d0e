"""The game kind is the one classification of games: what every other one derives from, and
what a new kind must bring (a pool, a word, its messages in every language)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chatbots.metrics import GAMES
from core.admin.keys import ALL_GAMES, Games
from core.commands import COMMANDS, find_command
from core.commands.ratings import GAME_CHOICES, TOP_SYNTAX
from core.commands.topics import HELP_TOPICS
from core.games import CONNECT_FOUR, TICTACTOE, GameKind, Rules, Variant
from core.games.kinds import STARTERS, WORDS, pool_title
from core.i18n import LOCALES, Text, catalogue, placeholders
from core.ratings import pool_of

BOARDS: dict[GameKind, Rules] = {
    GameKind.TRES: TICTACTOE,
    GameKind.QUATRE: CONNECT_FOUR,
    GameKind.GRAVITY: Rules(5, 5, 4, gravity=True),
    GameKind.RATLLA: Rules(15, 15, 5),
}
"""A board of each kind: a new kind needs one here, so that the tests below check it."""

POOL = re.compile(r"[a-z0-9][a-z0-9-]{0,15}")


def test_every_kind_has_a_board_to_check() -> None:
    assert set(BOARDS) == set(GameKind)
    assert all(GameKind.of(rules) is kind for kind, rules in BOARDS.items())


@pytest.mark.parametrize("kind", list(GameKind))
def test_every_kind_has_a_short_rating_pool(kind: GameKind) -> None:
    pool = kind.pool(BOARDS[kind])
    assert POOL.fullmatch(pool), pool
    if kind.rules is not None:  # the word alone is one board: its pool is the kind's id
        assert kind.pool(kind.rules) == kind.value


def test_the_stored_ids_and_labels_are_unchanged() -> None:
    """Pool ids are stored with every rating, setting words in every chat's settings, labels
    in dashboards: none of them may change."""
    assert {kind: kind.pool(rules) for kind, rules in BOARDS.items()} == {
        GameKind.TRES: "tictactoe",
        GameKind.QUATRE: "connect4",
        GameKind.GRAVITY: "gravity",
        GameKind.RATLLA: "free-big-k5",
    }
    assert WORDS == ("tres", "quatre", "ratlla")
    assert GAMES == ("tictactoe", "connect4", "free")
    assert {kind.label for kind in GameKind} == set(GAMES)
    assert Games().show(ALL_GAMES) == "tres,quatre,ratlla"


@given(st.integers(3, 25), st.integers(3, 25), st.integers(3, 25), st.booleans())
def test_the_kind_of_any_rules_is_one_of_the_four_families(
    rows: int, cols: int, k: int, gravity: bool
) -> None:
    rules = Rules(rows, cols, min(k, max(rows, cols)), gravity=gravity)
    kind = GameKind.of(rules)
    assert Variant.of(rules) is kind  # the name DESIGN.md uses
    assert (kind is GameKind.TRES) == (rules == TICTACTOE)
    assert (kind is GameKind.QUATRE) == (rules == CONNECT_FOUR)
    assert (kind in (GameKind.QUATRE, GameKind.GRAVITY)) == gravity
    assert kind.pool(rules) == pool_of(rules.rows, rules.cols, rules.k, rules.gravity)
    free = "tictactoe" if rules == TICTACTOE else "free"
    assert kind.label == ("connect4" if gravity else free)  # the metrics' few values


@pytest.mark.parametrize("kind", list(GameKind))
def test_every_kind_has_a_word_that_starts_it(kind: GameKind) -> None:
    spec = find_command(kind.word)
    assert spec is not None and spec.kind is kind.starter and spec.names == kind.words
    assert kind.starter in STARTERS and GameKind.named(kind.word) is kind.starter
    assert all(GameKind.named(word.upper()) is kind.starter for word in kind.words)
    assert kind.word in HELP_TOPICS["play"]


def test_the_start_commands_are_the_kinds_words() -> None:
    assert tuple(spec.name for spec in COMMANDS if spec.kind is not None) == WORDS
    # /top and /seek take the words that alone mean one board
    assert GAME_CHOICES == ("tres", "quatre")
    assert TOP_SYNTAX == "[chat|server|all] [tres|quatre]"


@pytest.mark.parametrize("kind", list(GameKind))
@pytest.mark.parametrize("locale", LOCALES)
def test_every_kind_has_its_words_in_every_language(kind: GameKind, locale: str) -> None:
    """Its name (what boards, seeks and reviews call it) and its /help line."""
    key, params = kind.title(BOARDS[kind])
    for message in (key, f"help.{kind.word}"):
        assert catalogue()[message].get(locale), (message, locale)
    assert placeholders(catalogue()[key][locale]) == set(params)


def test_the_auto_clocks_are_unchanged() -> None:
    assert {kind: kind.auto_clock for kind in GameKind} == {
        GameKind.TRES: 300,
        GameKind.QUATRE: 300,
        GameKind.GRAVITY: 300,
        GameKind.RATLLA: 900,
    }


def test_every_pool_is_named_in_words_in_every_language() -> None:
    for rules in (
        *BOARDS.values(),
        Rules(15, 15, 5),
        Rules(19, 19, 5),
        Rules(4, 5, 4),
        Rules(5, 4, 4),
    ):
        kind = GameKind.of(rules)
        key, params = pool_title(kind.pool(rules))
        assert key != "game.name.pool", (rules, kind.pool(rules))
        for locale in LOCALES:
            words = Text(key, params).render(locale)
            assert kind.pool(rules) not in words and "{" not in words, (locale, words)
    assert pool_title("free-big-k5") == ("game.name.k_in_a_row_big", {"k": 5})
    assert pool_title("free-4x5-k4") == ("game.name.k_in_a_row", {"size": "4x5", "k": 4})
    # A pool this code does not know yet (a newer release's) is named by its id.
    assert pool_title("hex-11") == ("game.name.pool", {"pool": "hex-11"})
