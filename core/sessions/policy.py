"""What the chat's settings allow: the checks before a new game, the defaults it gets, and the
rate limit in front of every request.

New games (a start, a rematch, an accepted challenge) are checked against the settings of the
chat they start in; each refusal is a private error that names the reason (``limits.*``).
Nothing here touches a game already running: its moves, its lifetime (kept from its start, see
:meth:`Context.now_and_ttl`) and its end are never refused by a setting or a limit.
"""

from __future__ import annotations

from core.admin.effective import SettingsCache
from core.admin.keys import Effective
from core.admin.limits import BoardWindow, Cooldowns, Limited, RateLimiter, whole_seconds
from core.admin.scopes import Place
from core.commands import BotVsBot, GameKind, Start, VsBot, VsUser
from core.errors import UserError
from core.games import Rules, Variant
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.views import error_reply
from core.store import Session

_COMMANDS = {
    Variant.TICTACTOE: GameKind.TRES,
    Variant.CONNECT4: GameKind.QUATRE,
    Variant.FREE: GameKind.RATLLA,
}


def kind_of(rules: Rules) -> GameKind:
    """The command family of ``rules``' variant (the words the ``games`` setting turns on and
    off)."""
    return _COMMANDS[Variant.of(rules)]


class Policy:
    """The settings and limits of each chat, applied (see the module docstring)."""

    def __init__(self, ctx: Context, cache: SettingsCache, *, limits: bool = True) -> None:
        self._ctx = ctx
        self._cache = cache
        self._limits = limits
        self._rate = RateLimiter(ctx.store, ctx.clock)
        self._boards = BoardWindow(ctx.store, ctx.clock)
        self._cooldowns = Cooldowns(ctx.store, ctx.clock)

    async def chat(self, actor: Actor) -> Effective:
        """The settings in force in the actor's chat."""
        return await self._cache.get(Place.of(actor))

    # --- the rate limit --------------------------------------------------------------------

    async def admit(self, actor: Actor) -> list[Reply] | None:
        """Take a token for one request of the actor: None to go ahead, else the answer
        instead of the request's (the one notice, or nothing at all)."""
        if not self._limits:
            return None
        chat = await self.chat(actor)
        wait = await self._rate.take(
            actor.platform, actor.user_id, chat.rate_burst, chat.rate_per_minute
        )
        if wait is None:
            return None
        self._ctx.observer.request_limited(actor.platform)
        if wait <= 0:
            return []
        return [error_reply(UserError("error.rate_limited", seconds=whole_seconds(wait)), None)]

    # --- new games -------------------------------------------------------------------------

    async def start(self, actor: Actor, command: Start) -> tuple[Start, Effective]:
        """Check a new game; the command with the chat's default level where none was named.

        Raises:
            UserError: the chat's settings refuse it (``limits.*``); Limited for the limits.
        """
        chat = await self.chat(actor)
        self._where(actor, chat)
        self._what(command.rules, chat)
        match command.opponent:
            case VsUser() if not chat.pvp:
                raise UserError("limits.pvp_off")
            case BotVsBot() if not chat.bot_vs_bot:
                raise UserError("limits.bot_vs_bot_off")
            case VsBot() if not command.level_named:
                command = Start(command.kind, command.rules, VsBot(chat.level), command.first)
            case BotVsBot() if not command.level_named:
                bots = BotVsBot(chat.level, chat.level)
                command = Start(command.kind, command.rules, bots, command.first)
        await self._new_game(actor, chat)
        return command, chat

    async def rematch(self, actor: Actor, session: Session) -> Effective:
        """Check the rematch of ``session`` (the same game, sides swapped) as a new game."""
        chat = await self.chat(actor)
        self._where(actor, chat)
        self._what(session.rules, chat)
        people = len(session.humans)
        if people == 2 and not chat.pvp:
            raise UserError("limits.pvp_off")
        if people == 0 and not chat.bot_vs_bot:
            raise UserError("limits.bot_vs_bot_off")
        await self._new_game(actor, chat)
        return chat

    async def accept(self, actor: Actor) -> Effective:
        """Check an answer to a challenge: the chat must allow games, and the one who accepts
        may not have too many (the challenge itself passed the other checks)."""
        chat = await self.chat(actor)
        self._where(actor, chat)
        await self._caps(actor, chat, chat_too=False)
        return chat

    async def started(self, actor: Actor, chat: Effective, *, cooldown: bool = True) -> None:
        """A new board was posted in the chat (and, with ``cooldown``, the actor started it)."""
        if not self._limits:
            return
        self._boards.posted(actor.platform, actor.chat_id)
        if cooldown:
            await self._cooldowns.started(actor.platform, actor.user_id, chat.cooldown)

    # --- the checks ------------------------------------------------------------------------

    @staticmethod
    def _where(actor: Actor, chat: Effective) -> None:
        if not chat.allows_chat(actor.chat_id):
            raise UserError("limits.chat_not_allowed")

    @staticmethod
    def _what(rules: Rules, chat: Effective) -> None:
        kind = kind_of(rules)
        if kind not in chat.games:
            # The family as the command that starts it: what the admins typed in "games".
            raise UserError("limits.game_disabled", game=kind.value)
        rows, cols = chat.max_board
        if rules.rows > rows or rules.cols > cols:
            raise UserError(
                "limits.board_too_big", size=f"{rules.rows}x{rules.cols}", max=f"{rows}x{cols}"
            )

    async def _new_game(self, actor: Actor, chat: Effective) -> None:
        await self._caps(actor, chat, chat_too=True)
        if not self._limits:
            return
        if chat.cooldown > 0:
            await self._cooldowns.check(actor.platform, actor.user_id)
        await self._boards.check(actor.platform, actor.chat_id, chat.boards_per_minute)

    async def _caps(self, actor: Actor, chat: Effective, *, chat_too: bool) -> None:
        per_user, per_chat = chat.max_games_per_user, chat.max_games_per_chat
        if per_user is None and (per_chat is None or not chat_too):
            return
        counts = await self._ctx.store.live_counts(actor.platform, actor.chat_id, actor.user_id)
        if per_user is not None and counts.user >= per_user:
            raise Limited("limits.user_games", max=per_user)
        if chat_too and per_chat is not None and counts.chat >= per_chat:
            raise Limited("limits.chat_games", max=per_chat)
