"""One player's rating in one pool, and the update after a rated game between two players.

The rating library is OpenSkill (``openskill`` on PyPI, MIT): its Weng-Lin Bayesian model
(Weng & Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12, 2011), Plackett-Luce
variant, the library's default. Why it, and not the ``glicko2`` package (also MIT), though
Glicko-2 is the classic system of two-player board games (lichess):

- ``glicko2`` 2.1.0 (January 2024, a port of a 2009 script) computes the volatility with the
  player's rating where Glickman's step 5 takes the deviation (``_f`` uses mu squared for phi
  squared). At 1500 mu is 0, so its own test and Glickman's example pass, and every other
  player's volatility is wrong (a 2100 player who loses five games of a rating period to a
  1500 player: 0.06004 instead of the 0.06030 of the paper's algorithm). It has no type hints
  and keeps its state in a mutable class.
- ``openskill`` 6.2.0 (January 2026) is maintained, typed (``py.typed``), compiled with mypyc
  (a rate takes microseconds: ``python -m benchmarks ratings``), 100% covered by its own
  tests, and handles draws. For two players its Plackett-Luce model is the Bradley-Terry
  update: the logistic model of a game that Glicko uses too. It keeps an uncertainty (sigma)
  per player, shown here as the deviation ("1623 ±120", "1500?").

Scale: the library's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) multiplied by 42 and
moved to 1500, so a new player starts at 1500 ±350 like a new Glicko player. Weng-Lin is
invariant under that change (every formula is a ratio of the scaled quantities, and only
differences of mu count), so the library's tuning holds as tested. A rating has no volatility
of its own: the library's equivalent is tau, one constant of the model that keeps the deviation
from collapsing. ``limit_sigma`` is on: a game never makes a rating less certain.

Zero-sum: not promised. Each player's change is scaled by their own variance, so a new player
moves more than a settled one; the two changes have opposite signs and sum to zero exactly when
both deviations are equal (tests/core/ratings/test_rating.py checks both).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from openskill.models import PlackettLuce

START = 1500.0
"""A new player's rating."""
SCALE = 42.0
"""How many rating points one unit of the library's default scale is."""
START_DEVIATION = 25.0 / 3.0 * SCALE  # 350, as Glicko's new player
PROVISIONAL_GAMES = 10
"""A rating is provisional ("1500?") until this many rated games.

Counted in games rather than by a deviation threshold: the issue promises "about 10 rated games",
players understand a count ("play 10 rated games"), a ladder filters it with an index on an
integer column, and it does not depend on the opponents. With this model a threshold would
come after about 10 games against settled players but about 20 against new ones.
"""

LIMIT = 100_000.0
"""Ratings lie within ±LIMIT. Play cannot come near it (a game moves a rating by at most about
500 points at the starting deviation, and less the further apart the players are); the bound
keeps corrupt stored values away from the library, which computes exp(rating / c) from each
rating itself and would overflow past about 175,000."""

# One model for every rating: its parameters are constants. Never pass ``limit_sigma`` to its
# ``rate``: the library keeps it on the model for every later call when given.
_MODEL = PlackettLuce(
    mu=START,
    sigma=START_DEVIATION,
    beta=25.0 / 6.0 * SCALE,
    tau=25.0 / 300.0 * SCALE,
    limit_sigma=True,
)


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one pool.

    Args:
        rating: the estimate of the player's strength (the model's mu), 1500 to start.
        deviation: its uncertainty, one standard deviation (the model's sigma), 350 to start.
        games: rated games played in this pool.

    Raises:
        ValueError: a rating not finite or beyond ±LIMIT, a deviation not finite or not above 0,
            games not a whole number of at least 0.
    """

    rating: float = START
    deviation: float = START_DEVIATION
    games: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.rating) and -LIMIT <= self.rating <= LIMIT):
            raise ValueError(f"rating must be finite and within ±{LIMIT:.0f}, got {self.rating!r}")
        if not (math.isfinite(self.deviation) and self.deviation > 0):
            raise ValueError(f"deviation must be finite and above 0, got {self.deviation!r}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 0:
            raise ValueError(f"games must be a whole number of at least 0, got {self.games!r}")

    @property
    def provisional(self) -> bool:
        """True until the player has played ``PROVISIONAL_GAMES`` rated games in this pool."""
        return self.games < PROVISIONAL_GAMES

    def display(self) -> str:
        """As players see it: "1500?" while provisional, else with its deviation: "1623 ±120"."""
        if self.provisional:
            return f"{round(self.rating)}?"
        return f"{round(self.rating)} ±{round(self.deviation)}"

    def __str__(self) -> str:
        return self.display()


NEW = Rating()
"""The rating of a player who has played no rated game in a pool."""


@dataclass(frozen=True, slots=True)
class RatingChange:
    """Both players' ratings before and after one rated game, in seat order (first, second)."""

    before: tuple[Rating, Rating]
    after: tuple[Rating, Rating]

    @property
    def deltas(self) -> tuple[float, float]:
        """How much each seat's rating moved: what a rated game stores and shows."""
        return (
            self.after[0].rating - self.before[0].rating,
            self.after[1].rating - self.before[1].rating,
        )


def format_delta(delta: float) -> str:
    """A rating change as players read it: "+16", "-4", "±0" (rounded to whole points)."""
    points = round(delta)
    if points == 0:
        return "±0"
    return f"{points:+d}"


def rate(first: Rating, second: Rating, winner: int | None) -> RatingChange:
    """Both players' new ratings after a rated game.

    Args:
        first: the rating of the player in seat 1 (who moved first).
        second: the rating of the player in seat 2.
        winner: 1 or 2, the seat that won, or None for a draw. A resignation and a timeout are
            losses of the player who resigned or ran out of time: pass the other seat, as the
            stored ``Outcome(termination, winner)`` already does. Whether a game is rated at
            all (abandoned, casual, bots) is :func:`core.ratings.policy.is_rated`'s question.

    Returns:
        The change, with ``games`` counted up for both.

    Raises:
        ValueError: ``winner`` is not 1, 2 or None.
    """
    if winner not in (1, 2, None) or isinstance(winner, bool):
        raise ValueError(f"winner must be 1, 2 or None, got {winner!r}")
    # Plackett-Luce ranks: lower is better, equal ranks are a draw.
    ranks = [0.0, 0.0] if winner is None else ([0.0, 1.0] if winner == 1 else [1.0, 0.0])
    teams = [
        [_MODEL.rating(mu=first.rating, sigma=first.deviation)],
        [_MODEL.rating(mu=second.rating, sigma=second.deviation)],
    ]
    [[a], [b]] = _MODEL.rate(teams, ranks=ranks)
    return RatingChange(
        before=(first, second),
        after=(
            Rating(_bounded(a.mu), a.sigma, first.games + 1),
            Rating(_bounded(b.mu), b.sigma, second.games + 1),
        ),
    )


def _bounded(rating: float) -> float:
    return min(max(rating, -LIMIT), LIMIT)
