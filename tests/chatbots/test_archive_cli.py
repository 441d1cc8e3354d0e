"""``chatbots archive backfill`` on both stores: the finished games still stored that the
archive lacks (ended before it existed) get their page, the running ones do not, and a second
run finds nothing left."""

from __future__ import annotations

import io
from dataclasses import replace

from chatbots.operator import archive_command
from chatbots.settings import load_settings
from core.store import archive, sessions
from tests.backends import Backend
from tests.core.store.helpers import NOW, make_session, played


async def test_the_backfill_archives_every_stored_game_without_a_page(backend: Backend) -> None:
    async with backend.open() as store:
        ended = []
        for n in range(3):
            game = make_session(chat=f"c{n}")
            await store.run(sessions.create(game))
            won = replace(played(game, 0, 3, 1, 4, 2), updated_at=NOW + n)
            assert await store.run(sessions.update(won, expected_version=1))
            ended.append(won.public_id)
        running = make_session(chat="c9")
        await store.run(sessions.create(running))
    await backend.sql("DELETE FROM archive")  # as the store stood before the archive step
    key = "DATABASE_PATH" if backend.kind == "sqlite" else "DATABASE_URL"
    settings = load_settings({key: backend.where}, None)
    out = io.StringIO()
    assert await archive_command(settings, out) == 0
    assert out.getvalue() == "archived 3 finished games that had no page\n"
    async with backend.open() as store:
        for public_id in ended:
            kept = await store.run(archive.archived(public_id))
            assert kept is not None and kept.moves == (0, 3, 1, 4, 2)
        assert await store.run(archive.archived(running.public_id)) is None
    again = io.StringIO()
    assert await archive_command(settings, again) == 0
    assert again.getvalue() == "archived 0 finished games that had no page\n"
