"""The real bot as a subprocess (``chatbots run``): start, stop by signal, memory, leftovers.

Each start is a *life*: a new process in a session of its own (its session id is its pid, so
whatever it leaves behind is easy to find, as in ``benchmarks/orphans.py``), on the same
database. A life is up once the application logged ``started`` and the bot identified on the
Discord double's gateway; the drivers look at :class:`Uptime` to know whether the bot can hear
them and how long it has been listening.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from chatbots.settings import KEY_NAMES
from tests.processes import command, descendants, in_session, rss_mib, running

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 180.0  # the first start compiles the solver (cached for the later ones)
TERM_TIMEOUT = 15.0  # docs/design.md: a SIGTERM stops the bot within 10 s
GRACE = 5.0  # after the main process is gone, how long its workers may take to follow


@dataclass(slots=True)
class Life:
    """One run of the bot process, from its start to its stop."""

    index: int
    pid: int
    log: Path
    started: float  # time.monotonic()
    up_after: float | None = None  # seconds from start until it was up
    stop: str = ""  # TERM, KILL, or "final" (the TERM at the end of the soak)
    exit_code: int | None = None
    stop_seconds: float | None = None  # from the signal to the process gone
    survivors: tuple[str, ...] = ()  # "pid command" of what was left GRACE seconds later
    warnings: int = 0  # log lines at WARNING, and at ERROR or above
    errors: int = 0
    samples: tuple[str, ...] = ()  # the first few distinct warnings and errors

    def read_log(self) -> None:
        """Count the warnings and errors of the life's log (``<ts> LEVEL logger event ...``)."""
        seen: list[str] = []
        for line in self.log.read_text(errors="replace").splitlines():
            parts = line.split(" ", 3)
            level = parts[1] if len(parts) > 2 else ""
            if level == "WARNING":
                self.warnings += 1
            elif level in ("ERROR", "CRITICAL"):
                self.errors += 1
            elif "Warning: " in line:  # Python's warnings module (a library's UserWarning)
                self.warnings += 1
            elif not line.startswith("Traceback"):
                continue
            event = " ".join(parts[1:])[:110] if len(parts) > 2 else line[:110]
            if len(seen) < 5 and event not in seen:
                seen.append(event)
        self.samples = tuple(seen)


@dataclass(slots=True)
class Sample:
    """The bot's resident memory at one minute of the soak."""

    minute: int
    life: int
    uptime: float  # seconds the life had been running
    main_mib: float
    workers_mib: float
    workers: int

    @property
    def total_mib(self) -> float:
        return self.main_mib + self.workers_mib


class Uptime:
    """Whether the bot is up, since when, and which life it is (the drivers read it)."""

    def __init__(self) -> None:
        self.up = False
        self.since = 0.0
        self.life = 0

    def quiet_for(self, since: float) -> float:
        """Seconds the bot has been up and silent about something sent at ``since`` (0 while it
        is down: a message to a stopped bot may still be answered after its restart)."""
        if not self.up:
            return 0.0
        return max(0.0, time.monotonic() - max(since, self.since))


class BotProcess:
    """Starts and stops the bot; keeps every life for the summary."""

    def __init__(
        self, directory: Path, settings: dict[str, str], identified: Callable[[], int]
    ) -> None:
        """
        Args:
            directory: its working directory (no developer's ``.env`` there) and its logs.
            settings: the environment variables that configure it.
            identified: how many gateway IDENTIFYs the Discord double has seen so far.
        """
        self.directory = directory
        self.settings = settings
        self.identified = identified
        self.uptime = Uptime()
        self.lives: list[Life] = []
        self._process: asyncio.subprocess.Process | None = None

    @property
    def life(self) -> Life:
        return self.lives[-1]

    def _environment(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in KEY_NAMES}
        path = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        return env | {"PYTHONPATH": path} | self.settings

    async def start(self) -> Life:
        """Start a new life and return once it is up.

        Raises:
            RuntimeError: it exited or was not up within ``START_TIMEOUT`` (with its log's end);
                what it started is killed first, so no run leaves a bot behind.
        """
        script = Path(sys.executable).with_name("chatbots")
        argv = (
            [str(script), "run"] if script.exists() else [sys.executable, "-m", "chatbots", "run"]
        )
        index = len(self.lives) + 1
        log = self.directory / f"bot-{index}.log"
        identified = self.identified()
        with log.open("wb") as out:
            self._process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=out,
                stderr=asyncio.subprocess.STDOUT,
                cwd=self.directory,
                env=self._environment(),
                start_new_session=True,
            )
        life = Life(index, self._process.pid, log, time.monotonic())
        self.lives.append(life)
        deadline = life.started + START_TIMEOUT
        while not (self._logged_started(log) and self.identified() > identified):
            if self._process.returncode is not None or time.monotonic() > deadline:
                await self.stop("KILL")
                raise RuntimeError(f"the bot did not start:\n{_tail(log)}")
            await asyncio.sleep(0.1)
        life.up_after = time.monotonic() - life.started
        self.uptime.up, self.uptime.since, self.uptime.life = True, time.monotonic(), index
        return life

    @staticmethod
    def _logged_started(log: Path) -> bool:
        # chatbots.app logs "started" with the adapters once the service and store are open.
        text = log.read_text(errors="replace")
        return any(" started " in line and "adapters=" in line for line in text.splitlines())

    async def stop(self, how: str) -> Life:
        """Stop the running life by SIGTERM (``how`` TERM or final) or SIGKILL (KILL).

        Returns the life with its exit code, how long it took and what it left behind; the
        leftovers are then killed so they do not weigh on the next life.
        """
        process, life = self._process, self.life
        assert process is not None
        self.uptime.up = False  # from now on nothing the drivers send is heard
        life.stop = how
        signum = signal.SIGKILL if how == "KILL" else signal.SIGTERM
        sent = time.monotonic()
        with contextlib.suppress(ProcessLookupError):  # it exited already (a failed start)
            process.send_signal(signum)
        try:
            await asyncio.wait_for(process.wait(), TERM_TIMEOUT)
        except TimeoutError:
            process.kill()
            await process.wait()
        life.exit_code = process.returncode
        life.stop_seconds = time.monotonic() - sent
        for _ in range(int(GRACE / 0.05)):  # workers get GRACE seconds to follow
            if not in_session(life.pid):
                break
            await asyncio.sleep(0.05)
        life.survivors = tuple(f"{pid} {command(pid)[:70]!r}" for pid in in_session(life.pid))
        for pid in in_session(life.pid):
            if running(pid):
                os.kill(pid, signal.SIGKILL)
        self._process = None
        life.read_log()
        return life

    def sample(self, minute: int) -> Sample | None:
        """The memory of the running life (main process and its workers), or None if down."""
        process = self._process
        if process is None or process.returncode is not None or not self.uptime.up:
            return None
        children = descendants(process.pid)
        return Sample(
            minute=minute,
            life=self.life.index,
            uptime=time.monotonic() - self.life.started,
            main_mib=rss_mib(process.pid),
            workers_mib=sum(rss_mib(pid) for pid in children),
            workers=len(children),
        )

    def leftovers(self) -> list[str]:
        """Processes of any life still running now (after the final stop: orphans)."""
        return [
            f"life {life.index}: {pid} {command(pid)[:70]!r}"
            for life in self.lives
            for pid in in_session(life.pid)
        ]


def _tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
