"""A loopback Discord: enough of REST API v10 and the gateway for the real discord.py client.

The double is an aiohttp server on 127.0.0.1 (a random port). The unpatched discord.py client,
pointed at it through ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``, logs in
(``GET /users/@me``, ``GET /oauth2/applications/@me``), connects to the gateway (HELLO, heartbeat
ACKs, IDENTIFY -> READY + GUILD_CREATE, RESUME -> RESUMED), syncs its commands
(``PUT /applications/{app}/commands``, or per guild) and answers the interactions the tests send
as INTERACTION_CREATE: slash commands (type 2, with typed options and resolved users) and button
clicks (type 3, with the full message and its components).

Sharding as Discord does it: ``GET /gateway/bot`` recommends ``shards`` (the double's shard count);
an IDENTIFY may carry ``shard: [id, count]`` (without it, the session is shard 0 of 1; an id
outside the count is closed with 4010 Invalid shard); READY and GUILD_CREATE name only the
guilds of that shard, ``(guild_id >> 22) % count``; a guild's interactions go to the session
holding its shard, direct messages to shard 0. With ``identify_interval``, the double keeps
Discord's identify rate: one IDENTIFY per bucket (``shard % max_concurrency``) per interval;
one sent sooner is answered with op 9 INVALID_SESSION (counted in ``identify_refused``). A new
session for a shard replaces the one
before it (the newest connection of a shard gets its events); an interaction for a shard no
session holds is not delivered (``Sent.delivered`` is False: for the player, "this interaction
failed"), as on Discord, which does not keep interactions for a later session.

The double keeps every message the bot creates or edits (``messages``), so a test sees what a
player would, and records every request (``requests``). It enforces Discord's rules that the
bot must respect: one callback per interaction, within 3 seconds (later ones get ``10062 Unknown
interaction``), and a command must have been synced before it can be used. Where the bot is not
a member (a group DM, a server it was removed from, a server where only users installed the
app: ``add_guild(installed=False)``), every channel request is refused with 403 Missing Access
and counted in ``invalid_requests``, as Discord counts it against the bot.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import re
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.e2e import discord_v2 as v2

Json = dict[str, Any]

EPHEMERAL = 64  # message flag
ADMINISTRATOR = 1 << 3  # permission bits
MANAGE_GUILD = 1 << 5
USE_EXTERNAL_APPS = 1 << 50
GUILD_MEMBERS = 1 << 1  # gateway intent (privileged): GUILD_MEMBER_ADD/UPDATE/REMOVE
ALL_PERMISSIONS = (1 << 51) - 1
# What @everyone may do in the double's server (no Manage Server, no Administrator).
EVERYONE = 2248473465835073
LOADING = 128  # message flag: "the bot is thinking"
CALLBACK_DEADLINE = 3.0  # seconds Discord waits for an interaction's response
API_PREFIX = "/api/v10"
_TIMESTAMP = "2024-01-01T00:00:00.000000+00:00"
_CHANNEL_POST = re.compile(r"/channels/\d+/messages")
UPLOADS = "_uploads"  # the files of a multipart request, as (filename, bytes), in its body


TOKEN = "MTIwMDAwMDAwMDA.loopback-double.token"
"""The one bot token the double accepts: shaped like a real one, so the bot's settings take it."""


@dataclass
class Recorded:
    """One HTTP request the bot made."""

    method: str
    path: str  # without the API prefix: /interactions/1/tok/callback
    query: Mapping[str, str]
    body: Any
    at: float  # time.perf_counter() on arrival
    kind: str  # callback, original_edit, original_get, original_delete, followup, ...
    token: str | None = None
    status: int = 200
    message_id: int | None = None  # the message it created or edited, if any


@dataclass(frozen=True, slots=True)
class Guild:
    """A server of the double: its text channels by name (``games``, where the games are
    played by default, ``general``, then as many others as a test wants in its GUILD_CREATE,
    for memory figures) and its roles."""

    id: str
    name: str
    channels: dict[str, str]
    roles: tuple[str, ...] = ()

    @property
    def channel_id(self) -> str:
        return self.channels["games"]


@dataclass
class Session:
    """One gateway session: which shard it holds, of how many."""

    socket: web.WebSocketResponse
    shard: int
    count: int
    id: str = ""
    seq: int = 0
    intents: int = 0  # as IDENTIFY asked


@dataclass
class Sent:
    """An interaction the double sent, and what the bot did with it."""

    id: str
    token: str
    payload: Json
    sent_at: float
    shard: int = 0
    delivered: bool = True
    requests: list[Recorded] = field(default_factory=list)
    callback_at: float | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    original_id: int | None = None  # the message @original refers to

    @property
    def callback(self) -> Json:
        """The body of the (first) interaction callback."""
        for request in self.requests:
            if request.kind == "callback":
                body: Json = request.body
                return body
        raise AssertionError(f"interaction {self.id} got no callback")

    @property
    def latency(self) -> float:
        """Seconds from INTERACTION_CREATE sent to the callback received."""
        if self.callback_at is None:
            raise AssertionError(f"interaction {self.id} got no callback")
        return self.callback_at - self.sent_at

    def bodies(self) -> list[tuple[str, Json]]:
        """(kind, message data) for everything the bot showed in answer, in order."""
        shown: list[tuple[str, Json]] = []
        for request in self.requests:
            if request.status >= 300 or not isinstance(request.body, dict):
                continue
            if request.kind == "callback":
                data = request.body.get("data")
                if isinstance(data, dict) and request.body.get("type") in (4, 7):
                    shown.append(("callback", data))
            elif request.kind in ("original_edit", "followup", "followup_edit"):
                shown.append((request.kind, request.body))
        return shown

    def ephemeral(self) -> list[str]:
        """Texts only the acting user sees."""
        return [
            str(data.get("content", ""))
            for _, data in self.bodies()
            if int(data.get("flags") or 0) & EPHEMERAL
        ]

    def public(self) -> list[str]:
        """Texts everyone in the channel sees (new messages and edits)."""
        return [
            str(data.get("content", ""))
            for _, data in self.bodies()
            if not int(data.get("flags") or 0) & EPHEMERAL
        ]


class DiscordDouble:
    """The loopback Discord server. Use as ``async with DiscordDouble() as double:``."""

    def __init__(
        self,
        *,
        resume_gateway_url: str | None = None,
        shards: int = 1,
        identify_interval: float = 0.0,
        max_concurrency: int = 1,
        check_rest_token: bool = False,
        members_intent: bool = True,
    ) -> None:
        """
        Args:
            resume_gateway_url: the gateway READY names for resuming (default: this one).
            shards: the shard count ``GET /gateway/bot`` recommends.
            identify_interval: seconds between two IDENTIFYs of a bucket (Discord: 5); 0 lets
                every IDENTIFY through.
            max_concurrency: how many buckets (``session_start_limit.max_concurrency``).
            check_rest_token: REST requests with a token other than :data:`TOKEN` are refused
                with 401, as Discord refuses a wrong or reset token at login (by default only
                the gateway checks it, closing with 4004 "Authentication failed").
            members_intent: whether the application may have the privileged GUILD_MEMBERS
                intent (enabled in the Developer Portal); an IDENTIFY asking for it without
                is closed with 4014 "Disallowed intent(s)", as Discord does.
        """
        self._ids = itertools.count(1_200_000_000_000_000_000)
        # Guild ids on a chosen shard: snowflakes whose timestamp (the bits above 22) is
        # chosen, each a new one, above every counted id.
        self._stamps = itertools.count((1_200_000_000_000_000_000 >> 22) + 1)
        self.shard_count = shards
        self.identify_interval = identify_interval
        self.max_concurrency = max_concurrency
        self.check_rest_token = check_rest_token
        self.members_intent = members_intent
        self.identify_refused = 0
        self.identified_at: list[float] = []  # time.monotonic() of every accepted IDENTIFY
        self._last_identify: dict[int, float] = {}  # bucket -> when it last identified
        self.app_id = self.snowflake()
        self.bot_user: Json = {
            "id": self.app_id,
            "username": "c4bot",
            "global_name": "C4 Bot",
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "flags": 0,
        }
        self.guilds: dict[str, Guild] = {}
        # Servers the bot was removed from: their channels refuse it (Missing Access).
        self.left_guilds: set[str] = set()
        # Servers where only users installed the app (add_guild(installed=False)): the bot is
        # not a member, so it hears of them through interactions alone, and every channel
        # request there is refused (Missing Access), and counted against it.
        self.user_installed: set[str] = set()
        # Who left which server (by name): GET of the member answers Unknown Member.
        self.left_members: dict[str, set[str]] = {}
        self._channel_guilds: dict[str, Guild] = {}
        # Threads by id, as the gateway last described them (a channel object each): an
        # archived one is left out of GUILD_CREATE, as Discord lists active threads alone.
        self.threads: dict[str, Json] = {}
        default = self.add_guild("Game night", channels=2)
        self.guild_id = default.id
        self.channel_id = default.channel_id  # #games, where the tests play by default
        self.channels = default.channels
        # Members' permissions in the server, by name; everyone else has @everyone's.
        self.permissions: dict[str, int] = {}
        # The bot's own permissions in a channel (interactions' app_permissions), by channel id,
        # where a test takes some away; every channel grants the same otherwise.
        self.app_permissions: dict[str, int] = {}
        self.users: dict[str, Json] = {}
        self.dm_channels: dict[str, str] = {}
        # Group DMs by channel id: their members' names. The bot is never a member of one: it
        # is reached there only through a user's own install of the app.
        self.group_dms: dict[str, tuple[str, ...]] = {}
        # Whether members may use apps the server did not install (USE_EXTERNAL_APPS); where
        # they may not, Discord shows such an app's responses to the user alone.
        self.external_apps = True
        # Who authorized the interaction that created a message; a click on it carries the
        # same owners (Discord's rule for components).
        self.message_owners: dict[int, Json] = {}
        # Interaction tokens past Discord's 15 minutes (see expire_tokens).
        self.expired_tokens: set[str] = set()
        self.messages: dict[int, Json] = {}
        self.uploads: dict[int, bytes] = {}  # attachment id -> the bytes uploaded
        self.requests: list[Recorded] = []
        self.interactions: dict[str, Sent] = {}
        self.global_commands: list[Json] = []
        self.guild_commands: dict[str, list[Json]] = {}
        self.identify_count = 0
        self.identified: list[tuple[int, int]] = []  # (shard, count) of every IDENTIFY
        self.resume_count = 0
        self.command_syncs = 0
        self.settle: Callable[[], Awaitable[None]] | None = None
        self.held: list[Json] = []  # bodies of the channel posts held by hold_posts, in order
        self._posts_held: asyncio.Event | None = None
        self._held_ones: Callable[[Json], bool] = lambda body: True
        self._resume_gateway_url = resume_gateway_url
        self._live: dict[int, Session] = {}  # shard -> the session that gets its events
        self._sessions: dict[str, Session] = {}  # session id -> session (to RESUME)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifetime -----------------------------------------------------------------------------

    @property
    def invalid_requests(self) -> int:
        """The bot's requests that Discord counts toward its limit of 10,000 invalid requests
        per 10 minutes per IP address (answered 401, 403 or 429), past which it blocks the
        address for a while."""
        return sum(r.status in (401, 403, 429) for r in self.requests)

    async def __aenter__(self) -> DiscordDouble:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        for session in list(self._live.values()):
            await session.socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def snowflake(self) -> str:
        return str(next(self._ids))

    def shard_of(self, guild_id: str | int, count: int | None = None) -> int:
        """The shard that gets the events of ``guild_id`` (Discord's formula)."""
        return (int(guild_id) >> 22) % (count or self.shard_count)

    def add_guild(
        self,
        name: str,
        *,
        shard: int | None = None,
        channels: int = 1,
        roles: int = 1,
        installed: bool = True,
    ) -> Guild:
        """A new server with a channel ``games`` (and ``channels - 1`` others: ``general``,
        then ``room-3``, ``room-4``...; ``roles`` roles
        counting @everyone); with ``shard``, one whose events go to that shard of
        :attr:`shard_count`. Not ``installed``: only its members installed the app, each for
        themselves (see :attr:`user_installed`); its interactions are authorized by the
        user's install alone."""
        guild_id = self.snowflake()
        if shard is not None:
            if not 0 <= shard < self.shard_count:
                raise ValueError(f"shard {shard} is not one of {self.shard_count}")
            # A snowflake's shard is its timestamp modulo the count.
            stamp = next(self._stamps)
            while stamp % self.shard_count != shard:
                stamp = next(self._stamps)
            guild_id = str(stamp << 22)
        names = ["games", "general", *(f"room-{n}" for n in range(3, channels + 1))][:channels]
        guild = Guild(
            guild_id,
            name,
            {channel: self.snowflake() for channel in names},
            tuple(self.snowflake() for _ in range(roles - 1)),
        )
        self.guilds[guild.id] = guild
        for channel_id in guild.channels.values():
            self._channel_guilds[channel_id] = guild
        if not installed:
            self.user_installed.add(guild.id)
        return guild

    def guild_of_channel(self, channel_id: str) -> Guild | None:
        return self._channel_guilds.get(channel_id)

    def shard_live(self, shard: int) -> bool:
        """Whether a gateway session holds ``shard`` now."""
        session = self._live.get(shard)
        return session is not None and not session.socket.closed

    # --- waiting ------------------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[], bool], within: float = 10.0) -> None:
        """Wait until ``predicate()`` holds (checked on every request and gateway event)."""
        async with asyncio.timeout(within), self._changed:
            await self._changed.wait_for(predicate)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_ready(self, *, sessions: int = 1, within: float = 10.0) -> None:
        """Wait until ``sessions`` gateway sessions were identified and commands synced."""
        await self.wait_for(
            lambda: self.identify_count >= sessions and self.command_syncs >= sessions,
            within,
        )

    # --- people and places --------------------------------------------------------------------

    def user(self, name: str) -> Json:
        """The user called ``name`` (created on first use)."""
        if name not in self.users:
            self.users[name] = {
                "id": self.snowflake(),
                "username": name,
                "global_name": name.capitalize(),
                "discriminator": "0",
                "avatar": None,
                "bot": False,
                "flags": 0,
                "public_flags": 0,
            }
        return self.users[name]

    def dm_channel(self, name: str) -> str:
        if name not in self.dm_channels:
            self.dm_channels[name] = self.snowflake()
        return self.dm_channels[name]

    def expire_tokens(self) -> None:
        """Let 15 minutes pass for every interaction so far: their tokens no longer edit or
        follow up (new interactions bring fresh tokens)."""
        self.expired_tokens.update(self.interactions)

    def group_dm(self, *names: str) -> str:
        """A new group DM of ``names`` (the bot is not in it); its channel id."""
        channel = self.snowflake()
        self.group_dms[channel] = names
        return channel

    def grant(self, name: str, *, manage_guild: bool = True, administrator: bool = False) -> None:
        """Give ``name`` Manage Server (a role with it), or Administrator."""
        if administrator:
            # Discord computes an administrator's permissions as every permission.
            self.permissions[name] = ALL_PERMISSIONS
        else:
            base = self.permissions.get(name, EVERYONE)
            self.permissions[name] = base | MANAGE_GUILD if manage_guild else base & ~MANAGE_GUILD

    def may_use(self, command: Json, name: str, *, dm: bool, group: bool = False) -> bool:
        """Whether Discord's client offers ``command`` to ``name`` here.

        Discord hides a command whose ``default_member_permissions`` the member lacks, a
        guild-only one in direct messages, and in a group DM (``group``) every command not
        registered for user installs in private channels; a server's admins may grant it to
        others in Server Settings -> Integrations, and a stale client may still send it, so the
        bot checks again.
        """
        if dm:
            contexts = command.get("contexts")
            return command.get("dm_permission", True) and (contexts is None or 1 in contexts)
        if group:
            # Only through the user's own install (integration type 1), in context 2.
            return 1 in (command.get("integration_types") or [0]) and 2 in (
                command.get("contexts") or [0, 1]
            )
        required = command.get("default_member_permissions")
        if required is None:
            return True
        held = self.permissions.get(name, EVERYONE)
        return bool(held & ADMINISTRATOR) or int(required) & held == int(required)

    def _member(self, user: Json) -> Json:
        return {
            "user": user,
            "roles": [],
            "joined_at": _TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
            # The member's permissions in the channel, as interactions carry them.
            "permissions": str(
                self.permissions.get(str(user["username"]), EVERYONE)
                & (ALL_PERMISSIONS if self.external_apps else ~USE_EXTERNAL_APPS)
            ),
        }

    def _guild_payload(self, guild: Guild) -> Json:
        return {
            "id": guild.id,
            "name": guild.name,
            "icon": None,
            "owner_id": self.user("owner")["id"],
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": role,
                    "name": f"role {position}" if position else "@everyone",
                    "permissions": "2248473465835073",
                    "position": position,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
                for position, role in enumerate((guild.id, *guild.roles))
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_flags": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "member_count": 4,
            "large": False,
            "unavailable": False,
            "joined_at": _TIMESTAMP,
            "members": [self._member(self.bot_user)],
            "channels": [
                self._channel_payload(guild, c)
                for c in guild.channels.values()
                if c not in self.threads
            ],
            "threads": [
                t
                for t in self.threads.values()
                if t["guild_id"] == guild.id and not t["thread_metadata"]["archived"]
            ],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        }

    def _channel_payload(self, guild: Guild, channel_id: str) -> Json:
        name = next(n for n, c in guild.channels.items() if c == channel_id)
        return {
            "id": channel_id,
            "type": 0,
            "guild_id": guild.id,
            "name": name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    # --- driving the bot ----------------------------------------------------------------------

    def command(self, name: str, *, dm: bool = False, guild: Guild | None = None) -> Json:
        """The synced command called ``name`` usable here (guild commands win in a guild)."""
        guild_id = (guild.id if guild else None) or self.guild_id
        pools = [] if dm else [self.guild_commands.get(guild_id, [])]
        pools.append(self.global_commands)
        for pool in pools:
            for command in pool:
                if command["name"] == name:
                    return command
        raise AssertionError(f"the bot did not sync a command {name!r} usable here")

    async def slash(
        self,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: str,
        dm: bool = False,
        guild: Guild | None = None,
        channel: str = "games",
        locale: str = "en-US",
        wait: bool = True,
        granted: bool = False,
        group: str | None = None,
        user_install: bool = False,
    ) -> Sent:
        """Run ``/name`` as ``user`` in ``channel`` of ``guild`` (by default the first guild),
        or in the group DM ``group`` (a channel id from :meth:`group_dm`, through the user's
        own install; ``user_install`` sends a server's command the same way, as where the
        server did not install the bot); options by name, a user option by the user's name.
        ``name`` may name a subcommand: ``"settings set"``.

        A command Discord's client would not offer the user (see :meth:`may_use`) is sent
        only when ``granted``: an admin granted it in Integrations, or the client is stale.
        Returns once the callback arrived and the bot settled (see :attr:`settle`).
        """
        top, *path = name.split()
        command = self.command(top, dm=dm, guild=guild)
        if not granted and not self.may_use(command, user, dm=dm, group=group is not None):
            raise AssertionError(f"Discord does not offer /{top} to {user} here")
        schema = {o["name"]: o for o in command.get("options", [])}
        nested: list[Json] = []  # the subcommand (group) wrappers, outermost first
        for part in path:
            if part not in schema or schema[part]["type"] not in (1, 2):
                raise AssertionError(f"/{top} has no subcommand {part!r}")
            nested.append({"name": part, "type": schema[part]["type"]})
            schema = {o["name"]: o for o in schema[part].get("options", [])}
        sent_options: list[Json] = []
        resolved_users: Json = {}
        resolved_members: Json = {}
        for option_name, value in (options or {}).items():
            if option_name not in schema:
                raise AssertionError(f"/{name} has no option {option_name!r}")
            kind = schema[option_name]["type"]
            if kind == 6:  # a user
                person = self.user(value) if value != "@bot" else self.bot_user
                value = person["id"]
                resolved_users[value] = person
                if not dm and group is None:
                    member = self._member(person)
                    del member["user"]
                    resolved_members[value] = member
            sent_options.append({"name": option_name, "type": kind, "value": value})
        for wrapper in reversed(nested):
            sent_options = [{**wrapper, "options": sent_options}]
        data: Json = {"id": command["id"], "name": top, "type": 1, "options": sent_options}
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        if resolved_users:
            data["resolved"] = {"users": resolved_users}
            if resolved_members:
                data["resolved"]["members"] = resolved_members
        place = guild or self.guilds[self.guild_id]
        if group is not None:
            payload = self._interaction(2, user=user, dm=False, channel=group, locale=locale)
        else:
            payload = self._interaction(
                2, user=user, dm=dm, channel=place.channels[channel], locale=locale, guild=place
            )
        if user_install and group is None and not dm:
            payload["authorizing_integration_owners"] = {"1": self.user(user)["id"]}
        payload["data"] = data
        return await self.send_interaction(payload, wait=wait)

    async def click(
        self,
        message: int | Json,
        custom_id: str,
        *,
        user: str,
        locale: str = "en-US",
        wait: bool = True,
        forge: bool = False,
    ) -> Sent:
        """Press the button ``custom_id`` of ``message`` (an id: its current state; a dict: that
        snapshot, to click a stale board) as ``user``."""
        snapshot = self.messages[message] if isinstance(message, int) else message
        if not forge and custom_id not in button_ids(snapshot):
            raise AssertionError(f"no button {custom_id!r} on message {snapshot['id']}")
        channel = str(snapshot["channel_id"])
        dm = channel in self.dm_channels.values()
        guild = None if dm or channel in self.group_dms else self.guild_of_channel(channel)
        payload = self._interaction(
            3, user=user, dm=dm, channel=channel, locale=locale, guild=guild
        )
        owners = self.message_owners.get(int(snapshot["id"]))
        if owners is not None:
            payload["authorizing_integration_owners"] = dict(owners)
        payload["message"] = json.loads(json.dumps(snapshot))
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        return await self.send_interaction(payload, wait=wait)

    async def select(
        self,
        message: int | Json,
        custom_id: str,
        values: list[str],
        *,
        user: str,
        locale: str = "en-US",
        forge: bool = False,
    ) -> Sent:
        """Choose ``values`` in the select menu ``custom_id`` of ``message`` (an id: its current
        state; a dict: that snapshot) as ``user``; unless ``forge``, only values it offers."""
        snapshot = self.messages[message] if isinstance(message, int) else message
        menu = next((m for m in selects(snapshot) if m["custom_id"] == custom_id), None)
        if not forge:
            if menu is None or menu.get("disabled"):
                raise AssertionError(f"no usable menu {custom_id!r} on message {snapshot['id']}")
            offered = {option["value"] for option in menu["options"]}
            if not set(values) <= offered:
                raise AssertionError(f"{values} are not options of {custom_id!r}: {offered}")
        channel = str(snapshot["channel_id"])
        guild = self.guild_of_channel(channel)
        payload = self._interaction(
            3, user=user, dm=guild is None, channel=channel, locale=locale, guild=guild
        )
        payload["message"] = json.loads(json.dumps(snapshot))
        payload["data"] = {"custom_id": custom_id, "component_type": v2.SELECT, "values": values}
        return await self.send_interaction(payload)

    def _interaction(
        self,
        kind: int,
        *,
        user: str,
        dm: bool,
        channel: str,
        locale: str,
        guild: Guild | None = None,
    ) -> Json:
        person = self.user(user)
        place = guild or self.guilds[self.guild_id]
        payload: Json = {
            "id": self.snowflake(),
            "application_id": self.app_id,
            "type": kind,
            "token": uuid.uuid4().hex,
            "version": 1,
            "locale": locale,
            "app_permissions": str(self.app_permissions.get(channel, 2248473465835073)),
            "attachment_size_limit": 26_214_400,
            "entitlements": [],
        }
        if channel in self.group_dms:
            payload |= {
                "channel_id": channel,
                "channel": {
                    "id": channel,
                    "type": 3,
                    "name": None,
                    "icon": None,
                    "owner_id": self.user(self.group_dms[channel][0])["id"],
                    "recipients": [self.user(name) for name in self.group_dms[channel]],
                    "flags": 0,
                },
                "user": person,
                "context": 2,
                # Authorized by the user's own install alone: no guild, no member.
                "authorizing_integration_owners": {"1": person["id"]},
            }
        elif dm:
            channel = self.dm_channel(user)
            payload |= {
                "channel_id": channel,
                "channel": {"id": channel, "type": 1, "recipients": [person], "flags": 0},
                "user": person,
                "context": 1,
                "authorizing_integration_owners": {"0": place.id},
            }
        else:
            payload |= {
                "guild_id": place.id,
                "guild_locale": "en-US",
                "guild": {"id": place.id, "locale": "en-US", "features": []},
                "channel_id": channel,
                "channel": self._channel_payload(place, channel),
                "member": self._member(person),
                "context": 0,
                "authorizing_integration_owners": {"0": place.id},
            }
            if place.id in self.user_installed:
                payload["authorizing_integration_owners"] = {"1": person["id"]}
        return payload

    async def send_interaction(self, payload: Json, *, wait: bool = True) -> Sent:
        """Send INTERACTION_CREATE on the shard of its guild (direct messages: shard 0); with
        ``wait``, return after the callback and settling.

        Raises:
            AssertionError: with ``wait``, no session holds that shard (without ``wait`` the
                interaction is returned undelivered, as Discord drops it).
        """
        guild_id = payload.get("guild_id")
        session = self._live.get(0)
        if guild_id is not None:
            session = next(
                (s for s in self._live.values() if s.shard == self.shard_of(guild_id, s.count)),
                None,
            )
        shard = 0 if session is None else session.shard
        sent = Sent(payload["id"], payload["token"], payload, time.perf_counter(), shard)
        self.interactions[sent.token] = sent
        if session is None or session.socket.closed:
            sent.delivered = False
            if wait:
                raise AssertionError(f"no gateway session holds the shard of guild {guild_id}")
            return sent
        sent.sent_at = time.perf_counter()
        await self._send(session, "INTERACTION_CREATE", payload)
        if wait:
            await self.wait_answered(sent)
        return sent

    async def wait_answered(self, sent: Sent, within: float = 5.0) -> Sent:
        """Wait for the callback of ``sent``, then for the bot to settle."""
        async with asyncio.timeout(within):
            await sent.answered.wait()
        if self.settle is not None:
            await asyncio.wait_for(self.settle(), within)
        return sent

    async def dispatch(self, event: str, data: Json, *, shard: int = 0) -> None:
        """Send a gateway DISPATCH event on ``shard``."""
        await self._send(self._session(shard), event, data)

    async def _send(self, session: Session, event: str, data: Json) -> None:
        session.seq += 1
        frame = {"op": 0, "t": event, "s": session.seq, "d": data}
        await session.socket.send_str(json.dumps(frame))

    def _session(self, shard: int) -> Session:
        session = self._live.get(shard)
        if session is None or session.socket.closed:
            raise AssertionError(f"the bot is not connected to the gateway on shard {shard}")
        return session

    # --- leaving: servers, channels, threads, members -----------------------------------------

    async def remove_guild(self, guild: Guild) -> None:
        """The bot is kicked from ``guild`` (or the server is deleted): GUILD_DELETE without
        ``unavailable`` on its shard; its channels refuse the bot from then on."""
        self.left_guilds.add(guild.id)
        await self.dispatch("GUILD_DELETE", {"id": guild.id}, shard=self.shard_of(guild.id))

    async def delete_channel(self, channel_id: str) -> None:
        """A channel of a server is deleted: CHANNEL_DELETE with the channel. Its threads go
        with it, archived or not, and Discord sends no THREAD_DELETE for them."""
        guild = self._channel_guilds[channel_id]
        payload = self._channel_payload(guild, channel_id)
        del guild.channels[payload["name"]]
        for thread in [t for t, p in self.threads.items() if p["parent_id"] == channel_id]:
            del guild.channels[self.threads.pop(thread)["name"]]
        await self.dispatch("CHANNEL_DELETE", payload, shard=self.shard_of(guild.id))

    async def create_thread(self, guild: Guild, name: str, parent: str = "games") -> str:
        """A public thread under ``parent``: THREAD_CREATE; its channel id (commands reach it
        as ``channel=name``)."""
        thread = self.snowflake()
        self._channel_guilds[thread] = guild
        guild.channels[name] = thread
        payload = {
            **self._channel_payload(guild, guild.channels[parent]),
            "id": thread,
            "type": 11,  # a public thread
            "name": name,
            "parent_id": guild.channels[parent],
            "owner_id": self.user("owner")["id"],
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": _TIMESTAMP,
                "locked": False,
            },
            "message_count": 0,
            "member_count": 1,
        }
        self.threads[thread] = payload
        created = {**payload, "newly_created": True}
        await self.dispatch("THREAD_CREATE", created, shard=self.shard_of(guild.id))
        return thread

    async def archive_thread(self, thread: str) -> None:
        """A thread is archived (by a member, or by Discord after its auto-archive duration
        without activity): THREAD_UPDATE with the thread, ``thread_metadata.archived`` set.
        Clients drop archived threads from the server's active ones (discord.py does)."""
        payload = self.threads[thread]
        payload["thread_metadata"] = {**payload["thread_metadata"], "archived": True}
        guild = self._channel_guilds[thread]
        await self.dispatch("THREAD_UPDATE", payload, shard=self.shard_of(guild.id))

    async def delete_thread(self, thread: str) -> None:
        """A thread is deleted: THREAD_DELETE (Discord sends only its ids and type)."""
        guild = self._channel_guilds.pop(thread)
        del guild.channels[next(n for n, c in guild.channels.items() if c == thread)]
        parent = self.threads.pop(thread)["parent_id"]
        payload = {"id": thread, "guild_id": guild.id, "parent_id": parent, "type": 11}
        await self.dispatch("THREAD_DELETE", payload, shard=self.shard_of(guild.id))

    async def member_leaves(self, name: str, guild: Guild | None = None) -> bool:
        """``name`` leaves the server (or is kicked or banned): GUILD_MEMBER_REMOVE, which
        Discord sends only to a session that identified with the GUILD_MEMBERS intent; whether
        it was sent."""
        guild = guild or self.guilds[self.guild_id]
        self.left_members.setdefault(guild.id, set()).add(name)
        shard = self.shard_of(guild.id)
        if not self._session(shard).intents & GUILD_MEMBERS:
            return False
        payload = {"guild_id": guild.id, "user": self.user(name)}
        await self.dispatch("GUILD_MEMBER_REMOVE", payload, shard=shard)
        return True

    async def ask_reconnect(self, *, shard: int = 0) -> None:
        """Send op 7 RECONNECT: the client must reconnect and RESUME."""
        await self._session(shard).socket.send_str(json.dumps({"op": 7, "d": None}))

    def snapshot(self, message_id: int) -> Json:
        """A copy of a message as it is now (edits later do not change it)."""
        copy: Json = json.loads(json.dumps(self.messages[message_id]))
        return copy

    def create_message(self, content: str, components: list[Json]) -> Json:
        """A message in the game channel that the bot did not make (an old bot's, say)."""
        return self._new_message(self.channel_id, {"content": content, "components": components})

    # --- gateway ------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41_250}}))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            op = frame.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2:
                await self._identify(ws, frame["d"])
            elif op == 6:
                await self._resume(ws, frame["d"])
        await self._notify()  # a shard went away: waiters on shard_live see it
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: Json) -> None:
        if data.get("token") != TOKEN:
            await ws.close(code=4004, message=b"Authentication failed.")
            return
        if int(data.get("intents", 0)) & GUILD_MEMBERS and not self.members_intent:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard, count = data.get("shard") or (0, 1)
        if not (isinstance(count, int) and isinstance(shard, int) and 0 <= shard < count):
            await ws.close(code=4010, message=b"Invalid shard.")
            return
        bucket, now = shard % self.max_concurrency, time.monotonic()
        if now - self._last_identify.get(bucket, -1e9) < self.identify_interval:
            self.identify_refused += 1
            await ws.send_str(json.dumps({"op": 9, "d": False}))
            await self._notify()
            return
        self._last_identify[bucket] = now
        self.identified_at.append(now)
        session = Session(ws, shard, count, uuid.uuid4().hex, intents=int(data.get("intents", 0)))
        self._sessions[session.id] = session
        self._live[shard] = session
        mine = [
            g
            for g in self.guilds.values()
            if self.shard_of(g.id, count) == shard and g.id not in self.user_installed
        ]
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": g.id, "unavailable": True} for g in mine],
            "session_id": session.id,
            "resume_gateway_url": self._resume_gateway_url or self.gateway_url,
            "application": {"id": self.app_id, "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if "shard" in data:
            ready["shard"] = [shard, count]
        await self._send(session, "READY", ready)
        for guild in mine:
            await self._send(session, "GUILD_CREATE", self._guild_payload(guild))
        self.identify_count += 1
        self.identified.append((shard, count))
        await self._notify()

    async def _resume(self, ws: web.WebSocketResponse, data: Json) -> None:
        session = self._sessions.get(str(data.get("session_id")))
        if session is None:
            await ws.send_str(json.dumps({"op": 9, "d": False}))  # invalid session: IDENTIFY
            return
        session.socket = ws
        self._live[session.shard] = session
        self.resume_count += 1
        await self._send(session, "RESUMED", {})
        await self._notify()

    # --- holding posts ------------------------------------------------------------------------

    def hold_posts(self, which: Callable[[Json], bool] = lambda body: True) -> None:
        """From now on, hold the new channel messages (``POST /channels/{id}/messages``) whose
        body is ``which`` unanswered until :meth:`release_posts`: a post that is slow to
        arrive, so that a test can put what comes meanwhile in the order it needs. Each held
        body is in :attr:`held`."""
        self._posts_held = asyncio.Event()
        self._held_ones = which

    def release_posts(self) -> None:
        """Answer the held posts, in order, and hold no more."""
        if self._posts_held is not None:
            self._posts_held.set()
            self._posts_held = None

    # --- REST ---------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        at = time.perf_counter()
        body = await _read_body(request)
        record = Recorded(request.method, path, dict(request.query), body, at, "unknown")
        held = self._posts_held
        if (
            held is not None
            and request.method == "POST"
            and _CHANNEL_POST.fullmatch(path)
            and self._held_ones(body)
        ):
            self.held.append(body)
            await self._notify()
            await held.wait()
        try:
            authorization = request.headers.get("Authorization")
            if not path.startswith(("/interactions/", "/webhooks/")) and (
                authorization is None or (self.check_rest_token and authorization != f"Bot {TOKEN}")
            ):
                return self._error(record, 401, 0, "401: Unauthorized")
            status, payload = await self._route(request.method, path, body, record)
            record.status = status
            if status < 300 and isinstance(payload, dict):
                shown = payload.get("resource", {}).get("message") or payload
                if "channel_id" in shown and "content" in shown:
                    record.message_id = int(shown["id"])
            self.requests.append(record)
            if record.token is not None and record.token in self.interactions:
                self.interactions[record.token].requests.append(record)
            if status == 204:
                return web.Response(status=204)
            return _json(payload, status)
        finally:
            await self._notify()

    def _error(self, record: Recorded, status: int, code: int, message: str) -> web.Response:
        record.status = status
        self.requests.append(record)
        return _json({"code": code, "message": message}, status)

    async def _route(self, method: str, path: str, body: Any, record: Recorded) -> tuple[int, Any]:
        app = self.app_id
        if method == "GET" and path == "/users/@me":
            record.kind = "login"
            return 200, self.bot_user
        if method == "GET" and path == "/oauth2/applications/@me":
            record.kind = "application"
            return 200, self._application()
        if method == "GET" and path == "/gateway/bot":
            record.kind = "gateway"
            return 200, {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.max_concurrency,
                },
            }
        if match := re.fullmatch(rf"/applications/{app}/(?:guilds/(\d+)/)?commands", path):
            record.kind = "commands"
            guild = match[1]
            if method == "PUT":
                return 200, self._sync(body, guild)
            if method == "GET":
                pool = self.global_commands if guild is None else self.guild_commands.get(guild)
                return 200, pool or []
        if match := re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", path):
            record.kind = "callback"
            record.token = match[2]
            return self._callback(match[1], match[2], body, record)
        if match := re.fullmatch(rf"/webhooks/{app}/([^/]+)(?:/messages/([^/]+))?", path):
            record.token = match[1]
            return self._webhook(method, match[1], match[2], body, record)
        if match := re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", path):
            return self._channel(method, match[1], match[2], body, record)
        if method == "GET" and (match := re.fullmatch(r"/channels/(\d+)", path)):
            record.kind = "channel_fetch"
            return self._channel_object(match[1])
        if method == "GET" and (match := re.fullmatch(r"/guilds/(\d+)/members/(\d+)", path)):
            record.kind = "member_get"
            return self._guild_member(match[1], match[2])
        return 404, {"code": 0, "message": f"404: Not Found ({method} {path})"}

    def _channel_object(self, channel: str) -> tuple[int, Any]:
        """GET /channels/{channel}: a server's channel or thread, archived threads included
        (direct messages are not modelled: Unknown Channel)."""
        guild = self._channel_guilds.get(channel)
        if guild is None or channel not in guild.channels.values():
            return 404, {"code": 10003, "message": "Unknown Channel"}
        if not self._bot_in(guild.id):
            return 403, {"code": 50001, "message": "Missing Access"}
        return 200, self.threads.get(channel) or self._channel_payload(guild, channel)

    def _bot_in(self, guild_id: str) -> bool:
        """Whether the bot is a member of the server: not removed from it, and installed there
        by the server rather than by its users alone."""
        return guild_id not in self.left_guilds and guild_id not in self.user_installed

    def _guild_member(self, guild_id: str, user_id: str) -> tuple[int, Any]:
        """GET /guilds/{guild}/members/{user}: needs no privileged intent, only the bot in the
        server; everyone is a member of the double's servers until they leave."""
        if guild_id not in self.guilds or not self._bot_in(guild_id):
            return 404, {"code": 10004, "message": "Unknown Guild"}
        user = next((u for u in self.users.values() if u["id"] == user_id), None)
        if user is None or user["username"] in self.left_members.get(guild_id, set()):
            return 404, {"code": 10007, "message": "Unknown Member"}
        return 200, self._member(user)

    def _application(self) -> Json:
        return {
            "id": self.app_id,
            "name": "C4 Bot",
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.user("owner"),
            "summary": "",
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "interactions_endpoint_url": None,
            "tags": [],
        }

    def _sync(self, body: Any, guild: str | None) -> list[Json]:
        commands = []
        for entry in body:
            command = dict(entry)
            command |= {
                "id": self.snowflake(),
                "application_id": self.app_id,
                "version": self.snowflake(),
                "type": entry.get("type", 1),
                # Discord answers with the permission bits as a string, or null.
                "default_member_permissions": _bits(entry.get("default_member_permissions")),
                "nsfw": entry.get("nsfw", False),
            }
            if guild is not None:
                command["guild_id"] = guild
            commands.append(command)
        if guild is None:
            self.global_commands = commands
        else:
            self.guild_commands[guild] = commands
        self.command_syncs += 1
        return commands

    def _callback(
        self, interaction_id: str, token: str, body: Json, record: Recorded
    ) -> tuple[int, Any]:
        sent = self.interactions.get(token)
        if sent is None or sent.id != interaction_id:
            return 404, {"code": 10062, "message": "Unknown interaction"}
        if UPLOADS in body:  # a response's files belong to the message it shows
            body = {**body, "data": {**(body.get("data") or {}), UPLOADS: body[UPLOADS]}}
        if body.get("type") in (4, 7):
            source = sent.payload.get("message") if body["type"] == 7 else None
            shown = self.messages.get(int(source["id"])) if source else None
            refused = self.refusal(body.get("data") or {}, shown)
            if refused is not None:
                return refused
        if sent.answered.is_set():
            return 400, {"code": 40060, "message": "Interaction has already been acknowledged."}
        if record.at - sent.sent_at > CALLBACK_DEADLINE:
            return 404, {"code": 10062, "message": "Unknown interaction"}
        sent.callback_at = record.at
        sent.answered.set()
        kind = body["type"]
        data = body.get("data") or {}
        payload = sent.payload
        channel = str(payload["channel_id"])
        message: Json | None = None
        loading = False
        if kind == 4:
            if _forced_ephemeral(payload):
                data = {**data, "flags": int(data.get("flags") or 0) | EPHEMERAL}
            message = self._new_message(channel, data, interaction=payload)
            sent.original_id = int(message["id"])
        elif kind == 5:
            loading = True
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            message = self._new_message(channel, {"content": "", "flags": flags}, payload)
            sent.original_id = int(message["id"])
        elif kind in (6, 7):
            if "message" not in payload:
                return 400, {"code": 40004, "message": "Cannot update a message here"}
            sent.original_id = int(payload["message"]["id"])
            if kind == 7:
                message = self._edit_message(sent.original_id, data)
        else:
            return 400, {"code": 50035, "message": f"Unsupported callback type {kind}"}
        response: Json = {
            "interaction": {
                "id": interaction_id,
                "type": payload["type"],
                "response_message_loading": loading,
                "response_message_ephemeral": bool(
                    message and int(message.get("flags") or 0) & EPHEMERAL
                ),
            },
        }
        if message is not None:
            response["interaction"]["response_message_id"] = message["id"]
            response["resource"] = {"type": kind, "message": message}
        return 200, response

    def _webhook(
        self, method: str, token: str, which: str | None, body: Any, record: Recorded
    ) -> tuple[int, Any]:
        sent = self.interactions.get(token)
        if sent is None or not sent.answered.is_set():
            return 404, {"code": 10015, "message": "Unknown Webhook"}
        if token in self.expired_tokens:
            return 401, {"code": 50027, "message": "Invalid Webhook Token"}
        if which is None:
            if method != "POST":
                return 405, {"code": 0, "message": "405: Method Not Allowed"}
            record.kind = "followup"
            if (refused := self.refusal(body)) is not None:
                return refused
            message = self._new_message(str(sent.payload["channel_id"]), body, sent.payload)
            return 200, message
        message_id = sent.original_id if which == "@original" else int(which)
        if message_id is None or message_id not in self.messages:
            return 404, {"code": 10008, "message": "Unknown Message"}
        original = which == "@original"
        if method == "GET":
            record.kind = "original_get"
            return 200, self.messages[message_id]
        if method == "PATCH":
            record.kind = "original_edit" if original else "followup_edit"
            if (refused := self.refusal(body, self.messages[message_id])) is not None:
                return refused
            return 200, self._edit_message(message_id, body)
        if method == "DELETE":
            record.kind = "original_delete" if original else "followup_delete"
            del self.messages[message_id]
            return 204, None
        return 405, {"code": 0, "message": "405: Method Not Allowed"}

    def _channel(
        self, method: str, channel: str, which: str | None, body: Any, record: Recorded
    ) -> tuple[int, Any]:
        guild = self._channel_guilds.get(channel)
        if channel in self.group_dms or (guild is not None and not self._bot_in(guild.id)):
            # A bot that is not a member of a channel gets Missing Access for all of it.
            record.kind = "channel_refused"
            return 403, {"code": 50001, "message": "Missing Access"}
        if which is None and method == "POST":
            record.kind = "channel_create"
            if (refused := self.refusal(body)) is not None:
                return refused
            return 200, self._new_message(channel, body)
        if which is not None and method == "PATCH":
            record.kind = "channel_edit"
            message_id = int(which)
            message = self.messages.get(message_id)
            if message is None or str(message["channel_id"]) != channel:
                return 404, {"code": 10008, "message": "Unknown Message"}
            if int(message.get("flags") or 0) & EPHEMERAL:
                return 404, {"code": 10008, "message": "Unknown Message"}
            if (refused := self.refusal(body, message)) is not None:
                return refused
            return 200, self._edit_message(message_id, body)
        if which is not None and method == "GET":
            record.kind = "channel_get"
            found = self.messages.get(int(which))
            return (200, found) if found else (404, {"code": 10008, "message": "Unknown Message"})
        return 405, {"code": 0, "message": "405: Method Not Allowed"}

    # --- messages -----------------------------------------------------------------------------

    def _new_message(self, channel: str, data: Json, interaction: Json | None = None) -> Json:
        message_id = self.snowflake()
        message: Json = {
            "id": message_id,
            "channel_id": channel,
            "author": self.bot_user,
            "content": data.get("content") or "",
            "timestamp": _TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attach(data, []),
            "embeds": data.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": int(data.get("flags") or 0),
        }
        message["components"] = self._components(data, message["attachments"])
        guild = self.guild_of_channel(channel)
        if guild is not None:
            message["guild_id"] = guild.id
        if interaction is not None:
            owners = interaction.get("authorizing_integration_owners")
            if owners is not None:
                self.message_owners[int(message_id)] = owners
            message["type"] = 20 if interaction["type"] == 2 else 0
            message["webhook_id"] = self.app_id
            message["application_id"] = self.app_id
        self.messages[int(message_id)] = message
        return message

    def _attach(self, data: Json, kept: list[Json]) -> list[Json]:
        """The attachments of a message: those of ``kept`` the request names (all when it
        names none), then its uploads."""
        if "attachments" in data or UPLOADS in data:
            named = {str(a.get("id")) for a in data.get("attachments") or []}
            kept = [a for a in kept if str(a["id"]) in named]
        attachments = list(kept)
        for filename, content in data.get(UPLOADS) or []:
            attachment_id = self.snowflake()
            url = f"https://cdn.double.invalid/attachments/{attachment_id}/{filename}"
            self.uploads[int(attachment_id)] = content
            attachments.append(
                {
                    "id": attachment_id,
                    "filename": filename,
                    "size": len(content),
                    "url": url,
                    "proxy_url": url,
                    "content_type": "image/png" if filename.endswith(".png") else None,
                }
            )
        return attachments

    def _components(self, data: Json, attachments: list[Json]) -> list[Json]:
        # A copy: the request as recorded keeps what the bot sent (attachment://NAME).
        components = v2.numbered(copy.deepcopy(data.get("components") or []))
        v2.resolve(components, attachments)
        return components

    def refusal(self, data: Any, message: Json | None = None) -> tuple[int, Json] | None:
        """Discord's answer to a request that would break its rules for messages (see
        :mod:`tests.e2e.discord_v2`), or None."""
        if not isinstance(data, dict):
            return None
        had = int((message or {}).get("flags") or 0)
        flags = int(data.get("flags") or 0) | had
        asked = int(data.get("flags") or 0)
        if had & v2.IS_COMPONENTS_V2 and "flags" in data and not asked & v2.IS_COMPONENTS_V2:
            return 400, {"code": 50035, "message": "IS_COMPONENTS_V2 cannot be removed"}
        kept = list((message or {}).get("attachments") or [])
        if "attachments" in data or UPLOADS in data:
            named = {str(a.get("id")) for a in data.get("attachments") or []}
            kept = [a for a in kept if str(a["id"]) in named]
        attachments = kept + [{"filename": name} for name, _ in data.get(UPLOADS) or []]
        shown = dict(data)
        for kept_key in ("components", "content", "embeds"):  # what an edit leaves as it was
            if message is not None and kept_key not in data:
                shown[kept_key] = message.get(kept_key)
        why = v2.problem(shown, flags, attachments)
        if why is None:
            return None
        return 400, {"code": 50035, "message": f"Invalid Form Body: {why}"}

    def _edit_message(self, message_id: int, data: Json) -> Json:
        message = self.messages[message_id]
        if "content" in data:
            message["content"] = data["content"] or ""
        if "attachments" in data or UPLOADS in data:
            message["attachments"] = self._attach(data, message.get("attachments") or [])
        if "components" in data:
            message["components"] = self._components(data, message["attachments"])
        if "flags" in data:  # the V2 flag is set for good; the others follow the edit
            kept = int(message.get("flags") or 0) & v2.IS_COMPONENTS_V2
            message["flags"] = int(data["flags"] or 0) | kept
        if "embeds" in data:
            message["embeds"] = data["embeds"] or []
        message["flags"] = int(message.get("flags") or 0) & ~LOADING
        message["edited_timestamp"] = _TIMESTAMP
        return message


def _forced_ephemeral(interaction: Json) -> bool:
    """Whether Discord shows this interaction's response to its user alone: a command through a
    user's install in a server whose members may not use external apps."""
    owners = interaction.get("authorizing_integration_owners") or {}
    member = interaction.get("member")
    if "guild_id" not in interaction or "0" in owners or member is None:
        return False
    return not int(member["permissions"]) & USE_EXTERNAL_APPS


def button_ids(message: Json) -> list[str]:
    """The custom ids of a message's buttons, in order."""
    return [b["custom_id"] for b in buttons(message) if "custom_id" in b]


def buttons(message: Json) -> list[Json]:
    """A message's buttons, in order (row by row, nested ones too)."""
    return [c for c in v2.walk(message.get("components", [])) if c.get("type") == v2.BUTTON]


def selects(message: Json) -> list[Json]:
    """A message's select menus, in order."""
    return [c for c in v2.walk(message.get("components", [])) if c.get("type") == v2.SELECT]


def text_of(message: Json) -> str:
    """What a message says: its content, or its text displays (Components V2)."""
    texts = [c["content"] for c in v2.walk(message.get("components", [])) if c.get("type") == 10]
    return "\n".join([message.get("content") or "", *texts]).strip()


def picture(double: DiscordDouble, message: Json) -> bytes:
    """The PNG a picture board shows (its media gallery's one attachment)."""
    [attachment] = message["attachments"]
    return double.uploads[int(attachment["id"])]


def button_rows(message: Json) -> list[list[Json]]:
    """A message's buttons row by row."""
    return [list(row.get("components", [])) for row in message.get("components", [])]


def _bits(value: Any) -> str | None:
    return None if value is None else str(int(value))


async def _read_body(request: web.Request) -> Any:
    if not request.can_read_body:
        return None
    if request.content_type == "application/json":
        return await request.json()
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        payload = form.get("payload_json")
        body = json.loads(str(payload)) if payload is not None else {}
        uploads = [
            (value.filename, value.file.read())
            for key, value in form.items()
            if key.startswith("files[") and isinstance(value, web.FileField)
        ]
        if uploads:
            body[UPLOADS] = uploads
        return body
    return await request.text()


def _json(payload: Any, status: int = 200) -> web.Response:
    # Content-Type exactly "application/json": discord.py compares it literally.
    return web.Response(
        status=status, body=json.dumps(payload).encode(), content_type="application/json"
    )
