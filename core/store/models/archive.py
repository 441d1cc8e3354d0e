"""A finished game as the archive keeps it (:mod:`core.store.archive`): plain values."""

from __future__ import annotations

from dataclasses import dataclass

from core.games import Outcome, Rules


@dataclass(frozen=True, slots=True)
class ArchivedSeat:
    """One side of an archived game: the name it played under, and who it was: a person's
    identity (as the ratings know it: ``platform:user`` or a linked one), or the bot's level."""

    name: str
    identity: str | None
    level: str | None


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """A finished game, kept for its web page after its session is gone.

    Attributes:
        public_id: the game's address on the pages (``Session.public_id``).
        session_id: the session it was (to join the rating log's rows; never shown).
        seats: X (played first), then O.
        moves: every move, 0-based (cells, or columns under gravity).
        outcome: how it ended.
        rated: whether its result changed the players' ratings.
        clock: seconds each player had per move, or None: no clock.
        started_at, finished_at: seconds since the epoch (the session's creation, its end).
        listed: whether a page may link it (never a game from a direct chat or a room that may
            be private); an unlisted game is reached only by its address.
        analysis: the solver's analysis kept with it (:mod:`core.pages.verdicts`' text), or
            None until it is computed.
    """

    public_id: str
    session_id: str
    rules: Rules
    seats: tuple[ArchivedSeat, ArchivedSeat]
    moves: tuple[int, ...]
    outcome: Outcome
    rated: bool
    clock: float | None
    started_at: float
    finished_at: float
    listed: bool
    analysis: str | None = None
