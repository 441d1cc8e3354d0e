"""The move clock on Discord, through the double: the board's status line carries the deadline
as ``<t:…:R>``; when a fifth of the time is left the player to move is mentioned in the channel;
when the time is out the board is edited to the result (and the result said in the channel);
in a group DM the bot is not in, the game still ends and nothing breaks. The service's clock is
moved by hand; the sweep runs every 20 ms of real time, and the test waits on what the double
receives."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from core.i18n import render
from core.sessions import ServiceSettings
from core.sessions.openplay.relay import CLAIM
from core.store import Status, sessions
from tests.core.faults import outbox_done_refused_once
from tests.e2e.discord_double import (
    TOKEN,
    DiscordDouble,
    Guild,
    Json,
    Recorded,
    button_ids,
    buttons,
)
from tests.e2e.discord_harness import Harness, ManualClock, clock, double

__all__ = ["clock", "double"]  # fixtures

QUICK_SWEEPS = ServiceSettings(
    ai_workers=0, ai_warm_up=False, ai_budget=0.3, sweep_interval=3600.0, clock_interval=0.02
)


@pytest.fixture
async def harness(
    double: DiscordDouble, tmp_path: Path, clock: ManualClock
) -> AsyncIterator[Harness]:
    running = Harness(double, tmp_path / "bot.sqlite3", clock=clock, settings=QUICK_SWEEPS)
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


async def swept(harness: Harness, clock: ManualClock, seconds: float) -> None:
    """``seconds`` later, the clocks swept (here or by the loop: done once this returns)."""
    clock.advance(seconds)
    await harness.service.sweep_clocks()
    await harness.service.clocks_idle()


def created(double: DiscordDouble) -> list[Recorded]:
    """Messages the bot posted in a channel by itself (not answering an interaction)."""
    return [r for r in double.requests if r.kind == "channel_create"]


async def accepted_game(
    double: DiscordDouble, clock: str, group: str | None = None, guild: Guild | None = None
) -> int:
    challenge = await double.slash(
        "tres", {"opponent": "bob", "clock": clock}, user="alice", group=group, guild=guild
    )
    message_id = challenge.original_id
    assert message_id is not None
    accept = next(c for c in button_ids(double.messages[message_id]) if c.endswith(":accept"))
    await double.click(message_id, accept, user="bob")
    return message_id


async def test_the_deadline_the_reminder_and_the_timeout(
    harness: Harness, double: DiscordDouble, clock: ManualClock
) -> None:
    board_id = await accepted_game(double, "2m")
    board: Json = double.messages[board_id]
    deadline = int(clock.now) + 120
    assert f"<t:{deadline}:R>" in board["content"]

    clock.advance(96)  # a fifth of two minutes is left: Alice, who starts, is mentioned
    alice = double.user("alice")["id"]
    await double.wait_for(lambda: any(f"<@{alice}>" in r.body["content"] for r in created(double)))
    (reminder,) = created(double)
    assert reminder.body["content"].startswith(f"<@{alice}> Alice, it is your move.")
    assert reminder.body["content"].endswith("Time left: 24 seconds.")
    assert "users" in reminder.body["allowed_mentions"]["parse"]  # it notifies Alice

    clock.advance(24)  # out of time

    def ended() -> bool:
        return "ran out of time" in str(double.messages[board_id]["content"])

    await double.wait_for(ended)
    board = double.messages[board_id]
    result = render("game.timeout", "en", player="Alice", winner="Bob")
    assert result in board["content"] and "<t:" not in board["content"]
    cells = [b for b in buttons(board) if b.get("label") not in ("Rematch", "Review")]
    assert cells and all(b.get("disabled") for b in cells)
    await double.wait_for(lambda: any(r.body["content"] == result for r in created(double)))
    assert len(created(double)) == 2  # the reminder and the result, once each


async def test_a_group_dm_game_ends_on_time_without_a_message(
    harness: Harness, double: DiscordDouble, clock: ManualClock
) -> None:
    group = double.group_dm("alice", "bob")
    board_id = await accepted_game(double, "10s", group)
    assert "<t:" in str(double.messages[board_id]["content"])
    store = harness._store
    assert store is not None
    (session_id,) = {c.split(":")[2] for c in button_ids(double.messages[board_id])}
    await swept(harness, clock, 11)  # the game is over once this returns
    session = await store.run(sessions.get(session_id))
    assert session is not None and session.status is Status.FINISHED
    # The bot is not a member of a group DM: it does not try to tell there (Discord would
    # refuse, and count the refusal against it); the next click shows the end.
    assert not [r for r in double.requests if r.path.startswith("/channels/")]
    assert double.invalid_requests == 0
    # The bot goes on serving.
    again = await double.slash("tres", {"level": "easy"}, user="carol")
    assert again.original_id is not None and not again.ephemeral()


async def test_a_server_only_users_installed_gets_no_reminder_or_timeout_message(
    harness: Harness, double: DiscordDouble, clock: ManualClock
) -> None:
    theirs = double.add_guild("theirs", installed=False)
    board_id = await accepted_game(double, "10s", guild=theirs)
    store = harness._store
    assert store is not None
    (session_id,) = {c.split(":")[2] for c in button_ids(double.messages[board_id])}
    await swept(harness, clock, 9)  # the reminder is due
    await swept(harness, clock, 2)  # and the timeout
    session = await store.run(sessions.get(session_id))
    assert session is not None and session.status is Status.FINISHED
    # The bot is not a member there: the interactions said so, and it made no channel
    # request, which the double (as Discord) refuses and counts against it.
    assert not [r for r in double.requests if r.path.startswith("/channels/")]
    assert double.invalid_requests == 0
    async with aiohttp.ClientSession() as http:
        url = f"{double.api_base_url}/channels/{theirs.channel_id}/messages"
        headers = {"Authorization": f"Bot {TOKEN}"}
        async with http.post(url, json={"content": "hi"}, headers=headers) as refused:
            assert refused.status == 403
    assert double.invalid_requests == 1


async def test_a_reminder_shown_again_after_a_crash_edits_its_message(
    harness: Harness, double: DiscordDouble, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The process that shows the reminder dies after Discord took it, before the outbox item
    # is done: the store refuses that delete once, and the claim lapses as a dead process's.
    refused = outbox_done_refused_once(monkeypatch)
    await accepted_game(double, "10m")
    alice = double.user("alice")["id"]
    clock.advance(481)  # a fifth of ten minutes is left: Alice is reminded
    await double.wait_for(lambda: bool(created(double)))
    await harness.service.clocks_idle()
    assert refused
    (reminder,) = created(double)
    assert reminder.body["content"].startswith(f"<@{alice}> Alice, it is your move.")
    clock.advance(CLAIM + 1)  # the claim lapsed: the next pass shows it again

    def edited() -> list[Recorded]:
        return [r for r in double.requests if r.kind == "channel_edit"]

    await double.wait_for(lambda: bool(edited()))
    # One notice: the message the first try posted, edited to the reminder as it now stands.
    assert len(created(double)) == 1
    (again,) = edited()
    assert again.path.endswith(f"/messages/{reminder.message_id}")
    assert again.body["content"].startswith(f"<@{alice}> Alice, it is your move.")
    assert again.body["content"].endswith("Time left: 58 seconds.")
    assert double.invalid_requests == 0
