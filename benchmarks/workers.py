"""Memory of the AI workers: resident (RSS) and proportional (PSS) per process, idle and busy.

Starts the real bot (``chatbots run``, the console game, as :mod:`benchmarks.orphans` does) with
``AI_WORKERS=2`` on a fresh database, and reads ``/proc/PID/smaps_rollup`` of every process the
AI uses: the workers, and the fork server they start from when there is one. PSS divides each
shared page among the processes that map it, so the PSS of all processes adds up to what the
machine really spends. Measured once the bot says ``service started`` (the workers are warm),
then after a bots' game at HARD on a 7x8 board (searches beyond the reach of the
opening book) has run for a while.

Before and after a change, run it on each tree::

    python -m benchmarks workers                    # this tree
    python -m benchmarks.workers --tree /work/main  # another tree's bot, the same measurement
"""

from __future__ import annotations

import argparse
import os
import queue
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.orphans import START_TIMEOUT, WORKERS, bot_command, bot_environment, lines
from tests.processes import HAS_PROC, PROC, ai_processes, cpu_seconds, in_session, running

ROOT = Path(__file__).resolve().parents[1]
GAME = "/quatre 7x8 hard bot"
BUSY_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Memory:
    """One process's memory in MiB."""

    role: str  # "worker" or "fork server"
    pid: int
    rss: float
    pss: float
    cpu: float  # seconds used so far


def smaps_mib(pid: int) -> tuple[float, float]:
    """(RSS, PSS) of ``pid`` in MiB, from ``/proc/PID/smaps_rollup``; zeros if it is gone."""
    try:
        text = (PROC / str(pid) / "smaps_rollup").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0, 0.0
    values = {
        parts[0].rstrip(":"): int(parts[1]) / 1024
        for parts in (line.split() for line in text.splitlines()[1:])
        if len(parts) >= 2 and parts[1].isdigit()
    }
    return values.get("Rss", 0.0), values.get("Pss", 0.0)


def sample(bot: int) -> list[Memory]:
    """The memory of the bot's AI processes now, workers first."""
    found = ai_processes(bot)
    measured = [Memory(role, pid, *smaps_mib(pid), cpu_seconds(pid)) for pid, role in found.items()]
    return sorted(measured, key=lambda m: (m.role != "worker", m.pid))


def measure(tree: Path, busy_seconds: float) -> tuple[list[Memory], list[Memory]]:
    """Start the bot of ``tree``; its AI processes' memory once warm, and after the games."""
    directory = Path(tempfile.mkdtemp(prefix="chatbots-workers-"))
    env = bot_environment(directory, tree)
    bot = subprocess.Popen(
        bot_command(),
        stdin=subprocess.PIPE,  # kept open: end of input would stop the console game
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=directory,
        env=env,
        start_new_session=True,
    )
    assert bot.stdin is not None and bot.stderr is not None
    log: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lines, args=(bot.stderr, log), daemon=True).start()
    try:
        seen: list[str] = []
        deadline = time.monotonic() + START_TIMEOUT
        while not any("service started" in line for line in seen):
            if bot.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the bot did not start:\n" + "".join(seen))
            try:
                seen.append(log.get(timeout=0.5))
            except queue.Empty:
                continue
        idle = sample(bot.pid)
        bot.stdin.write(GAME + "\n")
        bot.stdin.flush()
        time.sleep(busy_seconds)  # the measurement window: the bots play meanwhile
        busy = sample(bot.pid)
        return idle, busy
    finally:
        bot.send_signal(signal.SIGKILL)
        bot.wait(timeout=10)
        for pid in in_session(bot.pid):
            if running(pid):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(directory, ignore_errors=True)


def report(label: str, measured: list[Memory]) -> None:
    """Print one sample: a line per process, then the workers' and the AI's totals."""
    print(f"{label}:")
    for m in measured:
        print(
            f"  {m.role:<11} {m.pid:>7}  RSS {m.rss:6.1f} MiB  PSS {m.pss:6.1f} MiB"
            f"  CPU {m.cpu:6.1f} s"
        )
    workers = [m for m in measured if m.role == "worker"]
    if workers:
        print(
            f"  per worker: PSS max {max(m.pss for m in workers):.1f} MiB, "
            f"RSS max {max(m.rss for m in workers):.1f} MiB; "
            f"all AI processes: PSS {sum(m.pss for m in measured):.1f} MiB "
            f"({len(workers)} workers, {WORKERS} asked)"
        )


def main(quick: bool, tree: Path = ROOT) -> None:
    """Measure the bot of ``tree`` (this one by default)."""
    if not HAS_PROC:
        print("skipped: needs Linux /proc")
        return
    busy_seconds = 20.0 if quick else BUSY_SECONDS
    idle, busy = measure(tree, busy_seconds)
    print(f"bot of {tree}, AI_WORKERS={WORKERS}")
    report("warm, idle", idle)
    report(f"after {busy_seconds:.0f} s of a bots' game at HARD ({GAME!r})", busy)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.workers", description=__doc__)
    parser.add_argument("--tree", type=Path, default=ROOT, help="the source tree of the bot")
    parser.add_argument("--quick", action="store_true", help="a shorter busy window")
    arguments = parser.parse_args()
    main(arguments.quick, arguments.tree.resolve())
