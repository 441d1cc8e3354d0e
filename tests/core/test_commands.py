"""The command parser: the table, every command and alias, errors, moves, /help, and fuzzing."""

# Expected texts hold the dashes and the multiplication sign players see and type.
# ruff: noqa: RUF001

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.ai.levels import Level
from core.commands import (
    COMMANDS,
    MAX_LENGTH,
    PREFIXES,
    Accept,
    Block,
    BotVsBot,
    Command,
    CommandError,
    Decline,
    Final,
    First,
    GameKind,
    Help,
    Hide,
    Link,
    MoveText,
    NotACommand,
    PersonalTheme,
    Puzzle,
    PuzzleAsk,
    Rematch,
    Review,
    Seek,
    Settings,
    Start,
    Stats,
    Top,
    Tournament,
    Unblock,
    Unlink,
    VsBot,
    VsUser,
    find_command,
    format_command,
    parse,
    resolve_move,
    start_from_options,
)
from core.errors import UserError
from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.games.kinds import STARTERS
from core.i18n import LOCALES, catalogue, placeholders, render

ROOT = Path(__file__).resolve().parents[2]
MEDIUM_TRES = Start(GameKind.TRES, TICTACTOE, VsBot(Level.MEDIUM), First.ME)
MEDIUM_QUATRE = Start(GameKind.QUATRE, CONNECT_FOUR, VsBot(Level.MEDIUM), First.ME)

# What each command gives with no arguments (ratlla needs some: it has its own tests).
BARE: dict[str, Command] = {
    "help": Help(),
    "tres": MEDIUM_TRES,
    "quatre": MEDIUM_QUATRE,
    "accept": Accept(),
    "decline": Decline(),
    "rematch": Rematch(),
    "final": Final(),
    "stats": Stats(),
    "top": Top(),
    "link": Link(),
    "unlink": Unlink(),
    "hide": Hide(),
    "review": Review(),
    "settings": Settings(),
    "seek": Seek(),
    "block": Block(),
    "unblock": Unblock(),
    "theme": PersonalTheme(),
    "tournament": Tournament(),
    "puzzle": Puzzle(),
}


def parse_error(text: str) -> CommandError:
    with pytest.raises(CommandError) as caught:
        parse(text)
    return caught.value


# --- The table --------------------------------------------------------------------------------


def test_table_has_the_design_commands_and_aliases() -> None:
    names = {spec.name: spec.aliases for spec in COMMANDS}
    assert names == {
        "help": (),
        "tres": ("tictactoe",),
        "quatre": ("connect4",),
        "ratlla": (),
        "accept": (),
        "decline": (),
        "rematch": (),
        "final": ("quit",),
        "stats": (),
        "top": (),
        "link": (),
        "unlink": (),
        "hide": (),
        "review": (),
        "settings": (),
        "seek": (),
        "block": (),
        "unblock": (),
        "tournament": (),
        "theme": (),
        "puzzle": (),
    }


def test_table_kinds_name_the_start_commands() -> None:
    """Each game kind is started by the row of its word (the kind that word names), and its
    words are that row's names."""
    kinds = {spec.name: spec.kind for spec in COMMANDS if spec.kind is not None}
    assert kinds == {kind.word: kind.starter for kind in GameKind}
    for kind in GameKind:
        spec = find_command(kind.word)
        assert spec is not None and spec.names == kind.words


@pytest.mark.parametrize(
    ("spec_name", "name", "prefix"),
    [
        (spec.name, name, prefix)
        for spec in COMMANDS
        if spec.name != "ratlla"
        for name in spec.names
        for prefix in PREFIXES
    ],
)
def test_every_name_and_alias_parses_with_every_prefix(
    spec_name: str, name: str, prefix: str
) -> None:
    expected = BARE[spec_name]
    assert parse(f"{prefix}{name}") == expected
    assert parse(f"  {prefix}{name.upper()}\n") == expected
    assert parse(f"{prefix}{name.title()}\t") == expected


@pytest.mark.parametrize("prefix", PREFIXES)
def test_ratlla_parses_with_every_prefix(prefix: str) -> None:
    assert parse(f"{prefix}RATLLA 4x5 3") == Start(
        GameKind.RATLLA, Rules(4, 5, 3), VsBot(Level.MEDIUM), First.ME
    )


def test_find_command_by_name_or_alias_any_case() -> None:
    spec = find_command("Connect4")
    assert spec is not None
    assert spec.name == "quatre"
    assert find_command("nope") is None


def test_usage_shows_syntax() -> None:
    spec = find_command("ratlla")
    assert spec is not None
    assert spec.usage("!").startswith("!ratlla ROWSxCOLS K ")
    top = find_command("top")
    assert top is not None
    assert top.usage() == "/top [chat|server|all] [tres|quatre]"


def test_option_descriptions_and_choices() -> None:
    for spec in COMMANDS:
        for option in spec.options:
            assert option.description in catalogue()
    tres = find_command("tres")
    assert tres is not None
    choices = {option.name: option.choices for option in tres.options}
    assert choices == {
        "level": ("easy", "medium", "hard"),
        "opponent": (),
        "first": ("me", "opponent", "random"),
        "clock": (),
        "casual": (),
    }


# --- Start commands ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/tres easy", Start(GameKind.TRES, TICTACTOE, VsBot(Level.EASY), First.ME)),
        ("/tres second HARD", Start(GameKind.TRES, TICTACTOE, VsBot(Level.HARD), First.OPPONENT)),
        ("/tres random", Start(GameKind.TRES, TICTACTOE, VsBot(Level.MEDIUM), First.RANDOM)),
        ("/tres opponent", Start(GameKind.TRES, TICTACTOE, VsBot(Level.MEDIUM), First.OPPONENT)),
        ("/tres me hard", Start(GameKind.TRES, TICTACTOE, VsBot(Level.HARD), First.ME)),
        (
            "!tictactoe @bob:example.org second",
            Start(GameKind.TRES, TICTACTOE, VsUser("@bob:example.org"), First.OPPONENT),
        ),
        (
            "/tres @Bob:Example.org",  # a player is kept as written, case included
            Start(GameKind.TRES, TICTACTOE, VsUser("@Bob:Example.org"), First.ME),
        ),
        (
            "/tres bot",
            Start(GameKind.TRES, TICTACTOE, BotVsBot(Level.MEDIUM, Level.MEDIUM), First.ME),
        ),
        (
            "/tres bot hard",
            Start(GameKind.TRES, TICTACTOE, BotVsBot(Level.HARD, Level.HARD), First.ME),
        ),
        (
            "/tres bot easy hard",
            Start(GameKind.TRES, TICTACTOE, BotVsBot(Level.EASY, Level.HARD), First.ME),
        ),
        (
            "/tres easy bot hard",  # options in any order: the levels in the order given
            Start(GameKind.TRES, TICTACTOE, BotVsBot(Level.EASY, Level.HARD), First.ME),
        ),
        ("/quatre 6x7", MEDIUM_QUATRE),
        (
            "/connect4 7×8 hard",
            Start(GameKind.QUATRE, Rules(7, 8, 4, gravity=True), VsBot(Level.HARD), First.ME),
        ),
        (
            "/quatre easy 5X6 random",
            Start(GameKind.QUATRE, Rules(5, 6, 4, gravity=True), VsBot(Level.EASY), First.RANDOM),
        ),
        (
            "/quatre 3x4",  # the smallest board that holds four in a row
            Start(GameKind.QUATRE, Rules(3, 4, 4, gravity=True), VsBot(Level.MEDIUM), First.ME),
        ),
        (
            "/ratlla 15x15 5 hard second",
            Start(GameKind.RATLLA, Rules(15, 15, 5), VsBot(Level.HARD), First.OPPONENT),
        ),
        (
            "/ratlla 5 @ann 9x9",  # size and K in any order too
            Start(GameKind.RATLLA, Rules(9, 9, 5), VsUser("@ann"), First.ME),
        ),
        (
            "/ratlla 25x25 25 bot easy",
            Start(GameKind.RATLLA, Rules(25, 25, 25), BotVsBot(Level.EASY, Level.EASY), First.ME),
        ),
        (
            "/ratlla 3x3 3",
            Start(GameKind.RATLLA, Rules(3, 3, 3), VsBot(Level.MEDIUM), First.ME),
        ),
        ("/stats @bob:example.org", Stats("@bob:example.org")),
        ("   /top   ", Top()),
    ],
)
def test_parse_examples(text: str, expected: Command) -> None:
    assert parse(text) == expected


def test_surrounding_and_inner_whitespace_is_ignored() -> None:
    assert parse("\t /quatre   7x8 \n hard  ") == parse("/quatre 7x8 hard")


# --- Named options (Discord slash commands) ----------------------------------------------------


def test_start_from_options_matches_parse() -> None:
    assert start_from_options(GameKind.TRES) == parse("/tres")
    assert start_from_options(GameKind.QUATRE, size="7x8", level="hard", first="opponent") == parse(
        "/quatre 7x8 hard second"
    )
    bob = VsUser("1", "Bob")  # resolved by the platform: the id, and the name to show
    assert start_from_options(GameKind.RATLLA, size="9x9", k=5, opponent=bob) == Start(
        GameKind.RATLLA, Rules(9, 9, 5), bob, First.ME
    )
    assert start_from_options(GameKind.TRES, bots=True, level="easy") == parse("/tres bot easy")
    assert start_from_options(GameKind.TRES, bots=True) == parse("/tres bot")


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"size": "hard"}, "parse.bad_size"),
        ({"size": "2x9", "k": 3}, "parse.size_range"),
        ({"size": "9x9", "k": "five"}, "parse.bad_option"),
        ({"size": "9x9", "k": 10}, "parse.k_range"),
        ({"size": "9x9"}, "parse.needs_size_and_k"),
        ({"size": "9x9", "k": 5, "level": "expert"}, "parse.bad_option"),
        ({"size": "9x9", "k": 5, "first": "later"}, "parse.bad_option"),
        (
            {"size": "9x9", "k": 5, "opponent": VsUser("1", "Bob"), "level": "hard"},
            "parse.twice.opponent",
        ),
        (
            {"size": "9x9", "k": 5, "opponent": VsUser("1", "Bob"), "bots": True},
            "parse.twice.opponent",
        ),
    ],
)
def test_start_from_options_errors(options: dict[str, object], key: str) -> None:
    with pytest.raises(CommandError) as caught:
        start_from_options(GameKind.RATLLA, **options)  # type: ignore[arg-type]
    assert caught.value.key == key


def test_a_resolved_opponent_is_named_in_errors() -> None:
    with pytest.raises(CommandError) as caught:
        start_from_options(GameKind.TRES, opponent=VsUser("1", "Bob"), level="hard")
    assert caught.value.params == {"first": "@Bob", "second": "hard"}


# --- Errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "named"),
    [
        ("", "parse.empty", ""),
        ("   \n\t", "parse.empty", ""),
        ("/", "parse.missing_command", "'/'"),
        ("!  ", "parse.missing_command", "'!'"),
        ("/tress", "parse.unknown_command_suggest", "'/tress'"),
        ("/xyzzy", "parse.unknown_command", "'/xyzzy'"),
        ("/help me", "parse.unknown_topic", "'me'"),
        ("/accept me", "parse.no_args", "'me'"),
        ("/top 10", "parse.bad_option", "'10'"),
        ("/unlink now", "parse.no_args", "'now'"),
        ("/link abc", "parse.bad_link_code", "'abc'"),
        ("/5 6", "parse.no_args", "'6'"),
        ("/tres 6x7", "parse.bad_option", "'6x7'"),
        ("/tres impossible", "parse.bad_option", "'impossible'"),
        ("/tres @", "parse.bad_option", "'@'"),
        ("/tres <@&123>", "parse.bad_option", "'<@&123>'"),  # Discord's mention syntax
        ("/tres <@123>", "parse.bad_option", "'<@123>'"),  # is resolved by its adapter
        # Connect Four's K is always 4: a number alone is a clock without its unit
        ("/quatre 6x7 5", "parse.bad_clock", "'5'"),
        ("/stats bob", "parse.bad_option", "'bob'"),
        ("/stats @a @b", "parse.bad_option", "'@b'"),
        ("/quatre 6x", "parse.bad_size", "'6x'"),
        ("/quatre 6x7x8", "parse.bad_size", "'6x7x8'"),
        ("/ratlla 6y7 4", "parse.bad_option", "'6y7'"),
        ("/quatre 2x7", "parse.size_range", "'2x7'"),
        ("/quatre 6x26", "parse.size_range", "'6x26'"),
        ("/ratlla 99999999999x3 3", "parse.size_range", "'99999999999x3'"),
        ("/quatre 3x3", "parse.size_too_small", "'3x3'"),
        ("/ratlla 5x5 2", "parse.k_range", "'2'"),
        ("/ratlla 5x6 7", "parse.k_range", "'7'"),
        ("/ratlla 5x6 0007", "parse.k_range", "'0007'"),
        ("/ratlla", "parse.needs_size_and_k", "'/ratlla'"),
        ("/ratlla 5x5", "parse.needs_size_and_k", "/ratlla ROWSxCOLS K"),
        ("/ratlla 5", "parse.needs_size_and_k", "'/ratlla'"),
        ("/tres easy hard", "parse.twice.opponent", "'easy' and 'hard'"),
        ("/tres @a @b", "parse.twice.opponent", "'@a' and '@b'"),
        ("/tres @a bot", "parse.twice.opponent", "'@a' and 'bot'"),
        ("/tres @a easy", "parse.twice.opponent", "'@a' and 'easy'"),
        ("/tres bot bot", "parse.twice.opponent", "'bot' and 'bot'"),
        ("/tres first random", "parse.twice.first", "'first' and 'random'"),
        ("/quatre 6x7 7x8", "parse.twice.size", "'6x7' and '7x8'"),
        ("/ratlla 5x5 3 4", "parse.twice.k", "'3' and '4'"),
        ("/tres bot easy easy hard", "parse.bot_levels", "'hard'"),
        ("b0", "parse.bad_move", "'b0'"),
        ("z3", "parse.bad_move", "'z3'"),
        ("1234", "parse.bad_move", "'1234'"),
        ("!5x", "parse.bad_move", "'5x'"),
        ("b123", "parse.bad_move", "'b123'"),
    ],
)
def test_errors_name_the_input(text: str, key: str, named: str) -> None:
    error = parse_error(text)
    assert error.key == key
    assert named in str(error)
    assert isinstance(error, UserError)


def test_unknown_command_suggests_the_closest_name_with_the_same_prefix() -> None:
    assert str(parse_error("/tress")) == "Unknown command '/tress': did you mean /tres?"
    assert parse_error("!conect4").params["suggestion"] == "!connect4"
    assert parse_error("/QUATER").params["suggestion"] == "/quatre"
    assert parse_error("/rematc").params["suggestion"] == "/rematch"


def test_plain_text_that_is_no_move_is_not_a_command() -> None:
    # Adapters reading every message of a room can tell chatter from a mistake by the class.
    for text in ("hello", "good game!", "tres", "5 6", "b2 please"):
        with pytest.raises(NotACommand) as caught:
            parse(text)
        assert caught.value.key == "parse.not_command"
    assert not isinstance(parse_error("b0"), NotACommand)
    assert not isinstance(parse_error("/tress"), NotACommand)


def test_long_input_is_refused_up_front() -> None:
    at_limit = "/tres" + " " * (MAX_LENGTH - len("/tres"))
    assert parse(at_limit) == MEDIUM_TRES
    error = parse_error(at_limit + " ")
    assert error.key == "parse.too_long"
    assert error.params == {"length": MAX_LENGTH + 1, "limit": MAX_LENGTH}
    assert parse_error("x" * 100_000).key == "parse.too_long"


# --- Moves ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5", MoveText("5", number=5)),
        ("05", MoveText("05", number=5)),
        (" 42 ", MoveText("42", number=42)),
        ("!5", MoveText("5", number=5)),
        ("/625", MoveText("625", number=625)),
        ("b2", MoveText("b2", coord=(1, 1))),
        ("B2", MoveText("B2", coord=(1, 1))),
        ("a1", MoveText("a1", coord=(0, 0))),
        ("y25", MoveText("y25", coord=(24, 24))),
        ("!c3", MoveText("c3", coord=(2, 2))),
    ],
)
def test_move_text(text: str, expected: MoveText) -> None:
    assert parse(text) == expected


def test_every_column_of_the_widest_board_has_a_letter_that_is_typed_back() -> None:
    from core.games.rules import COLUMN_LETTERS, MAX_SIDE

    assert len(set(COLUMN_LETTERS)) == len(COLUMN_LETTERS) == MAX_SIDE
    for col, letter in enumerate(COLUMN_LETTERS):
        assert parse(f"{letter}1") == MoveText(f"{letter}1", coord=(col, 0))


@pytest.mark.parametrize(
    ("text", "rules", "move"),
    [
        ("1", TICTACTOE, 0),
        ("5", TICTACTOE, 4),
        ("9", TICTACTOE, 8),
        ("a1", TICTACTOE, 0),
        ("b2", TICTACTOE, 4),
        ("c1", TICTACTOE, 2),
        ("a3", TICTACTOE, 6),
        ("1", CONNECT_FOUR, 0),
        ("7", CONNECT_FOUR, 6),
        ("d1", CONNECT_FOUR, 3),  # a coordinate names its column; the stone still falls
        ("g6", CONNECT_FOUR, 6),
        ("e3", Rules(4, 5, 3), 14),
    ],
)
def test_resolve_move(text: str, rules: Rules, move: int) -> None:
    parsed = parse(text)
    assert isinstance(parsed, MoveText)
    assert resolve_move(parsed, rules) == move


@pytest.mark.parametrize(
    ("text", "rules", "key", "message"),
    [
        ("12", TICTACTOE, "parse.cell_range", "Cell '12' is off the board: choose 1–9."),
        ("0", TICTACTOE, "parse.cell_range", "Cell '0' is off the board: choose 1–9."),
        ("8", CONNECT_FOUR, "parse.column_range", "Column '8' is off the board: choose 1–7."),
        ("d4", TICTACTOE, "parse.coord_range", "'d4' is off the board: columns a–c, rows 1–3."),
        ("a4", TICTACTOE, "parse.coord_range", "'a4' is off the board: columns a–c, rows 1–3."),
        ("h1", CONNECT_FOUR, "parse.coord_range", "'h1' is off the board: columns a–g, rows 1–6."),
        ("a7", CONNECT_FOUR, "parse.coord_range", "'a7' is off the board: columns a–g, rows 1–6."),
    ],
)
def test_resolve_move_off_the_board(text: str, rules: Rules, key: str, message: str) -> None:
    parsed = parse(text)
    assert isinstance(parsed, MoveText)
    with pytest.raises(CommandError) as caught:
        resolve_move(parsed, rules)
    assert caught.value.key == key
    assert str(caught.value) == message


def test_resolve_move_without_number_or_coordinate_is_a_bad_move() -> None:
    with pytest.raises(CommandError) as caught:
        resolve_move(MoveText("?"), TICTACTOE)
    assert caught.value.key == "parse.bad_move"


@given(st.integers(3, 25), st.integers(3, 25), st.booleans(), st.data())
def test_every_move_of_every_board_resolves_from_number_and_coordinate(
    rows: int, cols: int, gravity: bool, data: st.DataObject
) -> None:
    rules = Rules(rows, cols, 3, gravity=gravity)
    row = data.draw(st.integers(0, rows - 1))
    col = data.draw(st.integers(0, cols - 1))
    coordinate = parse(f"{'abcdefghijklmnopqrstuvwxy'[col]}{row + 1}")
    assert isinstance(coordinate, MoveText)
    expected = col if gravity else row * cols + col
    assert resolve_move(coordinate, rules) == expected
    number = parse(str(expected + 1))
    assert isinstance(number, MoveText)
    assert resolve_move(number, rules) == expected


# --- /help ------------------------------------------------------------------------------------


# The overview and its topics: tests/core/test_help.py.


def test_help_is_the_help_command() -> None:
    assert parse("/help") == Help()


@pytest.mark.parametrize("locale", LOCALES)
def test_descriptions_fit_discord_limits(locale: str) -> None:
    # Discord refuses slash-command and option descriptions longer than 100 characters.
    for spec in COMMANDS:
        assert 1 <= len(render(spec.description, locale)) <= 100
        for option in spec.options:
            assert 1 <= len(render(option.description, locale)) <= 100


# --- format_command: the inverse of parse ------------------------------------------------------

levels = st.sampled_from(list(Level))
players = st.sampled_from(["@bob:example.org", "@Ann"])
opponents = st.one_of(
    levels.map(VsBot),
    players.map(VsUser),
    st.builds(BotVsBot, levels, levels),
)
firsts = st.sampled_from(list(First))


@st.composite
def starts(draw: st.DrawFn) -> Start:
    kind = draw(st.sampled_from(STARTERS))
    if kind is GameKind.TRES:
        rules = TICTACTOE
    else:
        rows, cols = draw(st.integers(3, 25)), draw(st.integers(3, 25))
        if kind is GameKind.QUATRE:
            if max(rows, cols) < 4:
                cols = 4
            rules = Rules(rows, cols, 4, gravity=True)
        else:
            rules = Rules(rows, cols, draw(st.integers(3, max(rows, cols))))
    return Start(kind, rules, draw(opponents), draw(firsts))


moves = st.one_of(
    st.integers(0, 999).map(lambda n: MoveText(str(n), number=n)),
    st.tuples(st.integers(0, 24), st.integers(0, 98)).map(
        lambda c: MoveText(f"{'abcdefghijklmnopqrstuvwxy'[c[0]]}{c[1] + 1}", coord=c)
    ),
)
commands: st.SearchStrategy[Command] = st.one_of(
    starts(),
    moves,
    st.sampled_from([Help(), Accept(), Decline(), Rematch(), Final(), Stats(), Top()]),
    players.map(Stats),
)


@given(commands, st.sampled_from(PREFIXES))
def test_format_then_parse_is_the_identity(command: Command, prefix: str) -> None:
    assert parse(format_command(command, prefix)) == command


def test_format_examples() -> None:
    assert format_command(MEDIUM_QUATRE) == "/quatre 6x7 medium first"
    assert format_command(Final(), "!") == "!final"
    assert (
        format_command(
            Start(GameKind.RATLLA, Rules(9, 9, 5), BotVsBot(Level.EASY, Level.HARD), First.RANDOM)
        )
        == "/ratlla 9x9 5 bot easy hard random"
    )
    assert format_command(MoveText("B2", coord=(1, 1))) == "b2"
    assert format_command(MoveText("?")) == "?"


# --- Fuzzing: anything parses or is the player's mistake, never a crash -----------------------

VOCABULARY = [
    *(name for spec in COMMANDS for name in spec.names),
    "easy",
    "medium",
    "hard",
    "bot",
    "first",
    "second",
    "random",
    "me",
    "opponent",
    "@bob:example.org",
    "<@123>",
    "<@!123>",
    "<@&1>",
    "@",
    "6x7",
    "6×7",
    "6X7",
    "3x3",
    "25x25",
    "26x3",
    "x7",
    "6x",
    "0",
    "3",
    "4",
    "5",
    "99",
    "b2",
    "B2",
    "y25",
    "z1",
    "a0",
    "²",
    "٣",
    "İ",
]


def check_outcome(text: str) -> None:
    """``parse(text)`` returns a command, or raises a UserError whose message renders fully in
    every locale (the key exists and the parameters match its placeholders)."""
    try:
        result = parse(text)
    except UserError as error:
        assert error.key in catalogue(), error.key
        templates = catalogue()[error.key]
        assert placeholders(templates["en"]) == set(error.params), error.key
        for locale in LOCALES:
            render(error.key, locale, **error.params)
    else:
        assert isinstance(result, Command)


@settings(max_examples=500)
@given(st.text(max_size=600))
def test_any_text_parses_or_is_a_user_error(text: str) -> None:
    check_outcome(text)


@settings(max_examples=500)
@given(st.sampled_from(PREFIXES) | st.just(""), st.text(max_size=40))
def test_any_prefixed_text_parses_or_is_a_user_error(prefix: str, text: str) -> None:
    check_outcome(prefix + text)


def mutate(word: str, data: st.DataObject) -> str:
    """A near miss: the word with a character dropped, doubled, changed, or case flipped."""
    if not word:
        return word
    where = data.draw(st.integers(0, len(word) - 1))
    how = data.draw(st.sampled_from(["keep", "drop", "double", "change", "upper"]))
    if how == "drop":
        return word[:where] + word[where + 1 :]
    if how == "double":
        return word[: where + 1] + word[where:]
    if how == "change":
        return word[:where] + data.draw(st.characters()) + word[where + 1 :]
    if how == "upper":
        return word.upper()
    return word


@settings(max_examples=1000)
@given(
    st.sampled_from(["/", "!", "", " /", "//"]),
    st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=6),
    st.sampled_from([" ", "  ", "\t", "\n", " \u00a0"]),
    st.data(),
)
def test_near_misses_parse_or_are_user_errors(
    prefix: str, words: list[str], separator: str, data: st.DataObject
) -> None:
    check_outcome(prefix + separator.join(mutate(word, data) for word in words))


# --- Purity -----------------------------------------------------------------------------------


def test_core_commands_imports_no_io_library() -> None:
    # In a fresh interpreter, and against what it loaded before (site hooks may import urllib).
    code = (
        "import sys; before = set(sys.modules); import core.commands; "
        "banned = {'discord', 'nio', 'aiosqlite', 'sqlite3', 'socket', 'asyncio', 'ssl', "
        "'http.client', 'urllib.request', 'selectors'}; "
        "print(sorted(banned & (set(sys.modules) - before)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/theme", PersonalTheme()),
        ("/theme discs", PersonalTheme("discs")),
        ("!theme CONTRAST", PersonalTheme("contrast")),
        ("/theme auto", PersonalTheme("auto")),
        ("/theme reset", PersonalTheme(reset=True)),
    ],
)
def test_theme_takes_a_theme_auto_or_reset(text: str, expected: PersonalTheme) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(("text", "bad"), [("/theme neon", "neon"), ("/theme discs x", "x")])
def test_an_unknown_theme_is_named_with_the_choices(text: str, bad: str) -> None:
    error = parse_error(text)
    assert error.key == "parse.bad_theme"
    assert error.params == {"theme": bad, "choices": "classic, discs, contrast, auto, reset"}


def test_block_names_a_player_a_recent_opponent_or_no_one() -> None:
    assert parse("!block @bob:example.org") == Block("@bob:example.org")
    # A player of the other platform, as an open game's board showed them.
    assert parse("!block Bo  Smith") == Block(None, "Bo Smith")
    assert parse("/block") == Block()  # the latest opponent of an open game here
    error = parse_error("!block @bob please")
    assert (error.key, error.params["option"]) == ("parse.bad_option", "@bob")


def test_unblock_names_a_player_as_block_does() -> None:
    assert parse("!unblock @bob:example.org") == Unblock("@bob:example.org")
    assert parse("!unblock Bo  Smith") == Unblock(None, "Bo Smith")
    assert parse("/unblock") == Unblock()
    error = parse_error("/unblock @bob please")
    assert (error.key, error.params["option"]) == ("parse.bad_option", "@bob")
    assert error.params["command"] == "/unblock"
    for command in (Unblock("@bob"), Unblock(None, "Bo Smith"), Unblock()):
        assert parse(format_command(command, "/")) == command


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("/puzzle", Puzzle()),
        ("!puzzle next", Puzzle(PuzzleAsk.NEXT)),
        ("/puzzle STATS", Puzzle(PuzzleAsk.STATS)),
        ("/puzzle top", Puzzle(PuzzleAsk.TOP)),
    ],
)
def test_puzzle_takes_one_word_and_writes_it_back(text: str, expected: Command) -> None:
    assert parse(text) == expected
    assert parse(format_command(expected)) == expected


@pytest.mark.parametrize("text", ["/puzzle today", "/puzzle next top"])
def test_puzzle_names_a_word_it_does_not_take(text: str) -> None:
    error = parse_error(text)
    assert error.key == "parse.bad_option"
    assert error.params["usage"] == "[next|stats|top]"
