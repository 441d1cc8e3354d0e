"""Which games are rated: people only, not casual, not abandoned, not too short, not farmed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.games import Termination
from core.ratings import PAIR_LIMIT, Unrated, is_rated, pair_key

RATED: dict[str, Any] = {
    "ending": Termination.WIN,
    "people": (True, True),
    "players": ("discord:alice", "matrix:@bob:example.org"),
    "casual": False,
    "chat_allows_rated": True,
    "moves": 9,
    "pair_games_24h": 0,
}


def test_a_game_between_two_people_is_rated() -> None:
    verdict = is_rated(**RATED)
    assert verdict.rated and verdict.reasons == ()


@pytest.mark.parametrize(
    "ending", [Termination.WIN, Termination.DRAW, Termination.RESIGNATION, Termination.TIMEOUT]
)
def test_resignations_timeouts_and_draws_are_rated(ending: Termination) -> None:
    assert is_rated(**{**RATED, "ending": ending}).rated


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"people": (True, False)}, Unrated.NOT_PEOPLE),
        ({"people": (False, True)}, Unrated.NOT_PEOPLE),
        ({"people": (False, False)}, Unrated.NOT_PEOPLE),
        ({"players": ("discord:alice", "discord:alice")}, Unrated.SAME_PLAYER),
        ({"casual": True}, Unrated.CASUAL),
        ({"chat_allows_rated": False}, Unrated.CHAT_OFF),
        ({"ending": Termination.ABANDONED}, Unrated.ENDING),
        ({"ending": Termination.STOPPED}, Unrated.ENDING),
        ({"moves": 0, "ending": Termination.RESIGNATION}, Unrated.TOO_SHORT),
        ({"moves": 1, "ending": Termination.TIMEOUT}, Unrated.TOO_SHORT),
        ({"pair_games_24h": PAIR_LIMIT}, Unrated.PAIR_LIMIT),
        ({"pair_games_24h": PAIR_LIMIT + 7}, Unrated.PAIR_LIMIT),
    ],
)
def test_each_reason_alone_makes_a_game_unrated(change: dict[str, Any], reason: Unrated) -> None:
    verdict = is_rated(**{**RATED, **change})
    assert not verdict.rated
    assert verdict.reasons == (reason,)


def test_the_pair_limit_counts_rated_games_before_this_one() -> None:
    assert PAIR_LIMIT == 3
    verdicts = [is_rated(**{**RATED, "pair_games_24h": n}).rated for n in range(6)]
    assert verdicts == [True, True, True, False, False, False]
    assert is_rated(**{**RATED, "pair_games_24h": 4, "pair_limit": 5}).rated


def test_every_reason_is_given_in_a_fixed_order() -> None:
    verdict = is_rated(
        ending=Termination.ABANDONED,
        people=(True, False),
        players=("a", "a"),
        casual=True,
        chat_allows_rated=False,
        moves=0,
        pair_games_24h=PAIR_LIMIT,
    )
    assert verdict.reasons == tuple(Unrated)


@given(
    st.sampled_from(Termination),
    st.tuples(st.booleans(), st.booleans()),
    st.tuples(st.sampled_from("ab"), st.sampled_from("ab")),
    st.booleans(),
    st.booleans(),
    st.integers(min_value=0, max_value=50),
    st.integers(min_value=0, max_value=10),
)
def test_rated_exactly_when_no_rule_objects(
    ending: Termination,
    people: tuple[bool, bool],
    players: tuple[str, str],
    casual: bool,
    allowed: bool,
    moves: int,
    pair_games: int,
) -> None:
    verdict = is_rated(
        ending=ending,
        people=people,
        players=players,
        casual=casual,
        chat_allows_rated=allowed,
        moves=moves,
        pair_games_24h=pair_games,
    )
    expected = (
        all(people)
        and players[0] != players[1]
        and not casual
        and allowed
        and ending
        in {Termination.WIN, Termination.DRAW, Termination.RESIGNATION, Termination.TIMEOUT}
        and moves >= 2
        and pair_games < PAIR_LIMIT
    )
    assert verdict.rated == expected
    assert verdict.rated == (verdict.reasons == ())


@pytest.mark.parametrize("field", ["moves", "pair_games_24h", "pair_limit"])
def test_negative_counts_are_refused_clearly(field: str) -> None:
    with pytest.raises(ValueError, match=f"counts must be at least 0, got .*{field}=-1"):
        is_rated(**{**RATED, field: -1})


def test_the_endings_are_the_stored_terminations() -> None:
    """Ratings take ``core.games.Termination`` itself (no copy of it to keep in step): the values
    the sessions store (DESIGN.md), and only the ones with a result are rated."""
    assert [e.value for e in Termination] == [
        "win",
        "draw",
        "resignation",
        "timeout",
        "abandoned",
        "stopped",
    ]
    rated = {e for e in Termination if is_rated(**{**RATED, "ending": e}).rated}
    assert rated == set(Termination) - {Termination.ABANDONED, Termination.STOPPED}


def test_a_pair_is_the_same_either_way_round() -> None:
    assert pair_key("bob", "alice") == pair_key("alice", "bob") == ("alice", "bob")


DAY = 24 * 3600


@given(
    st.lists(
        st.tuples(
            st.sampled_from([("a", "b"), ("b", "a"), ("a", "c"), ("c", "b")]),
            st.integers(min_value=0, max_value=DAY // 2),
        ),
        max_size=60,
    )
)
def test_no_pair_has_more_than_the_limit_in_any_24_hours(
    games: list[tuple[tuple[str, str], int]],
) -> None:
    """Counted as the store will: rated games of the same pair (either seat order) that ended
    in the 24 hours before this one."""
    now = 0
    rated: list[tuple[tuple[str, str], int]] = []
    for players, gap in games:
        now += gap
        pair = pair_key(*players)
        recent = sum(1 for p, at in rated if p == pair and now - at < DAY)
        if is_rated(**{**RATED, "players": players, "pair_games_24h": recent}).rated:
            rated.append((pair, now))
    for pair, start in rated:
        window = [at for p, at in rated if p == pair and start <= at < start + DAY]
        assert len(window) <= PAIR_LIMIT
