"""Starting games and ending them by choice: new games, challenges, rematches and ``/final``."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from core.admin.keys import Effective
from core.ai import Level
from core.commands import DEFAULT_LEVEL, BotVsBot, First, Start, VsBot, VsUser
from core.errors import UserError
from core.games import Rules
from core.i18n import Text
from core.pairing.seeks import crossing_name
from core.render import clock_words
from core.replies import ActionKind, Actor, Reply
from core.sessions.admin.policy import Policy
from core.sessions.context import Context
from core.sessions.openplay.open_games import noted
from core.sessions.play.fate import settled
from core.sessions.play.model import (
    Event,
    check_removal,
    new_session,
    resigned,
    stopped,
    transition,
)
from core.sessions.play.moves import Moves
from core.sessions.play.watch import Watcher
from core.sessions.views import board_reply, board_view, game_name
from core.store import AlreadyPlaying, GameLimits, Seat, Session, Status

FINAL_TRIES = 3
"""How many times ``/final`` reads its game again when a move beat its write to the store."""


def _named(session: Session, actor: Actor) -> str:
    # Another chat shows an open game's names: plain text only there.
    return actor.display_name if len(session.chats) == 1 else crossing_name(actor.display_name)


def seated_from(session: Session, actor: Actor, order: tuple[int, int]) -> tuple[Seat, Seat]:
    """``session``'s seats in ``order`` for a game in the actor's chat: each seat keeps the
    chat it plays in (an open game's other chat stays the other's)."""

    def seat(number: int) -> Seat:
        where = session.chat_of(number)
        here = where == (actor.platform, actor.chat_id)
        platform, chat_id = (None, None) if here else where
        server_id = None if here else session.server_of(number)
        return replace(
            session.seats[number - 1], platform=platform, chat_id=chat_id, server_id=server_id
        )

    return seat(order[0]), seat(order[1])


class Challenges:
    """New games (against the bot, a person or two bots), answers to challenges, rematches and
    quitting."""

    def __init__(self, ctx: Context, moves: Moves, watcher: Watcher, policy: Policy) -> None:
        self._ctx = ctx
        self._policy = policy
        self._moves = moves
        self._watcher = watcher

    # --- starting --------------------------------------------------------------------------

    async def start(self, actor: Actor, command: Start) -> list[Reply]:
        ctx = self._ctx
        challenged: str | None = None
        if isinstance(command.opponent, VsUser):
            user, name = command.opponent.user, command.opponent.name
            style = ctx.style(actor)
            challenged = user if name is not None else style.user_id(actor, user)
            if challenged == style.bot_user_id:
                # A challenge to the bot is a game against it, at the chat's default level.
                command = replace(command, opponent=VsBot(DEFAULT_LEVEL), level_named=False)
            elif challenged == actor.user_id:
                raise UserError("error.self_challenge")
        command, chat, limits = await self._policy.start(actor, command)
        me = Seat.person(actor.user_id, actor.display_name)
        replies: list[Reply]
        match command.opponent:
            case VsBot(level):
                self._refuse_when_busy(actor, (level,))
                await ctx.ensure_free(actor)
                bot = Seat.bot(level)
                seats = (me, bot) if self._starter_first(command.first) else (bot, me)
                session = self._new(actor, seats, command.rules, Status.ACTIVE, chat)
                await self._create(actor, session, limits)
                replies = await self._opened(session, "game.started")
            case VsUser(user, name):
                assert challenged is not None
                await ctx.ensure_free(actor)
                other = Seat.person(challenged, name or user.strip())
                seats = (me, other) if self._starter_first(command.first) else (other, me)
                session = self._new(
                    actor,
                    seats,
                    command.rules,
                    Status.CHALLENGE,
                    chat,
                    challenged,
                    command.clock,
                    command.casual,
                )
                await self._create(actor, session, limits)
                replies = [self._challenge_reply(actor, session)]
            case BotVsBot(first_level, second_level):
                self._refuse_when_busy(actor, (first_level, second_level))
                await ctx.ensure_free(actor)
                seats = (Seat.bot(first_level), Seat.bot(second_level))
                session = self._new(actor, seats, command.rules, Status.ACTIVE, chat)
                await self._create(actor, session, limits)
                replies = await self._watcher.watch(actor, session)
        return replies

    async def _create(self, actor: Actor, session: Session, limits: GameLimits) -> None:
        """Store the new ``session``; a write whose answer was lost is read back first
        (:func:`~core.sessions.play.fate.settled`)."""

        async def create() -> bool:
            await self._ctx.create(actor, session, limits)
            return True

        await settled(self._ctx, create, session, session, new=True)

    def _refuse_when_busy(self, actor: Actor, levels: tuple[Level, ...]) -> None:
        # A full AI queue refuses new HARD games; moves of games already running still queue.
        if Level.HARD in levels and self._ctx.runner.saturated:
            raise UserError("error.ai_busy", prefix=self._ctx.prefix(actor))

    def _new(
        self,
        actor: Actor,
        seats: tuple[Seat, Seat],
        rules: Rules,
        status: Status,
        chat: Effective,
        challenged: str | None = None,
        clock: float | None = None,
        casual: bool = False,
    ) -> Session:
        """A new session; ``casual``: never rated (so is every game of a chat whose ``rated``
        setting is off now)."""
        now, ttl = self._ctx.now_and_ttl(status, chat)
        if all(seat.is_bot for seat in seats):
            # A bots' game cannot outlive its time cap by much: a restart leaves it orphaned.
            ttl = min(ttl, self._ctx.settings.watch_max_seconds * 2)
        return new_session(
            platform=actor.platform,
            chat_id=actor.chat_id,
            seats=seats,
            rules=rules,
            status=status,
            now=now,
            ttl=ttl,
            challenger=actor.user_id,
            challenged=challenged,
            clock=clock,
            server_id=actor.server_id,
            casual=casual or not chat.rated,
        )

    def _starter_first(self, first: First) -> bool:
        if first is First.RANDOM:
            return self._ctx.rng.random() < 0.5
        return first is First.ME

    async def _opened(self, session: Session, key: str) -> list[Reply]:
        """A stored game against the bot: its board, with the bot's first move if it starts."""
        self._ctx.observer.game_started(session.counted_platform, session.variant.label)
        current = await self._moves.bot_turns(session)
        return [board_reply(current, new_message=True, text=Text(key))]

    def challenge_reply(self, actor: Actor, session: Session) -> Reply:
        """The challenge ``session`` as its challenger ``actor`` sends it (again, when the
        room it was sent in was upgraded)."""
        return self._challenge_reply(actor, session)

    def _challenge_reply(self, actor: Actor, session: Session) -> Reply:
        challenged = next(s for s in session.seats if s.user_id == session.challenged)
        prefix = self._ctx.prefix(actor)
        minutes = max(1, round((session.expires_at - session.created_at) / 60))
        game = game_name(session.rules)
        if session.clock is not None:
            game = Text("game.timed", {"game": game, "clock": clock_words(session.clock)})
        return Reply(
            text=Text(
                "game.challenge",
                {
                    "challenger": actor.display_name,
                    "challenged": challenged.name,
                    "game": game,
                    "accept": f"{prefix}accept",
                    "decline": f"{prefix}decline",
                    "minutes": minutes,
                },
            ),
            new_message=True,
            actions=(ActionKind.ACCEPT, ActionKind.DECLINE),
            session_id=session.id,
            version=session.version,
            mention=session.challenged,
        )

    # --- answers ---------------------------------------------------------------------------

    async def accept(self, actor: Actor, session: Session) -> list[Reply]:
        ctx = self._ctx
        session = await ctx.check_expiry(session)
        if session.status is not Status.CHALLENGE:
            raise UserError("error.not_a_challenge")
        if session.challenged != actor.user_id:
            raise UserError("error.not_challenged", player=self._challenged_name(session))
        chat, limits = await self._policy.accept(actor)
        seats = tuple(
            replace(seat, name=_named(session, actor)) if seat.user_id == actor.user_id else seat
            for seat in session.seats
        )
        now, ttl = ctx.now_and_ttl(Status.ACTIVE, chat)
        accepted = transition(session, Event.ACCEPT, now=now, ttl=ttl, seats=(seats[0], seats[1]))
        try:
            applied = await settled(
                ctx,
                lambda: ctx.update(accepted, expected_version=session.version, limits=limits),
                session,
                accepted,
            )
        except AlreadyPlaying as error:
            raise await ctx.already_playing_error(actor, error) from None
        if not applied:
            return await self._moves.stale(session)
        ctx.observer.game_started(session.counted_platform, session.variant.label)
        return [
            board_reply(
                accepted,
                new_message=True,
                text=Text("game.accepted", {"player": actor.display_name}),
            )
        ]

    async def decline(self, actor: Actor, session: Session) -> list[Reply]:
        session = await self._ctx.check_expiry(session)
        if session.status is not Status.CHALLENGE:
            raise UserError("error.not_a_challenge")
        if actor.user_id == session.challenged:
            event, key = Event.DECLINE, "game.declined"
        elif actor.user_id == session.challenger:
            event, key = Event.WITHDRAW, "game.withdrawn"
        else:
            raise UserError("error.not_challenged", player=self._challenged_name(session))
        return await self._removed(session, event, Text(key, {"player": actor.display_name}))

    @staticmethod
    def _challenged_name(session: Session) -> str:
        return next(s.name for s in session.seats if s.user_id == session.challenged)

    async def _removed(self, session: Session, event: Event, text: Text) -> list[Reply]:
        check_removal(session, event)
        if not await settled(self._ctx, lambda: self._ctx.delete(session), session, None):
            return await self._moves.stale(session)
        return [Reply(text=text, session_id=session.id, version=session.version + 1)]

    # --- rematch ---------------------------------------------------------------------------

    async def rematch(self, actor: Actor, session: Session) -> list[Reply]:
        """The finished ``session`` again with sides swapped; it gives way to the new game in
        one transaction, so a failure keeps it."""
        ctx = self._ctx
        if session.status is not Status.FINISHED:
            raise UserError("error.not_finished")
        seat = session.seat_of(actor.user_id)
        watching = all(s.is_bot for s in session.seats)
        if seat is None and not watching:
            raise UserError("error.not_your_game")
        # A rematch replaces the finished game (and with it its owner's /review): a bots' game
        # is its starter's to replay (one stored without a starter stays anyone's).
        if watching and session.challenger not in (None, actor.user_id):
            raise UserError("error.not_your_rematch", prefix=ctx.prefix(actor))
        swapped = self._renamed(seated_from(session, actor, (2, 1)), actor)
        opponent = None if seat is None else session.seats[2 - seat]
        check_removal(session, Event.REMATCH)
        chat, limits = await self._policy.rematch(actor, session)
        await ctx.ensure_free(actor)
        replies: list[Reply]
        if opponent is not None and not opponent.is_bot:
            assert opponent.user_id is not None
            # The same clock, held to the chat's cap as it stands now.
            clock = None if session.clock is None else min(session.clock, chat.max_clock)
            new = self._new(
                actor,
                swapped,
                session.rules,
                Status.CHALLENGE,
                chat,
                opponent.user_id,
                clock,
                session.casual,
            )
            await self._swap(actor, session, new, limits)
            replies = [self._challenge_reply(actor, new)]
        else:
            levels = tuple(s.level for s in session.seats if s.level is not None)
            self._refuse_when_busy(actor, levels)
            new = self._new(actor, swapped, session.rules, Status.ACTIVE, chat)
            await self._swap(actor, session, new, limits)
            if watching:
                replies = await self._watcher.watch(actor, new)
            else:
                replies = await self._opened(new, "game.rematch")
        return replies

    async def _swap(
        self, actor: Actor, finished: Session, new: Session, limits: GameLimits
    ) -> None:
        # A finished game gives one rematch: someone quicker already took it.
        if not await self._ctx.swap(actor, finished, new, limits):
            raise UserError("error.no_such_game")
        noted(new)  # an open game's rematch offer is shown in the other chat too

    @staticmethod
    def _renamed(seats: tuple[Seat, Seat], actor: Actor) -> tuple[Seat, Seat]:
        # People rename themselves between games.
        open_game = any(seat.platform is not None for seat in seats)
        name = crossing_name(actor.display_name) if open_game else actor.display_name

        def fresh(seat: Seat) -> Seat:
            if seat.user_id == actor.user_id:
                return replace(seat, name=name)
            return seat

        return fresh(seats[0]), fresh(seats[1])

    # --- /final ----------------------------------------------------------------------------

    async def final(self, actor: Actor) -> list[Reply]:
        """End the actor's game here: a challenge is withdrawn, a game with no move yet just
        ends, a watched bots' game stops, and any other game is a resignation (a loss).

        What the player asked for does not depend on the board, so a move that lands between
        the read and the write (a watched bots' game moves every moment) does not refuse it:
        the game is read again and ended as it stands, a few times before "the board changed".
        """
        ctx = self._ctx
        lost: Session | None = None
        for _ in range(FINAL_TRIES):
            session = await ctx.live_game(actor)
            if session is None:
                if lost is not None:  # ended meanwhile, by the move that beat us to it
                    return await self._moves.stale(lost)
                raise UserError("error.nothing_to_end", prefix=ctx.prefix(actor))
            name = {"player": actor.display_name}
            if session.status is Status.CHALLENGE:
                return await self._removed(session, Event.WITHDRAW, Text("game.withdrawn", name))
            seat = session.seat_of(actor.user_id)
            now, ttl = ctx.now_and_ttl(Status.FINISHED, kept=session)
            if seat is None:  # the watcher of a bots' game
                ended = stopped(session, now=now, ttl=ttl)
                text = Text("game.watch_stopped", name)
            elif not session.moves:
                check_removal(session, Event.ABANDON)
                text = Text("game.ended", {**name, "game": game_name(session.rules)})
                if await settled(ctx, partial(ctx.delete, session), session, None):
                    view = board_view(session, ended=text)
                    return [
                        Reply(text=text, board=view, session_id=session.id, version=view.version)
                    ]
                lost = session
                continue
            else:
                ended = resigned(session, seat, now=now, ttl=ttl)
                text = Text("game.resigned", {**name, "winner": session.seats[2 - seat].name})
            if await settled(
                ctx, partial(ctx.update, ended, expected_version=session.version), session, ended
            ):
                return [board_reply(ended, text=text)]
            lost = session
        assert lost is not None
        return await self._moves.stale(lost)
