"""A notice of the outbox keeps the platform's ids of the messages it posted on its item before
the item is done; shown again because its process died in between (the claim lapsed), its
publish is handed those ids (core.ports.Posting), so that the adapter edits them rather than
posting again. On both stores, with the store's delete of the item failing once as the dead
process's would never come."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from core.ports import PlatformStyle, posting
from core.replies import Actor, Reply
from core.sessions.openplay.relay import CLAIM
from core.store import outbox
from tests.backends import AnyStore
from tests.core.faults import outbox_done_refused_once
from tests.core.test_sessions import Clock, keys, service, store
from tests.core.test_sessions_relay import BEN, passes

__all__ = ["store"]  # the fixture, on both stores


class Platform:
    """A platform that can edit: each new message gets an id, and a message an earlier try
    posted is edited instead (what Discord's and Matrix's adapters do)."""

    def __init__(self) -> None:
        self.posted: list[str] = []
        self.edited: list[str] = []
        self.earlier: list[list[str]] = []

    async def publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        current = posting()
        assert current is not None, "a notice of the outbox is published with its posting"
        self.earlier.append(list(current.earlier))
        for _ in replies:
            earlier = current.again()
            if earlier is None:
                earlier = f"m{len(self.posted) + 1}"
                self.posted.append(earlier)
            else:
                self.edited.append(earlier)
            current.note(earlier)


async def test_a_notice_shown_again_is_handed_the_messages_it_posted(
    store: AnyStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    platform = Platform()
    svc = service(store, clock)
    svc.register_platform(PlatformStyle("mx", publish=platform.publish))
    refused = outbox_done_refused_once(monkeypatch)
    assert keys(await svc.handle_text(BEN, "!seek tres")) == ["seek.queued"]
    clock.advance(601)  # the seek expires: its notice is left in the outbox and shown
    await passes(svc)
    assert refused and platform.posted == ["m1"] and platform.edited == []
    [kept] = await store.run(outbox.outbox_due("mx", clock() + CLAIM))
    assert kept.posted == ("m1",)
    clock.advance(CLAIM)  # the claim lapsed: shown again, edited
    await passes(svc)
    assert platform.earlier == [[], ["m1"]]
    assert platform.posted == ["m1"] and platform.edited == ["m1"]
    assert await store.run(outbox.outbox_due("mx", clock() + CLAIM)) == []
