"""GameService: the façade adapters call (it implements :class:`core.ports.GameServicePort`).

It owns nothing but the wiring: each request is run by :class:`~core.sessions.requests.Requests`
(accounting, error -> reply, receipt, one log line), and its text or command is handed by
:class:`~core.sessions.dispatch.Dispatch` to the part that owns it:
:class:`~core.sessions.play.challenges.Challenges` (new games, answers, rematch, ``/final``),
:class:`~core.sessions.play.moves.Moves` (a player's move and the bot's answer),
:class:`~core.sessions.play.watch.Watcher` (bots' games),
:class:`~core.sessions.players.stats.Results` (``/stats``, ``/top``),
:class:`~core.sessions.reviews.review.Reviews` (``/review``, from the reviews
:class:`~core.sessions.reviews.review.KeptReviews` keeps while games go on). The AI runs behind
:class:`core.workers.runner.AiRunner`.

What the replies look like (adapters may rely on this):

- A new game against the bot, an accepted challenge, a rematch against the bot: one reply with
  ``board`` and ``new_message=True`` (the bot's first move, if it starts, is already on it).
- A challenge: one reply with ``text`` (``game.challenge``), ``actions=(ACCEPT, DECLINE)``,
  ``new_message=True`` and no board; a decline or withdrawal: a text reply.
- A move: one reply with the updated ``board`` (the bot's answer included). When the move ends
  the game the same reply carries the result as ``text`` and ``actions=(REMATCH,)``.
- Bot against bot: the new board; each move follows through the platform's
  :attr:`~core.ports.PlatformStyle.publish` as a board update, the last with the result (where
  the platform has no ``publish``, they follow in the same answer).
- A game between people whose clock runs out (no request: the sweep): through
  ``publish`` (in the process that serves the chat), the board at its end, then the result
  (``game.timeout``; ``ratings.game_result`` under a rated game, as a move's) as a new
  message; a reminder before that is a text with :attr:`~core.replies.Reply.mention` set to
  the player to move. A move that comes after the deadline is answered with the board at its
  end.
- ``/final``: a resignation (the finished board with ``game.resigned``), a stopped bots' game,
  a game without moves ended (``game.ended``), or a withdrawn challenge.
- A lost race or a stale button: a board update with the current board, then a private error
  (``error.board_changed``).
- Typed moves without prefix from someone who has no game in the chat are ignored unless
  ``addressed`` (people talk about numbers, too).
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from collections.abc import Callable, Sequence

from core.admin.effective import SettingsCache
from core.admin.keys import Effective
from core.admin.scopes import Source
from core.clean import clean
from core.commands import Command
from core.errors import UserError
from core.ports import KvEntry, NullObserver, PlatformStyle, ServiceObserver
from core.replies import ActionKind, Actor, Reply
from core.sessions.admin.policy import Policy
from core.sessions.admin.settings_command import Admin
from core.sessions.clocks.clock import Clocks
from core.sessions.clocks.sweeper import Sweeper
from core.sessions.context import Context
from core.sessions.dispatch import Dispatch
from core.sessions.events.command import Tournaments
from core.sessions.events.director import Director, Directors
from core.sessions.events.notices import Notices
from core.sessions.openplay.other_chats import OtherChats
from core.sessions.openplay.relay import Relay
from core.sessions.openplay.seeking import Matchmaker
from core.sessions.play.challenges import Challenges
from core.sessions.play.left import Departures
from core.sessions.play.moved import carry_games_over, shown_again
from core.sessions.play.moves import Moves, Unplayable, off_board
from core.sessions.play.watch import Watcher
from core.sessions.players.ratings import Ratings
from core.sessions.players.stats import Results
from core.sessions.players.themes import Themes
from core.sessions.players.weblinks import WebLinks
from core.sessions.puzzles.board import parse_board
from core.sessions.puzzles.daily import DailyPosts
from core.sessions.puzzles.solving import Puzzles
from core.sessions.requests import Requests
from core.sessions.reviews.review import KeptReviews, Reviews
from core.sessions.settings import ServiceSettings
from core.sessions.views import board_reply
from core.store import StoreBusy, StoreUnavailable, sessions
from core.store.port import Store
from core.workers.runner import AiRunner, PoolRunner

log = logging.getLogger("core.sessions")


class GameService:
    """Starts games, applies moves, lets the bot answer, ends games; see the module docstring.

    Args:
        store: where sessions live (the single source of truth).
        settings: behaviour; defaults if None.
        clock: seconds since the epoch; injected so expiry is testable without sleeping.
        rng: the random source (who starts on ``random``, the bot's seeds; ids are not from it).
        runner: chooses the bot's moves; by default a process pool of ``settings.ai_workers``.
        observer: told about games, moves, failures and thinking time (metrics).
    """

    def __init__(
        self,
        store: Store,
        *,
        settings: ServiceSettings | None = None,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        runner: AiRunner | None = None,
        observer: ServiceObserver | None = None,
    ) -> None:
        self.settings = settings or ServiceSettings()
        rng = rng or random.Random()
        observer = observer or NullObserver()
        self.runner = runner or PoolRunner(
            workers=self.settings.workers,
            warm_up=self.settings.ai_warm_up,
            grace=self.settings.ai_grace,
            rng=random.Random(rng.getrandbits(64)),
            budget=self.settings.ai_budget,
        )
        self._ctx = Context(store, self.settings, clock, rng, self.runner, observer)
        self._requests = Requests(store, observer, self._ctx.outages)
        self._kept = KeptReviews(self._ctx)
        self._ctx.followers.append(self._kept.changed)
        self._moves = Moves(self._ctx)
        self._watcher = Watcher(self._ctx, self._moves)
        cache = SettingsCache(store, self.settings.chat_defaults)
        self._policy = Policy(self._ctx, cache, limits=self.settings.limits)
        self._challenges = Challenges(self._ctx, self._moves, self._watcher, self._policy)
        self._ratings = Ratings(self._ctx)
        self._reviews = Reviews(self._ctx, self._kept)
        self._themes = Themes(self._ctx, cache)
        self._links = WebLinks(self._ctx)
        self._relay = Relay(self._ctx, self._annotated)
        self._other_chats = OtherChats(self._ctx, self._relay)
        self._requests.around = self._other_chats.mirrored
        self._matchmaker = Matchmaker(self._ctx, self._policy, self._relay)
        self._puzzles = Puzzles(self._ctx, self._policy)
        self._daily = DailyPosts(self._ctx, self._relay)
        self._departures = Departures(self._ctx, self._relay)
        self._clocks = Clocks(self._ctx, self._annotated, self._relay)
        notices = Notices(self._ctx, self._relay)
        self.director = Director(self._ctx, self._relay)
        """Steps tournaments (tests step it with their own clock; :meth:`start` runs it)."""
        self._directors = Directors(self._ctx, self.director)
        self._dispatch = Dispatch(
            self._ctx,
            policy=self._policy,
            moves=self._moves,
            departures=self._departures,
            challenges=self._challenges,
            results=Results(self._ctx, self._ratings),
            ratings=self._ratings,
            reviews=self._reviews,
            admin=Admin(self._ctx, cache, self._matchmaker.open_play_changed),
            themes=self._themes,
            matchmaker=self._matchmaker,
            tournaments=Tournaments(self._ctx, self._policy, notices),
            puzzles=self._puzzles,
        )
        self._sweeper = Sweeper(
            store, self.settings, self._ctx.outages, self.sweep_clocks, self.sweep
        )
        self.sweeper_lease = self._sweeper.lease
        """Held while this process is the one that sweeps (health and metrics read it)."""

    @property
    def store(self) -> Store:
        return self._ctx.store

    async def chat_settings(self, actor: Actor) -> Effective:
        """The settings in force in the actor's chat (cached for a few seconds)."""
        return await self._policy.chat(clean(actor))

    def register_platform(self, style: PlatformStyle) -> None:
        """How users of ``style.platform`` write prefixes and mentions, and how to show them
        later replies (which are marked with the chat's language, style and theme first, as
        answers are: :meth:`_marked`)."""
        publish = style.publish
        if publish is not None:

            async def marked(actor: Actor, replies: Sequence[Reply]) -> None:
                await publish(actor, await self._marked(actor, list(replies)))

            style = dataclasses.replace(style, publish=marked)
        self._ctx.styles[style.platform] = style

    # --- lifetime --------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the AI runner (each worker JIT-compiles the search once, now rather than on a
        player's move) and the periodic sweep of expired games.

        Without :meth:`start` the service still works: HARD then runs in a thread and nothing
        sweeps (tests, tools).
        """
        started = time.perf_counter()
        await self.runner.start()
        self._sweeper.start()
        self._daily.start()
        duration = (time.perf_counter() - started) * 1000
        self._matchmaker.start()
        self._directors.start()
        log.info(
            "service started: ai_workers=%d duration_ms=%.0f",
            self.runner.load().workers,
            duration,
            extra={"action": "start", "duration_ms": duration},
        )

    async def close(self, drain_seconds: float | None = None) -> None:
        """Let the requests in flight finish (up to ``drain_seconds``, by default
        ``settings.drain_timeout``), then stop the bots' games, the sweeper and the AI runner.
        New requests get ``error.shutting_down``. The store is the caller's to close."""
        self._requests.close()
        drain = self.settings.drain_timeout if drain_seconds is None else drain_seconds
        await self._requests.drain(drain)
        await self._watcher.close()
        await self._moves.close()
        await self._kept.close()
        await self._matchmaker.close()
        await self._directors.close()
        await self._sweeper.close()
        await self._daily.close()
        await self._relay.close()  # after the last pass and sweep: what they had to say
        await self.runner.close()

    async def clocks_idle(self) -> None:
        """Wait until the timeouts and reminders swept are handed to their platforms (tests)."""
        await self._relay.idle()

    async def kept_reviews_idle(self) -> None:
        """Wait until the reviews this process is keeping are stored (tests, benchmarks)."""
        await self._kept.idle()

    async def match_waiting(self) -> int:
        """One matchmaking pass now (``start`` runs one a second); the games made."""
        return await self._matchmaker.pass_once()

    async def post_daily_puzzles(self) -> int:
        """One look for chats due their daily puzzle now (``start`` looks every minute while
        this process holds the lease); how many posts this process left."""
        return await self._daily.post_due()

    async def open_games_idle(self) -> None:
        """Wait until open games' boards in their other chats are shown (tests)."""
        await self._relay.idle()

    async def sweep(self) -> int:
        """Delete every expired session now; how many were deleted. The lifetimes an outage
        of the store took are given back first (:mod:`core.sessions.outages`)."""
        await self._ctx.outages.settle()
        return await self._ctx.store.run(sessions.delete_expired(self._ctx.clock()))

    async def sweep_clocks(self) -> int:
        """End every game whose move clock ran out and send the reminders due now; how many
        games ended (see :mod:`core.sessions.clocks.clock`)."""
        return await self._clocks.sweep()

    # --- entry points ----------------------------------------------------------------------

    async def handle_text(
        self, actor: Actor, text: str, addressed: bool = False, *, receipt: KvEntry | None = None
    ) -> list[Reply]:
        """A chat message: a command, a move as text, or chatter (see the module docstring)."""
        actor, text, receipt = clean(actor), clean(text), clean(receipt)

        async def run() -> list[Reply]:
            return await self._dispatch.text(actor, text, addressed)

        return await self._localized(
            actor, await self._requests.run(actor, "text", None, run, receipt)
        )

    async def handle_command(
        self, actor: Actor, command: Command, *, receipt: KvEntry | None = None
    ) -> list[Reply]:
        """An already parsed command (a slash command)."""
        actor, command, receipt = clean(actor), clean(command), clean(receipt)

        async def run() -> list[Reply]:
            limited = await self._policy.admit(actor)
            if limited is not None:
                return limited
            return await self._dispatch.command(actor, command, True)

        return await self._localized(
            actor,
            await self._requests.run(actor, type(command).__name__.lower(), None, run, receipt),
        )

    async def handle_move(
        self,
        actor: Actor,
        session_id: str,
        move: int,
        version: int | None = None,
        *,
        receipt: KvEntry | None = None,
    ) -> list[Reply]:
        """A click or a reaction on the board of ``session_id``: ``move`` is 0-based."""
        actor, session_id, receipt = clean(actor), clean(session_id), clean(receipt)

        async def run() -> list[Reply]:
            if parse_board(session_id) is not None:
                return await self._puzzles.clicked(actor, session_id, move, version)
            session = await self._ctx.load(session_id, actor)
            if not isinstance(move, int) or isinstance(move, bool):
                # A move is a cell or column number; anything else is off the board.
                raise off_board(session.rules, str(move))
            return await self._dispatch.play(
                actor, session, lambda s: self._moves.check(actor, s, move, version), typed=False
            )

        return await self._localized(
            actor, await self._requests.run(actor, "move", session_id, run, receipt)
        )

    async def handle_pick(
        self, actor: Actor, session_id: str, version: int | None = None
    ) -> list[Reply] | None:
        """A first step towards a move on the board of ``session_id`` (a picture board's column
        menu): None when the actor may move there now, else what a move of theirs would get
        (not their game, not their turn, a stale board...), possibly nothing at all (the rate
        limiter's silence)."""
        actor, session_id = clean(actor), clean(session_id)
        allowed = False

        async def run() -> list[Reply]:
            nonlocal allowed
            if parse_board(session_id) is not None:
                refused = await self._puzzles.picked(actor, session_id, version)
                allowed = refused is None
                return refused or []
            session = await self._ctx.load(session_id, actor)
            try:
                self._moves.check_turn(actor, session, version)
            except (UserError, Unplayable) as refused:
                return await self._dispatch.refused(actor, session, refused, None)
            allowed = True
            return []

        replies = await self._requests.run(actor, "pick", session_id, run, None)
        return None if allowed else await self._localized(actor, replies)

    async def handle_action(
        self,
        actor: Actor,
        session_id: str,
        action: ActionKind,
        version: int | None = None,
        *,
        receipt: KvEntry | None = None,
    ) -> list[Reply]:
        """Accept, Decline, Rematch or Review pressed on the message of ``session_id``."""
        actor, session_id, receipt = clean(actor), clean(session_id), clean(receipt)

        async def run() -> list[Reply]:
            limited = await self._policy.admit(actor)
            if limited is not None:
                return limited
            session = await self._ctx.load(session_id, actor)
            if version is not None and version != session.version:
                return await self._moves.stale(session)
            if action is ActionKind.ACCEPT:
                return await self._challenges.accept(actor, session)
            if action is ActionKind.DECLINE:
                return await self._challenges.decline(actor, session)
            if action is ActionKind.REVIEW:
                return await self._reviews.review(session)
            if action is ActionKind.BLOCK:
                return await self._matchmaker.block_opponent(actor, session)
            return await self._challenges.rematch(actor, session)

        return await self._localized(
            actor, await self._requests.run(actor, action.value, session_id, run, receipt)
        )

    async def carry_games_over(
        self, platform: str, old_chat_id: str, new_chat_id: str, users: Sequence[str]
    ) -> list[Reply]:
        """The games ``users`` play in ``old_chat_id``, moved to ``new_chat_id`` (a room that
        was upgraded); see :func:`core.sessions.play.moved.carry_games_over`."""
        replies: list[Reply] = []
        moved = await carry_games_over(self.store, platform, old_chat_id, new_chat_id, users)
        for session in moved:
            replies += await shown_again(
                session, challenge=self._challenges.challenge_reply, watch=self._watcher.watch
            )
        return replies

    async def current_board(
        self, session_id: str, *, platform: str | None = None, chat_id: str | None = None
    ) -> Reply | None:
        """The board of ``session_id`` as it stands (see the port)."""
        session = await self.store.run(sessions.get(session_id))
        if session is None:
            return None
        place = Actor(platform or session.platform, chat_id or session.chat_id, "", "")
        return (await self._localized(place, [board_reply(session)]))[0]

    async def abandon_games(
        self,
        platform: str,
        chat_ids: Sequence[str],
        user_id: str | None = None,
        *,
        server_id: str | None = None,
    ) -> int:
        """End as abandoned the live games and challenges in ``chat_ids`` (and in the chats of
        ``server_id``) that the bot left (``user_id`` None) or that ``user_id`` left; see
        :mod:`core.sessions.play.left`."""
        chat_ids = [clean(chat_id) for chat_id in chat_ids]
        return await self._departures.abandon(
            clean(platform),
            chat_ids,
            None if user_id is None else clean(user_id),
            None if server_id is None else clean(server_id),
        )

    async def live_chats(self, platform: str, server_id: str) -> list[str]:
        """The chats of ``server_id`` with live games or challenges (see the port)."""
        return await self._departures.live_chats(clean(platform), clean(server_id))

    async def chat_language(self, actor: Actor) -> str | None:
        """The language the admins of ``actor``'s chat chose, or None (see the port)."""
        chat = await self._chat_or_none(actor)
        if chat is None or chat.sources["language"] is Source.DEFAULT:
            return None
        return chat.language

    async def _chat_or_none(self, actor: Actor) -> Effective | None:
        try:
            return await self._policy.chat(actor)
        except (StoreBusy, StoreUnavailable):
            return None  # the answer (often "cannot save right now") matters more
        except Exception:
            # Outside the request's own handling, and nothing may escape the service: the
            # answer goes out in the default language and look.
            log.exception("could not read the chat's settings", extra={"action": "localize"})
            return None

    async def _localized(self, actor: Actor, replies: list[Reply]) -> list[Reply]:
        """The replies, with the new ratings under a rated game's result, marked as
        :meth:`_marked` says."""
        if not replies:
            return replies
        replies = await self._ratings.annotated(replies)
        return await self._marked(actor, replies)

    async def _annotated(self, actor: Actor, replies: list[Reply]) -> list[Reply]:
        """Later replies with the new ratings under a rated game's result; they are marked on
        their way to ``publish`` (:meth:`register_platform`), so not here as well."""
        return await self._ratings.annotated(replies)

    async def _marked(self, actor: Actor, replies: list[Reply]) -> list[Reply]:
        """The replies marked for the actor's chat (:meth:`Themes.marked`, then
        :meth:`WebLinks.marked`); marking twice gives the same replies (later replies are
        marked on their way to ``publish``)."""
        if not replies:
            return replies
        chat = await self._chat_or_none(actor)
        return self._links.marked(await self._themes.marked(actor, replies, chat), chat)
