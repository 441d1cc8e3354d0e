"""Processes seen through Linux's ``/proc``: trees, sessions, liveness and memory.

Shared by the tests and the benchmarks that kill a process and look for what it left behind.
A zombie counts as gone: it holds no memory and runs nothing, and in a container whose PID 1
does not reap, an orphan that exited stays a zombie for good.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
HAS_PROC = sys.platform.startswith("linux") and PROC.is_dir()


@dataclass(frozen=True, slots=True)
class Proc:
    """One line of ``/proc/PID/stat``, the fields we use."""

    pid: int
    state: str
    ppid: int
    session: int

    @property
    def running(self) -> bool:
        """Alive and not a zombie (``Z``) or dead (``X``)."""
        return self.state not in ("Z", "X")


def stat(pid: int) -> Proc | None:
    """The process ``pid``, or None if it no longer exists."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # The command name is in parentheses and may contain spaces or parentheses itself.
    fields = text[text.rindex(")") + 2 :].split()
    return Proc(pid, fields[0], int(fields[1]), int(fields[3]))


def running(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie."""
    proc = stat(pid)
    return proc is not None and proc.running


def every_process() -> list[Proc]:
    """Every process visible in ``/proc``."""
    found = (stat(int(entry.name)) for entry in PROC.iterdir() if entry.name.isdigit())
    return [proc for proc in found if proc is not None]


def descendants(pid: int) -> list[int]:
    """The running children of ``pid``, their children, and so on."""
    procs = [p for p in every_process() if p.running]
    found: list[int] = []
    parents = {pid}
    while parents:
        children = [p.pid for p in procs if p.ppid in parents and p.pid not in found]
        found += children
        parents = set(children)
    return found


def ai_processes(bot: int) -> dict[int, str]:
    """The AI's processes under the bot ``bot``: each pid with its role (``worker`` or ``fork
    server``); multiprocessing's resource tracker is left out."""
    found: dict[int, str] = {}
    for pid in descendants(bot):
        proc = stat(pid)
        if proc is None:
            continue
        if proc.ppid == bot and "multiprocessing.forkserver" in command(pid):
            found[pid] = "fork server"
        elif "spawn_main" in command(pid) or found.get(proc.ppid) == "fork server":
            found[pid] = "worker"
    return found


def in_session(session: int) -> list[int]:
    """The running processes of session ``session`` (a ``start_new_session`` child's pid)."""
    return [p.pid for p in every_process() if p.session == session and p.running]


def rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` in MiB (0 if it is gone)."""
    try:
        status = (PROC / str(pid) / "status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def command(pid: int) -> str:
    """The command line of ``pid``, as one string ('' if it is gone)."""
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) ``pid`` has used so far, in seconds (0 if it is gone)."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()
    # utime and stime are the 14th and 15th fields of the line, in clock ticks.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(pid: int) -> float:
    """CPU time of ``pid`` and of its running descendants (workers, server backends)."""
    return cpu_seconds(pid) + sum(cpu_seconds(child) for child in descendants(pid))
