"""A finished game's page as values: every position, the text alternative naming each piece,
the solver's verdicts checked against the solver itself, hidden players, the text export; and
its reads on both stores: the review computed once, kept with the archived game, the chats'
``/review`` reused, a running game sent to its live page."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace

import pytest

from core.ai import solve
from core.ai.review import GameReview, MoveReview, review_game
from core.games import CONNECT_FOUR, TICTACTOE, Outcome, Position, Rules, Termination
from core.pages.game import (
    UNKNOWN,
    decode_review,
    describe_board,
    encode_review,
    export,
    game_page,
)
from core.pages.games import GamePages, Live
from core.pages.names import ANONYMOUS
from core.sessions.reviews.review import KEEP_NAMESPACE
from core.sessions.reviews.review import encode as encode_chat_review
from core.store import Status, archive, kv, sessions
from core.store.models.archive import ArchivedGame, ArchivedSeat
from tests.backends import Backend
from tests.core.store.helpers import NOW, make_session

# A Connect Four game with mistakes on both sides, won by X on the bottom row at move 7.
C4_MOVES = (3, 3, 4, 4, 5, 5, 6)
# Tic-tac-toe: X on the top row; O's second move (4) lets it happen.
TTT_MOVES = (0, 3, 1, 4, 2)


def archived(rules: Rules, moves: tuple[int, ...], **changes: object) -> ArchivedGame:
    outcome = Position.from_moves(rules, moves).outcome or Outcome(Termination.RESIGNATION, 1)
    game = ArchivedGame(
        public_id="a" * 32,
        session_id="s1",
        rules=rules,
        seats=(ArchivedSeat("Alice", "test:alice", None), ArchivedSeat("Bob", "test:bob", None)),
        moves=moves,
        outcome=outcome,
        rated=True,
        clock=120.0,
        started_at=NOW,
        finished_at=NOW + 90,
        listed=True,
    )
    return replace(game, **changes)  # type: ignore[arg-type]


def full_review(rules: Rules, moves: Sequence[int]) -> tuple[MoveReview, ...]:
    found = review_game(rules, moves, every_best=True)
    assert found is not None
    return found.moves


@pytest.mark.parametrize(("rules", "moves"), [(CONNECT_FOUR, C4_MOVES), (TICTACTOE, TTT_MOVES)])
def test_each_verdict_is_the_solvers(rules: Rules, moves: tuple[int, ...]) -> None:
    page = game_page(archived(rules, moves), frozenset(), full_review(rules, moves), None, {})
    assert page.verdicts == "exact" and len(page.plies) == len(moves)
    p = Position.start(rules)
    for ply, move in zip(page.plies, moves, strict=True):
        # Every child's score for the mover (a finished child: the win or the draw itself).
        values = {}
        for m in p.legal_moves():
            child = p.play(m)
            if child.winner is not None:
                values[m] = (rules.cells + 1 - len(p.moves)) // 2
            else:
                values[m] = 0 if child.is_draw else -solve(child)
        after, best = values[move], max(values.values())
        expected = "win" if after > 0 else "loss" if after < 0 else "draw"
        assert ply.verdict.result == expected, ply
        if after != 0:
            assert ply.verdict.text.startswith(expected + " in ")
        dropped = (best > 0 and after <= 0) or (best == 0 and after < 0)
        assert (ply.verdict.mistake is not None) == dropped, ply
        only = not dropped and [m for m, v in values.items() if v == best] == [move]
        assert ply.verdict.only == (only and len(values) > 1), ply
        p = p.play(move)
    # The first Connect Four move in the centre is the only winning one; 5 then throws it.
    if rules == CONNECT_FOUR:
        assert page.plies[0].verdict.words == "win in 41 moves, only move"
        assert page.plies[2].verdict.mistake == "win_to_loss"
        assert page.plies[2].verdict.best == "4"


def test_every_position_by_ply_and_its_text_alternative() -> None:
    review = full_review(CONNECT_FOUR, C4_MOVES)
    game = archived(CONNECT_FOUR, C4_MOVES)
    start = game_page(game, frozenset(), review, 0, {})
    assert start.ply == 0 and start.shown is None
    assert all(cell.mark == "" for row in start.board for cell in row)
    assert start.description.render("en") == "An empty board."
    third = game_page(game, frozenset(), review, 3, {})
    assert [c.mark for c in third.board[-1]] == ["", "", "", "X", "X", "", ""]
    assert [c.mark for c in third.board[-2]] == ["", "", "", "O", "", "", ""]
    assert [c.last for c in third.board[-1]] == [False] * 4 + [True, False, False]
    assert third.description.render("en") == "From the bottom up, column 4: X, O; column 5: X."
    end = game_page(game, frozenset(), review, None, {})
    assert end.ply == len(C4_MOVES) == game_page(game, frozenset(), review, 99, {}).ply
    assert [c.winning for c in end.board[-1]] == [False, False, False, True, True, True, True]
    assert end.columns == ("1", "2", "3", "4", "5", "6", "7")
    assert [p.cell for p in end.plies] == [38, 31, 39, 32, 40, 33, 41]
    free = Position.from_moves(TICTACTOE, TTT_MOVES)
    assert describe_board(TICTACTOE, free) == "X on a1, b1, c1; O on a2, b2."


def test_a_hidden_player_is_anonymous_and_unreviewed_boards_say_unknown() -> None:
    game = archived(TICTACTOE, TTT_MOVES)
    paths = {"test:alice": "/player/a", "test:bob": "/player/b"}
    page = game_page(game, frozenset({"test:bob"}), None, None, paths)
    assert [(s.name, s.path) for s in page.seats] == [("Alice", "/player/a"), (ANONYMOUS, None)]
    assert page.verdicts == "pending" and all(p.verdict == UNKNOWN for p in page.plies)
    assert page.result.render("en") == "Alice (X) won: 3 in a row."
    # A casual game links nobody's page (player pages are of rated games).
    assert all(
        s.path is None
        for s in game_page(replace(game, rated=False), frozenset(), None, None, paths).seats
    )
    big = Rules(7, 7, 5, gravity=False)
    other = archived(big, (24, 0, 25))
    assert game_page(other, frozenset(), None, None, {}).verdicts == "none"


def test_the_text_export() -> None:
    game = archived(
        CONNECT_FOUR,
        C4_MOVES[:4],
        outcome=Outcome(Termination.RESIGNATION, 2),
        seats=(ArchivedSeat('Al "the" \\', None, None), ArchivedSeat("Bot (hard)", None, "hard")),
        rated=False,
    )
    page = game_page(game, frozenset(), full_review(CONNECT_FOUR, C4_MOVES[:4]), None, {})
    text = export(page, "https://games.example.org/game/" + "a" * 32)
    assert text.splitlines()[:12] == [
        '[Game "Connect Four 6x7"]',
        '[Rules "6 rows, 7 columns, 4 in a row wins, pieces drop down the columns"]',
        '[X "Al \\"the\\" \\\\"]',
        '[O "Bot (hard)"]',
        '[Result "0-1"]',
        '[Ending "Al \\"the\\" \\\\ resigned; Bot (hard) (O) won."]',
        '[Rated "no"]',
        '[Clock "2 minutes per move"]',
        '[Started "1970-01-12 13:46 UTC"]',
        '[Finished "1970-01-12 13:48 UTC"]',
        f'[Page "https://games.example.org/game/{"a" * 32}"]',
        "",
    ]
    moves = " ".join(text.splitlines()[12:])
    assert moves.startswith(
        "1. 4 {win in 41 moves, only move} 4 {loss in 40 moves, only move} 2. 5"
    )
    assert moves.endswith(" 0-1")


def test_a_kept_review_reads_back_only_whole() -> None:
    review = full_review(TICTACTOE, TTT_MOVES)
    assert decode_review(encode_review(review), TTT_MOVES) == review
    assert decode_review(encode_review(review[:3]), TTT_MOVES) is None
    assert decode_review("not json", TTT_MOVES) is None


class Analyses:
    """The workers' reviews, counted; ``busy``: none can be had now."""

    def __init__(self) -> None:
        self.calls: list[int] = []
        self.busy = False

    async def __call__(
        self, rules: Rules, moves: tuple[int, ...], known: tuple[MoveReview, ...]
    ) -> GameReview | None:
        self.calls.append(len(known))
        await asyncio.sleep(0)  # another visitor arrives meanwhile
        return None if self.busy else review_game(rules, moves, known=known, every_best=True)


async def finish(store: object, rules: Rules, moves: tuple[int, ...], chat: str = "c1") -> str:
    game = replace(make_session(chat=chat), rules=rules, server_id="s1")
    await store.run(sessions.create(game))  # type: ignore[attr-defined]
    position = Position.from_moves(rules, moves)
    done = replace(game, moves=moves, version=2, status=Status.FINISHED, outcome=position.outcome)
    assert await store.run(sessions.update(done, expected_version=1))  # type: ignore[attr-defined]
    return game.public_id


async def test_the_review_is_computed_once_and_kept_with_the_game(backend: Backend) -> None:
    async with backend.open() as one, backend.open() as two:
        public_id = await finish(one, CONNECT_FOUR, C4_MOVES)
        analyses = Analyses()
        pages = GamePages(one, analyses)
        game = await pages.archived(public_id)
        assert isinstance(game, ArchivedGame) and game.analysis is None
        # Visitors at once: one review in the workers.
        first, second = await asyncio.gather(pages.page(game, None), pages.page(game, 2))
        assert analyses.calls == [0]
        assert first.verdicts == second.verdicts == "exact"
        assert first.plies == second.plies
        # Another process reads it kept, and never asks its workers.
        elsewhere = Analyses()
        kept = await GamePages(two, elsewhere).archived(public_id)
        assert isinstance(kept, ArchivedGame) and kept.analysis is not None
        again = await GamePages(two, elsewhere).page(kept, None)
        assert elsewhere.calls == [] and again.plies == first.plies


async def test_the_chats_review_is_reused(backend: Backend) -> None:
    async with backend.open() as store:
        public_id = await finish(store, CONNECT_FOUR, C4_MOVES)
        game = await GamePages(store).archived(public_id)
        assert isinstance(game, ArchivedGame)
        chats = review_game(CONNECT_FOUR, C4_MOVES)  # as /review keeps it: best of mistakes only
        assert chats is not None
        await store.run(kv.kv_set(KEEP_NAMESPACE, game.session_id, encode_chat_review(chats)))
        # The workers start from it ...
        analyses = Analyses()
        page = await GamePages(store, analyses).page(game, None)
        assert analyses.calls == [len(C4_MOVES)] and page.verdicts == "exact"
        assert page.plies[0].verdict.only
        # ... and while they are busy, its values show, without "only move".
        busy = Analyses()
        busy.busy = True
        fresh = await GamePages(store).archived(public_id)
        assert isinstance(fresh, ArchivedGame)
        fresh = replace(fresh, analysis=None)
        shown = await GamePages(store, busy).page(fresh, None)
        assert shown.verdicts == "exact"
        assert [p.verdict.result for p in shown.plies] == [p.verdict.result for p in page.plies]
        assert not any(p.verdict.only for p in shown.plies)
        # Without either, the verdicts are pending.
        await store.run(kv.kv_delete(KEEP_NAMESPACE, game.session_id))
        pending = await GamePages(store, busy).page(fresh, None)
        assert pending.verdicts == "pending"


async def test_a_running_game_is_live_and_others_are_nothing(backend: Backend) -> None:
    async with backend.open() as store:
        pages = GamePages(store)
        running = make_session()
        await store.run(sessions.create(running))
        assert await pages.archived(running.public_id) == Live(running.public_id)
        challenge = make_session(alice="carol", bob="dave", chat="c2", status=Status.CHALLENGE)
        await store.run(sessions.create(challenge))
        assert await pages.archived(challenge.public_id) is None
        assert await pages.archived("0" * 32) is None
        public_id = await finish(store, TICTACTOE, TTT_MOVES, chat="c3")
        assert isinstance(await pages.archived(public_id), ArchivedGame)
        assert await store.run(archive.archived(running.public_id)) is None
