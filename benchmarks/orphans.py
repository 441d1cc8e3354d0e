"""Fault: ``kill -9`` of the running bot, then count what it left behind.

Starts the real bot (``chatbots run`` with no platform settings: the console game, its stdin a
pipe kept open) with ``AI_WORKERS=2`` on a fresh database, in a session of its own; waits for
``service started`` (the AI pool is up and warm); notes the workers' resident memory; sends
SIGKILL to the main process; and counts the processes of its session still running 5 s later
(AI workers, their fork server, multiprocessing's resource tracker). A kill is clean when none
are. Also prints how long the last of them took to go.

Two kinds of rounds: ``idle`` kills a bot that waits for input; ``busy`` first starts a game on
a 7x8 board against the hard bot, which moves first and searches for its whole budget (1 s) in
a worker, and kills 0.3 s into that search (compiled code holding the GIL: only the
parent-death signal can stop it before the search ends).

Survivors are killed after counting, so one bad round does not spoil the next.
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from chatbots.settings import KEY_NAMES
from tests.processes import HAS_PROC, ai_processes, command, in_session, rss_mib, running

ROOT = Path(__file__).resolve().parents[1]
WORKERS = 2
GRACE = 5.0
START_TIMEOUT = 180.0


@dataclass(frozen=True, slots=True)
class Kill:
    """One round: the workers' memory before the kill, and what was left after it."""

    worker_rss_mib: tuple[float, ...]
    survivors: tuple[str, ...]  # "pid command" of each
    gone_after: float | None  # seconds until the last process of the session went; None: never


def bot_command() -> list[str]:
    """How the bot is started: the installed ``chatbots`` script, as in production."""
    script = Path(sys.executable).with_name("chatbots")
    return [str(script), "run"] if script.exists() else [sys.executable, "-m", "chatbots", "run"]


def bot_environment(directory: Path, tree: Path = ROOT) -> dict[str, str]:
    """The bot's environment: the code of ``tree``, a database in ``directory``, two workers."""
    env = {k: v for k, v in os.environ.items() if k not in KEY_NAMES}
    env["PYTHONPATH"] = os.pathsep.join([str(tree), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env |= {
        "AI_WORKERS": str(WORKERS),
        "DATABASE_PATH": str(directory / "games.sqlite3"),
        "LOG_LEVEL": "INFO",  # the console's default (WARNING) hides "service started"
    }
    return env


def lines(stream: IO[str], out: queue.Queue[str]) -> None:
    """Every line of ``stream`` into ``out`` (a thread's target)."""
    for line in stream:
        out.put(line)


def _one_kill(directory: Path, busy: bool) -> Kill:
    bot = subprocess.Popen(
        bot_command(),
        stdin=subprocess.PIPE,  # kept open: end of input would stop the console game
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=directory,  # no developer's .env
        env=bot_environment(directory),
        start_new_session=True,  # its session id is its pid: what it leaves is easy to find
    )
    assert bot.stderr is not None
    out: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lines, args=(bot.stderr, out), daemon=True).start()
    session = bot.pid
    try:
        deadline = time.monotonic() + START_TIMEOUT
        log: list[str] = []
        while not any("service started" in line for line in log):
            if bot.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the bot did not start:\n" + "".join(log))
            try:
                log.append(out.get(timeout=0.5))
            except queue.Empty:
                continue
        workers = [pid for pid, role in ai_processes(bot.pid).items() if role == "worker"]
        rss = tuple(rss_mib(pid) for pid in workers)
        if busy:
            assert bot.stdin is not None
            bot.stdin.write("/quatre 7x8 hard second\n")
            bot.stdin.flush()
            time.sleep(0.3)
        bot.send_signal(signal.SIGKILL)
        bot.wait(timeout=10)
        killed = time.monotonic()
        gone_after: float | None = None
        while time.monotonic() - killed < GRACE:
            if not in_session(session):
                gone_after = time.monotonic() - killed
                break
            time.sleep(0.02)
        survivors = tuple(f"{pid} {command(pid)[:70]!r}" for pid in in_session(session))
        return Kill(rss, survivors, gone_after)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait(timeout=10)
        for pid in in_session(session):
            if running(pid):
                os.kill(pid, signal.SIGKILL)


def main(quick: bool) -> None:
    """Kill the bot 10 times (3 with ``--quick``) idle, then busy; print how many were clean."""
    if not HAS_PROC:
        print("skipped: needs Linux /proc")
        return
    rounds = 3 if quick else 10
    for busy in (False, True):
        _report("busy" if busy else "idle", [_round(index, busy) for index in range(rounds)])


def _round(index: int, busy: bool) -> Kill:
    directory = Path(tempfile.mkdtemp(prefix="chatbots-orphans-"))
    try:
        kill = _one_kill(directory, busy)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    left = ", ".join(kill.survivors) or "none"
    took = "-" if kill.gone_after is None else f"{kill.gone_after:.2f} s"
    mode = "busy" if busy else "idle"
    print(f"{mode} kill {index + 1:2d}: survivors after {GRACE:.0f} s: {left}; all gone in {took}")
    return kill


def _report(mode: str, kills: list[Kill]) -> None:
    rounds = len(kills)
    clean = sum(not kill.survivors for kill in kills)
    rss = [value for kill in kills for value in kill.worker_rss_mib]
    gone = [kill.gone_after for kill in kills if kill.gone_after is not None]
    print(f"{mode}: {clean}/{rounds} clean (nothing of the bot's session left {GRACE:.0f} s later)")
    if rss:
        print(
            f"worker RSS before the kill: median {statistics.median(rss):.0f} MiB, "
            f"max {max(rss):.0f} MiB ({len(rss)} workers, {WORKERS} per bot)"
        )
    if gone:
        print(
            f"time until the last process went: median {statistics.median(gone):.2f} s, "
            f"max {max(gone):.2f} s"
        )
