"""AI workers that die with the process that started them.

A ``ProcessPoolExecutor`` shuts its workers down in order when the service closes, but after a
``kill -9`` (or an OOM kill, or a crash in C) of the main process nothing does: the workers, tens
of MiB each, are re-parented to PID 1 and wait for work forever. (multiprocessing's resource
tracker then stays too, because the workers hold its pipe open; it exits on its own once they
are gone.)

A worker calls :func:`die_with_parent` first thing, from the pool's initializer, with a
:class:`Parent` made in the main process::

    ProcessPoolExecutor(..., mp_context=multiprocessing.get_context("spawn"),
                        initializer=init, initargs=(Parent.this_process(),))

Two mechanisms, because neither covers every case alone:

- Linux's parent-death signal (``PR_SET_PDEATHSIG``) kills the worker the moment its parent
  dies, even in the middle of a compiled search that holds the GIL. It fires when the parent
  *thread* that started the worker ends, though, not only the process. A pool with the
  ``spawn`` method starts workers from whichever thread calls ``submit`` (Python 3.11; its
  management thread too, when it replaces a worker), so the signal is armed only for workers
  started by the main thread, which lives as long as the process.
- A watchdog thread polls ``os.getppid()`` every half second and exits once the parent is gone
  (the worker has been re-parented). It works on every POSIX system and whatever thread
  started the worker; it needs the GIL, so a long search can delay it by up to one AI budget.

Workers forked by a fork server (:mod:`core.workers.server`) have the server as their parent:
the signal is armed against it (its one thread forks them), the server has its own signal armed
against the bot, and the watchdog watches both the server and the bot.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import wait

POLL_SECONDS = 0.5
EXIT_ORPHANED = 1
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


@dataclass(frozen=True, slots=True)
class Parent:
    """The process that starts a worker (or has a fork server start it), as the worker sees it.

    Attributes:
        pid: the parent's process id (the worker's expected ``os.getppid()`` unless a fork
            server forks the worker).
        main_thread: whether the worker was started by the parent's main thread. It is
            recorded when the worker's arguments are pickled, which the ``spawn`` method does
            in the thread that starts the worker; an unpickled copy (``fork``) says False.
    """

    pid: int
    main_thread: bool = False

    @classmethod
    def this_process(cls) -> Parent:
        """The current process, to pass to the workers it is about to start."""
        return cls(os.getpid())

    def __reduce__(self) -> tuple[type[Parent], tuple[int, bool]]:
        # Evaluated at pickling time, in the thread that starts the worker: exactly the thread
        # whose end would fire the parent-death signal.
        return (Parent, (self.pid, threading.current_thread() is threading.main_thread()))


def die_with_parent(
    parent: Parent, *, poll: float = POLL_SECONDS, server: int | None = None
) -> None:
    """Make this process exit once ``parent`` has died, whatever killed it.

    Call it first in a worker (the pool's initializer). If the parent is already gone, or is
    not this process's parent, the process exits at once with :data:`EXIT_ORPHANED`.

    Args:
        parent: the process that started this one (:meth:`Parent.this_process`, made there).
        poll: seconds between the watchdog's checks of the parent.
        server: the pid of the fork server that forked this process on ``parent``'s behalf
            (then this process's parent); None when ``parent`` started it itself.
    """
    # A fork server's only thread forks: the signal then holds for as long as the server lives
    # (and the server dies with the bot).
    if server is not None or parent.main_thread:
        set_parent_death_signal(signal.SIGKILL)
    direct = parent.pid if server is None else server
    # Checked after arming the signal: a parent that died just before it was armed sent none.
    if os.getppid() != direct:
        os._exit(EXIT_ORPHANED)
    threading.Thread(
        target=_watch,
        args=(direct, poll, server is not None),
        name="orphan-watchdog",
        daemon=True,
    ).start()


def set_parent_death_signal(signum: int) -> bool:
    """Ask Linux to send ``signum`` to this process when the thread that started it ends.

    Returns:
        Whether it was armed (False on other systems or when ``prctl`` fails).
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)) == 0
    except (OSError, AttributeError):  # no libc with prctl (another C library, a sandbox)
        return False


def _watch(parent_pid: int, poll: float, watch_starter: bool) -> None:
    # A dead parent's children are re-parented (to PID 1 or a subreaper), so the parent's pid
    # is never ours again, even if the number is reused by a new process.
    starter = multiprocessing.parent_process() if watch_starter else None
    while os.getppid() == parent_pid:
        if starter is None:
            time.sleep(poll)
        elif wait([starter.sentinel], poll):
            # the process that asked the server for this one (the bot) is gone: its end of
            # the pipe it sent this process's start on is closed
            break
    # No cleanup: the task queue's other end is gone, and nobody waits for a result.
    os._exit(EXIT_ORPHANED)
