"""Receipts (written iff the change applies), the atomic swap, and kv rows that die with their
game or expire; on both stores."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.store import AlreadyPlaying, KvEntry, Session, kv, stats
from core.store import sessions as store_sessions
from tests.backends import KINDS, Backend, Backends, Kind
from tests.core.store.helpers import NOW, make_session, played


def receipt(key: str, session_id: str | None = None) -> KvEntry:
    return KvEntry("matrix", key, f"handled {key}", session_id=session_id)


async def test_receipt_with_each_write_iff_it_applies(backend: Backend) -> None:
    async with backend.open() as store:
        session = make_session()
        await store.run(store_sessions.create(session, receipt=receipt("create")))
        assert await store.run(kv.kv_get("matrix", "create")) == "handled create"

        with pytest.raises(AlreadyPlaying):  # bob is busy: no game, no receipt
            await store.run(
                store_sessions.create(make_session(alice="carol"), receipt=receipt("refused"))
            )
        assert await store.run(kv.kv_get("matrix", "refused")) is None

        moved = played(session, 4)
        assert await store.run(
            store_sessions.update(moved, expected_version=1, receipt=receipt("move"))
        )
        assert not await store.run(
            store_sessions.update(played(session, 0), expected_version=1, receipt=receipt("stale"))
        )
        assert await store.run(kv.kv_get("matrix", "move")) == "handled move"
        assert await store.run(kv.kv_get("matrix", "stale")) is None

        assert not await store.run(
            store_sessions.delete(session.id, expected_version=1, receipt=receipt("no"))
        )
        assert await store.run(kv.kv_get("matrix", "no")) is None
        assert await store.run(
            store_sessions.delete(session.id, expected_version=2, receipt=receipt("gone"))
        )
        assert await store.run(kv.kv_get("matrix", "gone")) == "handled gone"
        assert not await store.run(store_sessions.delete(session.id, receipt=receipt("twice")))
        assert await store.run(kv.kv_get("matrix", "twice")) is None


async def test_a_receipt_replaces_an_older_value(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(kv.kv_set("matrix", "k", "old", expires_at=NOW))
        session = make_session()
        await store.run(
            store_sessions.create(
                session, receipt=KvEntry("matrix", "k", "new", session_id=session.id)
            )
        )
        assert await backend.sql(
            "SELECT value, session_id, expires_at FROM kv WHERE key = 'k'"
        ) == [("new", session.id, None)]


async def test_swap_replaces_the_finished_game(backend: Backend) -> None:
    async with backend.open() as store:
        old = make_session()
        await store.run(store_sessions.create(old))
        finished = played(old, 0, 3, 1, 4, 2)
        assert await store.run(store_sessions.update(finished, expected_version=1))
        await store.run(kv.kv_set("discord", f"board:{old.id}", "message 1", session_id=old.id))
        new = make_session(alice="bob", bob="alice")
        assert await store.run(
            store_sessions.swap(finished, new, receipt=receipt("rematch", new.id))
        )
        assert await store.run(store_sessions.get(old.id)) is None
        assert await store.run(store_sessions.get(new.id)) == new
        live = await store.run(store_sessions.live_game("test", "c1", "alice"))
        assert live is not None and live.id == new.id
        assert (
            await store.run(kv.kv_get("discord", f"board:{old.id}")) is None
        )  # died with its game
        assert await store.run(kv.kv_get("matrix", "rematch")) == "handled rematch"
        # The result of the old game was counted once, and stays.
        alice = await store.run(stats.player_stats("test", "alice"))
        assert alice is not None and alice.wins == 1


async def test_swap_with_a_stale_or_missing_old_game_writes_nothing(backend: Backend) -> None:
    async with backend.open() as store:
        old = played(make_session(), 0, 3, 1, 4, 2)
        await store.run(store_sessions.create(old))  # stored finished, at version 2
        new = make_session(alice="bob", bob="alice")
        assert not await store.run(
            store_sessions.swap(replace(old, version=1), new, receipt=receipt("r"))
        )
        assert await store.run(store_sessions.get(old.id)) == old
        assert await store.run(store_sessions.get(new.id)) is None
        assert await store.run(kv.kv_get("matrix", "r")) is None
        assert await store.run(store_sessions.delete(old.id))
        assert not await store.run(store_sessions.swap(old, new, receipt=receipt("r")))
        assert await store.run(store_sessions.get(new.id)) is None
        assert await store.run(kv.kv_get("matrix", "r")) is None


async def test_swap_that_cannot_create_leaves_the_old_game_intact(backend: Backend) -> None:
    async with backend.open() as store:
        old = played(make_session(), 0, 3, 1, 4, 2)
        await store.run(store_sessions.create(old))
        await store.run(kv.kv_set("discord", f"board:{old.id}", "message 1", session_id=old.id))
        elsewhere = make_session(alice="bob", bob="carol")  # bob starts another game meanwhile
        await store.run(store_sessions.create(elsewhere))
        new = make_session(alice="bob", bob="alice")
        with pytest.raises(AlreadyPlaying) as caught:
            await store.run(store_sessions.swap(old, new, receipt=receipt("r")))
        assert caught.value.session_id == elsewhere.id
        assert (
            await store.run(store_sessions.get(old.id)) == old
        )  # not deleted: the whole swap rolled back
        assert await store.run(kv.kv_get("discord", f"board:{old.id}")) == "message 1"
        assert await store.run(store_sessions.get(new.id)) is None
        assert await store.run(kv.kv_get("matrix", "r")) is None


async def test_kv_rows_die_with_their_session(backend: Backend) -> None:
    async with backend.open() as store:
        kept, deleted, swept = (
            make_session(),
            make_session(chat="c2"),
            make_session(chat="c3", expires_at=NOW - 1),
        )
        for session in (kept, deleted, swept):
            await store.run(store_sessions.create(session))
            await store.run(
                kv.kv_set("matrix", f"board:{session.id}", "$event", session_id=session.id)
            )
        await store.run(kv.kv_set("matrix", "next_batch", "s1"))  # tied to nothing: stays
        assert await store.run(store_sessions.delete(deleted.id))
        assert await store.run(store_sessions.delete_expired(NOW)) == 1
        assert await store.run(kv.kv_get("matrix", f"board:{kept.id}")) == "$event"
        assert await store.run(kv.kv_get("matrix", f"board:{deleted.id}")) is None
        assert await store.run(kv.kv_get("matrix", f"board:{swept.id}")) is None
        assert await store.run(kv.kv_get("matrix", "next_batch")) == "s1"
        # Replacing a row with one tied to nothing unties it.
        await store.run(kv.kv_set("matrix", f"board:{kept.id}", "$kept"))
        assert await store.run(store_sessions.delete(kept.id))
        assert await store.run(kv.kv_get("matrix", f"board:{kept.id}")) == "$kept"


async def test_kv_row_for_a_session_that_is_gone_is_not_stored(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(kv.kv_set("matrix", "board:nope", "$event", session_id="nope"))
        assert await store.run(kv.kv_get("matrix", "board:nope")) is None
        # A receipt tied to the session its own write deletes goes with it.
        session = make_session()
        await store.run(store_sessions.create(session))
        assert await store.run(
            store_sessions.delete(session.id, receipt=receipt("bye", session.id))
        )
        assert await store.run(kv.kv_get("matrix", "bye")) is None
        assert await backend.sql("SELECT count(*) FROM kv") == [(0,)]


async def test_kv_rows_expire(backend: Backend) -> None:
    async with backend.open() as store:
        await store.run(kv.kv_set("matrix", "handled:old", "1", expires_at=NOW - 1))
        await store.run(kv.kv_set("matrix", "handled:now", "1", expires_at=NOW))
        await store.run(kv.kv_set("matrix", "handled:later", "1", expires_at=NOW + 1))
        await store.run(kv.kv_set("matrix", "next_batch", "s1"))
        live = make_session(expires_at=NOW + 100)
        await store.run(store_sessions.create(live))
        assert (
            await store.run(store_sessions.delete_expired(NOW)) == 0
        )  # counts sessions; the kv rows still went
        assert await store.run(kv.kv_get("matrix", "handled:old")) is None
        assert await store.run(kv.kv_get("matrix", "handled:now")) is None
        assert await store.run(kv.kv_get("matrix", "handled:later")) == "1"
        assert await store.run(kv.kv_get("matrix", "next_batch")) == "s1"
        assert await store.run(store_sessions.get(live.id)) == live


# --- property: over any sequence of writes, a receipt exists exactly when its write applied ----

_write = st.tuples(
    st.sampled_from(["update", "delete", "swap", "create"]),
    st.integers(min_value=0, max_value=3),  # which session, by index among those made so far
    st.integers(min_value=-1, max_value=1),  # version offset: -1 and +1 are stale
)


async def _run_writes(
    backends: Backends, store_kind: Kind, folder: Path, writes: list[tuple[str, int, int]]
) -> None:
    async with backends.fresh(store_kind, folder) as backend, backend.open() as store:
        sessions: list[Session] = [make_session(alice="p0", bob=None)]
        await store.run(store_sessions.create(sessions[0]))
        current: dict[str, Session] = {sessions[0].id: sessions[0]}
        for number, (kind, which, offset) in enumerate(writes):
            target = sessions[which % len(sessions)]
            exists = target.id in current
            known = current.get(target.id, target)
            key = f"w{number}"
            stamp = KvEntry("test", key, kind)
            applied = False
            if kind == "update":
                moved = replace(known, version=known.version + 1, updated_at=NOW + number)
                applied = await store.run(
                    store_sessions.update(
                        moved, expected_version=known.version + offset, receipt=stamp
                    )
                )
                if applied:
                    current[target.id] = moved
            elif kind == "delete":
                applied = await store.run(
                    store_sessions.delete(
                        target.id, expected_version=known.version + offset, receipt=stamp
                    )
                )
                if applied:
                    del current[target.id]
            else:
                new = make_session(alice=f"p{len(sessions)}", bob=None)
                sessions.append(new)
                if kind == "create":
                    await store.run(store_sessions.create(new, receipt=stamp))
                    applied = True
                else:
                    applied = await store.run(
                        store_sessions.swap(
                            replace(known, version=known.version + offset), new, receipt=stamp
                        )
                    )
                    if applied:
                        del current[target.id]
                if applied:
                    current[new.id] = new
            # A write applies exactly when its session is there at the version it names.
            assert applied is (kind == "create" or (exists and offset == 0)), (kind, offset)
            assert (await store.run(kv.kv_get("test", key)) == kind) is applied, (kind, offset)
        for session_id, session in current.items():
            assert await store.run(store_sessions.get(session_id)) == session
        assert await store.run(stats.count_sessions()) == len(current)


@pytest.mark.parametrize("store_kind", KINDS)
@settings(max_examples=40, deadline=None)
@given(st.lists(_write, max_size=25))
def test_receipts_follow_their_writes(
    backends: Backends, store_kind: Kind, writes: list[tuple[str, int, int]]
) -> None:
    with tempfile.TemporaryDirectory(prefix="receipts-") as folder:
        asyncio.run(_run_writes(backends, store_kind, Path(folder), writes))


async def test_a_move_receipt_tied_to_a_game_that_is_gone_is_not_stored(backend: Backend) -> None:
    async with backend.open() as store:
        session, other = make_session(), make_session(chat="c2")
        await store.run(store_sessions.create(session))
        await store.run(store_sessions.create(other))
        assert await store.run(store_sessions.delete(other.id))
        assert await store.run(
            store_sessions.update(
                played(session, 4), expected_version=1, receipt=receipt("late", other.id)
            )
        )
        assert await store.run(kv.kv_get("matrix", "late")) is None
        assert await store.run(
            store_sessions.update(
                played(session, 4, 0), expected_version=2, receipt=receipt("mine", session.id)
            )
        )
        assert await store.run(kv.kv_get("matrix", "mine")) == "handled mine"
        stored = await store.run(store_sessions.get(session.id))
        assert stored is not None and stored.moves == (4, 0)
