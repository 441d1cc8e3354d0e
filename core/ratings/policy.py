"""Which finished games are rated: one pure decision, with every reason a game is not.

The wiring is meant to be: at the end of a game, the service gathers these facts from the
session, the chat's settings and the store (how many rated games the same two players have
finished in the last 24 hours) and calls :func:`is_rated` in the transaction that records the
result; a rated game then goes through :func:`core.ratings.rating.rate`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from core.games import Termination

PAIR_LIMIT = 3
"""Rated games of the same two players in 24 hours; the ones after are casual.

A few, so that friends' rematches count, but one person with a second account cannot farm
points: tic-tac-toe games take seconds. A rolling 24 hours rather than a calendar day, so no
time zone decides it and the store can count it with one index on (pair, finished at).
"""

MIN_MOVES = 2
"""A game that ended before both players had moved is not rated (lichess "aborts" them).

Nobody played: a challenge accepted by mistake, a player who never came back. Their opponent
is not rewarded for it and nobody loses points over it; a game decided on the board always
has more moves than this.
"""


RATED_ENDINGS = frozenset(
    {Termination.WIN, Termination.DRAW, Termination.RESIGNATION, Termination.TIMEOUT}
)
"""Endings that can be rated: a resignation and a timeout are losses like any other; an abandoned
or stopped game has no result to rate."""


class Unrated(enum.Enum):
    """Why a game is not rated; the values are stable (stored with the game, shown in /review)."""

    NOT_PEOPLE = "not_people"  # the bot played a seat, or it was a bots' game
    SAME_PLAYER = "same_player"  # one person on both seats (linked accounts count as one)
    CASUAL = "casual"  # started with the `casual` option
    CHAT_OFF = "chat_off"  # the chat does not allow rated play (its setting)
    ENDING = "ending"  # abandoned or stopped: no result to rate
    TOO_SHORT = "too_short"  # ended before both players had moved
    PAIR_LIMIT = "pair_limit"  # the same pair already had PAIR_LIMIT rated games in 24 hours


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a game is rated, and if not, every reason (in the order of :class:`Unrated`)."""

    reasons: tuple[Unrated, ...]

    @property
    def rated(self) -> bool:
        return not self.reasons


def is_rated(
    *,
    ending: Termination,
    people: tuple[bool, bool],
    players: tuple[str, str],
    casual: bool,
    chat_allows_rated: bool,
    moves: int,
    pair_games_24h: int,
    pair_limit: int = PAIR_LIMIT,
) -> Verdict:
    """Whether a finished game changes ratings.

    Args:
        ending: how it ended.
        people: whether each seat was a person (False for the bot, at any level).
        players: each seat's identity after linking (a Discord and a Matrix account that the
            person linked are one identity), to refuse a game against oneself.
        casual: the game was started with the ``casual`` option.
        chat_allows_rated: the chat's rated-play setting (on by default). With seats in two
            chats, both must allow it.
        moves: moves played in the game.
        pair_games_24h: rated games the same two players finished in the 24 hours before this
            one ended, whichever seat each had and in any chat.
        pair_limit: the most rated games of a pair in 24 hours.

    Returns:
        The verdict, with all the reasons that apply.

    Raises:
        ValueError: a negative count.
    """
    if moves < 0 or pair_games_24h < 0 or pair_limit < 0:
        raise ValueError(
            f"counts must be at least 0, got moves={moves!r}, pair_games_24h={pair_games_24h!r},"
            f" pair_limit={pair_limit!r}"
        )
    checks = {
        Unrated.NOT_PEOPLE: not all(people),
        Unrated.SAME_PLAYER: players[0] == players[1],
        Unrated.CASUAL: casual,
        Unrated.CHAT_OFF: not chat_allows_rated,
        Unrated.ENDING: ending not in RATED_ENDINGS,
        Unrated.TOO_SHORT: moves < MIN_MOVES,
        Unrated.PAIR_LIMIT: pair_games_24h >= pair_limit,
    }
    return Verdict(tuple(reason for reason in Unrated if checks[reason]))


def pair_key(first: str, second: str) -> tuple[str, str]:
    """The two identities of a game in a fixed order, to count a pair's games either way round."""
    return (first, second) if first <= second else (second, first)
