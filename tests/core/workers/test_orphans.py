"""AI workers die with their parent: real pools, real ``kill -9``."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from core.workers.orphans import EXIT_ORPHANED, Parent
from tests.processes import HAS_PROC, ai_processes, cpu_seconds, descendants, running

ROOT = Path(__file__).resolve().parents[3]
PARENT = Path(__file__).with_name("orphan_parent.py")
GONE_WITHIN = 60.0
"""How long the test waits for them to be gone: they go within a second (the parent-death
signal, then the resource tracker at the end of its pipe), but a run at load 12 took longer
than the 5 s this was once; the wait ends as soon as they are gone."""

pytestmark = pytest.mark.skipif(not HAS_PROC, reason="reads /proc (Linux)")


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["CHATBOTS_JIT"] = "0"
    return env


def wait_gone(pids: list[int], timeout: float) -> list[int]:
    """The pids still running after up to ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    alive = [pid for pid in pids if running(pid)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [pid for pid in alive if running(pid)]
    return alive


@pytest.mark.parametrize("starter", ["main", "signal", "thread"])
def test_workers_die_with_a_killed_parent(starter: str) -> None:
    parent = subprocess.Popen(
        [sys.executable, str(PARENT), "2", starter],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
    )
    left: list[int] = []
    try:
        assert parent.stdout is not None and parent.stderr is not None
        line = parent.stdout.readline()
        assert line, parent.stderr.read()
        seen = json.loads(line)
        workers: list[int] = seen["workers"]
        assert len(workers) == 2
        # Started by a thread that has ended, the workers are still the same ones: nothing
        # killed them early.
        assert seen["again"] == workers
        tree = descendants(parent.pid)  # the workers and multiprocessing's resource tracker
        assert set(workers) <= set(tree)
        assert len(tree) > len(workers), "expected the resource tracker too"
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=10)
        left = wait_gone(tree, GONE_WITHIN)
        assert left == [], f"still running {GONE_WITHIN} s after the parent's kill: {left}"
    finally:
        parent.kill()
        parent.wait(timeout=10)
        for pid in left:  # don't leave them to the next test run
            os.kill(pid, signal.SIGKILL)


def test_a_worker_whose_parent_is_already_gone_exits_at_once() -> None:
    # The expected parent is not this process's parent: as if it had died before the worker
    # got to its initializer.
    code = (
        "import os, time\n"
        "from core.workers.orphans import Parent, die_with_parent\n"
        "die_with_parent(Parent(os.getppid() + 1_000_000, main_thread=True))\n"
        "time.sleep(60)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=environment(), capture_output=True, timeout=30
    )
    assert done.returncode == EXIT_ORPHANED, done.stderr


def test_a_parent_records_which_thread_starts_the_worker() -> None:
    parent = Parent.this_process()
    assert parent == Parent(os.getpid(), main_thread=False)
    assert pickle.loads(pickle.dumps(parent)) == Parent(os.getpid(), main_thread=True)
    copies: list[Parent] = []
    thread = threading.Thread(target=lambda: copies.append(pickle.loads(pickle.dumps(parent))))
    thread.start()
    thread.join()
    assert copies == [Parent(os.getpid(), main_thread=False)]


BOT = """
import asyncio, os, sys
from core.ai import Level
from core.games import Position, Rules
from core.workers.runner import PoolRunner
async def main(busy):
    runner = PoolRunner(workers=2, warm_up=busy)
    await runner.start()
    if busy:  # a search far longer than the test waits, in compiled code holding the GIL
        board = Position.start(Rules(7, 8, 4, gravity=True))
        asyncio.create_task(runner.choose(board, Level.HARD, budget=60.0))
    print(os.getpid(), flush=True)
    await asyncio.sleep(120)
asyncio.run(main(sys.argv[1] == "busy"))
"""


@pytest.mark.parametrize("mode", ["idle", "busy"])
def test_the_runners_workers_die_with_a_killed_bot(mode: str) -> None:
    # The service's own pool (core.workers.runner), started the way the bot starts it: its
    # workers are forked by a fork server, which must go too.
    env = environment()
    if mode == "busy":
        env.pop("CHATBOTS_JIT")
    bot = subprocess.Popen(
        [sys.executable, "-c", BOT, mode], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert bot.stdout is not None
        assert int(bot.stdout.readline()) == bot.pid
        roles = ai_processes(bot.pid)
        assert sorted(roles.values()) == ["fork server", "worker", "worker"]
        if mode == "busy":
            workers = [pid for pid, role in roles.items() if role == "worker"]
            used = {pid: cpu_seconds(pid) for pid in workers}
            deadline = time.monotonic() + 30
            while all(cpu_seconds(pid) - used[pid] < 0.5 for pid in workers):
                assert time.monotonic() < deadline, "no worker started searching"
                time.sleep(0.05)
        tree = descendants(bot.pid)  # with multiprocessing's resource tracker
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait(10)
        assert wait_gone(tree, GONE_WITHIN) == []
    finally:
        if bot.poll() is None:
            bot.kill()
