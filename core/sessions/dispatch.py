"""A request's text or command handed to the part that owns it: a chat message parsed (a
command, a move as text, or chatter), a parsed command matched to its part, and a move checked
once, played, or answered after the rate limit (:class:`Dispatch`). The entry points of
:class:`~core.sessions.service.GameService` run it inside a request.
"""

from __future__ import annotations

from collections.abc import Callable

from core.commands import (
    PREFIXES,
    Accept,
    Block,
    Command,
    CommandError,
    Decline,
    Final,
    Help,
    Hide,
    Link,
    MoveText,
    NotACommand,
    PersonalTheme,
    Puzzle,
    Rematch,
    Review,
    Seek,
    Settings,
    Start,
    Stats,
    Top,
    Tournament,
    Unblock,
    Unlink,
    help_text,
    parse,
)
from core.errors import UserError
from core.games import Position
from core.i18n import Text, normalize_locale
from core.replies import Actor, Reply
from core.sessions.admin.policy import Policy
from core.sessions.admin.settings_command import Admin
from core.sessions.context import Context
from core.sessions.events.command import Tournaments
from core.sessions.openplay.seeking import Matchmaker
from core.sessions.play.challenges import Challenges
from core.sessions.play.left import Departures
from core.sessions.play.moves import Moves, Unplayable
from core.sessions.players.ratings import Ratings
from core.sessions.players.stats import Results
from core.sessions.players.themes import Themes
from core.sessions.puzzles.solving import Puzzles
from core.sessions.reviews.review import Reviews
from core.store import Session, sessions


class Dispatch:
    """Text, commands and checked moves to the parts that answer them (see the module
    docstring); built by the service with the shared context and its parts."""

    def __init__(
        self,
        ctx: Context,
        *,
        policy: Policy,
        moves: Moves,
        departures: Departures,
        challenges: Challenges,
        results: Results,
        ratings: Ratings,
        reviews: Reviews,
        admin: Admin,
        themes: Themes,
        matchmaker: Matchmaker,
        tournaments: Tournaments,
        puzzles: Puzzles,
    ) -> None:
        self._ctx = ctx
        self._policy = policy
        self._moves = moves
        self._departures = departures
        self._challenges = challenges
        self._results = results
        self._ratings = ratings
        self._reviews = reviews
        self._admin = admin
        self._themes = themes
        self._matchmaker = matchmaker
        self._tournaments = tournaments
        self._puzzles = puzzles

    async def text(self, actor: Actor, text: str, addressed: bool) -> list[Reply]:
        """A chat message: a command, a move as text, or chatter (answered with nothing)."""
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
            if prefixed or addressed or await self._ctx.live_game(actor) is not None:
                raise
            return []
        explicit = prefixed or addressed
        if isinstance(command, MoveText):
            return await self._typed(actor, command, explicit, admitted=False)
        limited = await self._policy.admit(actor)
        if limited is not None:
            return limited
        return await self.command(actor, command, explicit)

    async def _typed(
        self, actor: Actor, move: MoveText, explicit: bool, *, admitted: bool
    ) -> list[Reply]:
        """A move typed in the chat of the actor's live game: one read of the game, one check.
        Numbers said in passing by someone without a game here are chatter, and cost nothing.
        """
        session = await self._ctx.store.run(
            sessions.live_game(actor.platform, actor.chat_id, actor.user_id)
        )
        if session is None:
            # No game here: the move may answer the speaker's puzzle (one still going; said to
            # the bot, also one over, or the day's puzzle posted in this chat).
            attempt = await self._puzzles.current(actor)
            if not explicit and (attempt is None or attempt.finished):
                return []
            if not admitted and (limited := await self._policy.admit(actor)) is not None:
                return limited
            if explicit:
                attempt = await self._puzzles.said_to(actor, attempt)
            if attempt is not None:
                return await self._puzzles.typed(actor, attempt, move)
            raise UserError("error.no_game", prefix=self._ctx.prefix(actor))
        session = await self._ctx.check_expiry(session)

        def check(current: Session) -> Position:
            return self._moves.check_typed(actor, current, move)

        if admitted:
            return await self._moves.play(actor, session, check, typed=True)
        return await self.play(actor, session, check, typed=True)

    async def play(
        self, actor: Actor, session: Session, check: Callable[[Session], Position], *, typed: bool
    ) -> list[Reply]:
        """A move checked once: a playable one is applied and never limited; any other passes
        the rate limit before it is answered (a typed one may still be played after the bot's
        move that was due, see :meth:`Moves.unplayable`)."""
        try:
            after = check(session)
        except (UserError, Unplayable) as refused:
            return await self.refused(actor, session, refused, check if typed else None)
        return await self._moves.apply(actor, session, after)

    async def refused(
        self,
        actor: Actor,
        session: Session,
        refused: UserError | Unplayable,
        check: Callable[[Session], Position] | None,
    ) -> list[Reply]:
        """The answer to a move (or a first step to one) that cannot be played as asked,
        after the rate limit."""
        limited = await self._policy.admit(actor)
        if limited is not None:
            return limited
        if isinstance(refused, UserError):
            if refused.key == "error.not_your_turn":  # waiting on someone who left?
                ended = await self._departures.opponent_left(actor, session)
                if ended:
                    return ended
            raise refused
        return await self._moves.unplayable(actor, session, refused, check)

    async def command(self, actor: Actor, command: Command, explicit: bool) -> list[Reply]:
        """A parsed command, already past the rate limit, answered by the part that owns it."""
        ctx = self._ctx
        match command:
            case MoveText():
                return await self._typed(actor, command, explicit, admitted=True)
            case Start():
                await self._departures.opponent_left(actor, tell=True)  # the old game, if held
                return await self._challenges.start(actor, command)
            case Accept():
                return await self._challenges.accept(actor, await ctx.challenge_for(actor))
            case Decline():
                return await self._challenges.decline(actor, await ctx.challenge_for(actor))
            case Rematch():
                session = await ctx.store.run(
                    sessions.last_finished(actor.platform, actor.chat_id, actor.user_id)
                )
                if session is None:
                    raise UserError("error.no_rematch", prefix=ctx.prefix(actor))
                session = await ctx.check_expiry(session)
                return await self._challenges.rematch(actor, session)
            case Final():
                return await self._challenges.final(actor)
            case Stats():
                return await self._results.stats(actor, command)
            case Top():
                return await self._ratings.top(actor, command)
            case Link():
                return await self._ratings.link(actor, command)
            case Unlink():
                return await self._ratings.unlink(actor)
            case Hide():
                return await self._ratings.hide(actor, command)
            case Puzzle():
                return await self._puzzles.command(actor, command)
            case Review():
                return await self._reviews.last(actor)
            case Settings():
                return await self._admin.settings(actor, command)
            case PersonalTheme():
                return await self._themes.choose(actor, command, await self._policy.chat(actor))
            case Seek():
                return await self._matchmaker.command(actor, command)
            case Tournament():
                return await self._tournaments.command(actor, command)
            case Block() | Unblock():
                return await self._matchmaker.block(actor, command)
            case Help(topic=topic):
                locale = normalize_locale(actor.locale or ctx.settings.default_locale)
                text = help_text(locale, ctx.prefix(actor), topic)
                return [Reply(text=Text("game.help", {"text": text}), private=True)]
        raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover
