"""``/tournament berserk`` answered before its game's first board reached Discord, through the
double and the real discord.py client: the board's post is held at the double until the
berserk answer is under way. The answer waits for that post and edits it: one board for the
game in the channel, the berserk clock on it, and the words said in the answer (before, the
answer posted a second board without them, and the words came later, apart)."""

from __future__ import annotations

import re

from core.store import sessions
from tests.e2e.discord_double import DiscordDouble, button_ids, text_of
from tests.e2e.discord_harness import Harness, ManualClock, clock, double, harness

__all__ = ["clock", "double", "harness"]  # fixtures

WORDS = "goes berserk: 30 seconds a move"


def boards_of(double: DiscordDouble, session_id: str) -> list[int]:
    """The channel's messages that show the game's board (its cells name the game)."""
    return [
        message_id
        for message_id, message in double.messages.items()
        if any(f":move:{session_id}:" in custom_id for custom_id in button_ids(message))
    ]


async def test_berserk_before_the_boards_first_post_edits_that_board(
    harness: Harness, double: DiscordDouble, clock: ManualClock
) -> None:
    double.grant("ann")
    options = {"action": "arena", "game": "tres", "length": "10m", "clock": "60s"}
    options |= {"start": "+15s", "mode": "berserk"}
    made = await double.slash("tournament", options, user="ann", granted=True)
    found = re.search(r"tournament join (\S+)", " ".join(made.public()))
    assert found is not None, made.public()
    for name in ("ann", "ben"):
        await double.slash("tournament", {"action": "join", "event": found[1]}, user=name)

    # The start: the director pairs the two and posts the game's board, which Discord is slow
    # to take.
    double.hold_posts(lambda body: ":move:" in " ".join(button_ids(body)))
    clock.advance(20)
    await double.wait_for(lambda: bool(double.held))
    [session_id] = {
        custom_id.split(":")[2]
        for body in double.held
        for custom_id in button_ids(body)
        if ":move:" in custom_id
    }
    game = await harness.service.store.run(sessions.get(session_id))
    assert game is not None
    by_id = {str(double.user(name)["id"]): name for name in ("ann", "ben")}
    first = by_id[str(game.seats[0].user_id)]

    # X goes berserk before he has seen the board: the answer is under way (said
    # "thinking...") while the board's post is still held; then Discord takes the post.
    berserk = await double.slash("tournament", {"action": "berserk"}, user=first, wait=False)
    await double.wait_for(berserk.answered.is_set)
    double.release_posts()
    await double.wait_answered(berserk)

    said = [text_of(data) for _, data in berserk.bodies()]
    assert any(WORDS in text for text in said), said
    shown = [" ".join(button_ids(data)) for _, data in berserk.bodies()]
    assert not any(":move:" in ids for ids in shown), "the answer drew a board of its own"
    game = await harness.service.store.run(sessions.get(session_id))
    assert game is not None and game.clock_of(1) == 30.0
    boards = boards_of(double, session_id)
    assert len(boards) == 1, boards  # one board: the one posted, edited
    [board] = boards
    assert f":move:{session_id}:{game.version}:" in " ".join(button_ids(double.messages[board]))
