"""The one port adapters talk to: the game service, the key-value state, platform conventions,
observers, the shutdown deadlines every part keeps, and the lease that keeps work that must run
once (a Matrix account's sync) to one process.

Adapters (Discord, Matrix, the console) import these protocols and nothing else of the service:
they turn their platform's events into calls on :class:`GameServicePort` and draw the neutral
:class:`~core.replies.Reply` values it returns. What is particular to a platform (how a mention
is written, which prefix its users type) reaches core as a :class:`PlatformStyle` the adapter
registers, never as code in core that tests the platform's name.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from core.commands import Command
from core.leases import Lease, LeaseState
from core.replies import ActionKind, Actor, Reply
from core.store.models import BoardLocation, KvEntry
from core.store.port import Store

__all__ = [
    "SHUTDOWN",
    "BoardLocation",
    "GameServicePort",
    "KvEntry",
    "Lease",
    "LeaseState",
    "NullObserver",
    "PlatformStyle",
    "Posting",
    "ServiceObserver",
    "ShutdownDeadlines",
    "Store",
]


@dataclass(slots=True)
class Posting:
    """The new messages one :attr:`PlatformStyle.publish` posts, for a notice of the outbox
    (:mod:`core.sessions.openplay.relay`), which keeps them until the notice is done: shown
    again after a crash between the post and that (its claim lapsed), the notice edits the
    messages its earlier try posted rather than posting them a second time, where the
    platform can edit (Discord, Matrix; the console prints again).

    The adapter asks :meth:`again` before each new message it would post, and tells
    :meth:`note` the platform's id of each message it posted or edited so; :func:`posting`
    is the one of the publish running (None outside the outbox's notices).

    Attributes:
        earlier: the ids an earlier try posted, in the order posted, not yet edited.
        posted: the ids of this try's messages, in order.
    """

    earlier: list[str] = field(default_factory=list)
    posted: list[str] = field(default_factory=list)

    def again(self) -> str | None:
        """The id of the message an earlier try posted in the place of the next new one (to
        be edited instead), or None: post it."""
        return self.earlier.pop(0) if self.earlier else None

    def note(self, message_id: str) -> None:
        """The next new message is ``message_id`` on the platform (posted, or edited)."""
        self.posted.append(message_id)


_POSTING: contextvars.ContextVar[Posting | None] = contextvars.ContextVar(
    "chatbots_posting", default=None
)


def posting() -> Posting | None:
    """The :class:`Posting` of the publish running in this context, if it shows a notice."""
    return _POSTING.get()


@contextlib.contextmanager
def posting_again(earlier: Sequence[str]) -> Iterator[Posting]:
    """A :class:`Posting` for the publishes inside the block (and the tasks they start),
    ``earlier`` the ids an earlier try posted."""
    current = Posting(list(earlier))
    token = _POSTING.set(current)
    try:
        yield current
    finally:
        _POSTING.reset(token)


def _written_user(actor: Actor, written: str) -> str:
    # Platforms without a mention syntax of their own: "@bob" names the user "bob".
    text = written.strip()
    return text.removeprefix("@") if len(text) > 1 else text


def _written_chat(actor: Actor, written: str) -> str:
    # Platforms without a channel-mention syntax: a chat is written as its id.
    return written


def _chat_as_id(chat_id: str) -> str:
    return chat_id


@dataclass(frozen=True, slots=True)
class PlatformStyle:
    """How people on one platform write what core parses from text.

    Attributes:
        platform: the name adapters put in :attr:`Actor.platform`.
        prefix: the command prefix its users are told to type (Element keeps ``/`` for itself,
            so Matrix users type ``!``).
        user_id: the user id that a mention written by ``actor`` stands for (a Matrix ``@bob``
            on the actor's server, a console ``@bob``).
        bot_user_id: the bot's own user id there: a challenge to it means a game against the
            bot (at the default level), as the bot cannot answer a challenge.
        publish: shows replies that come later than the request that caused them (the moves
            of a watched bots' game) in the chat of the given actor. None: the platform cannot,
            and such a game is played out within its request.
        chat_id: the chat id that a channel or room written by ``actor`` stands for (Discord:
            ``<#123>`` -> ``123``), for the ``allowed_chats`` setting; by default the text
            itself (a Matrix room id).
        chat_link: a chat id written so that readers see the chat (Discord: ``123`` ->
            ``<#123>``, which ``chat_id`` reads back); by default the id itself.
        serves: whether this process can show replies in a chat now (a Matrix account syncs
            in one process at a time; the others stand by). None: wherever it runs. An open
            game's board due in a chat this process does not serve waits in the store for
            the process that does.
        in_chat: whether a user is still in ``actor``'s chat (False: they left it; None: the
            platform cannot tell), asked when ``actor`` finds their game waiting on that user
            (a click out of turn, a new game refused): a game whose opponent left ends as
            abandoned then. None: the platform reports departures itself (Matrix), or never.
        private_replies: a reply marked private reaches its user alone (Discord's ephemeral
            messages, the one-person console); False where everyone in the chat sees it
            (Matrix rooms), so secrets such as a ``/link`` code are not handed out there.
        rate_limit: ``(burst, per_minute)`` of the rate limit for each user of the platform, in
            place of the chat's ``rate_burst`` and ``rate_per_minute`` settings (the console's,
            for the one person at its keyboard). None: the chat's.
        silence_limited: a user who hit the rate limit is told once, then answered nothing until
            their bucket is full again (in a shared chat, answering a flood would be a flood).
            False: every refused request says why (the console, where nobody else reads).
    """

    platform: str
    prefix: str = "/"
    user_id: Callable[[Actor, str], str] = _written_user
    bot_user_id: str | None = None
    publish: Callable[[Actor, Sequence[Reply]], Awaitable[None]] | None = None
    chat_id: Callable[[Actor, str], str] = _written_chat
    chat_link: Callable[[str], str] = _chat_as_id
    serves: Callable[[str], bool] | None = None
    in_chat: Callable[[Actor, str], Awaitable[bool | None]] | None = None
    private_replies: bool = False
    rate_limit: tuple[int, int] | None = None
    silence_limited: bool = True


class GameServicePort(Protocol):
    """What adapters call; ``core.sessions.GameService`` implements it.

    Every call answers with replies to show in order; a player's mistake is a reply with
    ``error=True``, never an exception. ``receipt``, when given, is written in the same
    transaction as the first change the request makes (or alone, when it changes nothing), so an
    adapter can mark an event handled exactly when its effect is applied.
    """

    @property
    def store(self) -> Store: ...

    def register_platform(self, style: PlatformStyle) -> None:
        """Tell the service how a platform's users write mentions and prefixes."""
        ...

    async def handle_text(
        self, actor: Actor, text: str, addressed: bool = False, *, receipt: KvEntry | None = None
    ) -> list[Reply]:
        """A chat message: a command, a move as text, or chatter."""
        ...

    async def handle_command(
        self, actor: Actor, command: Command, *, receipt: KvEntry | None = None
    ) -> list[Reply]:
        """An already parsed command (a slash command built from its options)."""
        ...

    async def handle_move(
        self,
        actor: Actor,
        session_id: str,
        move: int,
        version: int | None = None,
        *,
        receipt: KvEntry | None = None,
    ) -> list[Reply]:
        """A click or a reaction: ``move`` 0-based; ``version`` from the button, if any."""
        ...

    async def handle_pick(
        self, actor: Actor, session_id: str, version: int | None = None
    ) -> list[Reply] | None:
        """A first step towards a move on a board (a picture board's column menu): None when
        ``actor`` may move there now, else the answer a move of theirs would get (possibly
        nothing: the rate limiter's silence)."""
        ...

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
        ...

    async def carry_games_over(
        self, platform: str, old_chat_id: str, new_chat_id: str, users: Sequence[str]
    ) -> list[Reply]:
        """Move the live games of ``users`` in ``old_chat_id`` to ``new_chat_id`` (a Matrix
        room upgraded to a new one): games, bots' games (played on there) and open challenges.
        The replies show each there again: a new board, or the challenge mentioning the
        challenged player. A second call moves only what the first left."""
        ...

    async def current_board(
        self, session_id: str, *, platform: str | None = None, chat_id: str | None = None
    ) -> Reply | None:
        """The board of ``session_id`` as it is stored now, as a move would show it, or None
        when the game is gone; for an adapter that shows it again (answers it could not
        deliver before a restart). It is marked for the chat it is shown in, ``chat_id`` on
        ``platform`` (an open game's board in the second player's chat: that chat's language,
        board style and links), by default the game's own chat. Raises what the store
        raises."""
        ...

    async def abandon_games(
        self,
        platform: str,
        chat_ids: Sequence[str],
        user_id: str | None = None,
        *,
        server_id: str | None = None,
    ) -> int:
        """End the live games and open challenges in ``chat_ids`` as abandoned: all of them
        when the bot left those chats (``user_id`` None: nobody is told, the bot cannot write
        there), or those of ``user_id``, who left. With ``server_id`` (a Discord server the bot
        or the user left), those of every chat of that server too, the chats the platform does
        not list included. Each is a compare-and-set (a move racing it counts first or finds
        the game over); the player who stayed wins a game in which a move was played, has no
        loss counted, is free to start another at once, and is told through
        :attr:`PlatformStyle.publish`. Returns how many ended."""
        ...

    async def live_chats(self, platform: str, server_id: str) -> list[str]:
        """The chats of ``server_id`` (:attr:`Actor.server_id`) that hold a live game or an
        open challenge, each once: for an adapter that must ask the platform which of them are
        gone (Discord's archived threads of a deleted channel, of which it hears nothing).
        Raises what the store raises."""
        ...

    async def chat_language(self, actor: Actor) -> str | None:
        """The language the admins of ``actor``'s chat chose (``/settings language``), or None
        when nobody chose one (or the store cannot say now); never raises. Replies carry it already
        (:attr:`Reply.locale`); adapters ask for it where they answer a mistake of their own
        (a slash command's option they could not read)."""
        ...


class ServiceObserver(Protocol):
    """What the service reports as it works (metrics); every method must be cheap and must not
    raise."""

    def game_started(self, platform: str, game: str) -> None:
        """A game began; ``game`` is its ``core.games.GameKind`` label (``tictactoe``, ...)."""

    def game_finished(self, platform: str, game: str) -> None:
        """A game ended (announced once, by the process whose write ended it)."""

    def move_played(self, platform: str) -> None: ...

    def request_failed(self, platform: str, kind: str) -> None: ...

    def request_limited(self, platform: str) -> None:
        """A request was refused by a limit (rate, cooldown, boards per minute, live games)."""
        ...

    def ai_thought(self, level: str, seconds: float) -> None: ...


class NullObserver:
    """Reports nowhere (the default)."""

    def game_started(self, platform: str, game: str) -> None:
        pass

    def game_finished(self, platform: str, game: str) -> None:
        pass

    def move_played(self, platform: str) -> None:
        pass

    def request_failed(self, platform: str, kind: str) -> None:
        pass

    def request_limited(self, platform: str) -> None:
        pass

    def ai_thought(self, level: str, seconds: float) -> None:
        pass


@dataclass(frozen=True, slots=True)
class ShutdownDeadlines:
    """Seconds after the stop request by which each part of the shutdown is done.

    One table, read by the application, the service and the adapters, so that every drain fits
    inside the promise made in the README: the process is gone within :attr:`total` seconds.
    """

    drain: float = 5.5  # adapters and the service: the requests in flight have finished
    adapters: float = 6.5  # adapters disconnected (the application cancels any still running)
    service: float = 8.0  # the service: bots' games, sweeper and AI pool stopped
    store: float = 8.7  # the store closed
    watchdog: float = 9.5  # nothing returned: the process is ended from a thread
    total: float = 10.0

    def __post_init__(self) -> None:
        steps = (self.drain, self.adapters, self.service, self.store, self.watchdog, self.total)
        if any(b <= a for a, b in itertools.pairwise(steps)) or steps[0] <= 0:
            raise ValueError(f"shutdown deadlines must increase, got {steps!r}")


SHUTDOWN = ShutdownDeadlines()
