"""What the drivers did and saw, and the checks of it against the store after the run.

Every move a driver sends is written down (``Game.sent``); a move the bot answered with a board
that shows it is *acknowledged* (``Game.acked``, with the board as shown). After the final stop
the database is opened with the project's own store and:

- lost: an acknowledged move is not in its game's stored history at the ply it was shown, or
  the stored history up to there does not draw the board the player saw;
- doubled: the stored history has a person's move that the driver did not send (each sent move
  accounts for at most one stored move, in order); the bot's own moves are not counted;
- stats: the stats table per player equals the results the drivers saw at the end of their
  games (a game whose end a driver could not see, because it gave up after the bot died, is
  counted from the store's session instead, and reported as such).

A move sent while the bot was down and never answered is neither lost nor doubled, whatever
became of it: it is allowed in the history (it was sent) and not required there (never acked).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.soak.boards import Grid, grid_of_moves, stones, winner
from core.games import Rules
from core.store import Session, SqliteStore, Status, stats
from core.store import sessions as store_sessions

WIN, LOSS, DRAW = "win", "loss", "draw"


@dataclass(frozen=True, slots=True)
class Ack:
    """A move the bot answered with a board showing it."""

    user: str
    ply: int  # stones on the board before it: its index in the game's history
    move: int
    grid: Grid  # the board as the bot showed it in that answer


@dataclass(slots=True)
class Game:
    """One game as its driver(s) saw it."""

    platform: str
    chat: str
    rules: Rules
    label: str  # what started it, such as "/tres hard"
    board: str  # the board's message id (Discord) or event id (Matrix)
    session_id: str | None = None
    sent: dict[str, list[int]] = field(default_factory=dict)  # user -> moves sent, in order
    acked: list[Ack] = field(default_factory=list)
    seen: dict[str, str] | None = None  # user -> win/loss/draw, once a driver saw the end
    gave_up: bool = False

    def send(self, user: str, move: int) -> None:
        self.sent.setdefault(user, []).append(move)

    def see_end(self, grid: Grid, marks: dict[str, int]) -> None:
        """Record the result a finished board shows, for each driver (user -> its mark)."""
        won = winner(grid, self.rules.k)
        self.seen = {
            user: DRAW if won is None else WIN if won == mark else LOSS
            for user, mark in marks.items()
        }


@dataclass(slots=True)
class Ledger:
    """Every game of the run, and the counters of the summary."""

    games: list[Game] = field(default_factory=list)
    started: Counter[str] = field(default_factory=Counter)  # platform -> games
    moves_sent: Counter[str] = field(default_factory=Counter)
    moves_acked: Counter[str] = field(default_factory=Counter)
    gave_up: Counter[str] = field(default_factory=Counter)
    users: dict[str, set[str]] = field(default_factory=dict)  # platform -> driver user ids

    def start(self, game: Game) -> Game:
        self.games.append(game)
        self.started[game.platform] += 1
        return game

    def sent(self, game: Game, user: str, move: int) -> None:
        game.send(user, move)
        self.moves_sent[game.platform] += 1

    def ack(self, game: Game, user: str, ply: int, move: int, grid: Grid) -> None:
        game.acked.append(Ack(user, ply, move, grid))
        self.moves_acked[game.platform] += 1

    def give_up(self, game: Game) -> None:
        game.gave_up = True
        self.gave_up[game.platform] += 1

    def finished(self, platform: str) -> int:
        return sum(1 for g in self.games if g.platform == platform and g.seen is not None)


@dataclass(slots=True)
class Verdict:
    """The checks' results; ``problems`` has one line per failure (the first few of each)."""

    lost: int = 0
    doubled: int = 0
    stats_mismatches: int = 0
    results_from_store: int = 0
    unmatched_games: int = 0
    sessions: int = 0
    problems: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.problems) < 30:
            self.problems.append(text)


async def check(ledger: Ledger, database: Path) -> Verdict:
    """Check the ledger against the database of the stopped bot."""
    verdict = Verdict()
    ids = _session_ids(database)
    async with SqliteStore.open(database) as store:
        stored = {
            sid: s for sid in ids if (s := await store.run(store_sessions.get(sid))) is not None
        }
        verdict.sessions = len(stored)
        pairs, unclaimed = _match(ledger, stored, verdict)
        expected: dict[tuple[str, str], Counter[str]] = {}
        for game, session in pairs:
            _check_game(game, session, verdict)
            _tally(expected, game, session, verdict)
        for session in unclaimed:
            # A game no driver saw (its start got no answer before a restart): nobody sent a move
            # in it, so any person's move in it is one too many.
            for seat, user in enumerate(s.user_id for s in session.seats):
                if user is not None:
                    extra = len(session.moves[seat::2])
                    verdict.doubled += extra
                    if extra:
                        verdict.note(f"{session.id}: {extra} move(s) of {user} in an unseen game")
            _tally(expected, None, session, verdict)
        for platform, users in ledger.users.items():
            for user in sorted(users):
                row = await store.run(stats.player_stats(platform, user))
                got = (row.wins, row.losses, row.draws) if row else (0, 0, 0)
                want_counts = expected.get((platform, user), Counter())
                want = (want_counts[WIN], want_counts[LOSS], want_counts[DRAW])
                if got != want:
                    verdict.stats_mismatches += 1
                    verdict.note(f"stats of {platform} {user}: stored {got}, expected {want}")
    return verdict


def _session_ids(database: Path) -> list[str]:
    # The store has no "list every session" call (nothing in the bot needs one): the ids come
    # from the table directly, read-only, and every session is then loaded by the store itself.
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        return [str(row[0]) for row in db.execute("SELECT id FROM sessions ORDER BY created_at")]


def _match(
    ledger: Ledger, stored: dict[str, Session], verdict: Verdict
) -> tuple[list[tuple[Game, Session | None]], list[Session]]:
    """Pair every driver's game with its stored session; the stored sessions nobody claimed.

    Discord boards name their session; a Matrix game's session was looked up by its board
    event while it ran. A Matrix game whose lookup failed is paired with the unclaimed sessions
    of its room in order of creation (a room has one driver, playing one game at a time).
    """
    claimed: set[str] = set()
    pairs: list[tuple[Game, Session | None]] = []
    unresolved: list[Game] = []
    for game in ledger.games:
        if game.session_id is None:
            unresolved.append(game)
            continue
        claimed.add(game.session_id)
        pairs.append((game, stored.get(game.session_id)))
    left = [s for s in stored.values() if s.id not in claimed]
    for game in unresolved:
        candidates = [s for s in left if s.platform == game.platform and s.chat_id == game.chat]
        if candidates:
            session = min(candidates, key=lambda s: s.created_at)
            left.remove(session)
            pairs.append((game, session))
        else:
            verdict.unmatched_games += 1
            pairs.append((game, None))
    return pairs, [s for s in left if s.platform in ledger.users]


def _check_game(game: Game, session: Session | None, verdict: Verdict) -> None:
    if session is None:
        if game.acked:
            verdict.lost += len(game.acked)
            verdict.note(f"{game.label} {game.board}: no stored session, {len(game.acked)} acked")
        return
    moves = session.moves
    for ack in game.acked:
        shown = stones(ack.grid)
        ok = ack.ply < len(moves) and moves[ack.ply] == ack.move and shown <= len(moves)
        if ok:
            ok = grid_of_moves(session.rules, moves[:shown]) == ack.grid
        if not ok:
            verdict.lost += 1
            verdict.note(
                f"{session.id}: acked move {ack.move} at ply {ack.ply} by {ack.user} "
                f"not in the stored history {list(moves)}"
            )
    for seat, user in enumerate(s.user_id for s in session.seats):
        if user is None:
            continue  # the bot's own moves
        sent = game.sent.get(user, [])
        j = 0
        for move in moves[seat::2]:
            while j < len(sent) and sent[j] != move:
                j += 1
            if j == len(sent):
                verdict.doubled += 1
                verdict.note(
                    f"{session.id}: stored move {move} of {user} was not sent "
                    f"(sent {sent}, stored {list(moves)})"
                )
            else:
                j += 1


def _tally(
    expected: dict[tuple[str, str], Counter[str]],
    game: Game | None,
    session: Session | None,
    verdict: Verdict,
) -> None:
    """Add a game's result per player: as its drivers saw it, else as the store has it."""
    if game is not None and game.seen is not None:
        for user, result in game.seen.items():
            expected.setdefault((game.platform, user), Counter())[result] += 1
        if session is not None and _stored_results(session) != game.seen:
            verdict.stats_mismatches += 1
            verdict.note(f"{session.id}: seen {game.seen}, stored {_stored_results(session)}")
        return
    if session is None or session.status is not Status.FINISHED:
        return
    verdict.results_from_store += 1
    for user, result in _stored_results(session).items():
        expected.setdefault((session.platform, user), Counter())[result] += 1


def _stored_results(session: Session) -> dict[str, str]:
    if session.status is not Status.FINISHED:
        return {}
    results = {}
    for number, seat in enumerate(session.seats, start=1):
        if seat.user_id is not None:
            won = session.winner
            results[seat.user_id] = DRAW if won is None else WIN if won == number else LOSS
    return results
