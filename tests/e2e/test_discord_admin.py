"""End to end on Discord: who may administer a server, and answers that show nothing.

The real discord.py client and the real service against the loopback double, which sends each
member's permissions in the interaction as Discord does (see ``DiscordDouble.grant``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.replies import Actor, Reply
from core.sessions import GameService
from tests.e2e.discord_double import EPHEMERAL, DiscordDouble, button_ids
from tests.e2e.discord_harness import Harness, clock, double, harness

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
