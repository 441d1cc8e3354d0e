"""A finished game's page as plain values, pure: the archived game, who of its players hid
themselves, and the solver's review in; every position of the game, its moves with their
verdicts, the text alternative of each board and the text export out.

The verdicts are the solver's, exact (tic-tac-toe and standard Connect Four,
:func:`has_verdicts`): after each move, what its player can force (win, draw or loss, and in
how many moves, counting both sides' as ``/review`` does), "only move" where every other
legal move would have scored less, and "mistake" where the move dropped the result (a won
game to a draw or a loss, a draw to a loss). Other boards show what threats prove
(:mod:`core.pages.threats`) and "unknown" elsewhere: no verdict is claimed without a proof.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from core.ai.review import MoveReview, Result, describe, reviewed_move
from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules, Termination
from core.games.kinds import GameKind
from core.games.rules import COLUMN_LETTERS
from core.i18n import Lines, Param, Text
from core.pages.names import ANONYMOUS, named, shown_name
from core.pages.words import Title
from core.render import cell_name, move_label
from core.render import clock_words as clock_text
from core.store.models.archive import ArchivedGame

MARKS = ("X", "O")
"""The seats' marks as the pages write them (the first player is X), never by colour alone."""
ENGLISH = "en"
"""The text export's language (a documented notation), and the preview pictures'."""


def has_verdicts(rules: Rules) -> bool:
    """Whether a game of ``rules`` gets the solver's exact verdicts on its page."""
    return rules in (TICTACTOE, CONNECT_FOUR)


def game_name(rules: Rules) -> Title:
    """The game's name, as the chats name it, starting with a capital."""
    key, params = GameKind.of(rules).title(rules)
    return Title(key, params)


def game_title(rules: Rules, locale: str = ENGLISH) -> str:
    """The game's name in ``locale``, starting with a capital ("Connect Four 6x7")."""
    return game_name(rules).render(locale)


def encode_review(moves: Sequence[MoveReview]) -> str:
    """The review kept with an archived game: ``[move, before, after, [best...]]`` per move
    (``/review``'s kept form), every position's optimal moves included."""
    return json.dumps(
        [[m.move, m.before, m.after, list(m.best)] for m in moves], separators=(",", ":")
    )


def decode_review(value: str, moves: Sequence[int]) -> tuple[MoveReview, ...] | None:
    """The review of ``moves`` in ``value``; None unless it covers every move (a value that
    cannot be read is computed again)."""
    try:
        found = tuple(
            reviewed_move(ply, int(move), int(before), int(after), [int(m) for m in best])
            for ply, (move, before, after, best) in enumerate(json.loads(value))
        )
    except (ValueError, TypeError):
        return None
    if tuple(m.move for m in found) != tuple(moves):
        return None
    return found


@dataclass(frozen=True, slots=True)
class Verdict:
    """The solver's word on one move, for its player.

    Attributes:
        result: ``win``, ``draw``, ``loss`` (what the player can force after the move), or
            ``unknown`` where no proof is at hand.
        said: the same in words, with the moves left ("win in 7 moves").
        only: the move was the only optimal one of its position (other moves scored less).
        mistake: what the move threw away (``win_to_draw``, ``win_to_loss``,
            ``draw_to_loss``), or None.
        best: where it was a mistake, the optimal moves as players type them ("4, 5").
    """

    result: str
    said: Text
    only: bool = False
    mistake: str | None = None
    best: str = ""

    @property
    def whole(self) -> Lines:
        """The whole verdict in one line ("win in 7 moves, only move"), in any language."""
        parts = [self.said]
        if self.only:
            parts.append(Text("page.verdict.only"))
        if self.mistake is not None:
            mistake = Text(f"page.verdict.{self.mistake}")
            if self.best:
                mistake = Text("page.verdict.best", {"mistake": mistake, "best": self.best})
            parts.append(mistake)
        return Lines(tuple(parts), ", ")

    @property
    def known(self) -> bool:
        """Whether anything is said beyond "unknown" (a threat to block is)."""
        return self.said != UNKNOWN_TEXT

    @property
    def text(self) -> str:
        """:attr:`said` in English."""
        return self.said.render(ENGLISH)

    @property
    def words(self) -> str:
        """:attr:`whole` in English (the text export's)."""
        return self.whole.render(ENGLISH)


UNKNOWN_TEXT = Text("page.verdict.unknown")
UNKNOWN = Verdict("unknown", UNKNOWN_TEXT)


@dataclass(frozen=True, slots=True)
class Ply:
    """One move of the game: its number (1 for the first), the mark that played it, the move
    as players type it, the cell it filled, and its verdict."""

    number: int
    mark: str
    move: str
    cell: int
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a board shown: its mark (``""``, ``X``, ``O``), and whether it holds the
    move just played or lies on the winning line."""

    mark: str
    last: bool
    winning: bool


@dataclass(frozen=True, slots=True)
class Seat:
    """A player as the page shows them: name (``anonymous`` for a hidden player), mark, and
    the address of their player page (None for the bot, a hidden player, or a casual game)."""

    name: str
    mark: str
    path: str | None


@dataclass(frozen=True, slots=True)
class GamePage:
    """A finished game's page at one of its positions, its words as texts in any language.

    Attributes:
        public_id: the game's address (``/game/<public_id>``).
        title: the game's name ("Connect Four 6x7").
        seats: X, then O.
        result: how it ended, in words.
        score: ``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` (ended without a result).
        rated: whether it changed the players' ratings.
        clock: the clock in words ("1 minute per move"), or "none".
        started, finished: UTC, ``YYYY-MM-DD HH:MM``.
        plies: every move, in order.
        ply: the position shown: the moves played so far (0 for the empty board).
        board: the board at ``ply``, row by row from the top.
        columns: the column headers (letters; numbers under gravity).
        description: the board shown, in words (its text alternative).
        final: the final board, in words (the preview picture's alternative).
        verdicts: ``exact``, ``pending`` (computed on a later visit), ``threats`` (a board the
            solver cannot settle: what threats prove) or ``none`` (nothing proven).
    """

    public_id: str
    title: Text
    rules: Rules
    seats: tuple[Seat, Seat]
    result: Text
    score: str
    rated: bool
    clock: Text
    started: str
    finished: str
    plies: tuple[Ply, ...]
    ply: int
    board: tuple[tuple[Cell, ...], ...]
    columns: tuple[str, ...]
    description: Text
    final: Text
    verdicts: str

    @property
    def shown(self) -> Ply | None:
        """The move that led to the position shown (None at the start)."""
        return self.plies[self.ply - 1] if self.ply else None


def game_page(
    game: ArchivedGame,
    hidden: frozenset[str],
    review: Sequence[MoveReview] | None,
    ply: int | None,
    player_path: dict[str, str],
    threats: Sequence[Verdict] | None = None,
) -> GamePage:
    """The page of ``game`` at ``ply`` (clamped to the game; None: its end).

    Args:
        hidden: the identities that hid themselves (``/hide``).
        review: the solver's review of every move (None: not at hand); its ``best`` must list
            every position's optimal moves for "only move" (a ``/review`` kept in the chats
            lists them for mistakes alone, and then no move is called the only one).
        player_path: the address of each identity's player page.
        threats: on a board without the solver's verdicts, each move's as far as threats
            prove it (:func:`core.pages.threats.threat_verdicts`); None: every one unknown.
    """
    rules = game.rules
    seats = tuple(
        Seat(ANONYMOUS, mark, None)
        if seat.identity is not None and seat.identity in hidden
        else Seat(
            shown_name(seat.name),
            mark,
            player_path.get(seat.identity) if game.rated and seat.identity else None,
        )
        for seat, mark in zip(game.seats, MARKS, strict=True)
    )
    positions = [Position.start(rules)]
    for move in game.moves:
        positions.append(positions[-1].play(move))
    if has_verdicts(rules):
        verdicts = _verdicts(rules, game.moves, review, positions)
    elif threats is not None and len(threats) == len(game.moves):
        verdicts = list(threats)
    else:
        verdicts = [UNKNOWN] * len(game.moves)
    plies = tuple(
        Ply(
            n + 1,
            MARKS[n % 2],
            move_label(rules, move),
            _filled(positions[n], positions[n + 1]),
            verdicts[n],
        )
        for n, move in enumerate(game.moves)
    )
    shown = len(game.moves) if ply is None else max(0, min(ply, len(game.moves)))
    position = positions[shown]
    last = plies[shown - 1].cell if shown else None
    winning = frozenset(position.winning_line)
    board = tuple(
        tuple(
            Cell(
                ("", *MARKS)[position.cell(row, col)],
                row * rules.cols + col == last,
                row * rules.cols + col in winning,
            )
            for col in range(rules.cols)
        )
        for row in range(rules.rows)
    )
    columns = tuple(str(c + 1) if rules.gravity else COLUMN_LETTERS[c] for c in range(rules.cols))
    if has_verdicts(rules):
        state = "pending" if review is None else "exact"
    else:
        state = "none" if threats is None else "threats"
    return GamePage(
        public_id=game.public_id,
        title=game_name(rules),
        rules=rules,
        seats=(seats[0], seats[1]),
        result=result_words(game, (seats[0].name, seats[1].name)),
        score=score(game),
        rated=game.rated,
        clock=(
            Text("page.game.no_clock")
            if game.clock is None
            else Text("page.game.clock", {"clock": clock_text(game.clock)})
        ),
        started=utc_minute(game.started_at),
        finished=utc_minute(game.finished_at),
        plies=plies,
        ply=shown,
        board=board,
        columns=columns,
        description=board_text(rules, position),
        final=board_text(rules, positions[-1]),
        verdicts=state,
    )


def board_text(rules: Rules, position: Position) -> Text:
    """The board in words, naming every piece: by column from the bottom under gravity
    ("column 4: X, O"), else by coordinate ("X on a1, b2; O on c3"). The page's script
    (``adapters/web/static/game.js``) writes the same words for the boards it shows, from
    the same texts (the replay's ``data-`` attributes)."""
    parts: list[Text] = []
    if rules.gravity:
        for col in range(rules.cols):
            stack = [
                MARKS[position.cell(row, col) - 1]
                for row in reversed(range(rules.rows))
                if position.cell(row, col)
            ]
            if stack:
                parts.append(
                    Text("page.board.column", {"column": col + 1, "marks": ", ".join(stack)})
                )
        if not parts:
            return Text("page.board.empty")
        return Text("page.board.gravity", {"columns": Lines(tuple(parts), "; ")})
    marks: tuple[list[str], list[str]] = ([], [])
    for cell in range(rules.cells):
        row, col = divmod(cell, rules.cols)
        mark = position.cell(row, col)
        if mark:
            marks[mark - 1].append(cell_name(rules, cell))
    for letter, cells in zip(MARKS, marks, strict=True):
        if cells:
            parts.append(Text("page.board.marks", {"mark": letter, "cells": ", ".join(cells)}))
    if not parts:
        return Text("page.board.empty")
    return Text("page.board.free", {"marks": Lines(tuple(parts), "; ")})


def describe_board(rules: Rules, position: Position, locale: str = ENGLISH) -> str:
    """:func:`board_text` in ``locale``."""
    return board_text(rules, position).render(locale)


def result_words(game: ArchivedGame, names: tuple[str, str]) -> Text:
    """How the game ended, in words ("Alice (X) won: 3 in a row.")."""
    outcome = game.outcome
    if outcome.winner is None:
        if outcome.termination is Termination.DRAW:
            return Text("page.result.draw")
        if outcome.termination is Termination.ABANDONED:
            return Text("page.result.abandoned")
        return Text("page.result.stopped")
    winner = {"name": named(names[outcome.winner - 1]), "mark": MARKS[outcome.winner - 1]}
    params: dict[str, Param] = {
        "winner": Text("page.seat", winner),
        "loser": named(names[2 - outcome.winner]),
        "k": game.rules.k,
    }
    match outcome.termination:
        case Termination.WIN:
            return Text("page.result.win", params)
        case Termination.RESIGNATION:
            return Text("page.result.resigned", params)
        case Termination.TIMEOUT:
            return Text("page.result.timeout", params)
        case _:
            return Text("page.result.left", params)


def score(game: ArchivedGame) -> str:
    """The result as the export writes it: ``1-0``, ``0-1``, ``1/2-1/2`` (a draw on the
    board), ``*`` (ended without a result)."""
    outcome = game.outcome
    if outcome.winner is not None:
        return "1-0" if outcome.winner == 1 else "0-1"
    return "1/2-1/2" if outcome.termination is Termination.DRAW else "*"


def _verdicts(
    rules: Rules,
    moves: Sequence[int],
    review: Sequence[MoveReview] | None,
    positions: Sequence[Position],
) -> list[Verdict]:
    if review is None or len(review) != len(moves):
        return [UNKNOWN] * len(moves)
    found = []
    for reviewed, position in zip(review, positions, strict=False):
        result, plies = describe(reviewed.after, rules, reviewed.ply)
        if result is Result.DRAW:
            text = Text("page.verdict.draw")
        else:
            text = Text(f"page.verdict.{result.value}", {"moves": plies})
        only = (
            reviewed.best == (reviewed.move,)
            and len(position.legal_moves()) > 1
            and reviewed.mistake is None
        )
        mistake = None if reviewed.mistake is None else reviewed.mistake.value
        best = (
            ", ".join(move_label(rules, m) for m in reviewed.best)
            if reviewed.mistake is not None
            else ""
        )
        found.append(Verdict(result.value, text, only, mistake, best))
    return found


def _filled(before: Position, after: Position) -> int:
    """The cell the move from ``before`` to ``after`` filled."""
    cell = after.last_cell
    if cell is None:  # pragma: no cover - a move always fills a cell
        raise ValueError(f"no move between {before!r} and {after!r}")
    return cell


def utc_minute(seconds: float) -> str:
    """A time as the pages show it, in UTC to the minute: "2026-11-28 10:30"."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M")


def clock_words(seconds: float) -> str:
    """A clock's time per move in words: "45 s", "2 min", "1 h 30 min", "1 d"."""
    whole = round(seconds)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if whole >= size and whole % size == 0:
            return f"{whole // size} {unit}"
    if whole >= 3600:
        return f"{whole // 3600} h {whole % 3600 // 60} min"
    if whole >= 60:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole} s"


def export(page: GamePage, url: str) -> str:
    """The game as text (docs/web.md, "The text export"): tag lines, then the moves numbered
    by turn, each followed by its verdict in braces where the solver has one."""
    x, o = page.seats
    tags = [
        ("Game", page.title.render(ENGLISH)),
        ("Rules", _rules_words(page.rules)),
        ("X", x.name),
        ("O", o.name),
        ("Result", page.score),
        ("Ending", page.result.render(ENGLISH)),
        ("Rated", "yes" if page.rated else "no"),
        ("Clock", page.clock.render(ENGLISH)),
        ("Started", page.started + " UTC"),
        ("Finished", page.finished + " UTC"),
        ("Page", url),
    ]
    lines = [f'[{name} "{_quoted(value)}"]' for name, value in tags]
    moves: list[str] = []
    for ply in page.plies:
        if ply.number % 2 == 1:
            moves.append(f"{(ply.number + 1) // 2}.")
        moves.append(ply.move)
        if ply.verdict.result != "unknown":
            moves.append("{" + ply.verdict.words + "}")
    moves.append(page.score)
    return "\n".join([*lines, "", *_wrapped(moves, 79)]) + "\n"


def _rules_words(rules: Rules) -> str:
    drop = "pieces drop down the columns" if rules.gravity else "pieces go on any free cell"
    return f"{rules.rows} rows, {rules.cols} columns, {rules.k} in a row wins, {drop}"


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrapped(words: Sequence[str], width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines
