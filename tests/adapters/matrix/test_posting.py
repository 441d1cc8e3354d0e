"""A notice of the outbox shown again after a crash (its process died between the post and the
item's delete, so the item's claim lapsed) reads as one notice: its earlier try's events are
kept on the item (core.ports.Posting) and replaced (``m.replace``), never posted a second time.
The real service on a real SQLite file, the real output and sender, a fake homeserver."""

from __future__ import annotations

from adapters.matrix.output import Output
from adapters.matrix.sender import Sender
from core.i18n import Text
from core.ports import posting_again
from core.replies import Actor, Reply
from core.sessions import GameService
from core.sessions.views import board_reply
from core.store import sessions
from tests.adapters.matrix.fakes import FakeTransport, Sent
from tests.adapters.matrix.harness import ALICE, ROOM, edit_of, is_board, no_relogin, state

ALICE_HERE = Actor("matrix", ROOM, ALICE, "alice")


async def shown(
    output: Output, sender: Sender, replies: list[Reply], earlier: list[str]
) -> list[str]:
    """``replies`` shown as a notice of the outbox whose earlier try posted ``earlier``; the
    events it posted or edited."""
    with posting_again(earlier) as posting:
        await output.apply(ROOM, replies, reply_to=None, posting=posting)
    await sender.flush()
    return posting.posted


async def test_a_notice_shown_again_edits_what_its_first_try_posted(
    service: GameService,
) -> None:
    [started] = await service.handle_text(ALICE_HERE, "!quatre easy")
    assert started.session_id is not None
    game = await service.store.run(sessions.get(started.session_id))
    assert game is not None
    fake = FakeTransport()
    sender = Sender(lambda: fake, relogin=no_relogin, exempt=True)  # keycaps are sent
    output = Output(state(service), sender, "en", add_keycaps=True)
    # A pairing's kind of notice: a new board under its line, then a mention (a reminder's).
    notice = [
        board_reply(game, new_message=True, text=Text("game.rematch")),
        Reply(text=Text("game.move_saved"), new_message=True, mention=ALICE),
    ]
    first = await shown(output, sender, notice, [])
    assert len(first) == 2
    posted = list(fake.sent)
    [board] = [s for s in posted if is_board(s)]
    assert [board.event_id, *(s.event_id for s in posted if s.content.get("m.mentions"))] == first
    assert [s for s in posted if s.event_type == "m.reaction"]  # the new board's keycaps

    # The process died before the item was done: a pass shows it again from the item.
    fake.sent.clear()
    again = await shown(output, sender, notice, first)
    assert again == first
    # Two edits of the first try's events, and nothing new: no event, no keycap.
    assert all("m.relates_to" in s.content for s in fake.sent), fake.sent
    assert len(fake.sent) == 2
    for event_id, sent in zip(first, fake.sent, strict=True):
        assert edit_of(event_id)(sent)
    assert not [s for s in fake.sent if s.event_type == "m.reaction"]
    await sender.close(0)
    await output.close()


async def test_a_notice_shown_once_posts_as_before(service: GameService) -> None:
    fake = FakeTransport()
    sender = Sender(lambda: fake, relogin=no_relogin)
    output = Output(state(service), sender, "en", add_keycaps=False)
    reminder = [Reply(text=Text("game.move_saved"), new_message=True, mention=ALICE)]
    await output.apply(ROOM, reminder, reply_to=None)  # no notice of the outbox: no posting
    await sender.flush()
    [sent] = fake.sent
    assert isinstance(sent, Sent) and "m.relates_to" not in sent.content
    await sender.close(0)
    await output.close()
