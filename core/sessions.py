"""GameService: the one orchestrator of games.

CONTRACT for the adapters (Discord, Matrix, console are written against these signatures while
the service is built; keep them):

    service = GameService(store, settings=ServiceSettings(...), clock=time.time,
                          rng=random.Random())
    await service.start()          # starts the AI process pool (+ JIT warm-up) and the sweeper
    await service.close()          # finishes moves in flight, stops the pool and the sweeper

    await service.handle_text(actor, text, addressed=False) -> list[Reply]
        # a chat message: a command (/ or ! prefix) or a move as text ("5", "b2", "!5").
        # Plain chat that is neither is ignored ([]) unless `addressed` (a DM, a mention, the
        # console), where it gets a hint.
    await service.handle_command(actor, command) -> list[Reply]
        # an already-parsed core.commands.Command (Discord slash commands build these).
    await service.handle_move(actor, session_id, move, version=None) -> list[Reply]
        # a click or a reaction: `move` 0-based (cell, or column with gravity); `version` from
        # the button, None when the platform has none (reactions): a stale version is refused.
    await service.handle_action(actor, session_id, action, version=None) -> list[Reply]
        # ActionKind.ACCEPT / DECLINE / REMATCH from a button.
    service.store -> SessionStore  # adapters keep their own state with store.kv_get/kv_set

Replies are applied in order (see core.replies.Reply). Player mistakes come back as replies with
``error=True`` (private where a platform can), never as exceptions.

What the replies look like (adapters may rely on this):

- A new game against the bot, an accepted challenge, a rematch against the bot: one reply with
  ``board`` and ``new_message=True`` (the bot's first move, if it starts, is already on it).
- A challenge: one reply with ``text`` (``game.challenge``), ``actions=(ACCEPT, DECLINE)``,
  ``new_message=True`` and no board; a decline or withdrawal: a text reply.
- A move: one reply with the updated ``board`` (the bot's answer included). When the move ends
  the game the same reply carries the result as ``text`` and ``actions=(REMATCH,)``.
- Bot against bot: the new board, then one board update per move, the last with the result.
- A lost race or a stale button: a board update with the current board, then a private error
  (``error.board_changed``).
- Typed moves without prefix from someone who has no game in the chat are ignored unless
  ``addressed`` (people talk about numbers, too).

Logs: one line per handled event, ``key=value`` in the message and the same fields as ``extra``
(platform, chat, session, user, action, outcome, duration_ms). Nothing secret passes through.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import random
import signal
import time
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace

from core.ai import Level, choose_move
from core.ai.orphans import Parent, die_with_parent
from core.commands import (
    PREFIXES,
    Accept,
    BotVsBot,
    Command,
    CommandError,
    Decline,
    Final,
    First,
    Help,
    MoveText,
    NotACommand,
    Rematch,
    Start,
    Stats,
    Top,
    VsBot,
    VsUser,
    help_text,
    parse,
    resolve_move,
)
from core.errors import UserError
from core.games import Position, Rules
from core.i18n import Text, normalize_locale
from core.replies import ActionKind, Actor, BoardView, CellView, PlayerView, Reply
from core.store import (
    AlreadyPlaying,
    Seat,
    Session,
    SessionStore,
    Status,
    StoreBusy,
    new_session_id,
)

__all__ = ["GameService", "ServiceSettings", "board_view"]

log = logging.getLogger(__name__)

MARKS = ("", "X", "O")
"""Mark names for the ``{mark}`` parameter: the same letters in every language."""


@dataclass(frozen=True, slots=True)
class ServiceSettings:
    """How the service behaves; validated on construction (a clear ``ValueError``).

    Attributes:
        ai_budget: seconds the bot may think on a HARD move.
        ai_workers: processes for HARD (None: one per core); 0 runs HARD in a thread instead
            (tests, tiny machines).
        game_ttl: seconds a game lives after its last move (a finished one stays that long for
            a rematch).
        challenge_ttl: seconds a challenge waits for an answer.
        sweep_interval: seconds between two sweeps of expired games.
        default_locale: for texts the service renders itself when the player's locale is
            unknown (``/help``).
        bot_vs_bot_budget: seconds per HARD move in a bot-vs-bot game (people are watching, and
            the whole game is played in one call).
        ai_warm_up: run ``core.ai.warm_up`` in every worker at start (JIT compilation).
        ai_grace: extra seconds a HARD move may take over its budget before the service gives up
            on it and plays a MEDIUM move instead.
        top_size: players listed by ``/top``.
        drain_timeout: seconds :meth:`GameService.close` waits for requests in flight.
    """

    ai_budget: float = 1.0
    ai_workers: int | None = None
    game_ttl: float = 86400.0
    challenge_ttl: float = 120.0
    sweep_interval: float = 60.0
    default_locale: str = "en"
    bot_vs_bot_budget: float = 0.2
    ai_warm_up: bool = True
    ai_grace: float = 5.0
    top_size: int = 10
    drain_timeout: float = 8.0

    def __post_init__(self) -> None:
        for name in (
            "ai_budget",
            "game_ttl",
            "challenge_ttl",
            "sweep_interval",
            "bot_vs_bot_budget",
        ):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
        if self.ai_grace < 0:
            raise ValueError(f"ai_grace must be >= 0 seconds, got {self.ai_grace!r}")
        if self.ai_workers is not None and (
            not isinstance(self.ai_workers, int) or self.ai_workers < 0
        ):
            raise ValueError(f"ai_workers must be a whole number >= 0, got {self.ai_workers!r}")
        if not isinstance(self.top_size, int) or self.top_size < 1:
            raise ValueError(f"top_size must be a whole number >= 1, got {self.top_size!r}")

    @property
    def workers(self) -> int:
        """The size of the process pool (0: none)."""
        return (os.cpu_count() or 1) if self.ai_workers is None else self.ai_workers


# --- The process pool's side (module level: workers import these by name) --------------------


_WORKER_NICENESS = 10


def _worker_init(warm: bool, parent: Parent) -> None:
    # After a kill -9 of the service nothing shuts the pool down: each worker watches for it.
    die_with_parent(parent)
    # Ctrl-C reaches the whole process group; the parent shuts the pool down in order, so the
    # workers must not die mid-task with a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Searches are batch work: when cores are scarce, the event loop's process (every other
    # chat's commands) should get the CPU first.
    with contextlib.suppress(AttributeError, OSError):
        os.nice(_WORKER_NICENESS)
    if warm:
        from core.ai import warm_up

        warm_up()


def _worker_ready(pause: float) -> int:
    # Holding each start-up task a moment spreads them over all workers, so all are spawned
    # (and warmed up) during start() rather than on a player's move.
    time.sleep(pause)
    return os.getpid()


def _think(
    rows: int,
    cols: int,
    k: int,
    gravity: bool,
    moves: tuple[int, ...],
    level: str,
    budget: float,
    seed: int,
) -> int:
    """choose_move from picklable arguments, in a worker process."""
    position = Position.from_moves(Rules(rows, cols, k, gravity=gravity), moves)
    return choose_move(position, Level(level), budget=budget, rng=random.Random(seed))


# --- Views -----------------------------------------------------------------------------------


def _player_view(seat: Seat) -> PlayerView:
    return PlayerView(
        name=seat.name, user_id=seat.user_id, level=seat.level.value if seat.level else None
    )


def _status_text(session: Session, position: Position) -> Text:
    if session.status is Status.CHALLENGE:
        x, o = session.seats
        return Text("game.challenge_status", {"player_x": x.name, "player_o": o.name})
    if session.status is Status.FINISHED or position.is_over:
        if position.winner is None:
            return Text("game.draw")
        winner = session.seats[position.winner - 1]
        return Text("game.won", {"player": winner.name, "mark": MARKS[position.winner]})
    seat = session.seats[position.to_move - 1]
    return Text("game.turn", {"player": seat.name, "mark": MARKS[position.to_move]})


def board_view(session: Session, *, ended: Text | None = None) -> BoardView:
    """The board of ``session`` as adapters draw it.

    Args:
        session: the game.
        ended: for a game that was just ended (``/final``): the status line to show; nothing is
            playable then.
    """
    position = session.position()
    running = session.status is Status.ACTIVE and not position.is_over and ended is None
    rules = position.rules
    winning = frozenset(position.winning_line)
    last = position.last_cell
    playable = position.legal_moves() if running else ()
    free = frozenset(playable) if running and not rules.gravity else frozenset()
    first, second = position.stones
    # Straight from the bitboards: Position.cell() per cell costs a geometry lookup each.
    cells = tuple(
        CellView(
            index=index,
            row=index // rules.cols,
            col=index % rules.cols,
            mark=1 if first >> bit & 1 else 2 if second >> bit & 1 else 0,
            clickable=index in free,
            winning=index in winning,
            last=index == last,
        )
        for index, bit in enumerate(position.geometry.cell_bits)
    )
    return BoardView(
        session_id=session.id,
        version=session.version,
        rules=rules,
        cells=cells,
        playable=playable,
        players=(_player_view(session.seats[0]), _player_view(session.seats[1])),
        to_move=position.to_move if running else None,
        finished=not running and session.status is not Status.CHALLENGE,
        status=ended if ended is not None else _status_text(session, position),
    )


def _prefix(platform: str) -> str:
    # Element reserves "/" for its own commands, so Matrix users are told to type "!".
    return "!" if platform == "matrix" else PREFIXES[0]


def _error_reply(error: UserError, session_id: str | None = None) -> Reply:
    return Reply(
        text=Text(error.key, dict(error.params)),
        session_id=session_id,
        private=True,
        error=True,
    )


def canonical_user(actor: Actor, written: str) -> str:
    """The user id that a mention written by ``actor`` stands for.

    Discord ``<@123>``/``<@!123>`` -> ``123``; on Matrix ``@bob`` -> ``@bob:<the actor's
    server>`` and full ids stay as they are; elsewhere (console) ``@bob`` -> ``bob``.
    """
    text = written.strip()
    if text.startswith("<@") and text.endswith(">"):
        inner = text[2:-1].removeprefix("!")
        if inner.isascii() and inner.isdigit():
            return inner
    if actor.platform == "matrix":
        if text.startswith("@") and ":" not in text and ":" in actor.user_id:
            return f"{text}:{actor.user_id.split(':', 1)[1]}"
        return text
    return text.removeprefix("@") if len(text) > 1 else text


# --- The service -----------------------------------------------------------------------------


class GameService:
    """Starts games, applies moves, lets the bot answer, ends games; see the module docstring.

    Args:
        store: where sessions live (the single source of truth).
        settings: behaviour; defaults if None.
        clock: seconds since the epoch; injected so expiry is testable without sleeping.
        rng: the random source (who starts on ``random``, the bot's ties, ids are not from it).
    """

    def __init__(
        self,
        store: SessionStore,
        *,
        settings: ServiceSettings | None = None,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self._store = store
        self.settings = settings or ServiceSettings()
        self._clock = clock
        self._rng = rng or random.Random()
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._thinking: set[str] = set()  # sessions whose bot move is being computed here
        self._searching = 0  # HARD searches submitted to the pool and not answered yet
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._closing = False

    @property
    def store(self) -> SessionStore:
        return self._store

    # --- lifetime --------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the AI process pool (each worker JIT-compiles the search once, now rather than
        on a player's move) and the periodic sweep of expired games.

        The pool uses the ``spawn`` start method: a script that starts the service must keep
        its top level behind ``if __name__ == "__main__":`` (``python -m`` entry points do).
        Without :meth:`start` the service still works: HARD then runs in a thread and nothing
        sweeps (tests, tools).
        """
        started = time.perf_counter()
        workers = self.settings.workers
        if workers and self._pool is None:
            self._pool = self._new_pool(workers)
            loop = asyncio.get_running_loop()
            await asyncio.gather(
                *(loop.run_in_executor(self._pool, _worker_ready, 0.2) for _ in range(workers))
            )
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="session-sweeper")
        log.info(
            "service started: ai_workers=%d duration_ms=%.0f",
            workers,
            (time.perf_counter() - started) * 1000,
            extra={"action": "start", "duration_ms": (time.perf_counter() - started) * 1000},
        )

    def _new_pool(self, workers: int) -> concurrent.futures.ProcessPoolExecutor:
        # "spawn": forking a process that runs aiosqlite's thread (and the event loop) can copy
        # a held lock into the child; a fresh interpreter is slower to start but always sound.
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_init,
            initargs=(self.settings.ai_warm_up, Parent.this_process()),
        )

    async def close(self) -> None:
        """Let the requests in flight finish (up to ``settings.drain_timeout`` seconds), then
        stop the sweeper and the pool. New requests get ``error.shutting_down``. The store is the
        caller's to close."""
        self._closing = True
        try:
            await asyncio.wait_for(self._idle.wait(), self.settings.drain_timeout)
        except TimeoutError:
            log.warning("service closing with %d requests still in flight", self._in_flight)
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    async def sweep(self) -> int:
        """Delete every expired session now; how many were deleted."""
        return await self._store.delete_expired(self._clock())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_interval)
            started = time.perf_counter()
            try:
                count = await self.sweep()
            except Exception:
                # A locked or broken database must not end the sweeper: try again next time.
                log.exception("sweep failed", extra={"action": "sweep"})
                continue
            if count:
                duration = (time.perf_counter() - started) * 1000
                log.info(
                    "action=sweep deleted=%d duration_ms=%.1f",
                    count,
                    duration,
                    extra={"action": "sweep", "duration_ms": duration},
                )

    # --- entry points ----------------------------------------------------------------------

    async def handle_text(self, actor: Actor, text: str, addressed: bool = False) -> list[Reply]:
        """A chat message: a command, a move as text, or chatter (see the module docstring)."""
        return await self._run(actor, "text", None, lambda: self._text(actor, text, addressed))

    async def handle_command(self, actor: Actor, command: Command) -> list[Reply]:
        """An already parsed command (a slash command)."""
        name = type(command).__name__.lower()
        return await self._run(actor, name, None, lambda: self._command(actor, command, True))

    async def handle_move(
        self, actor: Actor, session_id: str, move: int, version: int | None = None
    ) -> list[Reply]:
        """A click or a reaction on the board of ``session_id``: ``move`` is 0-based."""

        async def run() -> list[Reply]:
            session = await self._load(session_id, actor)
            return await self._move(actor, session, move, version)

        return await self._run(actor, "move", session_id, run)

    async def handle_action(
        self, actor: Actor, session_id: str, action: ActionKind, version: int | None = None
    ) -> list[Reply]:
        """Accept, Decline or Rematch pressed on the message of ``session_id``."""

        async def run() -> list[Reply]:
            session = await self._load(session_id, actor)
            if version is not None and version != session.version:
                return await self._stale(session)
            if action is ActionKind.ACCEPT:
                return await self._accept(actor, session)
            if action is ActionKind.DECLINE:
                return await self._decline(actor, session)
            return await self._rematch(actor, session)

        return await self._run(actor, action.value, session_id, run)

    async def _run(
        self,
        actor: Actor,
        action: str,
        session_id: str | None,
        work: Callable[[], Awaitable[list[Reply]]],
    ) -> list[Reply]:
        """Run one request: count it in flight, turn failures into replies, log one line."""
        started = time.perf_counter()
        if self._closing:
            return [_error_reply(UserError("error.shutting_down"), session_id)]
        self._in_flight += 1
        self._idle.clear()
        outcome = "ok"
        try:
            replies = await work()
        except UserError as error:
            outcome = error.key
            replies = [_error_reply(error, session_id)]
        except StoreBusy:
            outcome = "busy"
            log.warning(
                "database busy: platform=%s chat=%s session=%s action=%s",
                actor.platform,
                actor.chat_id,
                session_id,
                action,
                extra={"platform": actor.platform, "chat": actor.chat_id, "action": action},
            )
            replies = [_error_reply(UserError("error.busy"), session_id)]
        except Exception:
            outcome = "internal"
            log.exception(
                "internal error: platform=%s chat=%s session=%s user=%s action=%s",
                actor.platform,
                actor.chat_id,
                session_id,
                actor.user_id,
                action,
                extra={
                    "platform": actor.platform,
                    "chat": actor.chat_id,
                    "session": session_id,
                    "action": action,
                },
            )
            replies = [_error_reply(UserError("error.internal"), session_id)]
        finally:
            self._in_flight -= 1
            if not self._in_flight:
                self._idle.set()
        session = session_id or next((r.session_id for r in replies if r.session_id), None)
        duration = (time.perf_counter() - started) * 1000
        log.info(
            "platform=%s chat=%s session=%s user=%s action=%s outcome=%s duration_ms=%.1f",
            actor.platform,
            actor.chat_id,
            session,
            actor.user_id,
            action,
            outcome,
            duration,
            extra={
                "platform": actor.platform,
                "chat": actor.chat_id,
                "session": session,
                "user": actor.user_id,
                "action": action,
                "outcome": outcome,
                "duration_ms": duration,
            },
        )
        return replies

    # --- text and commands -----------------------------------------------------------------

    async def _text(self, actor: Actor, text: str, addressed: bool) -> list[Reply]:
        prefixed = text.strip()[:1] in PREFIXES
        try:
            command = parse(text)
        except NotACommand:
            if addressed:
                raise
            return []
        except CommandError:
            # Unprefixed text that merely looks like a bad move ("12x", "b0") is chatter unless
            # the speaker is playing here or talking to the bot.
            if prefixed or addressed or await self._live_game(actor) is not None:
                raise
            return []
        return await self._command(actor, command, prefixed or addressed)

    async def _command(self, actor: Actor, command: Command, explicit: bool) -> list[Reply]:
        match command:
            case MoveText():
                return await self._typed_move(actor, command, explicit)
            case Start():
                return await self._start(actor, command)
            case Accept():
                return await self._accept(actor, await self._challenge_for(actor))
            case Decline():
                return await self._decline(actor, await self._challenge_for(actor))
            case Rematch():
                session = await self._store.last_finished(
                    actor.platform, actor.chat_id, actor.user_id
                )
                if session is None:
                    raise UserError("error.no_rematch", prefix=_prefix(actor.platform))
                return await self._rematch(actor, await self._check_expiry(session))
            case Final():
                return await self._final(actor)
            case Stats():
                return await self._stats(actor, command)
            case Top():
                return await self._top(actor)
            case Help():
                locale = normalize_locale(actor.locale or self.settings.default_locale)
                text = help_text(locale, _prefix(actor.platform))
                return [Reply(text=Text("game.help", {"text": text}), private=True)]
        raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover

    # --- loading, expiry -------------------------------------------------------------------

    async def _load(self, session_id: str, actor: Actor) -> Session:
        session = await self._store.get(session_id)
        # A session id names a game in one chat: a click or reaction from anywhere else (a
        # forged button, a forwarded message) finds nothing there.
        if session is None or (session.platform, session.chat_id) != (
            actor.platform,
            actor.chat_id,
        ):
            raise UserError("error.no_such_game")
        return await self._check_expiry(session)

    async def _check_expiry(self, session: Session) -> Session:
        """The session if it is still alive; an expired one is deleted and reported."""
        if session.expires_at > self._clock():
            return session
        await self._store.delete(session.id, expected_version=session.version)
        key = "error.challenge_expired" if session.status is Status.CHALLENGE else "error.expired"
        raise UserError(key)

    async def _live_game(self, actor: Actor) -> Session | None:
        """The actor's live game in this chat; an expired one is deleted and ignored."""
        session = await self._store.live_game(actor.platform, actor.chat_id, actor.user_id)
        if session is not None and session.expires_at <= self._clock():
            await self._store.delete(session.id, expected_version=session.version)
            return None
        return session

    async def _challenge_for(self, actor: Actor) -> Session:
        session = await self._store.challenge_for(actor.platform, actor.chat_id, actor.user_id)
        if session is None:
            raise UserError("error.no_challenge")
        return await self._check_expiry(session)

    async def _ensure_free(self, actor: Actor) -> None:
        """Refuse a second live game of the actor in this chat, saying where the first is."""
        session = await self._live_game(actor)
        if session is not None:
            raise self._already_playing(actor, session)

    def _already_playing(self, actor: Actor, session: Session) -> UserError:
        seat = session.seat_of(actor.user_id)
        if seat is None:  # a challenge the actor sent: the opponent is the challenged seat
            opponent = next(s.name for s in session.seats if s.user_id != actor.user_id)
        else:
            opponent = session.seats[2 - seat].name
        return UserError(
            "error.already_playing",
            game=session.game_name,
            opponent=opponent,
            prefix=_prefix(actor.platform),
        )

    async def _create(self, actor: Actor, session: Session) -> None:
        try:
            await self._store.create(session)
        except AlreadyPlaying as error:
            # Lost a race with another start by the same user: name the game that won.
            existing = await self._store.get(error.session_id)
            if existing is None:
                raise UserError("error.busy") from None
            raise self._already_playing(actor, existing) from None

    # --- starting games --------------------------------------------------------------------

    def _new_session(
        self,
        actor: Actor,
        seats: tuple[Seat, Seat],
        rules: Rules,
        status: Status,
        challenged: str | None = None,
    ) -> Session:
        now = self._clock()
        ttl = self.settings.challenge_ttl if status is Status.CHALLENGE else self.settings.game_ttl
        return Session(
            id=new_session_id(),
            platform=actor.platform,
            chat_id=actor.chat_id,
            seats=seats,
            rules=rules,
            moves=(),
            status=status,
            version=1,
            created_at=now,
            updated_at=now,
            expires_at=now + ttl,
            challenger=actor.user_id,
            challenged=challenged,
        )

    def _starter_first(self, first: First) -> bool:
        if first is First.RANDOM:
            return self._rng.random() < 0.5
        return first is First.ME

    async def _start(self, actor: Actor, command: Start) -> list[Reply]:
        me = Seat.person(actor.user_id, actor.display_name)
        match command.opponent:
            case VsBot(level):
                await self._ensure_free(actor)
                bot = Seat.bot(level)
                seats = (me, bot) if self._starter_first(command.first) else (bot, me)
                session = self._new_session(actor, seats, command.rules, Status.ACTIVE)
                return await self._open_vs_bot(actor, session, "game.started")
            case VsUser(user):
                challenged = canonical_user(actor, user)
                if challenged == actor.user_id:
                    raise UserError("error.self_challenge")
                await self._ensure_free(actor)
                other = Seat.person(challenged, user.strip())
                seats = (me, other) if self._starter_first(command.first) else (other, me)
                session = self._new_session(
                    actor, seats, command.rules, Status.CHALLENGE, challenged
                )
                await self._create(actor, session)
                return [self._challenge_reply(actor, session)]
            case BotVsBot(first_level, second_level):
                seats = (Seat.bot(first_level), Seat.bot(second_level))
                session = self._new_session(actor, seats, command.rules, Status.ACTIVE)
                return await self._watch(actor, session)
        raise AssertionError(f"unhandled opponent {command.opponent!r}")  # pragma: no cover

    async def _open_vs_bot(self, actor: Actor, session: Session, key: str) -> list[Reply]:
        await self._create(actor, session)
        current = await self._bot_turns(session, self.settings.ai_budget)
        return [self._board_reply(current, new_message=True, text=Text(key))]

    def _challenge_reply(self, actor: Actor, session: Session) -> Reply:
        challenged = next(s for s in session.seats if s.user_id == session.challenged)
        prefix = _prefix(actor.platform)
        minutes = max(1, round(self.settings.challenge_ttl / 60))
        return Reply(
            text=Text(
                "game.challenge",
                {
                    "challenger": actor.display_name,
                    "challenged": challenged.name,
                    "game": session.game_name,
                    "accept": f"{prefix}accept",
                    "decline": f"{prefix}decline",
                    "minutes": minutes,
                },
            ),
            new_message=True,
            actions=(ActionKind.ACCEPT, ActionKind.DECLINE),
            session_id=session.id,
            version=session.version,
        )

    async def _watch(self, actor: Actor, session: Session) -> list[Reply]:
        """Bot against bot: the new board, then one update per move, the last with the result."""
        await self._create(actor, session)
        replies = [self._board_reply(session, new_message=True, text=Text("game.watch"))]
        current = session
        while current.status is Status.ACTIVE:
            following = await self._bot_move(current, self.settings.bot_vs_bot_budget)
            if following is None:  # ended (/final) or expired meanwhile
                break
            current = following
            replies.append(self._board_reply(current))
        return replies

    # --- moves -----------------------------------------------------------------------------

    async def _typed_move(self, actor: Actor, move: MoveText, explicit: bool) -> list[Reply]:
        session = await self._store.live_game(actor.platform, actor.chat_id, actor.user_id)
        if session is None:
            if not explicit:
                return []
            raise UserError("error.no_game", prefix=_prefix(actor.platform))
        session = await self._check_expiry(session)
        if session.status is Status.CHALLENGE:
            raise UserError("error.challenge_pending")
        return await self._move(actor, session, resolve_move(move, session.rules), None)

    async def _move(
        self, actor: Actor, session: Session, move: int, version: int | None
    ) -> list[Reply]:
        if version is not None and version != session.version:
            return await self._stale(session)
        seat = session.seat_of(actor.user_id)
        if seat is None:
            raise UserError("error.not_your_game")
        if session.status is Status.CHALLENGE:
            raise UserError("error.challenge_pending")
        if session.status is Status.FINISHED:
            raise UserError("error.game_over", prefix=_prefix(actor.platform))
        position = session.position()
        if position.to_move != seat:
            other = session.seats[position.to_move - 1]
            if not other.is_bot:
                raise UserError("error.not_your_turn", player=other.name)
            if session.id in self._thinking:
                raise UserError("error.bot_thinking")
            # The bot's move was lost (a restart between the player's move and the bot's):
            # play it now and show the board; the player's move was meant for the old board.
            current = await self._bot_turns(session, self.settings.ai_budget)
            return [
                self._board_reply(current),
                Reply(
                    text=Text("error.board_changed"),
                    private=True,
                    error=True,
                    session_id=session.id,
                    version=current.version,
                ),
            ]
        self._check_legal(position, move)
        after = self._advanced(session, position.play(move))
        if not await self._store.update(after, expected_version=session.version):
            return await self._stale(session)
        current = await self._bot_turns(after, self.settings.ai_budget)
        return [self._board_reply(current)]

    @staticmethod
    def _check_legal(position: Position, move: int) -> None:
        if move in position.legal_moves():
            return
        rules = position.rules
        if rules.gravity:
            if 0 <= move < rules.cols:
                raise UserError("error.column_full", column=move + 1)
            raise UserError("error.off_board_column", column=move + 1, max=rules.cols)
        if 0 <= move < rules.cells:
            raise UserError("error.occupied", cell=move + 1)
        raise UserError("error.off_board_cell", cell=move + 1, max=rules.cells)

    def _advanced(self, session: Session, position: Position) -> Session:
        now = self._clock()
        return replace(
            session,
            moves=position.moves,
            status=Status.FINISHED if position.is_over else Status.ACTIVE,
            winner=position.winner,
            version=session.version + 1,
            updated_at=now,
            expires_at=now + self.settings.game_ttl,
        )

    async def _stale(self, session: Session) -> list[Reply]:
        """The board changed under the player: show the current one and say so."""
        current = await self._store.get(session.id)
        if current is None:
            raise UserError("error.no_such_game")
        replies: list[Reply] = []
        if current.status is not Status.CHALLENGE:
            replies.append(self._board_reply(current, result=False))
        replies.append(
            Reply(
                text=Text("error.board_changed"),
                session_id=current.id,
                version=current.version,
                private=True,
                error=True,
            )
        )
        return replies

    # --- the bot ---------------------------------------------------------------------------

    async def _bot_turns(self, session: Session, budget: float) -> Session:
        """Let the bot play while it is its turn; the session as it then stands."""
        current = session
        while current.status is Status.ACTIVE:
            position = current.position()
            if not current.seats[position.to_move - 1].is_bot:
                break
            following = await self._bot_move(current, budget)
            if following is None:
                break
            current = following
        return current

    async def _bot_move(self, session: Session, budget: float) -> Session | None:
        """One move of the bot whose turn it is; None if the session changed meanwhile."""
        position = session.position()
        level = session.seats[position.to_move - 1].level
        assert level is not None
        self._thinking.add(session.id)
        try:
            move = await self._choose(session, position, level, budget)
        finally:
            self._thinking.discard(session.id)
        after = self._advanced(session, position.play(move))
        if not await self._store.update(after, expected_version=session.version):
            return None
        return after

    async def _choose(
        self, session: Session, position: Position, level: Level, budget: float
    ) -> int:
        started = time.perf_counter()
        seed = self._rng.getrandbits(64)
        rules = position.rules
        args = (rules.rows, rules.cols, rules.k, rules.gravity, position.moves)
        move: int
        if level is Level.EASY:
            # A random choice: cheaper inline than any hop to a thread.
            move = choose_move(position, level, rng=random.Random(seed))
        elif level is Level.HARD and self._pool is not None:
            move = await self._choose_in_pool(session, position, args, budget, seed)
        else:
            # MEDIUM (and HARD without a pool): a thread keeps the event loop free.
            move = await asyncio.to_thread(_think, *args, level.value, budget, seed)
        if move not in position.legal_moves():
            log.error("bot chose an illegal move %r in session %s", move, session.id)
            move = self._rng.choice(position.legal_moves())
        duration = (time.perf_counter() - started) * 1000
        log.debug(
            "action=bot_move session=%s level=%s duration_ms=%.1f",
            session.id,
            level.value,
            duration,
            extra={"session": session.id, "action": "bot_move", "duration_ms": duration},
        )
        return move

    async def _choose_in_pool(
        self,
        session: Session,
        position: Position,
        args: tuple[int, int, int, bool, tuple[int, ...]],
        budget: float,
        seed: int,
    ) -> int:
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        pool = self._pool
        # The deadline counts from submission, so it must cover the searches queued ahead of
        # this one (each takes about its budget on one of the workers), or a busy pool would
        # turn every queued HARD move into a fallback.
        waves = 1 + self._searching // max(1, self.settings.workers)
        self._searching += 1
        try:
            future = loop.run_in_executor(pool, _think, *args, Level.HARD.value, budget, seed)
            return await asyncio.wait_for(future, waves * budget + self.settings.ai_grace)
        except (TimeoutError, BrokenProcessPool) as error:
            # A worker hung or died: the player still gets an answer (MEDIUM's), and a broken
            # pool is replaced so the next HARD move runs in the pool again.
            log.error(
                "HARD move failed in the pool (%s) for session %s; playing MEDIUM",
                type(error).__name__,
                session.id,
                extra={"session": session.id, "action": "bot_move"},
            )
            if isinstance(error, BrokenProcessPool) and self._pool is pool:
                self._pool = self._new_pool(self.settings.workers)
                pool.shutdown(wait=False, cancel_futures=True)
            return await asyncio.to_thread(_think, *args, Level.MEDIUM.value, budget, seed)
        finally:
            self._searching -= 1

    # --- challenges ------------------------------------------------------------------------

    async def _accept(self, actor: Actor, session: Session) -> list[Reply]:
        session = await self._check_expiry(session)
        if session.status is not Status.CHALLENGE:
            raise UserError("error.not_a_challenge")
        if session.challenged != actor.user_id:
            challenged = next(s.name for s in session.seats if s.user_id == session.challenged)
            raise UserError("error.not_challenged", player=challenged)
        seats = tuple(
            Seat.person(actor.user_id, actor.display_name)
            if seat.user_id == actor.user_id
            else seat
            for seat in session.seats
        )
        now = self._clock()
        accepted = replace(
            session,
            seats=(seats[0], seats[1]),
            status=Status.ACTIVE,
            version=session.version + 1,
            updated_at=now,
            expires_at=now + self.settings.game_ttl,
        )
        try:
            applied = await self._store.update(accepted, expected_version=session.version)
        except AlreadyPlaying as error:
            existing = await self._store.get(error.session_id)
            if existing is None:
                raise UserError("error.busy") from None
            raise self._already_playing(actor, existing) from None
        if not applied:
            return await self._stale(session)
        return [
            self._board_reply(
                accepted,
                new_message=True,
                text=Text("game.accepted", {"player": actor.display_name}),
            )
        ]

    async def _decline(self, actor: Actor, session: Session) -> list[Reply]:
        session = await self._check_expiry(session)
        if session.status is not Status.CHALLENGE:
            raise UserError("error.not_a_challenge")
        if actor.user_id == session.challenged:
            key = "game.declined"
        elif actor.user_id == session.challenger:
            key = "game.withdrawn"
        else:
            challenged = next(s.name for s in session.seats if s.user_id == session.challenged)
            raise UserError("error.not_challenged", player=challenged)
        if not await self._store.delete(session.id, expected_version=session.version):
            return await self._stale(session)
        return [
            Reply(
                text=Text(key, {"player": actor.display_name}),
                session_id=session.id,
                version=session.version + 1,
            )
        ]

    # --- rematch, final --------------------------------------------------------------------

    async def _rematch(self, actor: Actor, session: Session) -> list[Reply]:
        if session.status is not Status.FINISHED:
            raise UserError("error.not_finished")
        seat = session.seat_of(actor.user_id)
        watching = all(s.is_bot for s in session.seats)
        if seat is None and not watching:
            raise UserError("error.not_your_game")
        swapped = (session.seats[1], session.seats[0])
        opponent = None if seat is None else session.seats[2 - seat]
        if opponent is not None and not opponent.is_bot:
            await self._ensure_free(actor)
            assert opponent.user_id is not None
            new = self._new_session(
                actor, swapped, session.rules, Status.CHALLENGE, opponent.user_id
            )
            new = replace(new, seats=self._renamed(swapped, actor))
            await self._consume(session)
            await self._create(actor, new)
            return [self._challenge_reply(actor, new)]
        if not watching:
            await self._ensure_free(actor)
        new = self._new_session(actor, self._renamed(swapped, actor), session.rules, Status.ACTIVE)
        await self._consume(session)
        if watching:
            return await self._watch(actor, new)
        return await self._open_vs_bot(actor, new, "game.rematch")

    @staticmethod
    def _renamed(seats: tuple[Seat, Seat], actor: Actor) -> tuple[Seat, Seat]:
        # People rename themselves between games.
        def fresh(seat: Seat) -> Seat:
            if seat.user_id == actor.user_id:
                return Seat.person(actor.user_id, actor.display_name)
            return seat

        return fresh(seats[0]), fresh(seats[1])

    async def _consume(self, finished: Session) -> None:
        """A finished game gives one rematch: delete it, or refuse if someone was quicker."""
        if not await self._store.delete(finished.id, expected_version=finished.version):
            raise UserError("error.no_such_game")

    async def _final(self, actor: Actor) -> list[Reply]:
        session = await self._live_game(actor)
        if session is None:
            raise UserError("error.nothing_to_end", prefix=_prefix(actor.platform))
        await self._store.delete(session.id)
        text = Text("game.ended", {"player": actor.display_name, "game": session.game_name})
        if session.status is Status.CHALLENGE:
            return [
                Reply(
                    text=Text("game.withdrawn", {"player": actor.display_name}),
                    session_id=session.id,
                    version=session.version + 1,
                )
            ]
        gone = replace(session, version=session.version + 1)
        return [
            Reply(
                text=text,
                board=board_view(gone, ended=text),
                session_id=session.id,
                version=gone.version,
            )
        ]

    # --- stats -----------------------------------------------------------------------------

    async def _stats(self, actor: Actor, command: Stats) -> list[Reply]:
        if command.user is None:
            user_id, name = actor.user_id, actor.display_name
        else:
            user_id, name = canonical_user(actor, command.user), command.user.strip()
        total = await self._store.player_stats(actor.platform, user_id)
        if total is None:
            return [Reply(text=Text("stats.none", {"player": name}))]
        here = await self._store.player_stats(actor.platform, user_id, actor.chat_id)
        return [
            Reply(
                text=Text(
                    "stats.player",
                    {
                        "player": total.name if command.user is not None else name,
                        "wins": total.wins,
                        "losses": total.losses,
                        "draws": total.draws,
                        "chat_wins": here.wins if here else 0,
                        "chat_losses": here.losses if here else 0,
                        "chat_draws": here.draws if here else 0,
                    },
                )
            )
        ]

    async def _top(self, actor: Actor) -> list[Reply]:
        rows = await self._store.top(actor.platform, actor.chat_id, self.settings.top_size)
        if not rows:
            return [Reply(text=Text("stats.top_empty"))]
        lines = "\n".join(
            f"{rank}. {row.name} — {row.wins} · {row.losses} · {row.draws}"
            for rank, row in enumerate(rows, start=1)
        )
        return [Reply(text=Text("stats.top", {"lines": lines}))]

    # --- replies ---------------------------------------------------------------------------

    def _board_reply(
        self,
        session: Session,
        *,
        new_message: bool = False,
        text: Text | None = None,
        result: bool = True,
    ) -> Reply:
        view = board_view(session)
        actions: tuple[ActionKind, ...] = ()
        if session.status is Status.FINISHED:
            actions = (ActionKind.REMATCH,)
            if result and text is None:
                text = view.status
        return Reply(
            text=text,
            board=view,
            new_message=new_message,
            actions=actions,
            session_id=session.id,
            version=session.version,
        )
