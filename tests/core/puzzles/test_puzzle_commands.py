"""``/puzzle`` through the service, on both stores: today's puzzle the same everywhere, answers
by the board and by typing, the solver's defence and refutation, the one-line result with the
rating change, and every refused answer (illegal, old, twice, puzzles off) (issue 35)."""

from __future__ import annotations

import asyncio
import datetime
import random
from collections.abc import AsyncIterator, Sequence

import pytest

from core.puzzles import answer as answer_module
from core.puzzles import lines, refutations, shipped
from core.puzzles.answer import Attempt, answer, best_reply
from core.puzzles.puzzle import Puzzle, from_line
from core.replies import Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.sessions.puzzles.board import attempt_board, daily_board
from core.sessions.puzzles.solving import daily
from core.store import links, puzzles
from core.store.models import Linked
from core.store.models.puzzles import AttemptStatus
from tests.backends import AnyStore, Backend
from tests.core.puzzles.test_lines import no_search

DAY = datetime.date(2023, 11, 16)  # its puzzle: win in 9, column 4 full
NOON = datetime.datetime(2023, 11, 16, 12, tzinfo=datetime.UTC).timestamp()


class Clock:
    def __init__(self, now: float = NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def actor(user: str, chat: str = "room", platform: str = "test", admin: bool = False) -> Actor:
    return Actor(platform, chat, user, user.title(), "en", is_admin=admin)


ALICE, BOB = actor("alice"), actor("bob")


def service(store: AnyStore, clock: Clock) -> GameService:
    return GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05),
        clock=clock,
        rng=random.Random(3),
    )


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    async with backend.open() as opened:
        yield opened


def keys(replies: Sequence[Reply]) -> list[str]:
    return [reply.text.key for reply in replies if reply.text is not None]


async def attempt_of(store: AnyStore, who: Actor, puzzle: Puzzle) -> tuple[Attempt, int]:
    stored = await store.run(puzzles.attempt_at(who.platform, who.user_id, puzzle.id))
    assert stored is not None
    return Attempt(puzzle, stored.played, stored.finished), stored.version


async def board_of(store: AnyStore, who: Actor, puzzle: Puzzle) -> str:
    """The id of ``who``'s own board of ``puzzle``."""
    stored = await store.run(puzzles.attempt_at(who.platform, who.user_id, puzzle.id))
    assert stored is not None
    return attempt_board(stored.id)


async def solve(svc: GameService, store: AnyStore, who: Actor, puzzle: Puzzle) -> list[Reply]:
    """Answer ``puzzle`` by the board with the fastest win each time; the last replies."""
    while True:
        attempt, version = await attempt_of(store, who, puzzle)
        move = best_reply(attempt.position)
        replies = await svc.handle_move(who, await board_of(store, who, puzzle), move, version)
        if keys(replies) != []:
            return replies
        assert replies[0].board is not None and replies[0].board.status.key == "puzzle.going"


async def test_todays_puzzle_is_the_same_everywhere_and_turns_at_midnight_utc(
    store: AnyStore,
) -> None:
    clock = Clock(datetime.datetime(2023, 11, 16, 23, 59, 59, tzinfo=datetime.UTC).timestamp())
    svc = service(store, clock)
    shown = await svc.handle_text(ALICE, "/puzzle")
    elsewhere = await svc.handle_text(actor("carol", "other-room", platform="matrix"), "!puzzle")
    puzzle = daily(DAY)
    for replies in (shown, elsewhere):
        assert keys(replies) == ["puzzle.daily"]
        (reply,) = replies
        assert reply.new_message and reply.board is not None
        assert reply.board.session_id.startswith("pz-") and reply.board.version == 0
        assert reply.text is not None and reply.text.params["date"] == "2023-11-16"
        assert reply.board.status.key == "puzzle.status.win"
        assert reply.board.status.params["moves"] == 9
        assert reply.board.status.params["id"] == puzzle.id
    assert shown[0].board is not None and elsewhere[0].board is not None
    assert shown[0].board.session_id != elsewhere[0].board.session_id  # each person's own
    clock.now += 1  # midnight UTC
    after = await svc.handle_text(ALICE, "/puzzle")
    assert after[0].board is not None and after[0].board.status.params["id"] != puzzle.id
    tomorrow = daily(DAY + datetime.timedelta(days=1))
    assert after[0].board.status.params["id"] == tomorrow.id


async def test_solving_by_the_board_rates_it_and_counts_the_streak(store: AnyStore) -> None:
    svc = service(store, Clock())
    await svc.handle_text(ALICE, "/puzzle")
    puzzle = daily(DAY)
    first = await svc.handle_move(ALICE, await board_of(store, ALICE, puzzle), puzzle.solution, 0)
    (going,) = first
    assert going.board is not None and going.board.version == 1
    assert going.board.status.key == "puzzle.going"
    assert going.board.status.params["task"].params["moves"] == 8  # type: ignore[union-attr]
    replies = await solve(svc, store, ALICE, puzzle)
    assert keys(replies) == ["puzzle.solved"]
    (done,) = replies
    assert done.board is not None and done.board.finished and done.board.playable == ()
    assert done.text is not None and done.text.params["streak"] == 1
    line = done.text.render("en")
    assert line.startswith("Solved! Puzzle rating ") and "(+" in line
    stats = await svc.handle_text(ALICE, "/puzzle stats")
    assert keys(stats) == ["puzzle.stats"]
    assert stats[0].text is not None and stats[0].text.params["solved"] == 1
    # answering it again, by the board or by asking for it: over
    again = await svc.handle_move(
        ALICE, await board_of(store, ALICE, puzzle), 0, done.board.version
    )
    assert keys(again) == ["puzzle.over.solved"] and again[0].private
    shown = await svc.handle_text(ALICE, "/puzzle")
    assert keys(shown) == ["puzzle.daily", "puzzle.over.solved"]


async def test_a_wrong_move_fails_with_the_solvers_refutation(store: AnyStore) -> None:
    svc = service(store, Clock())
    await svc.handle_text(BOB, "/puzzle")
    puzzle = daily(DAY)
    wrong = next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)
    (failed,) = await svc.handle_move(BOB, await board_of(store, BOB, puzzle), wrong, 0)
    assert failed.text is not None and failed.text.key == "puzzle.failed.win"
    refutation = failed.text.params["refutation"]
    assert refutation != ""  # the solver answered on the board
    attempt, _ = await attempt_of(store, BOB, puzzle)
    assert attempt.finished and len(attempt.played) == 2
    line = failed.text.render("en")
    assert line.startswith(f"Failed: {wrong + 1} does not win in time. The solver answers ")
    assert f"The solution was {puzzle.solution + 1}." in line and "(-" in line
    assert failed.board is not None and failed.board.finished
    typed = await svc.handle_text(BOB, "/4")
    assert keys(typed) == ["puzzle.over.failed"]


async def test_an_illegal_answer_is_refused_and_costs_nothing(store: AnyStore) -> None:
    svc = service(store, Clock())
    await svc.handle_text(ALICE, "/puzzle")
    puzzle = daily(DAY)
    assert 3 not in puzzle.position.legal_moves()
    assert keys(await svc.handle_move(ALICE, await board_of(store, ALICE, puzzle), 3, 0)) == [
        "error.column_full"
    ]
    assert keys(await svc.handle_text(ALICE, "4")) == ["error.column_full"]
    assert keys(await svc.handle_text(ALICE, "9")) == ["parse.column_range"]
    attempt, version = await attempt_of(store, ALICE, puzzle)
    assert version == 0 and not attempt.finished and attempt.played == ()


async def test_a_typed_answer_survives_a_restart(backend: Backend) -> None:
    puzzle = daily(DAY)
    async with backend.open() as store:
        svc = service(store, Clock())
        await svc.handle_text(ALICE, "/puzzle")
        replies = await svc.handle_text(ALICE, str(puzzle.solution + 1))
        assert replies[0].board is not None and replies[0].board.version == 1
    async with backend.open() as store:
        svc = service(store, Clock())
        attempt, version = await attempt_of(store, ALICE, puzzle)
        assert version == 1 and len(attempt.played) == 2
        move = best_reply(attempt.position)
        typed = await svc.handle_text(ALICE, str(move + 1))
        assert typed[0].board is not None and typed[0].board.version == 2
        # chatter of someone without a puzzle or a game is still chatter
        assert await svc.handle_text(BOB, "3") == []


async def test_two_answers_to_one_board_count_once(store: AnyStore) -> None:
    svc = service(store, Clock())
    await svc.handle_text(ALICE, "/puzzle")
    puzzle = daily(DAY)
    wrong = [m for m in puzzle.position.legal_moves() if m != puzzle.solution][:3]
    mine = await board_of(store, ALICE, puzzle)
    answers = await asyncio.gather(
        *(svc.handle_move(ALICE, mine, move, 0) for move in [puzzle.solution, *wrong])
    )
    counted = [r for r in answers if keys(r) != ["puzzle.stale"] and r[0].board is not None]
    assert len(counted) == 1
    assert all(
        keys(r) in (["puzzle.stale"], ["puzzle.over.failed"]) for r in answers if r not in counted
    )
    player = await store.run(puzzles.player_of("test", "alice"))
    assert player is None or player.rating.games == 1


async def test_old_and_other_players_boards_are_refused_clearly(store: AnyStore) -> None:
    clock = Clock()
    svc = service(store, clock)
    await svc.handle_text(ALICE, "/puzzle")
    # a board behind the attempt (version 0 after an answer)
    puzzle = daily(DAY)
    await svc.handle_move(ALICE, await board_of(store, ALICE, puzzle), puzzle.solution, 0)
    stale = await svc.handle_move(ALICE, await board_of(store, ALICE, puzzle), puzzle.solution, 0)
    assert keys(stale) == ["puzzle.stale"] and stale[0].board is not None
    assert stale[0].board.version == 1
    # Alice's board, clicked by Bob
    other = await svc.handle_move(BOB, await board_of(store, ALICE, puzzle), 0, 1)
    assert keys(other) == ["puzzle.not_yours"]
    # the daily post: anyone's; Alice's own attempt is further on
    post = await svc.handle_move(ALICE, daily_board(puzzle), 0, 0)
    assert keys(post) == ["puzzle.stale"]
    # yesterday's daily post, clicked today by someone who never tried it
    clock.now += 24 * 3600
    old = await svc.handle_move(BOB, daily_board(puzzle), puzzle.solution, 0)
    assert keys(old) == ["puzzle.old_daily"] and old[0].text is not None
    assert old[0].text.params["date"] == "2023-11-16"
    # today's daily post: Bob's first answer starts his attempt
    today = daily(DAY + datetime.timedelta(days=1))
    first = await svc.handle_move(BOB, daily_board(today), today.solution, 0)
    assert first[0].board is not None and first[0].board.version == 1
    assert first[0].board.session_id == await board_of(store, BOB, today)


async def test_next_gives_a_rated_puzzle_unless_the_chat_turned_puzzles_off(
    store: AnyStore,
) -> None:
    svc = service(store, Clock())
    shown = await svc.handle_text(ALICE, "/puzzle next")
    assert keys(shown) == ["puzzle.next"]
    board = shown[0].board
    assert board is not None and board.session_id.startswith("pz-")
    puzzle = shipped.by_id(str(board.status.params["id"]))
    assert puzzle is not None and abs(puzzle.difficulty - 1500) < 400
    # asked again: another one, never one tried before
    again = await svc.handle_text(ALICE, "/puzzle next")
    assert again[0].board is not None and again[0].board.session_id != board.session_id
    admin = actor("mod", admin=True)
    assert keys(await svc.handle_text(admin, "/settings puzzles off")) != []
    off = await svc.handle_text(BOB, "/puzzle next")
    assert keys(off) == ["puzzle.off"] and off[0].private
    assert keys(await svc.handle_text(BOB, "/puzzle")) == ["puzzle.daily"]  # still there
    assert keys(await svc.handle_text(BOB, "/puzzle top")) == ["puzzle.top_empty"]
    assert keys(await svc.handle_text(BOB, "/puzzle stats")) == ["puzzle.stats_none"]
    assert keys(await svc.handle_text(BOB, "/puzzle later")) == ["parse.bad_option"]


async def test_a_streak_follows_the_person_across_a_link(store: AnyStore) -> None:
    clock = Clock()
    svc = service(store, clock)
    alix = actor("alix", platform="other")
    await svc.handle_text(ALICE, "/puzzle")
    await solve(svc, store, ALICE, daily(DAY))
    await store.run(links.link_code("CODE", "test", "alice", clock.now + 600))
    assert await store.run(links.link("CODE", "other", "alix", clock.now)) is Linked.LINKED
    clock.now += 24 * 3600
    await svc.handle_text(alix, "/puzzle")
    replies = await solve_or_fail(svc, store, alix, daily(DAY + datetime.timedelta(days=1)))
    stats = await svc.handle_text(ALICE, "/puzzle stats")
    assert stats[0].text is not None
    assert stats[0].text.params["solved"] == 2 and stats[0].text.params["streak"] == 2, replies


async def solve_or_fail(
    svc: GameService, store: AnyStore, who: Actor, puzzle: Puzzle
) -> list[Reply]:
    replies = await solve(svc, store, who, puzzle)
    stored = await store.run(puzzles.attempt_at(who.platform, who.user_id, puzzle.id))
    assert stored is not None and stored.status is AttemptStatus.SOLVED
    return replies


async def test_a_picture_boards_first_pick_is_answered_as_the_answer_would_be(
    store: AnyStore,
) -> None:
    svc = service(store, Clock())
    await svc.handle_text(ALICE, "/puzzle")
    puzzle = daily(DAY)
    mine = await board_of(store, ALICE, puzzle)
    assert await svc.handle_pick(ALICE, mine, 0) is None  # hers, as it stands: go on
    refused = await svc.handle_pick(BOB, mine, 0)
    assert refused is not None and keys(refused) == ["puzzle.not_yours"]
    stale = await svc.handle_pick(ALICE, mine, 3)
    assert stale is not None and keys(stale) == ["puzzle.stale"]


async def test_a_vcf_is_answered_by_a_typed_coordinate(store: AnyStore) -> None:
    svc = service(store, Clock())
    puzzle = shipped.vcf()[0]
    await store.run(puzzles.start_attempt("vcfattempt01", "test", "room", "alice", puzzle.id, 1.0))
    row, col = divmod(puzzle.solution, puzzle.rules.cols)
    typed = f"{'abcdefghijklmno'[col]}{row + 1}"
    (reply,) = await svc.handle_text(ALICE, typed)
    assert reply.board is not None and reply.board.session_id == "pz-vcfattempt01"
    assert reply.board.status.key == "puzzle.going"  # a four: the forced block follows
    assert reply.board.rules == puzzle.rules and len(reply.board.cells) == 225


ADDED = "60e71c3c33,win,6x7/4,3754224275277253246,4,3,1360"  # made by the generator, seed 5


async def test_an_added_puzzle_is_offered_and_answered(
    store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = from_line(ADDED)
    assert shipped.by_id(puzzle.id) is None
    assert await store.run(puzzles.add_puzzles([(puzzle.id, ADDED)], NOON)) == 1
    # the shipped sets left out of the choice: the added puzzle is the one left
    monkeypatch.setattr(shipped, "every", lambda: ())
    svc = service(store, Clock())
    shown = await svc.handle_text(ALICE, "/puzzle next")
    assert keys(shown) == ["puzzle.next"]
    assert shown[0].board is not None and shown[0].board.status.params["id"] == puzzle.id
    assert keys(await solve(svc, store, ALICE, puzzle))[0] == "puzzle.solved"
    assert keys(await svc.handle_text(ALICE, "/puzzle next")) == ["puzzle.all_tried"]


async def test_an_added_puzzle_with_its_answers_is_answered_without_a_search(
    store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    puzzle = from_line(ADDED)
    monkeypatch.setattr(answer_module, "REFUTATION_BUDGET", refutations.SEARCH_SECONDS)
    wrong = next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)
    searched = answer(Attempt(puzzle), wrong)
    answers = {puzzle.id: lines.answers_of(puzzle) or ""}
    assert await store.run(puzzles.add_puzzles([(puzzle.id, ADDED)], NOON, answers)) == 1
    monkeypatch.setattr(shipped, "every", lambda: ())
    svc = service(store, Clock())
    assert keys(await svc.handle_text(ALICE, "/puzzle next")) == ["puzzle.next"]
    no_search(monkeypatch)
    (failed,) = await svc.handle_text(ALICE, str(wrong + 1))
    assert failed.text is not None and failed.text.key == "puzzle.failed.win"
    attempt, _ = await attempt_of(store, ALICE, puzzle)
    assert attempt.played == searched.attempt.played  # the solver's refutation, looked up


async def test_on_sundays_the_daily_puzzle_is_a_vcf_answered_by_typing(store: AnyStore) -> None:
    week = [DAY + datetime.timedelta(days=n) for n in range(7)]
    assert [daily(day).theme.value == "vcf" for day in week] == [day.weekday() == 6 for day in week]
    sunday = next(day for day in week if day.weekday() == 6)
    noon = datetime.datetime.combine(sunday, datetime.time(12), datetime.UTC).timestamp()
    svc = service(store, Clock(noon))
    shown = await svc.handle_text(ALICE, "/puzzle")
    board = shown[0].board
    puzzle = daily(sunday)
    assert board is not None and board.status.params["id"] == puzzle.id
    assert board.rules == puzzle.rules and len(board.cells) == 225
    row, col = divmod(puzzle.solution, puzzle.rules.cols)
    (reply,) = await svc.handle_text(ALICE, f"{'abcdefghijklmno'[col]}{row + 1}")
    assert reply.board is not None and reply.board.session_id == board.session_id
    assert reply.board.status.key in ("puzzle.going", "puzzle.solved")
