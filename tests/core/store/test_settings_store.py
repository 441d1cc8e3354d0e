"""Settings rows, live-game counts and totals, on both stores (``[sqlite]`` and ``[postgres]``)."""

from __future__ import annotations

from dataclasses import replace

from core.store import LiveCounts, PlatformTotals, SettingRow, Status, sessions, settings, stats
from tests.backends import Backend
from tests.core.store.helpers import NOW, make_session, played


async def test_settings_put_replace_read_and_delete(backend: Backend) -> None:
    level = SettingRow("discord", "server:1", "level", "hard", NOW, "alice")
    games = SettingRow("discord", "channel:2", "games", "tres", NOW, "alice")
    other = SettingRow("matrix", "server:1", "level", "easy", NOW, "bob")
    async with backend.open() as store:
        for row in (level, games, other):
            await store.run(settings.setting_put(row))
        rows = await store.run(settings.settings_rows("discord", ["channel:2", "server:1"]))
        assert sorted(rows, key=lambda r: r.scope) == [games, level]
        assert await store.run(settings.settings_rows("discord", ["channel:9"])) == []
        newer = replace(level, value="easy", updated_at=NOW + 5, updated_by="carol")
        await store.run(settings.setting_put(newer))
        assert await store.run(settings.settings_rows("discord", ["server:1"])) == [newer]
        assert await store.run(settings.setting_delete("discord", "server:1", "level"))
        assert not await store.run(settings.setting_delete("discord", "server:1", "level"))
        assert await store.run(settings.settings_rows("discord", ["server:1"])) == []
        # Another platform's row with the same scope is another row.
        assert await store.run(settings.settings_rows("matrix", ["server:1"])) == [other]
    async with backend.open() as store:  # kept across a restart
        assert await store.run(settings.settings_rows("discord", ["channel:2"])) == [games]


async def test_live_counts_are_per_user_on_the_platform_and_per_chat(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(sessions.create(make_session(alice="alice", bob="bob", chat="c1")))
        await store.run(sessions.create(make_session(alice="alice", bob=None, chat="c2")))
        await store.run(
            sessions.create(
                make_session(alice="carol", bob="dave", chat="c1", status=Status.CHALLENGE)
            )
        )
        finished = played(make_session(alice="erin", bob="frank", chat="c1"), 0, 3, 1, 4, 2)
        await store.run(sessions.create(finished))
        assert await store.run(stats.live_counts("test", "c1", "alice")) == LiveCounts(
            user=2, chat=2
        )
        # A challenge is the challenger's live game, not yet the challenged player's.
        assert await store.run(stats.live_counts("test", "c1", "dave")) == LiveCounts(
            user=0, chat=2
        )
        assert await store.run(stats.live_counts("test", "c3", "erin")) == LiveCounts(
            user=0, chat=0
        )
        assert await store.run(stats.live_counts("other", "c1", "alice")) == LiveCounts(
            user=0, chat=0
        )


async def test_totals_per_platform(backend: Backend) -> None:
    async with backend.open() as store:
        live = played(make_session(chat="c1"), 4, 0)
        await store.run(sessions.create(live))
        await store.run(
            sessions.create(played(make_session(alice="erin", bob="frank"), 0, 3, 1, 4, 2))
        )
        old = replace(played(make_session(alice="gina", bob=None), 4), updated_at=NOW - 100)
        await store.run(sessions.create(old))
        totals = await store.run(stats.totals(NOW - 1))
        # Two players each got a result for the finished game; moves: 2 + 5 (old is before).
        assert totals == [PlatformTotals("test", live=2, finished=1, results=2, moves_since=7)]
        assert (await store.run(stats.totals(NOW - 1000)))[0].moves_since == 8
        assert await store.run(stats.totals(NOW + 1)) == [PlatformTotals("test", 2, 1, 2, 0)]
