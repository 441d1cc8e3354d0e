"""Puzzles in the store, on both stores: attempts that survive a restart and end once, the
rating of the player against the puzzle written with the end, streaks by UTC day, the ladder,
and a ``/link`` that carries it all (issue 35)."""

from __future__ import annotations

import asyncio

import pytest

from core.ai import solver
from core.puzzles import answer as answer_module
from core.puzzles import lines, refutations, shipped
from core.puzzles.answer import Attempt, Verdict, answer
from core.puzzles.puzzle import from_line, to_line
from core.puzzles.rating import after_attempt, of_difficulty
from core.puzzles.streak import Streak
from core.ratings import Rating
from core.store import links, puzzles
from core.store.models import Linked
from core.store.models.puzzles import AttemptStatus, PuzzleResult, StoredAttempt
from tests.backends import Backend
from tests.core.store.helpers import NOW

DAY = 20_000  # a day number


async def finish(
    store: object,
    user: str,
    puzzle: str,
    solved: bool,
    *,
    platform: str = "test",
    day: int = DAY,
) -> PuzzleResult:
    run = store.run  # type: ignore[attr-defined]
    started = await run(
        puzzles.start_attempt(f"a-{user}-{puzzle}", platform, "c", user, puzzle, NOW)
    )
    status = AttemptStatus.SOLVED if solved else AttemptStatus.FAILED
    result = await run(
        puzzles.answered(started, (3,), status, difficulty=1200, day=day, name=user, now=NOW)
    )
    assert isinstance(result, PuzzleResult)
    return result


async def test_an_attempt_keeps_its_moves_and_ends_once_rated(backend: Backend) -> None:
    async with backend.open() as store:
        started = await store.run(puzzles.start_attempt("a1", "test", "c", "alice", "p1", NOW))
        assert started == StoredAttempt(
            "a1", "test:alice", "p1", "test", "c", "alice", (), AttemptStatus.GOING, 0, NOW
        )
        going = await store.run(
            puzzles.answered(
                started, (3, 4), AttemptStatus.GOING, difficulty=1200, day=DAY, name="A", now=NOW
            )
        )
        assert going is True
    async with backend.open() as store:  # a restart
        current = await store.run(puzzles.current_attempt("test", "c", "alice"))
        assert current is not None and current.played == (3, 4) and current.version == 1
        # an answer to the board as it was before (version 0) is refused
        assert (
            await store.run(
                puzzles.answered(
                    started, (2,), AttemptStatus.SOLVED, difficulty=1200, day=DAY, name="A", now=NOW
                )
            )
            is False
        )
        result = await store.run(
            puzzles.answered(
                current,
                (3, 4, 5),
                AttemptStatus.SOLVED,
                difficulty=1200,
                day=DAY,
                name="A",
                now=NOW,
            )
        )
        expected = after_attempt(Rating(), of_difficulty(1200), True)
        assert result == PuzzleResult(expected.before[0], expected.after[0], Streak(1, 1, DAY))
        # answering again once it ended: refused, nothing counted twice
        again = await store.run(puzzles.attempt_of("a1"))
        assert again is not None and again.status is AttemptStatus.SOLVED
        assert (
            await store.run(
                puzzles.answered(
                    again, (1,), AttemptStatus.FAILED, difficulty=1200, day=DAY, name="A", now=NOW
                )
            )
            is False
        )
        player = await store.run(puzzles.player_of("test", "alice"))
        assert player is not None and player.solved == 1 and player.rating == expected.after[0]
        assert await store.run(puzzles.puzzle_ratings()) == {"p1": expected.after[1]}


async def test_a_puzzle_is_tried_once_per_person(backend: Backend) -> None:
    async with backend.open() as store:
        first = await store.run(puzzles.start_attempt("a1", "test", "c1", "alice", "p1", NOW))
        again = await store.run(puzzles.start_attempt("a2", "test", "c2", "alice", "p1", NOW + 5))
        # the same attempt, now current in the second chat
        assert again.id == first.id and again.chat_id == "c2"
        assert await store.run(puzzles.current_attempt("test", "c2", "alice")) == again
        assert await store.run(puzzles.attempted("test", "alice")) == {"p1"}


async def test_two_answers_at_once_apply_one(backend: Backend) -> None:
    async with backend.open() as store:
        started = await store.run(puzzles.start_attempt("a1", "test", "c", "alice", "p1", NOW))
        results = await asyncio.gather(
            *(
                store.run(
                    puzzles.answered(
                        started,
                        (move,),
                        AttemptStatus.SOLVED,
                        difficulty=1200,
                        day=DAY,
                        name="A",
                        now=NOW,
                    )
                )
                for move in range(6)
            )
        )
        assert sum(isinstance(r, PuzzleResult) for r in results) == 1
        assert results.count(False) == 5
        player = await store.run(puzzles.player_of("test", "alice"))
        assert player is not None and player.rating.games == 1 and player.solved == 1


async def test_streaks_count_days_in_a_row(backend: Backend) -> None:
    async with backend.open() as store:
        assert (await finish(store, "alice", "p1", True, day=DAY)).streak == Streak(1, 1, DAY)
        assert (await finish(store, "alice", "p2", True, day=DAY)).streak == Streak(1, 1, DAY)
        assert (await finish(store, "alice", "p3", True, day=DAY + 1)).streak.days == 2
        # a failure neither breaks nor extends it
        assert (await finish(store, "alice", "p4", False, day=DAY + 2)).streak.days == 2
        assert (await finish(store, "alice", "p5", True, day=DAY + 4)).streak == Streak(
            1, 2, DAY + 4
        )


async def test_the_ladder_lists_settled_solvers_best_first(backend: Backend) -> None:
    async with backend.open() as store:
        for n in range(10):
            await finish(store, "alice", f"p{n}", True)
            await finish(store, "bob", f"p{n}", n % 2 == 0)
        await finish(store, "carol", "p0", True)  # provisional: not listed
        listed = await store.run(puzzles.top())
        assert [p.identity for p in listed] == ["test:alice", "test:bob"]
        assert listed[0].solved == 10 and listed[0].name == "alice"


async def test_a_link_carries_rating_streak_and_attempts(backend: Backend) -> None:
    async with backend.open() as store:
        for n in range(3):
            await finish(store, "alice", f"p{n}", True, day=DAY + n)
        await finish(store, "alix", "p0", False, platform="other", day=DAY)
        await finish(store, "alix", "p9", True, platform="other", day=DAY + 3)
        going = await store.run(puzzles.start_attempt("g", "other", "c", "alix", "p7", NOW))
        alice = await store.run(puzzles.player_of("test", "alice"))
        assert alice is not None
        await store.run(links.link_code("CODE", "test", "alice", NOW + 600))
        assert await store.run(links.link("CODE", "other", "alix", NOW)) is Linked.LINKED
        for platform, user in (("test", "alice"), ("other", "alix")):
            player = await store.run(puzzles.player_of(platform, user))
            assert player is not None
            assert player.identity == "test:alice"
            assert player.rating == alice.rating  # from more attempts
            assert player.solved == 4
            # alice's streak of three days and alix's solve the day after: one streak of 4
            assert player.streak == Streak(4, 4, DAY + 3)
        assert await store.run(puzzles.attempted("test", "alice")) == {"p0", "p1", "p2", "p7", "p9"}
        moved = await store.run(puzzles.attempt_of(going.id))
        assert moved is not None and moved.identity == "test:alice"
        # the next solve on either account extends the one streak
        result = await finish(store, "alix", "p8", True, platform="other", day=DAY + 4)
        assert result.streak == Streak(5, 5, DAY + 4)
        assert await store.run(puzzles.player_of("other", "alix")) is not None
        rows = await backend.sql("SELECT count(*) FROM puzzle_players")
        assert rows == [(1,)]


async def test_a_chats_daily_post_is_claimed_once_a_day(backend: Backend) -> None:
    async with backend.open() as store:
        claims = await asyncio.gather(
            *(store.run(puzzles.claim_post("test", "c", DAY, NOW)) for _ in range(5))
        )
        assert claims.count(True) == 1
        assert await store.run(puzzles.claim_post("test", "c", DAY - 1, NOW)) is False
        assert await store.run(puzzles.claim_post("test", "c", DAY + 1, NOW)) is True


ADDED = "60e71c3c33,win,6x7/4,3754224275277253246,4,3,1360"  # made by the generator, seed 5


async def test_added_puzzles_are_kept_once_and_offered_beside_the_shipped(
    backend: Backend,
) -> None:
    shipped_one = shipped.connect_four()[0]
    async with backend.open() as store:
        assert await store.run(puzzles.added_puzzles()) == []
        assert await store.run(puzzles.puzzle_of("60e71c3c33")) is None
        assert await store.run(puzzles.add_puzzles([("60e71c3c33", ADDED)], NOW)) == 1
    async with backend.open() as store:  # a restart
        rows = [("60e71c3c33", ADDED), (shipped_one.id, to_line(shipped_one))]
        assert await store.run(puzzles.add_puzzles(rows, NOW)) == 1  # the first was there
        assert await store.run(puzzles.added_puzzles()) == sorted([ADDED, to_line(shipped_one)])
        assert await store.run(puzzles.puzzle_of("60e71c3c33")) == from_line(ADDED)
        assert await store.run(puzzles.puzzle_of(shipped_one.id)) == shipped_one
        offered = await store.run(puzzles.offered())
        assert offered[: len(shipped.every())] == shipped.every()
        assert from_line(ADDED) in offered[len(shipped.every()) :]


async def test_an_added_puzzle_keeps_its_answers_and_is_answered_from_them(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answer_module, "REFUTATION_BUDGET", refutations.SEARCH_SECONDS)
    added = from_line(ADDED)
    answers = lines.answers_of(added)
    assert answers is not None
    wrong = next(m for m in added.position.legal_moves() if m != added.solution)
    async with backend.open() as store:
        assert await store.run(puzzles.add_puzzles([(added.id, ADDED)], NOW)) == 1
        before = await store.run(puzzles.puzzle_of(added.id))
        assert before is not None and before.answers is None  # added before answers were kept
        assert lines.tree(before) is None
        searched = answer(Attempt(before), wrong)
        again = await store.run(puzzles.add_puzzles([(added.id, ADDED)], NOW, {added.id: answers}))
        assert again == 0  # there already: given its answers only
    async with backend.open() as store:  # a restart
        found = await store.run(puzzles.puzzle_of(added.id))
    assert found == added and found is not None and found.answers == answers
    assert lines.known(found) == (lines.tree_of(added) or [])[0]

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    monkeypatch.setattr(answer_module, "score", no_search)
    monkeypatch.setattr(solver, "best_move", no_search)
    assert answer(Attempt(found), wrong) == searched
    assert answer(Attempt(found), added.solution).verdict is Verdict.GOING
