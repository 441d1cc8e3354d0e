"""An arena's pairing wave (core.pairing.arena): lichess's weighted matching, with blocks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.pairing.arena import FreePlayer, pair_wave


def players(*ratings: float) -> list[FreePlayer]:
    return [FreePlayer(f"p{i}", i + 1, r) for i, r in enumerate(ratings)]


def test_neighbours_in_rank_meet() -> None:
    assert pair_wave(players(1500, 1500, 1500, 1500)) == [("p0", "p1"), ("p2", "p3")]


def test_two_who_just_played_wait_for_someone_else() -> None:
    free = players(1500, 1500, 1500, 1500)
    assert pair_wave(free, just_played={("p1", "p0")}) == [("p0", "p2"), ("p1", "p3")]
    # alone together, they wait rather than play again at once
    assert pair_wave(free[:2], just_played={("p0", "p1")}) == []


def test_a_block_is_never_paired_either_way_or_as_a_callable() -> None:
    free = players(1500, 1500, 1500, 1500)
    assert pair_wave(free, blocked={("p1", "p0")}) == [("p0", "p2"), ("p1", "p3")]
    assert pair_wave(free, blocked=lambda a, b: {a, b} == {"p0", "p1"}) == [
        ("p0", "p2"),
        ("p1", "p3"),
    ]
    assert pair_wave(free[:2], blocked={("p0", "p1")}) == []


def test_nobody_plays_himself_nor_appears_twice() -> None:
    one = FreePlayer("a", 1, 1500)
    assert pair_wave([one, one]) == []
    assert pair_wave([one]) == []
    assert pair_wave([]) == []


def test_the_leaders_meet_each_other() -> None:
    # rank matters more than rating at the top: 1 meets 2 though 3's rating is closer
    free = [FreePlayer("a", 1, 2000), FreePlayer("b", 2, 1500), FreePlayer("c", 3, 2000)]
    free.append(FreePlayer("d", 4, 1500))
    assert pair_wave(free) == [("a", "b"), ("c", "d")]


def test_a_big_wave_pairs_everyone_by_neighbours_in_rank() -> None:
    free = players(*([1500.0] * 1000))
    pairs = pair_wave(free, just_played={("p500", "p501")})
    assert len(pairs) == 500
    # below the matched top, each takes the nearest allowed: p500 skips p501, who takes p502
    assert ("p500", "p502") in pairs and ("p501", "p503") in pairs
    assert ("p40", "p41") in pairs


def test_below_the_top_the_leftovers_find_anyone_allowed() -> None:
    # p40 has blocked his eight nearest: he still plays, farther down
    free = players(*([1500.0] * 60))
    blocked = {("p40", f"p{i}") for i in range(41, 50)} | {("p40", f"p{i}") for i in range(30, 40)}
    pairs = pair_wave(free, blocked=blocked)
    assert len(pairs) == 30
    assert not {frozenset(p) for p in pairs} & {frozenset(b) for b in blocked}


ids = st.integers(min_value=0, max_value=70).map(lambda i: f"p{i}")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(ids, st.integers(1, 50), st.floats(800, 2500)), max_size=60),
    st.sets(st.tuples(ids, ids), max_size=60),
    st.sets(st.tuples(ids, ids), max_size=30),
)
def test_every_wave_is_a_set_of_allowed_games_between_free_players(
    rows: list[tuple[str, int, float]],
    blocked: set[tuple[str, str]],
    just_played: set[tuple[str, str]],
) -> None:
    free = [FreePlayer(i, rank, rating) for i, rank, rating in rows]
    pairs = pair_wave(free, blocked=blocked, just_played=just_played)
    seated = [p for pair in pairs for p in pair]
    assert len(seated) == len(set(seated))  # nobody twice in a wave, nobody against himself
    assert set(seated) <= {p.id for p in free}  # every pair made of free players
    forbidden = {frozenset(p) for p in blocked | just_played}
    assert not {frozenset(pair) for pair in pairs} & forbidden
    # maximal: two players left free could not have played each other
    left = sorted({p.id for p in free} - set(seated))
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            assert frozenset((a, b)) in forbidden
