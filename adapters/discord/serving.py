"""One interaction answered: who acted, the service's work, and the answer within 3 seconds.

The service's work starts at once; if its replies are ready within :data:`RESPOND_WITHIN` they
go out as the interaction's response (one request: a board update, or an ephemeral error),
otherwise the interaction is deferred first and the replies follow as edits and follow-up
messages. Mistakes (a click by someone else, a stale board, a finished game) come back from the
service as private replies and are sent ephemeral, in the clicker's language; so do unknown
buttons and commands, bad option values and our own failures (logged, answered with an
apology). No replies at all (a user the rate limiter already warned) are acknowledged without
showing anything to anyone.

Every actor carries the server it acted in and whether it may change that server's settings,
read from the interaction's own permissions (see :func:`actor_for`).

Each interaction served, and each later update published, counts as in flight while it runs:
a shutdown stops taking new ones and drains those (:class:`Interactions`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from adapters.discord.commands import Interaction
from adapters.discord.ids import ComponentId
from adapters.discord.layout import MessageSpec, text_message
from adapters.discord.present import Clicked, Presenter
from adapters.discord.reach import ChatReaches, Reach, reach_of, shared_chat
from adapters.discord.responder import Responder
from core.errors import UserError
from core.i18n import DEFAULT_LOCALE, normalize_locale, render
from core.ports import GameServicePort
from core.replies import Actor, Reply

log = logging.getLogger(__name__)

PLATFORM = "discord"
RESPOND_WITHIN = 1.5  # seconds of work before deferring; Discord allows 3 for the response

Work = Callable[[Actor], Awaitable[list[Reply]]]


def actor_for(interaction: Interaction) -> Actor:
    """Who acted, where: the channel (or DM) is the chat, the server (guild) its scope.

    Whether the person may change the settings is read from this interaction's own
    permissions every time (Manage Server; Administrator implies it): ``/settings`` is
    registered for Manage Server only, but a server's admins can grant it to anyone in
    Server Settings -> Integrations, and a stale client may still send it. In a server that did
    not install the bot (a user's own install) nobody may: the server's admins never chose it.
    """
    user = interaction.user
    guild_id = interaction.guild_id
    return Actor(
        platform=PLATFORM,
        chat_id=str(interaction.channel_id),
        user_id=str(user.id),
        display_name=user.display_name,
        locale=interaction.locale.value,
        server_id=None if guild_id is None else str(guild_id),
        is_admin=guild_id is not None
        and reach_of(interaction) is Reach.CHANNEL
        and may_manage(interaction.permissions),
        direct=not shared_chat(interaction),
    )


def may_manage(permissions: discord.Permissions) -> bool:
    """Whether these permissions let a member change the server's settings."""
    return permissions.administrator or permissions.manage_guild


def locale_of(interaction: Interaction) -> str:
    """Our locale for the person who acted (Discord's ``pt-BR`` -> ``pt``)."""
    return normalize_locale(interaction.locale.value)


def refuse(key: str, **params: str | int) -> Work:
    """Work that answers with the user error ``key`` (an unknown button, a bad option)."""

    async def work(actor: Actor) -> list[Reply]:
        raise UserError(key, **params)

    return work


class Interactions:
    """Serves interactions through the service and shows its replies with ``presenter``
    (remembering in ``reaches`` how far the bot reaches into each chat); counts them, and later
    updates, as in flight until :meth:`drain`."""

    def __init__(
        self, service: GameServicePort, presenter: Presenter, reaches: ChatReaches
    ) -> None:
        self.service = service
        self.presenter = presenter
        self.reaches = reaches
        self.stopping = asyncio.Event()  # set when a shutdown begins: nothing new is taken
        self._in_flight: set[asyncio.Task[Any]] = set()
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def accepting(self) -> bool:
        """Whether new interactions are served (until a shutdown begins)."""
        return not self.stopping.is_set()

    async def drain(self, seconds: float) -> None:
        """Stop taking interactions and wait (up to ``seconds``) for those in flight."""
        self.stopping.set()
        if self._in_flight:
            await asyncio.wait(set(self._in_flight), timeout=seconds)

    async def wait_idle(self) -> None:
        """Return when no interaction is being served."""
        await self._idle.wait()

    def tracked(self) -> _InFlight:
        """A block during which the current task counts as in flight."""
        return _InFlight(self._in_flight, self._idle)

    async def serve(
        self,
        interaction: Interaction,
        work: Work,
        *,
        button: ComponentId | None = None,
        nothing_to_say: Callable[[Responder], Awaitable[None]] | None = None,
    ) -> None:
        """Run ``work`` for the interaction's actor and show its replies (on the message of
        ``button`` when one was pressed); ``nothing_to_say`` answers when there are none."""
        with self.tracked():
            responder = Responder(interaction)
            locale = locale_of(interaction)
            message = interaction.message
            clicked = None
            if button is not None and message is not None:
                clicked = Clicked(responder, button, message)
            try:
                if not self.accepting:
                    text = render("error.shutting_down", locale)
                    await responder.send(MessageSpec(text), True)
                    return
                await self.reaches.seen(interaction)
                job = asyncio.ensure_future(work(actor_for(interaction)))
                # asyncio.wait leaves the job running at the deadline (no shield, no second
                # task): fewer objects on every press than wait_for(shield(job)).
                done, _ = await asyncio.wait((job,), timeout=RESPOND_WITHIN)
                if not done:
                    await responder.defer()
                replies = await job
                if not replies:
                    # Nothing to say (a rate-limited user): no "Done" either.
                    if nothing_to_say is None:
                        await responder.acknowledge_quietly()
                    else:
                        await nothing_to_say(responder)
                    return
                locale = next((r.locale for r in replies if r.locale), locale)  # the chat's
                await self.presenter.show(
                    responder,
                    replies,
                    locale,
                    clicked=clicked,
                    channel_edits=reach_of(interaction) is Reach.CHANNEL,
                )
                await responder.finish(locale)
            except UserError as error:
                # A mistake the service never saw (an option we could not read): the chat's
                # chosen language still wins over the reader's client.
                locale = await self.chat_language(interaction, locale)
                await _answer_safely(responder, render(error.key, locale, **error.params))
            except Exception:
                log.exception("interaction %s failed", interaction.id)
                await _answer_safely(responder, render("error.internal", locale))

    async def chat_language(self, interaction: Interaction, locale: str) -> str:
        """The chat's chosen language, else ``locale``."""
        # The service answers None, never an error, when it cannot read the chat's settings.
        return await self.service.chat_language(actor_for(interaction)) or locale


async def _answer_safely(responder: Responder, text: str) -> None:
    try:
        await responder.send(text_message(text, DEFAULT_LOCALE), ephemeral=True)
    except discord.HTTPException:
        log.exception("could not answer an interaction")


class _InFlight:
    """Counts the current task as in flight while the block runs (shutdown drains them)."""

    def __init__(self, tasks: set[asyncio.Task[Any]], idle: asyncio.Event) -> None:
        self._tasks = tasks
        self._idle = idle
        self._task: asyncio.Task[Any] | None = None

    def __enter__(self) -> None:
        self._task = asyncio.current_task()
        if self._task is not None:
            self._tasks.add(self._task)
            self._idle.clear()

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self._tasks.discard(self._task)
            if not self._tasks:
                self._idle.set()
