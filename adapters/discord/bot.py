"""The discord.py client: slash commands and button clicks in, the service's replies out.

Each interaction is served by :class:`~adapters.discord.serving.Interactions` (answered within
Discord's 3 seconds, mistakes sent ephemeral); this module routes discord.py's events to it:
clicks on our buttons and menus, clicks on buttons that are not ours, slash commands and the
errors discord.py meets running them.

Replies that come later than any interaction (the moves of a watched bots' game) reach
:meth:`GameBot.publish`, the platform's :attr:`~core.ports.PlatformStyle.publish`, and edit the
game's board message through the channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
import discord.gateway
import yarl
from discord import app_commands

from adapters.discord.boards import BoardMessages
from adapters.discord.commands import (
    WATCH,
    CatalogueTranslator,
    Interaction,
    build_commands,
)
from adapters.discord.config import DEFAULT_GATEWAY_URL, DiscordConfig
from adapters.discord.daily import check_daily_channel
from adapters.discord.departures import DepartureEvents
from adapters.discord.ids import (
    ButtonId,
    CellPick,
    Column,
    MoveId,
    Pick,
    parse_cell,
    parse_column,
    parse_custom_id,
)
from adapters.discord.layout import MessageSpec
from adapters.discord.options import (
    channel_link,
    channel_written,
    command_from_options,
    move_from_text,
    seeks,
)
from adapters.discord.picture_layout import edit_kwargs, with_cells
from adapters.discord.present import ChannelOutlet, Presenter
from adapters.discord.reach import (
    USER_INSTALL_HELP,
    ChatReaches,
    Reach,
    reach_of,
    shared_chat,
    shown_to_the_user_alone,
)
from adapters.discord.responder import Responder
from adapters.discord.serving import PLATFORM, Interactions, locale_of, refuse
from core.commands import CommandSpec, Help, Settings
from core.errors import UserError
from core.i18n import normalize_locale
from core.ports import GameServicePort, PlatformStyle
from core.replies import Actor, Reply

if TYPE_CHECKING:
    from core.leases import Lease

log = logging.getLogger(__name__)

# A bots' game's first move can be ready before the message that shows its board: wait this
# long for it (a deferred answer included) before showing the game in a new message.
PUBLISH_WAITS_FOR_BOARD = 5.0
# Seconds a stop waits for the command-sync lease to be released (else it simply expires).
SYNC_LEASE_RELEASE = 3.0
COMMAND_SYNC_LEASE = "discord-command-sync"
"""The lease held by the one process that syncs the slash commands."""


class _Tree(app_commands.CommandTree["GameBot"]):
    async def on_error(
        self, interaction: discord.Interaction[GameBot], error: app_commands.AppCommandError
    ) -> None:
        await interaction.client.on_command_error(interaction, error)


class GameBot(discord.Client, DepartureEvents):
    """The bot: registers commands and buttons at login, then serves interactions.

    Args:
        service: the game service (already started, its store open).
        config: token, guilds to sync to, endpoints.
        sync_lease: the lease that elects the one process that syncs the slash commands
            (``discord-command-sync``); None syncs at every start, as one process alone does.
        client_options: more keyword arguments for discord.py's client (the shards).
    """

    def __init__(
        self,
        service: GameServicePort,
        config: DiscordConfig,
        *,
        sync_lease: Lease | None = None,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel metadata for interactions; not privileged
        # Privileged: members leaving (adapters/discord/departures.py), only when enabled.
        intents.members = config.member_events
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            # The members intent is for departures alone: no member lists fetched at start-up
            # and none kept, which a bot in thousands of servers could not afford.
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
            **client_options,
        )
        self.service = service
        self.config = config
        self.presenter = Presenter(BoardMessages(service.store, self._edit_message))
        # Users reach core only through resolved options (ids and names), never as mention
        # text, so Discord needs no user mention syntax of its own; channels do, in the text
        # of the allowed_chats setting.
        service.register_platform(
            PlatformStyle(
                PLATFORM,
                publish=self.publish,
                chat_id=channel_written,
                chat_link=channel_link,
                in_chat=self.in_chat,
                private_replies=True,
            )
        )
        self.tree = _Tree(self)
        for command in build_commands(self):
            self.tree.add_command(command)
        self.reaches = ChatReaches(service.store)
        self.interactions = Interactions(service, self.presenter, self.reaches)
        self._sync_lease = sync_lease
        self._sync_stop = asyncio.Event()
        self._sync_task: asyncio.Task[None] | None = None

    # --- lifetime -----------------------------------------------------------------------------

    async def setup_hook(self) -> None:
        """After login, before the gateway: translations, and the command sync (with a sync
        lease, in a task of its own that syncs once this process holds the lease)."""
        await self.tree.set_translator(CatalogueTranslator())
        if self._sync_lease is None:
            await self.sync_commands()
        else:
            self._sync_task = asyncio.create_task(
                self._sync_lease.run(self._sync_while_held, self._sync_stop),
                name="discord-command-sync",
            )

    async def _sync_while_held(self, ending: asyncio.Event) -> None:
        # The holder syncs once and keeps the lease while it runs, so the processes that
        # start later do not sync again; when it stops or dies, the next process to take the
        # lease syncs with its own code (after a rolling upgrade: the new commands). Two
        # processes syncing at once would do no harm either: the sync is one bulk overwrite
        # (PUT /applications/{id}/commands), idempotent, the last one wins; the lease keeps it
        # to one for Discord's rate limits on command writes.
        await self.sync_commands()
        await ending.wait()

    async def stop_command_sync(self) -> None:
        """Give up the command-sync lease, if held (before the store closes)."""
        self._sync_stop.set()
        if self._sync_task is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(SYNC_LEASE_RELEASE):
                    await self._sync_task

    async def sync_commands(self) -> None:
        """Register the slash commands with Discord (globally, or in ``DISCORD_GUILD_IDS``)."""
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
        pin_gateway(self.ws, self.config)

    async def shutdown(self, drain_seconds: float) -> None:
        """Stop taking input, let the interactions in flight finish (up to ``drain_seconds``),
        then close the connection."""
        await self.interactions.drain(drain_seconds)
        await self.stop_command_sync()
        await self.close()

    async def wait_idle(self) -> None:
        """Return when no interaction is being served (tests and benchmarks use it)."""
        await self.interactions.wait_idle()

    # --- entry points -------------------------------------------------------------------------

    async def handle_button(self, interaction: Interaction, button: ButtonId) -> None:
        """A click on one of our buttons."""

        async def work(actor: Actor) -> list[Reply]:
            if isinstance(button, MoveId):
                return await self.service.handle_move(
                    actor, button.session_id, button.move, button.version
                )
            return await self.service.handle_action(
                actor, button.session_id, button.action, button.version
            )

        await self.interactions.serve(interaction, work, button=button)

    async def handle_select(self, interaction: Interaction, pick: Pick, values: list[str]) -> None:
        """A selection in a picture board's menu: a column redraws the cell menu, a cell is a
        move. A value we never offered is refused."""
        value = values[0] if len(values) == 1 else ""
        if isinstance(pick, CellPick):
            cell = parse_cell(value)
            if cell is not None:
                move = MoveId(pick.session_id, pick.version, cell)
                await self.handle_button(interaction, move)
                return
        elif (column := parse_column(value)) is not None and interaction.message is not None:
            await self._show_cells(interaction, interaction.message, pick, column)
            return
        await self.interactions.serve(interaction, refuse("discord.unknown_button"))

    async def _show_cells(
        self, interaction: Interaction, message: discord.Message, pick: Pick, column: Column
    ) -> None:
        """A column picked: its cells in the cell menu if the picker may move here now; anyone
        else gets what a click of theirs would (the redrawn menu is everyone's to see)."""
        allowed = False

        async def work(actor: Actor) -> list[Reply]:
            nonlocal allowed
            refused = await self.service.handle_pick(actor, pick.session_id, pick.version)
            allowed = refused is None
            return refused or []

        async def cells(responder: Responder) -> None:
            if not allowed:
                await responder.acknowledge_quietly()  # the rate limiter's silence
                return
            locale = await self.interactions.chat_language(interaction, locale_of(interaction))
            await responder.update_view(with_cells(message, pick, column, locale))

        await self.interactions.serve(interaction, work, button=pick, nothing_to_say=cells)

    async def on_interaction(self, interaction: Interaction) -> None:
        """Every click on a component, ours or not, answered: its ``custom_id`` parsed once,
        here. One that is not ours (an old bot's, a hand-made one), or that its message does not
        show (a forged one), is refused."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        clicked = None
        if isinstance(custom_id, str) and _shows_button(interaction.message, custom_id):
            clicked = parse_custom_id(custom_id)
        if isinstance(clicked, ButtonId):
            await self.handle_button(interaction, clicked)
        elif clicked is not None:
            values = data.get("values")
            chosen = [str(v) for v in values] if isinstance(values, list) else []
            await self.handle_select(interaction, clicked, chosen)
        else:
            log.info("click on an unknown button %r", custom_id)
            await self.interactions.serve(interaction, refuse("discord.unknown_button"))

    async def run_slash(
        self, interaction: Interaction, spec: CommandSpec, options: Mapping[str, Any]
    ) -> None:
        """A slash command of the command table, with its option values."""

        async def work(actor: Actor) -> list[Reply]:
            if spec.kind is not None and shown_to_the_user_alone(interaction):
                # Nobody else would see the board: a game would wait for an opponent who can
                # never press anything.
                raise UserError("discord.external_apps_off")
            if options.get(WATCH) and reach_of(interaction) is Reach.INTERACTIONS:
                # A bots' game is shown move by move after its command's answer, by edits
                # of the board that only a member of the chat can make for five minutes.
                raise UserError("discord.bots_need_the_bot")
            if seeks(spec, options) and reach_of(interaction) is Reach.INTERACTIONS:
                # An open game's board here is edited from the other chat's moves: only a
                # member of the chat can.
                raise UserError("discord.open_play_needs_the_bot")
            if (
                spec.name == "tournament"
                and options.get("action")
                and reach_of(interaction) is Reach.INTERACTIONS
            ):
                # An event posts its games, reminders and standings in the chats that take
                # part: the bot must be a member to post here.
                raise UserError("event.no_post")
            command = command_from_options(
                spec,
                options,
                bot_id=None if self.user is None else self.user.id,
                in_guild=shared_chat(interaction),
            )
            if isinstance(command, Settings):
                check_daily_channel(interaction, actor, command)
            replies = await self.service.handle_command(actor, command)
            if (
                replies
                and isinstance(command, Help)
                and reach_of(interaction) is Reach.INTERACTIONS
            ):
                replies.append(USER_INSTALL_HELP)  # what a player would otherwise wonder at
            return replies

        await self.interactions.serve(interaction, work)

    async def play_text(self, interaction: Interaction, cell: str) -> None:
        """``/move``: a move typed as text, for boards too big for buttons."""

        async def work(actor: Actor) -> list[Reply]:
            return await self.service.handle_command(actor, move_from_text(cell))

        await self.interactions.serve(interaction, work)

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
        await self.interactions.serve(interaction, refuse(key, **params))

    async def publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        """Show replies that come after their request (a watched bots' game's moves) in the
        chat of ``actor``: the game's board message is edited through the channel."""
        if not self.interactions.accepting or self.is_closed():
            return  # stopping: the game stays stored as it is
        # A task of its own, so that a shutdown drains this update and not the whole game
        # whose task is calling.
        await asyncio.create_task(self._publish(actor, replies), name="discord-publish")

    async def _publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        with self.interactions.tracked():
            if await self.reaches.of(int(actor.chat_id)) is Reach.INTERACTIONS:
                # Not a member (a user's install): every channel request would be refused, and
                # counted against the bot. The next click there shows the board as it stands.
                log.info("not shown in chat %s, where only interactions reach", actor.chat_id)
                return
            outlet = ChannelOutlet(self, int(actor.chat_id))
            locale = normalize_locale(actor.locale)
            try:
                await self.presenter.show(
                    outlet, replies, locale, wait_for_board=PUBLISH_WAITS_FOR_BOARD
                )
            except discord.HTTPException as error:
                # One lost update: the next move's board shows the game again.
                log.warning("could not publish to chat %s: %s", actor.chat_id, error)

    async def _edit_message(self, channel_id: int, message_id: int, spec: MessageSpec) -> bool:
        """Edit a message of ours through its channel (no interaction token needed)."""
        channel = self.get_partial_messageable(channel_id)
        try:
            await channel.get_partial_message(message_id).edit(**edit_kwargs(spec))
        except discord.HTTPException as error:
            log.warning("could not edit message %d in %d: %s", message_id, channel_id, error)
            return False
        return True


def pin_gateway(socket: discord.gateway.DiscordWebSocket | None, config: DiscordConfig) -> None:
    """Keep ``socket`` resuming through the configured gateway.

    READY names a gateway to resume on; behind a configured proxy (or the test double) resuming
    must go through the configured URL as well.
    """
    if config.gateway_url != DEFAULT_GATEWAY_URL and socket is not None:
        socket.gateway = yarl.URL(config.gateway_url)


def _shows_button(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``message`` carries a button or menu ``custom_id`` (Discord sends no click on
    anything else), in rows or nested in a Components V2 container."""
    if message is None:
        return False
    pending: list[Any] = list(message.components)
    while pending:
        component = pending.pop()
        if getattr(component, "custom_id", None) == custom_id:
            return True
        pending.extend(getattr(component, "children", ()))
    return False
