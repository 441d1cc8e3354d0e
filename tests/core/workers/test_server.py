"""The AI workers start from a fork server that has imported and warmed up the AI: a real bot
process, its real pool, read through ``/proc``."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import threading
from multiprocessing.context import BaseContext
from pathlib import Path

import pytest

from core.ai import Level, book
from core.games import CONNECT_FOUR, Position
from core.workers import server
from core.workers.runner import PoolRunner
from tests.processes import HAS_PROC, ai_processes, stat

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="reads /proc (Linux)")


def worker_facts() -> dict[str, object]:
    """In a worker: where it comes from and what it found there."""
    maps = Path("/proc/self/maps").read_text().splitlines()
    return {
        "pid": os.getpid(),
        "parent": os.getppid(),
        "forked_from": server.forked_from(),
        "frozen": gc.get_freeze_count(),
        "book_mappings": sum(book.RESOURCE.rsplit("/", 1)[-1] in line for line in maps),
    }


BOT = """
import asyncio, json, os, random
from core.ai import Level, book
from core.games import CONNECT_FOUR, Position
from core.workers.runner import PoolRunner
from tests.core.workers.test_server import worker_facts

async def main():
    runner = PoolRunner(workers=2, warm_up=True, rng=random.Random(1))
    await runner.start()
    try:
        loop = asyncio.get_running_loop()
        facts = await asyncio.gather(
            *(loop.run_in_executor(runner._pool, worker_facts) for _ in range(8))
        )
        # a forced move (the opponent threatens three in a row at the bottom)
        board = Position.from_moves(CONNECT_FOUR, [0, 6, 1, 6, 2])
        move = await runner.choose(board, Level.HARD, budget=0.5)
        print(json.dumps({"bot": os.getpid(), "facts": facts, "move": move}), flush=True)
        input()  # the test reads the processes meanwhile
    finally:
        await runner.close()

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_workers_are_forked_from_a_warm_fork_server(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text(BOT)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop(server.SERVER_ENV, None)
    bot = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert bot.stdin is not None and bot.stdout is not None and bot.stderr is not None
        line = bot.stdout.readline()
        assert line, bot.stderr.read()
        seen = json.loads(line)
        roles = ai_processes(seen["bot"])
        servers = [pid for pid, role in roles.items() if role == "fork server"]
        workers = sorted(pid for pid, role in roles.items() if role == "worker")
        assert len(servers) == 1 and len(workers) == 2
        assert all(stat(pid).ppid == servers[0] for pid in workers)  # type: ignore[union-attr]
        facts = {fact["pid"]: fact for fact in seen["facts"]}
        for fact in facts.values():
            assert fact["parent"] == fact["forked_from"] == servers[0]
            # the server's objects (the AI imported and warmed up), out of the collector's reach
            assert fact["frozen"] > 0
            assert fact["book_mappings"] == 1  # the server's, not one more of the worker's own
        assert set(facts) <= set(workers)
        assert seen["move"] == 3  # the block
        bot.stdin.write("\n")
        bot.stdin.flush()
        assert bot.wait(timeout=60) == 0, bot.stderr.read()
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(timeout=10)


def test_only_the_main_thread_starts_the_server() -> None:
    # The server's death signal fires when the thread that started it ends: only the main
    # thread lives as long as the bot.
    assert server.available()
    seen: list[bool] = []
    thread = threading.Thread(target=lambda: seen.append(server.available()))
    thread.start()
    thread.join()
    assert seen == [False]


async def test_without_a_fork_server_the_workers_start_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refused(*, warm: bool) -> BaseContext:
        # A sandbox without Unix sockets cannot run here: its refusal is simulated.
        raise PermissionError("sockets are not allowed here (test)")

    monkeypatch.setattr(server, "context", refused)
    runner = PoolRunner(workers=1, warm_up=False)
    await runner.start()
    try:
        assert runner._pool is not None
        loop = asyncio.get_running_loop()
        facts = await loop.run_in_executor(runner._pool, worker_facts)
        assert facts["parent"] == os.getpid() and facts["forked_from"] is None
        board = Position.from_moves(CONNECT_FOUR, [0, 6, 1, 6, 2])
        assert await runner.choose(board, Level.HARD, budget=0.2) == 3
    finally:
        await runner.close()
