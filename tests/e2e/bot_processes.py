"""Whole bot processes (``python -m chatbots run``) for the tests and benchmarks that run the
real application (health, several processes on one database, kills): start with settings, read
the log, SIGKILL, SIGTERM; and who holds a lease, read from the database as an operator would.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chatbots.settings import KEY_NAMES

ROOT = Path(__file__).resolve().parents[2]

SqlRunner = Callable[..., Awaitable[list[tuple[Any, ...]]]]
"""``backend.sql``: one statement with ``$n`` parameters, its rows."""


@dataclass
class BotProcess:
    """One running ``chatbots run``; its output goes to ``log``."""

    name: str
    process: asyncio.subprocess.Process
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    async def wait_log(self, text: str, *, within: float) -> None:
        """Until ``text`` appears in the log; fails (with the log's end) after ``within``."""
        deadline = time.monotonic() + within
        while text not in self.log_text():
            if self.process.returncode is not None or time.monotonic() > deadline:
                raise AssertionError(
                    f"{self.name}: no {text!r} in the log within {within} s:\n"
                    f"{self.log_text()[-3000:]}"
                )
            await asyncio.sleep(0.1)

    async def kill(self) -> None:
        """SIGKILL: no cleanup, no release, as a crash or an OOM kill."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self, within: float = 15.0) -> int:
        """SIGTERM, as a supervisor stops it; its exit code."""
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), within)


async def start_bot(
    folder: Path, name: str, settings: dict[str, str], *, console: bool = False
) -> BotProcess:
    """``python -m chatbots run`` in ``folder`` with exactly ``settings`` (plus no AI workers
    and INFO logs), nothing from the caller's environment's bot settings. ``console``: a bot
    with no platform, whose console's input stays open until it is stopped (its end would
    stop the bot)."""
    env = {k: v for k, v in os.environ.items() if k not in KEY_NAMES}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env |= {"AI_WORKERS": "0", "LOG_LEVEL": "INFO", **settings}
    log = folder / f"{name}.log"
    with log.open("wb") as out:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "chatbots",
            "run",
            cwd=folder,
            env=env,
            stdin=asyncio.subprocess.PIPE if console else asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return BotProcess(name, process, log)


async def lease_holder_pid(sql: SqlRunner, lease: str) -> int | None:
    """The pid in the holder id of the unexpired lease ``lease`` (``host:pid:suffix``), by the
    database's clock (PostgreSQL); None when no one holds it."""
    import asyncpg

    try:
        rows = await sql(
            "SELECT value FROM kv WHERE namespace = 'lease' AND key = $1"
            " AND expires_at > extract(epoch FROM statement_timestamp())",
            lease,
        )
    except (asyncpg.UndefinedTableError, asyncpg.UndefinedColumnError):
        # No process has made the schema yet, or it is between two migration steps (each step
        # commits on its own: kv exists before the step that gives it expires_at).
        return None
    if not rows:
        return None
    return int(str(rows[0][0]).split(":")[-2])


async def wait_holder(sql: SqlRunner, lease: str, pid: int, *, within: float) -> float:
    """Until process ``pid`` holds ``lease``; the ``time.monotonic()`` it was first seen."""
    deadline = time.monotonic() + within
    while (holder := await lease_holder_pid(sql, lease)) != pid:
        if time.monotonic() > deadline:
            raise AssertionError(f"{lease}: held by pid {holder}, not {pid}, after {within} s")
        await asyncio.sleep(0.05)
    return time.monotonic()


async def wait_boards_stored(sql: SqlRunner, *, within: float) -> None:
    """Until every active game's board message is recorded in the store.

    A board is posted, then recorded (a crash in between loses the record, and the next move
    posts a new board): a test that kills the bot on purpose waits for the record first.
    """
    deadline = time.monotonic() + within
    statement = (
        "SELECT count(*) FROM sessions WHERE status = 'active' AND NOT EXISTS"
        " (SELECT 1 FROM boards WHERE boards.session_id = sessions.id)"
    )
    while (await sql(statement))[0][0]:
        if time.monotonic() > deadline:
            raise AssertionError(f"a board was not recorded within {within} s")
        await asyncio.sleep(0.05)
