"""End to end on Discord: who may administer a server, and answers that show nothing.

The real discord.py client and the real service against the loopback double, which sends each
member's permissions in the interaction as Discord does (see ``DiscordDouble.grant``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.admin.keys import Effective
from core.i18n import render
from core.replies import Actor, Reply
from core.sessions import GameService
from tests.e2e.discord_double import (
    EPHEMERAL,
    MANAGE_GUILD,
    DiscordDouble,
    Json,
    Sent,
    button_ids,
    buttons,
)
from tests.e2e.discord_harness import Harness, ManualClock, clock, double, harness

DEFAULT_RATE_BURST = Effective.rate_burst.default

__all__ = ["clock", "double", "harness"]  # fixtures


class Recording:
    """The real service, noting who acted on each call; ``silent`` makes it answer nothing,
    as the rate limiter does for a user it already warned."""

    def __init__(self, service: Any) -> None:
        self._service: GameService = service
        self.actors: list[Actor] = []
        self.silent = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._service, name)

    async def handle_command(self, actor: Actor, command: Any, **kwargs: Any) -> Sequence[Reply]:
        self.actors.append(actor)
        replies = await self._service.handle_command(actor, command, **kwargs)
        return [] if self.silent else replies

    async def handle_move(self, actor: Actor, *args: Any, **kwargs: Any) -> Sequence[Reply]:
        self.actors.append(actor)
        replies = await self._service.handle_move(actor, *args, **kwargs)
        return [] if self.silent else replies


def board_of(double: DiscordDouble, sent: Sent) -> Json:
    assert sent.original_id is not None, sent.requests
    return double.messages[sent.original_id]


def enabled_cells(message: Json) -> list[str]:
    return [
        b["custom_id"]
        for b in buttons(message)
        if ":move:" in b.get("custom_id", "") and not b.get("disabled")
    ]


def public_messages(double: DiscordDouble) -> dict[int, Json]:
    """The messages everyone sees, as they are now."""
    return {
        key: double.snapshot(key)
        for key, message in double.messages.items()
        if not int(message.get("flags") or 0) & EPHEMERAL
    }


def spy_on(harness: Harness) -> Recording:
    spy = Recording(harness.bot.service)
    harness.bot.service = spy  # type: ignore[assignment]
    return spy


async def test_the_actor_carries_the_server_and_the_members_own_permissions(
    harness: Harness, double: DiscordDouble
) -> None:
    spy = spy_on(harness)
    double.grant("bob")  # Manage Server
    double.grant("carol", administrator=True)  # implies it
    for name in ("alice", "bob", "carol"):
        await double.slash("help", user=name)
    await double.slash("help", user="bob", dm=True)
    start = await double.slash("tres", {"level": "easy"}, user="dave")
    double.grant("dave")  # granted after the game started: the click says so
    assert start.original_id is not None
    board = double.messages[start.original_id]
    await double.click(start.original_id, button_ids(board)[0], user="dave")
    double.grant("dave", manage_guild=False)  # and taken away again
    await double.slash("help", user="dave")

    seen = [(a.display_name, a.server_id, a.is_admin) for a in spy.actors]
    guild = double.guild_id
    assert seen == [
        ("Alice", guild, False),
        ("Bob", guild, True),
        ("Carol", guild, True),
        ("Bob", None, False),  # a direct message belongs to no server
        ("Dave", guild, False),
        ("Dave", guild, True),
        ("Dave", guild, False),
    ]
    assert [a.chat_id for a in spy.actors[:3]] == [double.channel_id] * 3


async def test_nothing_to_say_is_acknowledged_without_showing_anything(
    harness: Harness, double: DiscordDouble
) -> None:
    spy = spy_on(harness)
    start = await double.slash("tres", {"level": "easy"}, user="alice")
    assert start.original_id is not None
    board_id = start.original_id
    before = double.snapshot(board_id)
    shown = set(double.messages)
    spy.silent = True

    command = await double.slash("tres", {"level": "easy"}, user="alice")
    # Acknowledged in time with an ephemeral "thinking..." that is deleted at once.
    assert command.callback["type"] == 5
    assert int(command.callback["data"]["flags"]) & EPHEMERAL
    assert [r.kind for r in command.requests] == ["callback", "original_delete"]
    assert all(r.status < 300 for r in command.requests)
    assert command.public() == [] and command.ephemeral() == []

    click = await double.click(board_id, button_ids(before)[4], user="alice")
    assert [(r.kind, r.body["type"]) for r in click.requests] == [("callback", 6)]
    assert click.public() == [] and click.ephemeral() == []
    assert set(double.messages) == shown  # nothing new anywhere, nothing left behind


# --- /settings and the limits, through the real service ------------------------------------


def board_content(double: DiscordDouble, sent: Sent) -> str:
    return str(board_of(double, sent)["content"])


async def settings(
    double: DiscordDouble, user: str, key: str, value: str, *, channel: str = "games", **more: str
) -> list[str]:
    """``/settings key value`` as ``user`` (an admin) in ``channel``; the ephemeral answer."""
    options = {"key": key, "value": value, **more}
    sent = await double.slash("settings", options, user=user, channel=channel)
    assert sent.public() == [], sent.public()
    return sent.ephemeral()


async def test_settings_are_for_server_managers_and_apply_to_the_next_game(
    harness: Harness, double: DiscordDouble
) -> None:
    registered = double.command("settings")
    assert registered["default_member_permissions"] == str(MANAGE_GUILD)
    assert registered["dm_permission"] is False
    assert not double.may_use(registered, "alice", dm=False)  # Discord hides it from her

    # Granted to her in Integrations (or sent by a stale client): the bot checks again.
    refused = await double.slash(
        "settings", {"key": "level", "value": "hard"}, user="alice", granted=True
    )
    assert refused.ephemeral() == [render("settings.not_admin", "en")] and not refused.public()
    refused = await double.slash("settings", user="alice", granted=True)  # showing, too
    assert refused.ephemeral() == [render("settings.not_admin", "en")]
    game = await double.slash("tres", user="alice")
    assert "medium" in board_content(double, game)
    await double.slash("final", user="alice")

    double.grant("bob")  # Manage Server
    assert double.may_use(registered, "bob", dm=False)
    [answer] = await settings(double, "bob", "level", "hard")
    assert answer.startswith("level is now hard for "), answer
    [answer] = await settings(double, "bob", "level", "easy", scope="channel", channel="general")
    assert answer.startswith("level is now easy for "), answer

    game = await double.slash("tres", user="alice")
    assert "hard" in board_content(double, game)  # the server's level
    elsewhere = await double.slash("tres", user="alice", channel="general")
    assert "easy" in board_content(double, elsewhere)  # the channel's own
    chosen = await double.slash("tres", {"level": "medium"}, user="carol")
    assert "medium" in board_content(double, chosen)  # a level named wins over the default

    # A bad value is named, and changes nothing.
    [bad] = await settings(double, "bob", "level", "impossible")
    assert bad.startswith("level: 'impossible' is not "), bad
    game = await double.slash("tres", user="dave")
    assert "hard" in board_content(double, game)

    double.grant("bob", manage_guild=False)  # the role taken away: refused at once
    refused = await double.slash("settings", user="bob", granted=True)
    assert refused.ephemeral() == [render("settings.not_admin", "en")]


async def test_games_start_only_in_allowed_channels_buttons_included(
    harness: Harness, double: DiscordDouble
) -> None:
    double.grant("owner", administrator=True)
    # Before the restriction: a finished game, an open challenge and a running game in #general.
    game = await double.slash("tres", {"level": "hard"}, user="alice", channel="general")
    assert game.original_id is not None
    board_id = game.original_id
    while cells := [c for c in enabled_cells(double.messages[board_id])]:
        await double.click(board_id, cells[0], user="alice")
    rematch = next(c for c in button_ids(double.messages[board_id]) if c.endswith(":rematch"))
    challenge = await double.slash("tres", {"opponent": "bob"}, user="carol", channel="general")
    assert challenge.original_id is not None
    accept = next(c for c in button_ids(board_of(double, challenge)) if c.endswith(":accept"))
    running = await double.slash("tres", {"level": "easy"}, user="erin", channel="general")
    assert running.original_id is not None

    games = double.channels["games"]
    [answer] = await settings(double, "owner", "allowed_chats", f"<#{games}>")
    assert answer.startswith(f"allowed_chats is now {games} for "), answer

    not_allowed = render("limits.chat_not_allowed", "en")
    shown = public_messages(double)
    refused = await double.slash("tres", user="dave", channel="general")
    assert refused.ephemeral() == [not_allowed] and refused.public() == []
    again = await double.click(board_id, rematch, user="alice")
    assert again.ephemeral() == [not_allowed] and again.public() == []
    accepted = await double.click(challenge.original_id, accept, user="bob")
    assert accepted.ephemeral() == [not_allowed] and accepted.public() == []
    assert public_messages(double) == shown  # no board anywhere

    # A game already running goes on.
    move = await double.click(
        running.original_id, enabled_cells(board_of(double, running))[0], user="erin"
    )
    assert move.callback["type"] == 7 and not move.ephemeral()

    allowed = await double.slash("tres", user="dave")
    assert allowed.public() and not allowed.ephemeral()


async def test_cooldown_and_live_game_limits(
    harness: Harness, double: DiscordDouble, clock: ManualClock
) -> None:
    double.grant("owner")
    await settings(double, "owner", "cooldown", "60")
    await settings(double, "owner", "max_games_per_user", "1")
    await settings(double, "owner", "max_games_per_chat", "2")

    first = await double.slash("tres", user="alice")
    assert first.public()
    # One live game each: not a second one in another channel.
    elsewhere = await double.slash("tres", user="alice", channel="general")
    assert elsewhere.ephemeral() == [render("limits.user_games", "en", max=1)]
    await double.slash("final", user="alice")
    clock.advance(10)
    soon = await double.slash("tres", user="alice")
    assert soon.ephemeral() == [render("limits.cooldown", "en", seconds=50)]
    clock.advance(50)
    assert (await double.slash("tres", user="alice")).public()

    assert (await double.slash("tres", user="bob")).public()
    full = await double.slash("tres", user="carol")
    assert full.ephemeral() == [render("limits.chat_games", "en", max=2)]
    assert (await double.slash("tres", user="carol", channel="general")).public()


async def test_a_flood_of_commands_is_answered_once_then_silently(
    harness: Harness, double: DiscordDouble
) -> None:
    game = await double.slash("tres", {"level": "easy"}, user="mallory")
    board_id = board_of(double, game)["id"]
    # The service's clock stands still here: the bucket never refills during the flood.
    answers = [await double.slash("help", user="mallory") for _ in range(DEFAULT_RATE_BURST + 8)]
    helped = answers[: DEFAULT_RATE_BURST - 1]  # the game took a token
    assert all(sent.public() or sent.ephemeral() for sent in helped)
    assert not any("Slow down" in text for sent in helped for text in sent.ephemeral())
    told = answers[DEFAULT_RATE_BURST - 1]
    assert told.public() == []
    [slow_down] = told.ephemeral()
    assert slow_down.startswith("Slow down"), slow_down
    for quiet in answers[DEFAULT_RATE_BURST:]:
        # Acknowledged in time, nothing shown, nothing left behind.
        assert [r.kind for r in quiet.requests] == ["callback", "original_delete"]
        assert quiet.callback["type"] == 5
        assert quiet.public() == [] and quiet.ephemeral() == []
    other = await double.slash("help", user="alice")  # others are not held up
    assert (other.public(), other.ephemeral()) == (helped[0].public(), helped[0].ephemeral())

    # A legal move in her running game is never held back.
    move = await double.click(
        int(board_id), enabled_cells(double.messages[int(board_id)])[0], user="mallory"
    )
    assert move.callback["type"] == 7 and not move.ephemeral()
    # Another command still is, silently.
    quiet = await double.slash("tres", user="mallory", channel="general")
    assert [r.kind for r in quiet.requests] == ["callback", "original_delete"]
