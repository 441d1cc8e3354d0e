"""Metrics: what the service reports, the store's timer, the scrape-time gauges, the names."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from chatbots.metrics import Metrics
from core.ports import ServiceObserver
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore, StoreUnavailable, sessions
from core.workers.runner import RunnerLoad

ALICE = Actor("test", "room", "alice", "Alice", "en")


def value(metrics: Metrics, name: str, **labels: str) -> float | None:
    return metrics.registry.get_sample_value(name, labels)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    async with SqliteStore.open(tmp_path / "games.sqlite3") as opened:
        yield opened


class Link:
    def __init__(self, name: str, connected: bool) -> None:
        self.name = name
        self.connected = connected


def test_it_is_a_service_observer_and_counts_what_it_is_told() -> None:
    metrics = Metrics(["discord"], process=False)
    observer: ServiceObserver = metrics
    observer.game_started("discord", "tictactoe")
    observer.game_finished("discord", "tictactoe")
    for _ in range(3):
        observer.move_played("discord")
    observer.request_failed("discord", "error.not_your_turn")
    observer.request_failed("discord", "internal")
    observer.ai_thought("hard", 0.2)
    assert value(metrics, "chatbots_games_started_total", platform="discord", game="tictactoe") == 1
    assert value(metrics, "chatbots_games_finished_total", platform="discord", game="tictactoe")
    assert value(metrics, "chatbots_moves_total", platform="discord") == 3
    errors = "chatbots_command_errors_total"
    assert value(metrics, errors, platform="discord", kind="not_your_turn") == 1
    assert value(metrics, errors, platform="discord", kind="internal") == 1
    assert value(metrics, "chatbots_ai_think_seconds_count", level="hard") == 1
    assert value(metrics, "chatbots_ai_think_seconds_bucket", level="hard", le="0.25") == 1
    assert value(metrics, "chatbots_ai_think_seconds_bucket", level="hard", le="0.1") == 0


def test_configured_platforms_start_at_zero_and_registries_are_separate() -> None:
    first, second = Metrics(["matrix"], process=False), Metrics(["matrix"], process=False)
    first.move_played("matrix")
    assert value(first, "chatbots_moves_total", platform="matrix") == 1
    assert value(second, "chatbots_moves_total", platform="matrix") == 0
    assert value(second, "chatbots_rate_limited_total", platform="matrix") == 0
    assert value(second, "chatbots_games_started_total", platform="matrix", game="free") == 0


async def test_a_whole_game_through_the_service_is_counted_exactly(store: SqliteStore) -> None:
    metrics = Metrics(process=False)
    store.time_operations(metrics.store_operation_done)
    service = GameService(
        store,
        settings=ServiceSettings(ai_workers=0),
        rng=random.Random(3),
        observer=metrics,
    )
    replies = await service.handle_text(ALICE, "/tres easy", addressed=True)
    board = replies[0].board
    assert board is not None
    while board is not None and board.playable:
        replies = await service.handle_move(ALICE, board.session_id, board.playable[0])
        board = replies[0].board
    assert board is not None
    session = await store.run(sessions.get(board.session_id))
    assert session is not None and session.position().is_over
    await service.handle_move(ALICE, board.session_id, 0)  # after the end: an error

    assert value(metrics, "chatbots_moves_total", platform="test") == len(session.moves)
    assert value(metrics, "chatbots_games_started_total", platform="test", game="tictactoe") == 1
    assert value(metrics, "chatbots_games_finished_total", platform="test", game="tictactoe") == 1
    bot_moves = len(session.moves) // 2  # Alice starts
    assert value(metrics, "chatbots_ai_think_seconds_count", level="easy") == bot_moves
    errors = [
        s
        for f in metrics.registry.collect()
        if f.name == "chatbots_command_errors"
        for s in f.samples
    ]
    assert [(s.labels, s.value) for s in errors if s.name.endswith("_total")] == [
        ({"platform": "test", "kind": "game_over"}, 1.0)
    ]
    # Every move is a compare-and-set update, timed.
    updates = value(metrics, "chatbots_store_operation_seconds_count", operation="update")
    assert updates is not None and updates >= len(session.moves)
    assert value(metrics, "chatbots_store_operation_seconds_count", operation="create") == 1


async def test_the_store_check_is_timed_failures_included(tmp_path: Path) -> None:
    metrics = Metrics(process=False)
    store = await SqliteStore.open(tmp_path / "games.sqlite3")
    store.time_operations(metrics.store_operation_done)
    await store.check()
    await store.close()
    with pytest.raises(StoreUnavailable):
        await store.check()
    assert value(metrics, "chatbots_store_operation_seconds_count", operation="check") == 2


async def test_scrape_time_gauges_read_the_present() -> None:
    metrics = Metrics(process=False)
    counted = 0

    async def count() -> int:
        nonlocal counted
        counted += 1
        return 41 + counted

    load = RunnerLoad(workers=2, running=2, queued=6, budget=0.5)
    links = [Link("discord", True), Link("matrix", False)]
    live = {"discord": 3, "matrix": 0}

    async def live_games() -> dict[str, int]:
        return dict(live)

    metrics.watch(connections=links, load=lambda: load, count_sessions=count, live_games=live_games)
    text = (await metrics.render()).decode()
    assert 'chatbots_live_games{platform="discord"} 3.0' in text
    assert 'chatbots_live_games{platform="matrix"} 0.0' in text
    assert 'chatbots_platform_connected{platform="discord"} 1.0' in text
    assert 'chatbots_platform_connected{platform="matrix"} 0.0' in text
    assert "chatbots_stored_sessions 42.0" in text
    assert "chatbots_ai_queue_length 6.0" in text
    assert "chatbots_ai_running 2.0" in text
    assert "chatbots_ai_workers 2.0" in text
    assert "chatbots_ai_budget_seconds 0.5" in text
    links[1].connected = True
    text = (await metrics.render()).decode()
    assert 'chatbots_platform_connected{platform="matrix"} 1.0' in text
    assert "chatbots_stored_sessions 43.0" in text
    live["matrix"] = 2
    assert 'chatbots_live_games{platform="matrix"} 2.0' in (await metrics.render()).decode()


async def test_a_store_that_does_not_answer_leaves_the_count_out_not_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("chatbots.metrics._COUNT_TIMEOUT", 0.05)
    metrics = Metrics(process=False)

    async def stuck() -> int:
        await asyncio.sleep(10)
        return 0

    metrics.watch(count_sessions=stuck)
    text = (await metrics.render()).decode()
    assert "# TYPE chatbots_stored_sessions gauge" in text
    assert "\nchatbots_stored_sessions " not in text


async def test_names_follow_the_prometheus_conventions() -> None:
    metrics = Metrics(["discord"])
    metrics.watch(connections=[Link("discord", True)])
    families = list(text_string_to_metric_families((await metrics.render()).decode()))
    # The text format shows each counter's creation time as a gauge family of its own.
    families = [f for f in families if not f.name.endswith("_created")]
    ours = [f for f in families if f.name.startswith("chatbots_")]
    assert {f.name for f in families} - {f.name for f in ours} <= {
        "process_virtual_memory_bytes",
        "process_resident_memory_bytes",
        "process_start_time_seconds",
        "process_cpu_seconds",
        "process_open_fds",
        "process_max_fds",
    }
    assert len(ours) == 16
    for family in ours:
        assert family.name == family.name.lower() and " " not in family.name
        assert family.documentation, family.name
        if family.type == "counter":
            assert not family.name.endswith("_total")  # the parser strips it from the family
            assert all(s.name == f"{family.name}_total" for s in family.samples)
        if family.type == "histogram":
            assert family.name.endswith("_seconds"), family.name


async def test_refusals_by_the_limits_are_counted(store: SqliteStore) -> None:
    metrics = Metrics(["test"], process=False)
    service = GameService(store, settings=ServiceSettings(ai_workers=0), observer=metrics)
    answers = [await service.handle_text(ALICE, "/help") for _ in range(15)]
    assert sum(1 for a in answers if a and not a[0].error) == 10  # the default burst
    assert value(metrics, "chatbots_rate_limited_total", platform="test") == 5
    # A refusal by a setting's limit (a cooldown) is counted the same way.
    admin = Actor("test", "room", "ada", "Ada", "en", is_admin=True)
    await service.handle_text(admin, "/settings cooldown 60")
    await service.handle_text(admin, "/tres easy")
    await service.handle_text(admin, "/final")
    refused = await service.handle_text(admin, "/tres easy")
    assert refused[0].error and refused[0].text is not None
    assert refused[0].text.key == "limits.cooldown"
    assert value(metrics, "chatbots_rate_limited_total", platform="test") == 6


async def test_refusals_by_the_homeserver_are_read_from_the_adapters_that_count_them() -> None:
    metrics = Metrics(["matrix", "discord"], process=False)
    matrix = Link("matrix", True)
    matrix.rate_limited_total = 3  # type: ignore[attr-defined]  # as MatrixAdapter counts them
    metrics.watch(connections=[matrix, Link("discord", True)])
    text = (await metrics.render()).decode()
    assert 'chatbots_homeserver_rate_limited_total{platform="matrix"} 3.0' in text
    assert 'chatbots_homeserver_rate_limited_total{platform="discord"}' not in text
