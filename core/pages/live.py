"""A game in progress as its live page shows it (:class:`LiveGame`), read from the store by
:class:`LiveReads`, and the games the home page lists (:class:`LiveEntry`).

Names are shown as the pages show them (:func:`core.pages.names.shown_name`; a player who hid
themselves with ``/hide`` is "anonymous", in the status line too), and nothing names the chat,
room or server the game is played in: a game is reached by its unguessable public id."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from core.games.rules import COLUMN_LETTERS
from core.i18n import Param, Text
from core.pages import live_ops
from core.pages.game import ENGLISH, board_text, game_name
from core.pages.names import ANONYMOUS, named, shown_name
from core.pages.paths import live_path
from core.render import cell_name, move_label
from core.replies import BoardView, PlayerView
from core.sessions.views import board_view
from core.store.models.session import Session, Status

if TYPE_CHECKING:
    from core.store.runner import SqlStore

MARKS = ("", "X", "O")
LISTED = 10
"""Live games the home page lists at most."""
_PUBLIC_ID = re.compile(r"[0-9a-f]{32}")

State = Literal["challenge", "active", "finished"]


@dataclass(frozen=True, slots=True)
class LiveGame:
    """A game as its live page shows it, at one version.

    Attributes:
        public_id: its address (``/live/<public_id>``).
        version: bumped by every change of the game (the page's event id).
        title: the game's name (``Connect Four 6x7``).
        players: X's and O's names as shown.
        board: the board to draw (its players named as shown, no user id; its ``status``:
            whose turn it is, or the result).
        state: ``challenge`` (not accepted yet), ``active`` or ``finished``.
        deadline: when the player to move runs out of time, with a clock; else None.
        moves: the moves so far as players type them (``4``, ``b2``), first to last.
        words: the board in words (its text alternative).
    """

    public_id: str
    version: int
    title: Text
    players: tuple[str, str]
    board: BoardView
    state: State
    deadline: float | None
    moves: tuple[str, ...]
    words: Text

    @property
    def status(self) -> str:
        """Whose turn it is, or the result, in English (the preview picture's caption)."""
        return self.board.status.render(ENGLISH)

    @property
    def text(self) -> str:
        """:attr:`words` in English."""
        return self.words.render(ENGLISH)

    @property
    def finished(self) -> bool:
        return self.state == "finished"

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns' labels, as players type them: numbers under gravity, else letters."""
        rules = self.board.rules
        if rules.gravity:
            return tuple(str(c + 1) for c in range(rules.cols))
        return tuple(COLUMN_LETTERS[: rules.cols])

    @property
    def to_move(self) -> str | None:
        """The mark to move (``X``, ``O``) while the game goes on."""
        return MARKS[self.board.to_move] if self.board.to_move else None


@dataclass(frozen=True, slots=True)
class LiveEntry:
    """A game the home page lists: its title, players as shown, moves so far, and its page."""

    title: Text
    players: tuple[str, str]
    moves: int
    path: str


def board_words(session: Session, board: BoardView, players: tuple[str, str]) -> Text:
    """The board's text alternative: who plays which mark, every piece as the game pages name
    them (:func:`core.pages.game.board_text`), and the winning line."""
    rules = session.rules
    params: dict[str, Param] = {
        "game": game_name(rules),
        "x": named(players[0]),
        "o": named(players[1]),
        "board": board_text(rules, session.position()),
    }
    line = [cell_name(rules, c.index) for c in board.cells if c.winning]
    if line:
        return Text("page.live.board_won", {**params, "line": ", ".join(line)})
    return Text("page.live.board", params)


def live_game(session: Session, hidden: frozenset[int]) -> LiveGame:
    """``session`` as its live page shows it; ``hidden``: the seats (1, 2) whose player hid
    themselves."""
    seats = tuple(
        replace(seat, name=ANONYMOUS if number in hidden else shown_name(seat.name))
        for number, seat in enumerate(session.seats, start=1)
    )
    shown = replace(session, seats=(seats[0], seats[1]))
    board = board_view(shown)
    names = (seats[0].name, seats[1].name)
    # The page shows no user id and not the short id that buttons carry: names alone.
    board = replace(
        board,
        session_id="",
        players=(
            PlayerView(names[0], None, board.players[0].level),
            PlayerView(names[1], None, board.players[1].level),
        ),
        starter=None,
        # A hidden player is "anonymous" in the reader's language, in the status line too.
        status=Text(
            board.status.key,
            {k: named(v) if isinstance(v, str) else v for k, v in board.status.params.items()},
        ),
    )
    state: State = (
        "challenge"
        if session.status is Status.CHALLENGE
        else "finished"
        if session.status is Status.FINISHED
        else "active"
    )
    return LiveGame(
        public_id=session.public_id,
        version=session.version,
        title=game_name(session.rules),
        players=names,
        board=board,
        state=state,
        deadline=board.deadline,
        moves=tuple(move_label(session.rules, m) for m in session.moves),
        words=board_words(session, board, names),
    )


def is_public_id(text: str) -> bool:
    """Whether ``text`` has the shape of a public id (32 lower-case hex digits)."""
    return _PUBLIC_ID.fullmatch(text) is not None


class LiveReads:
    """The live pages' reads of the store.

    Args:
        store: the store (both kinds).
    """

    def __init__(self, store: SqlStore) -> None:
        self._store = store

    async def game(self, public_id: str) -> LiveGame | None:
        """The game whose page is ``public_id``, or None (no such game, or not an id)."""
        if not is_public_id(public_id):
            return None
        found = await self._store.run(live_ops.live_session(public_id))
        return None if found is None else live_game(*found)

    async def versions(self, public_ids: tuple[str, ...]) -> dict[str, int]:
        """The stored version of each of ``public_ids`` (a game gone is left out)."""
        versions: dict[str, int] = {}
        for start in range(0, len(public_ids), live_ops.POLLED):
            chunk = public_ids[start : start + live_ops.POLLED]
            versions.update(await self._store.run(live_ops.live_versions(chunk)))
        return versions

    async def listed(self, size: int = LISTED) -> tuple[LiveEntry, ...]:
        """The games being played that the home page lists (see
        :func:`core.pages.live_ops.live_listed`), latest move first."""
        found = await self._store.run(live_ops.live_listed(size))
        entries = []
        for session, hidden in found:
            game = live_game(session, hidden)
            entries.append(
                LiveEntry(game.title, game.players, len(game.moves), live_path(game.public_id))
            )
        return tuple(entries)
