"""The rating update: against the library's published example and the paper's formulas, and its
promises (finite, a win never costs, the uncertainty shrinks, zero-sum where it is promised)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from core.ratings import NEW, PROVISIONAL_GAMES, Rating, format_delta, rate
from core.ratings.rating import LIMIT, SCALE, START

BETA = 25.0 / 6.0 * SCALE
TAU = 25.0 / 300.0 * SCALE

ratings = st.builds(
    Rating,
    rating=st.floats(min_value=-2000, max_value=5000),
    deviation=st.floats(min_value=1, max_value=350),
    games=st.integers(min_value=0, max_value=10_000),
)
winners = st.sampled_from([1, 2, None])


def test_the_library_gives_its_published_example() -> None:
    """openskill's README ("Limited Example"): two teams of new players, the first wins."""
    model = PlackettLuce()
    r = model.rating
    [[a, b], [x, y]] = model.rate([[r(), r()], [r(), r()]])
    assert a.mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert a.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert x.mu == pytest.approx(23.035705378196937, abs=1e-12)
    assert x.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert (a, x) == (b, y)


@given(ratings, ratings, winners)
def test_rate_is_the_library_default_model_scaled(a: Rating, b: Rating, winner: int | None) -> None:
    """Our 1500 ±350 scale is the library's tested defaults (mu 25, sigma 25/3) multiplied."""
    model = PlackettLuce(limit_sigma=True)
    ranks = {1: [0.0, 1.0], 2: [1.0, 0.0], None: [0.0, 0.0]}[winner]
    [[da], [db]] = model.rate(
        [
            [model.rating(mu=25 + (a.rating - START) / SCALE, sigma=a.deviation / SCALE)],
            [model.rating(mu=25 + (b.rating - START) / SCALE, sigma=b.deviation / SCALE)],
        ],
        ranks=ranks,
    )
    after = rate(a, b, winner).after
    for ours, theirs in zip(after, (da, db), strict=True):
        assert ours.rating == pytest.approx(START + (theirs.mu - 25) * SCALE, rel=1e-9, abs=1e-6)
        assert ours.deviation == pytest.approx(theirs.sigma * SCALE, rel=1e-9)


def _paper(a: Rating, b: Rating, score: float) -> tuple[float, float]:
    """Weng & Lin (JMLR 2011), Algorithm 1 for two players, written out by hand: seat 1's new
    mu and sigma (dynamics tau first, gamma = sigma / c, sigma never above its old value)."""
    var_a = a.deviation**2 + TAU**2
    var_b = b.deviation**2 + TAU**2
    c = math.sqrt(var_a + var_b + 2 * BETA**2)
    p = 1 / (1 + math.exp((b.rating - a.rating) / c))
    mu = a.rating + var_a / c * (score - p)
    delta = math.sqrt(var_a) / c * var_a / c**2 * p * (1 - p)
    sigma = math.sqrt(var_a) * math.sqrt(max(1 - delta, 1e-4))
    return mu, min(sigma, a.deviation)


@pytest.mark.parametrize(
    ("a", "b", "winner", "score"),
    [
        (NEW, NEW, 1, 1.0),
        (Rating(1400, 30), Rating(1550, 100), 1, 1.0),
        (Rating(1500, 200), Rating(1700, 300), 2, 0.0),
        (Rating(1200, 80), Rating(1900, 60), None, 0.5),
    ],
)
def test_the_update_is_the_papers(a: Rating, b: Rating, winner: int | None, score: float) -> None:
    mu, sigma = _paper(a, b, score)
    first = rate(a, b, winner).after[0]
    assert first.rating == pytest.approx(mu, rel=1e-12)
    assert first.deviation == pytest.approx(sigma, rel=1e-12)


def test_a_first_game_between_new_players() -> None:
    change = rate(NEW, NEW, 1)
    assert [round(r.rating, 2) for r in change.after] == [1610.69, 1389.31]
    assert [round(r.deviation, 2) for r in change.after] == [338.77, 338.77]
    assert [r.games for r in change.after] == [1, 1]
    assert [format_delta(d) for d in change.deltas] == ["+111", "-111"]


any_ratings = st.builds(
    Rating,
    rating=st.floats(min_value=-LIMIT, max_value=LIMIT),
    deviation=st.floats(min_value=1e-6, max_value=1e6),
    games=st.integers(min_value=0),
)


@given(any_ratings, any_ratings, winners)
def test_ratings_stay_finite_and_games_count(a: Rating, b: Rating, winner: int | None) -> None:
    """Whatever is stored, even far beyond what play reaches."""
    change = rate(a, b, winner)
    for before, after in zip(change.before, change.after, strict=True):
        assert math.isfinite(after.rating)
        assert math.isfinite(after.deviation) and after.deviation > 0
        assert after.games == before.games + 1


@given(ratings, ratings, st.sampled_from([1, 2]))
def test_a_win_never_lowers_the_winner_nor_raises_the_loser(a: Rating, b: Rating, w: int) -> None:
    deltas = rate(a, b, w).deltas
    assert deltas[w - 1] >= 0
    assert deltas[2 - w] <= 0


@given(ratings, ratings)
def test_a_draw_moves_both_towards_each_other(a: Rating, b: Rating) -> None:
    first, second = rate(a, b, None).deltas
    if a.rating < b.rating:
        assert first >= 0 >= second
    elif a.rating > b.rating:
        assert first <= 0 <= second
    else:
        assert first == pytest.approx(0, abs=1e-9) and second == pytest.approx(0, abs=1e-9)


@given(ratings, ratings, winners)
def test_changes_are_opposite_and_weighted_by_each_players_variance(
    a: Rating, b: Rating, winner: int | None
) -> None:
    """Not zero-sum in general (the model does not promise it): each change is the common
    surprise times the player's own variance after the dynamics step."""
    first, second = rate(a, b, winner).deltas
    weight_a = a.deviation**2 + TAU**2
    weight_b = b.deviation**2 + TAU**2
    assert first * weight_b == pytest.approx(-second * weight_a, rel=1e-9, abs=1e-6)


@given(
    st.floats(min_value=-2000, max_value=5000),
    st.floats(min_value=-2000, max_value=5000),
    st.floats(min_value=1, max_value=350),
    winners,
)
def test_zero_sum_when_both_are_as_certain(
    rating_a: float, rating_b: float, deviation: float, winner: int | None
) -> None:
    deltas = rate(Rating(rating_a, deviation), Rating(rating_b, deviation), winner).deltas
    assert sum(deltas) == pytest.approx(0, abs=1e-9 * max(1.0, *map(abs, deltas)))


@given(ratings, ratings, winners)
def test_a_game_never_makes_a_rating_less_certain(a: Rating, b: Rating, w: int | None) -> None:
    change = rate(a, b, w)
    for before, after in zip(change.before, change.after, strict=True):
        assert after.deviation <= before.deviation


@given(
    st.lists(
        st.tuples(st.floats(min_value=1000, max_value=2000), winners), min_size=10, max_size=100
    )
)
def test_the_deviation_shrinks_with_games(games: list[tuple[float, int | None]]) -> None:
    """A new player's deviation falls with every game against settled opponents between 1000
    and 2000, whatever the results. After ten games it is below 85% of the start: the worst of
    every sequence of ten wins and losses against 1000 and 2000 leaves 80.0%."""
    player = NEW
    for opponent, winner in games:
        after = rate(player, Rating(opponent, 150, 50), winner).after[0]
        assert after.deviation < player.deviation
        player = after
    assert player.deviation < 0.85 * NEW.deviation


def test_provisional_until_ten_games_then_shown_with_its_deviation() -> None:
    assert PROVISIONAL_GAMES == 10
    assert NEW.provisional and NEW.display() == "1500?"
    assert Rating(1623.4, 120.6, 9).display() == "1623?"
    settled = Rating(1623.4, 120.6, 10)
    assert not settled.provisional
    assert settled.display() == str(settled) == "1623 ±121"


def test_format_delta() -> None:
    assert [format_delta(d) for d in (15.6, -4.4, 0.4, -0.4, 0.0)] == [
        "+16",
        "-4",
        "±0",
        "±0",
        "±0",
    ]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rating": math.nan}, "rating must be finite and within ±100000, got nan"),
        ({"rating": math.inf}, "rating must be finite and within ±100000, got inf"),
        ({"rating": -100_001.0}, "rating must be finite and within ±100000, got -100001.0"),
        ({"deviation": 0.0}, "deviation must be finite and above 0, got 0.0"),
        ({"deviation": -3.0}, "deviation must be finite and above 0, got -3.0"),
        ({"games": -1}, "games must be a whole number of at least 0, got -1"),
        ({"games": True}, "games must be a whole number of at least 0, got True"),
    ],
)
def test_bad_ratings_are_refused_clearly(fields: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        Rating(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("winner", [0, 3, True, "1"])
def test_a_bad_winner_is_refused_clearly(winner: object) -> None:
    with pytest.raises(ValueError, match="winner must be 1, 2 or None"):
        rate(NEW, NEW, winner)  # type: ignore[arg-type]
