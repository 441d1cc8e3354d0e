"""What the chat's settings allow: the checks before a new game, the defaults it gets, and the
rate limit in front of every request.

New games (a start, a rematch, an accepted challenge) are checked against the settings of the
chat they start in; each refusal is a private error that names the reason (``limits.*``). The
limits that simultaneous requests could all pass (live games per user and per chat, the
cooldown, boards per minute) are not checked here but handed to the store as
:class:`~core.store.GameLimits`, which keeps them in the transaction that writes the game.
Nothing here touches a game already running: its moves, its lifetime (kept from its start, see
:meth:`Context.now_and_ttl`) and its end are never refused by a setting or a limit.
"""

from __future__ import annotations

from dataclasses import replace

from core.admin.durations import CLOCK_MIN, show_duration
from core.admin.effective import SettingsCache
from core.admin.keys import AUTO, Effective
from core.admin.limits import RateLimiter, whole_seconds
from core.admin.scopes import Place
from core.commands import BotVsBot, Start, VsBot, VsUser
from core.errors import UserError
from core.games import GameKind, Rules
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.views import error_reply
from core.store import GameLimits, Session


def game_clock(chat: Effective, rules: Rules, asked: float | None) -> float | None:
    """The clock of a new game between people in ``chat``: the one ``asked`` for at the start,
    which must lie within the chat's bounds (the shortest clock to the ``max_clock`` setting),
    or else the chat's ``clock`` setting (``auto``: the game kind's ``auto_clock``; ``off``:
    None), held to the same cap.

    Raises:
        UserError: ``limits.clock_range``, naming the clock asked for and the chat's bounds.
    """
    if asked is not None:
        if not CLOCK_MIN <= asked <= chat.max_clock:
            raise UserError(
                "limits.clock_range",
                clock=show_duration(asked),
                low=show_duration(CLOCK_MIN),
                high=show_duration(chat.max_clock),
            )
        return asked
    default = chat.clock
    if default is None:
        return None
    seconds = GameKind.of(rules).auto_clock if default == AUTO else float(default)
    return min(seconds, chat.max_clock)


class Policy:
    """The settings and limits of each chat, applied (see the module docstring)."""

    def __init__(self, ctx: Context, cache: SettingsCache, *, limits: bool = True) -> None:
        self._ctx = ctx
        self._cache = cache
        self._limits = limits
        self._rate = RateLimiter(ctx.store, ctx.clock)

    async def chat(self, actor: Actor) -> Effective:
        """The settings in force in the actor's chat."""
        return await self._cache.get(Place.of(actor))

    # --- the rate limit --------------------------------------------------------------------

    async def admit(self, actor: Actor) -> list[Reply] | None:
        """Take a token for one request of the actor: None to go ahead, else the answer
        instead of the request's (the one notice, or nothing at all where the platform
        silences a limited user)."""
        if not self._limits:
            return None
        style = self._ctx.style(actor)
        if style.rate_limit is not None:
            burst, per_minute = style.rate_limit
        else:
            chat = await self.chat(actor)
            burst, per_minute = chat.rate_burst, chat.rate_per_minute
        wait = await self._rate.take(
            actor.platform, actor.user_id, burst, per_minute, silence=style.silence_limited
        )
        if wait is None:
            return None
        self._ctx.observer.request_limited(actor.platform)
        if wait <= 0:
            return []
        return [error_reply(UserError("error.rate_limited", seconds=whole_seconds(wait)), None)]

    # --- new games -------------------------------------------------------------------------

    async def start(self, actor: Actor, command: Start) -> tuple[Start, Effective, GameLimits]:
        """Check a new game; the command with the chat's default level where none was named,
        and the limits the store is to keep when it writes the game.

        Raises:
            UserError: the chat's settings refuse it (``limits.*``).
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
                command = replace(command, opponent=VsBot(chat.level), level_named=True)
            case BotVsBot() if not command.level_named:
                bots = BotVsBot(chat.level, chat.level)
                command = replace(command, opponent=bots, level_named=True)
        if isinstance(command.opponent, VsUser):
            command = replace(command, clock=game_clock(chat, command.rules, command.clock))
        elif command.clock is not None:
            raise UserError("limits.clock_people_only")
        return command, chat, self._game_limits(actor, chat)

    async def rematch(self, actor: Actor, session: Session) -> tuple[Effective, GameLimits]:
        """Check the rematch of ``session`` (the same game, sides swapped) as a new game."""
        chat = await self.chat(actor)
        self._where(actor, chat)
        self._what(session.rules, chat)
        people = len(session.humans)
        if people == 2 and not chat.pvp:
            raise UserError("limits.pvp_off")
        if people == 0 and not chat.bot_vs_bot:
            raise UserError("limits.bot_vs_bot_off")
        return chat, self._game_limits(actor, chat)

    async def accept(self, actor: Actor) -> tuple[Effective, GameLimits]:
        """Check an answer to a challenge: the chat must allow games; the limits say that the
        one who accepts may not have too many, and count the new board (the challenge itself
        passed the other checks)."""
        chat = await self.chat(actor)
        self._where(actor, chat)
        return chat, self._game_limits(actor, chat, accepting=True)

    async def seek(self, actor: Actor, rules: Rules) -> Effective:
        """Check a seek (``/seek``) from the actor's chat as a new game between people."""
        chat = await self.chat(actor)
        self._where(actor, chat)
        self._what(rules, chat)
        if not chat.pvp:
            raise UserError("limits.pvp_off")
        return chat

    # --- the checks ------------------------------------------------------------------------

    @staticmethod
    def _where(actor: Actor, chat: Effective) -> None:
        if not chat.allows_chat(actor.chat_id):
            raise UserError("limits.chat_not_allowed")

    @staticmethod
    def _what(rules: Rules, chat: Effective) -> None:
        kind = GameKind.of(rules).starter
        if kind not in chat.games:
            # The kind by the command that starts it: what the admins typed in "games".
            raise UserError("limits.game_disabled", game=kind.word)
        rows, cols = chat.max_board
        if rules.rows > rows or rules.cols > cols:
            raise UserError(
                "limits.board_too_big", size=f"{rules.rows}x{rules.cols}", max=f"{rows}x{cols}"
            )

    def _game_limits(self, actor: Actor, chat: Effective, *, accepting: bool = False) -> GameLimits:
        # The live-game caps hold even with the limits off (Policy(limits=False)): they are
        # settings of their own, not a defence against floods.
        on = self._limits
        return GameLimits(
            user_id=actor.user_id,
            now=self._ctx.clock(),
            max_user_games=chat.max_games_per_user,
            max_chat_games=None if accepting else chat.max_games_per_chat,
            cooldown=float(chat.cooldown) if on and not accepting else 0.0,
            boards_per_minute=chat.boards_per_minute if on else None,
            check_boards=not accepting,
        )
