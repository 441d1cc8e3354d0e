"""``/tournament`` links the event's page where ``PUBLIC_URL`` is set and the chat's
``web_links`` is on; on both stores, through the service as adapters call it."""

from __future__ import annotations

from core.store import events
from tests.backends import AnyStore
from tests.core.pages.test_weblinks import ADMIN, AT, linked, urls
from tests.core.test_sessions import Clock, store

__all__ = ["store"]  # the fixture, on both stores


async def test_tournament_links_the_events_page(store: AnyStore) -> None:
    svc = linked(store, Clock())
    await svc.handle_text(ADMIN, "/tournament swiss tictactoe 2 60s +10m casual")
    [made] = await store.run(events.chat_events("discord", "c1"))
    shown = await svc.handle_text(ADMIN, "/tournament")
    assert [r.text.key for r in shown if r.text] == ["event.table"]
    assert urls(shown) == [AT.event(made.public_id)]
    assert AT.event(made.public_id).endswith(f"/event/{made.public_id}")
    assert len(made.public_id) == 32 and made.public_id != made.id  # never the short id
    await svc.handle_text(ADMIN, "/settings web_links off")
    assert urls(await svc.handle_text(ADMIN, "/tournament")) == []


async def test_no_link_without_public_url(store: AnyStore) -> None:
    svc = linked(store, Clock(), public_url=None)
    await svc.handle_text(ADMIN, "/tournament swiss tictactoe 2 60s +10m casual")
    assert urls(await svc.handle_text(ADMIN, "/tournament")) == []
