"""The discord.py client: slash commands and button clicks in, the service's replies out.

Every interaction is answered, and within Discord's 3 seconds: the service's work starts at
once; if its replies are ready within :data:`RESPOND_WITHIN` they go out as the interaction's
response (one request: a board update, or an ephemeral error), otherwise the interaction is
deferred first and the replies follow as edits and follow-up messages. Mistakes (a click by
someone else, a stale board, a finished game) come back from the service as private replies and
are sent ephemeral, in the clicker's language; so do unknown buttons and commands, bad option
values and our own failures (logged, answered with an apology).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Protocol

import discord
import yarl
from discord import app_commands

from adapters.discord.commands import (
    CatalogueTranslator,
    Interaction,
    UserOption,
    build_commands,
)
from adapters.discord.config import DEFAULT_GATEWAY_URL, DiscordConfig
from adapters.discord.ids import ActionId, ButtonId, MoveId, parse_custom_id
from adapters.discord.layout import MessageSpec, board_message, text_message
from adapters.discord.views import DYNAMIC_ITEMS, build_view
from core import commands as core_commands
from core.commands import Command, CommandError, MoveText, Start, Stats, VsUser
from core.errors import UserError
from core.i18n import DEFAULT_LOCALE, normalize_locale, render
from core.ports import PlatformStyle
from core.replies import ActionKind, Actor, Reply

log = logging.getLogger(__name__)

PLATFORM = "discord"
RESPOND_WITHIN = 1.5  # seconds of work before deferring; Discord allows 3 for the response
KV_NAMESPACE = "discord"  # store.kv_*: where each session's board message is
# A size as people write it: 6x7, 6X7, or with the multiplication sign.
_SIZE = re.compile(r"\s*([0-9]{1,4})\s*[xX\u00d7]\s*([0-9]{1,4})\s*")
_LEVELS = ("easy", "medium", "hard")
_FIRSTS = ("me", "opponent", "random")


def mentioned_user(actor: Actor, written: str) -> str:
    """The user id in a Discord mention (``<@123>``, ``<@!123>``); other text as written."""
    text = written.strip()
    if text.startswith("<@") and text.endswith(">"):
        inner = text[2:-1].removeprefix("!")
        if inner.isascii() and inner.isdigit():
            return inner
    return text


STYLE = PlatformStyle(PLATFORM, user_id=mentioned_user)


class KeyValueStore(Protocol):
    async def kv_get(self, namespace: str, key: str) -> str | None: ...

    async def kv_set(self, namespace: str, key: str, value: str) -> None: ...


class Service(Protocol):
    """The part of :class:`core.sessions.GameService` the adapter uses."""

    @property
    def store(self) -> KeyValueStore: ...

    def register_platform(self, style: PlatformStyle) -> None: ...

    async def handle_text(
        self, actor: Actor, text: str, addressed: bool = False
    ) -> list[Reply]: ...

    async def handle_command(self, actor: Actor, command: Command) -> list[Reply]: ...

    async def handle_move(
        self, actor: Actor, session_id: str, move: int, version: int | None = None
    ) -> list[Reply]: ...

    async def handle_action(
        self, actor: Actor, session_id: str, action: ActionKind, version: int | None = None
    ) -> list[Reply]: ...


Work = Callable[[Actor], Awaitable[list[Reply]]]


def actor_for(interaction: Interaction) -> Actor:
    """Who acted, where: the channel (or DM) is the chat."""
    user = interaction.user
    return Actor(
        platform=PLATFORM,
        chat_id=str(interaction.channel_id),
        user_id=str(user.id),
        display_name=user.display_name,
        locale=interaction.locale.value,
    )


def locale_of(interaction: Interaction) -> str:
    """Our locale for the person who acted (Discord's ``pt-BR`` -> ``pt``)."""
    return normalize_locale(interaction.locale.value)


class _Tree(app_commands.CommandTree["GameBot"]):
    async def on_error(
        self, interaction: discord.Interaction[GameBot], error: app_commands.AppCommandError
    ) -> None:
        await interaction.client.on_command_error(interaction, error)


class GameBot(discord.Client):
    """The bot: registers commands and buttons at login, then serves interactions.

    Args:
        service: the game service (already started, its store open).
        config: token, guilds to sync to, endpoints.
    """

    def __init__(self, service: Service, config: DiscordConfig) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel metadata for interactions; not privileged
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.service = service
        self.config = config
        service.register_platform(STYLE)
        self.tree = _Tree(self)
        for command in build_commands(self):
            self.tree.add_command(command)
        self._accepting = True
        self._in_flight: set[asyncio.Task[Any]] = set()
        self._idle = asyncio.Event()
        self._idle.set()

    # --- lifetime -----------------------------------------------------------------------------

    async def setup_hook(self) -> None:
        """After login, before the gateway: buttons, translations, and the command sync."""
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogueTranslator())
        try:
            if self.config.guild_ids:
                for guild_id in self.config.guild_ids:
                    guild = discord.Object(id=guild_id)
                    self.tree.copy_global_to(guild=guild)
                    synced = await self.tree.sync(guild=guild)
                    log.info("synced %d commands to guild %d", len(synced), guild_id)
            else:
                synced = await self.tree.sync()
                log.info("synced %d global commands", len(synced))
        except discord.HTTPException:
            # Commands synced earlier keep working; a sync failure must not stop the games.
            log.exception("could not sync the slash commands")

    async def on_connect(self) -> None:
        self._pin_gateway()

    async def on_resumed(self) -> None:
        self._pin_gateway()

    def _pin_gateway(self) -> None:
        # READY names a gateway to resume on; behind a configured proxy (or the test double)
        # resuming must go through the configured URL as well.
        if self.config.gateway_url != DEFAULT_GATEWAY_URL and self.ws is not None:
            self.ws.gateway = yarl.URL(self.config.gateway_url)

    async def shutdown(self, drain_seconds: float) -> None:
        """Stop taking input, let the interactions in flight finish (up to ``drain_seconds``),
        then close the connection."""
        self._accepting = False
        if self._in_flight:
            await asyncio.wait(set(self._in_flight), timeout=drain_seconds)
        await self.close()

    async def wait_idle(self) -> None:
        """Return when no interaction is being served (tests and benchmarks use it)."""
        await self._idle.wait()

    # --- entry points -------------------------------------------------------------------------

    async def handle_button(self, interaction: Interaction, button: ButtonId) -> None:
        """A click on one of our buttons (called by the dynamic items)."""

        async def work(actor: Actor) -> list[Reply]:
            if isinstance(button, MoveId):
                return await self.service.handle_move(
                    actor, button.session_id, button.move, button.version
                )
            return await self.service.handle_action(
                actor, button.session_id, button.action, button.version
            )

        await self._serve(interaction, work, source=button)

    async def on_interaction(self, interaction: Interaction) -> None:
        # A click on a button that is not ours (an old bot's, a hand-made one) would otherwise
        # get no answer at all: discord.py only dispatches ids that match a template.
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        if (
            isinstance(custom_id, str)
            and parse_custom_id(custom_id) is not None
            and _shows_button(interaction.message, custom_id)
        ):
            return  # discord.py dispatches it to MoveButton / ActionButton
        log.info("click on an unknown button %r", custom_id)
        await self._serve(interaction, _refuse("discord.unknown_button"))

    async def start_game(
        self,
        interaction: Interaction,
        name: str,
        *,
        size: str | None = None,
        k: int | None = None,
        level: str | None = None,
        opponent: UserOption | None = None,
        first: str | None = None,
    ) -> None:
        async def work(actor: Actor) -> list[Reply]:
            command = self._start_command(
                interaction, name, size=size, k=k, level=level, opponent=opponent, first=first
            )
            return await self.service.handle_command(actor, command)

        await self._serve(interaction, work)

    async def run_command(self, interaction: Interaction, command: Command) -> None:
        async def work(actor: Actor) -> list[Reply]:
            return await self.service.handle_command(actor, command)

        await self._serve(interaction, work)

    async def show_stats(self, interaction: Interaction, player: UserOption | None) -> None:
        await self.run_command(interaction, Stats(None if player is None else f"<@{player.id}>"))

    async def play_text(self, interaction: Interaction, cell: str) -> None:
        async def work(actor: Actor) -> list[Reply]:
            try:
                parsed = core_commands.parse(cell)
            except CommandError:
                parsed = None
            if not isinstance(parsed, MoveText):
                raise UserError("discord.not_a_move", text=cell)
            return await self.service.handle_text(actor, cell.strip(), addressed=True)

        await self._serve(interaction, work)

    async def on_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        """A slash command discord.py could not run: unknown, outdated, or a bad value."""
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            key, params = "discord.unknown_command", {}
        elif isinstance(error, app_commands.TransformerError):
            key, params = "discord.bad_option", {"option": str(error.value)}
        else:
            log.error("slash command failed", exc_info=error)
            key, params = "error.internal", {}
        await self._serve(interaction, _refuse(key, **params))

    # --- serving ------------------------------------------------------------------------------

    async def _serve(
        self, interaction: Interaction, work: Work, *, source: ButtonId | None = None
    ) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._in_flight.add(task)
            self._idle.clear()
        responder = _Responder(interaction)
        locale = locale_of(interaction)
        try:
            if not self._accepting:
                await responder.send(MessageSpec(render("error.shutting_down", locale)), True)
                return
            job = asyncio.ensure_future(work(actor_for(interaction)))
            try:
                replies = await asyncio.wait_for(asyncio.shield(job), RESPOND_WITHIN)
            except TimeoutError:
                await responder.defer()
                replies = await job
            await self._apply(responder, replies, locale, source)
            await responder.finish(locale)
        except UserError as error:
            text = render(error.key, locale, **error.params)
            await self._answer_safely(responder, text)
        except Exception:
            log.exception("interaction %s failed", interaction.id)
            await self._answer_safely(responder, render("error.internal", locale))
        finally:
            if task is not None:
                self._in_flight.discard(task)
                if not self._in_flight:
                    self._idle.set()

    async def _answer_safely(self, responder: _Responder, text: str) -> None:
        try:
            await responder.send(text_message(text, DEFAULT_LOCALE), ephemeral=True)
        except discord.HTTPException:
            log.exception("could not answer an interaction")

    async def _apply(
        self,
        responder: _Responder,
        replies: list[Reply],
        locale: str,
        source: ButtonId | None,
    ) -> None:
        """Show ``replies`` in order (see :class:`core.replies.Reply`).

        A board goes where its game is shown: the clicked message if it shows that game, else
        the session's remembered board message, else a new message.
        """
        message = responder.interaction.message
        on_source = source is not None and message is not None
        if isinstance(source, ActionId) and source.action is ActionKind.REMATCH:
            old = source.session_id
            if any(r.new_message and r.session_id != old for r in replies):
                await responder.disable_source()  # the old board gives one rematch
        for reply in replies:
            text = reply.text.render(locale) if reply.text is not None else None
            if reply.private or reply.error:
                if text:
                    await responder.send(text_message(text, locale), ephemeral=True)
                continue
            session_id = reply.board.session_id if reply.board else reply.session_id
            here = on_source and source is not None and source.session_id == session_id
            if reply.board is None:
                if not text:
                    continue
                spec = text_message(
                    text,
                    locale,
                    session_id=reply.session_id,
                    version=reply.version,
                    actions=reply.actions,
                )
                if reply.new_message or session_id is None:
                    await self._post(responder, spec, reply.session_id if reply.actions else None)
                elif here:
                    # A declined challenge: its message says so and loses its buttons.
                    await responder.update_source(spec)
                elif not await self._edit_board(session_id, spec):
                    await self._post(responder, spec, None)
                continue
            spec = board_message(
                reply.board,
                locale,
                actions=reply.actions,
                text=text if reply.new_message else None,
            )
            if here and message is not None:
                # The clicked message shows this game: it becomes the new board.
                await responder.update_source(spec)
                await self._remember(reply.board.session_id, message.channel.id, message.id)
            elif reply.new_message or not await self._edit_board(reply.board.session_id, spec):
                await self._post(responder, spec, reply.board.session_id)
            else:
                # Edited far up the channel: tell the player where the game stands.
                responder.summary = reply.board.status.render(locale)
            if text and not reply.new_message:
                await responder.send(text_message(text, locale), ephemeral=False)

    async def _post(self, responder: _Responder, spec: MessageSpec, session_id: str | None) -> None:
        """A new public message; remembered as the session's board when it names one."""
        message_id = await responder.send(spec, ephemeral=False)
        channel_id = responder.interaction.channel_id
        if session_id is not None and message_id is not None and channel_id is not None:
            await self._remember(session_id, channel_id, message_id)

    async def _remember(self, session_id: str, channel_id: int, message_id: int) -> None:
        await self.service.store.kv_set(
            KV_NAMESPACE, f"board:{session_id}", f"{channel_id}:{message_id}"
        )

    async def _edit_board(self, session_id: str, spec: MessageSpec) -> bool:
        """Edit the session's board message in place; False if there is none to edit."""
        where = await self.service.store.kv_get(KV_NAMESPACE, f"board:{session_id}")
        if where is None:
            return False
        channel_id, _, message_id = where.partition(":")
        message = self.get_partial_messageable(int(channel_id)).get_partial_message(int(message_id))
        try:
            await message.edit(content=spec.content, view=build_view(spec))
        except discord.HTTPException as error:
            log.warning("could not edit the board of %s: %s", session_id, error)
            return False
        return True

    # --- commands -----------------------------------------------------------------------------

    def _start_command(
        self,
        interaction: Interaction,
        name: str,
        *,
        size: str | None,
        k: int | None,
        level: str | None,
        opponent: UserOption | None,
        first: str | None,
    ) -> Command:
        """The start command the options mean, checked by the same code as typed commands.

        Raises:
            UserError: a bad value, named in the message.
        """
        spec = core_commands.find_command(name)
        if spec is None:
            raise UserError("discord.unknown_command")
        typed = f"/{name}"
        tokens: list[str] = []
        if size is not None:
            match = _SIZE.fullmatch(size)
            if match is None:
                raise CommandError("parse.bad_size", size=size)
            tokens.append(f"{match[1]}x{match[2]}")
        if k is not None:
            tokens.append(str(k))
        for value, allowed in ((level, _LEVELS), (first, _FIRSTS)):
            if value is None:
                continue
            if value not in allowed:
                raise CommandError(
                    "parse.bad_option", command=typed, option=value, usage=spec.syntax
                )
            tokens.append(value)
        if opponent is not None and (self.user is None or opponent.id != self.user.id):
            if opponent.bot:
                raise UserError("discord.opponent_is_bot", name=opponent.display_name)
            if interaction.guild_id is None:
                raise UserError("discord.challenge_in_dm")
            tokens.append(f"<@{opponent.id}>")
            start = spec.build(typed, tokens)
            assert isinstance(start, Start)
            return replace(start, opponent=VsUser(str(opponent.id), opponent.display_name))
        return spec.build(typed, tokens)


def _shows_button(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``message`` carries a button ``custom_id`` (discord.py only dispatches those)."""
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False


def _refuse(key: str, **params: str | int) -> Work:
    async def work(actor: Actor) -> list[Reply]:
        raise UserError(key, **params)

    return work


class _Responder:
    """Sends what an interaction shows, choosing between its response, edits and follow-ups.

    The first thing shown is the interaction's response (Discord requires exactly one); after a
    deferral or a first response, the rest are edits of the original message and follow-ups.
    """

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.component = interaction.type is discord.InteractionType.component
        self.thinking = False  # a public "thinking..." placeholder waits to be replaced
        self.source_is_original = False  # @original is the clicked message
        self.summary: str | None = None  # the answer when nothing else was shown

    @property
    def responded(self) -> bool:
        return self.interaction.response.is_done()

    async def defer(self) -> None:
        if self.responded:
            return
        if self.component:
            await self.interaction.response.defer()
            self.source_is_original = True
        else:
            await self.interaction.response.defer(thinking=True)
            self.thinking = True

    async def update_source(self, spec: MessageSpec) -> None:
        """Replace the clicked message with ``spec``."""
        view = build_view(spec)
        if not self.responded:
            await self.interaction.response.edit_message(content=spec.content, view=view)
            self.source_is_original = True
        elif self.source_is_original:
            await self.interaction.edit_original_response(content=spec.content, view=view)
        elif self.interaction.message is not None:
            await self.interaction.message.edit(content=spec.content, view=view)

    async def disable_source(self) -> None:
        """Disable every button of the clicked message, keeping its text."""
        message = self.interaction.message
        if message is None:
            return
        view = discord.ui.View.from_message(message, timeout=None)
        for item in view.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True
        if not self.responded:
            await self.interaction.response.edit_message(view=view)
            self.source_is_original = True
        else:
            await message.edit(view=view)

    async def send(self, spec: MessageSpec, ephemeral: bool) -> int | None:
        """Show ``spec`` as a new message; its id if it is public."""
        interaction = self.interaction
        view = build_view(spec) if spec.buttons else None
        if not self.responded:
            if view is None:
                response = await interaction.response.send_message(
                    spec.content, ephemeral=ephemeral
                )
            else:
                response = await interaction.response.send_message(
                    spec.content, view=view, ephemeral=ephemeral
                )
            return None if ephemeral or response is None else response.message_id
        if self.thinking:
            self.thinking = False
            if not ephemeral:
                original = await interaction.edit_original_response(content=spec.content, view=view)
                return original.id
            await interaction.delete_original_response()
        if view is None:
            message = await interaction.followup.send(spec.content, ephemeral=ephemeral, wait=True)
        else:
            message = await interaction.followup.send(
                spec.content, view=view, ephemeral=ephemeral, wait=True
            )
        return None if ephemeral else message.id

    async def finish(self, locale: str) -> None:
        """Make sure the interaction got an answer."""
        summary = self.summary or render("discord.done", locale)
        if not self.responded:
            if self.component:
                await self.interaction.response.defer()
            else:
                await self.interaction.response.send_message(summary, ephemeral=True)
        elif self.thinking:
            self.thinking = False
            await self.interaction.edit_original_response(content=summary)
