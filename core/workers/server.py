"""The fork server the AI workers start from, so that they share its memory.

A worker started with ``spawn`` is a fresh interpreter that imports numba and compiles (or loads)
the solver's kernel on its own: about 65 MiB of private memory besides its solver table (151-164
MiB PSS a worker with two; ``python -m benchmarks workers``). The pool starts them instead from
multiprocessing's fork server (:func:`context`), a process that imports the AI and warms it up
once, before it forks any worker: the interpreter's objects, the compiled code and the opening
book's mapping are then pages the workers share with it until they write to them (87 MiB PSS a
worker). The server's objects are moved out of the garbage collector's reach (``gc.freeze``),
so that a worker's collections do not write to every shared page; the solver's table is not
shared (each worker allocates its own, :func:`core.ai.engine.release`).

The server runs this module as a preload. What it does then is asked through the environment
(:data:`SERVER_ENV`, set only while the server starts), so that importing the module anywhere
else does nothing. The server dies with the bot (the parent-death signal, armed because the
bot's main thread starts it), and its workers with it (:mod:`core.workers.orphans`).
"""

from __future__ import annotations

import contextlib
import gc
import logging
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import threading
from collections.abc import Iterator
from multiprocessing.context import BaseContext

from core.workers.orphans import EXIT_ORPHANED, set_parent_death_signal

__all__ = ["SERVER_ENV", "available", "context", "forked_from"]

SERVER_ENV = "CHATBOTS_AI_FORK_SERVER"
"""Set to ``warm:<bot pid>`` or ``cold:<bot pid>`` while the bot starts the fork server."""

# Where this module was first imported: a process forked after that (a worker forked by the
# server) sees another process's pid here.
_imported_in = os.getpid()


def available() -> bool:
    """Whether workers can start from the fork server here: a POSIX system with the
    ``forkserver`` method, asked from the main thread (which lives as long as the process, so
    that the server's parent-death signal fires only when the bot dies)."""
    return (
        "forkserver" in multiprocessing.get_all_start_methods()
        and threading.current_thread() is threading.main_thread()
    )


def context(*, warm: bool) -> BaseContext:
    """The fork server's context, the server started now if it is not running.

    Args:
        warm: compile the solver in the server (else each worker warms itself up, if asked).
    """
    forkserver = multiprocessing.get_context("forkserver")
    forkserver.set_forkserver_preload([__name__])
    with _environment(SERVER_ENV, f"{'warm' if warm else 'cold'}:{os.getpid()}"):
        multiprocessing.forkserver.ensure_running()
    return forkserver


def forked_from() -> int | None:
    """The pid of the process this one was forked from after importing this module (a worker's
    fork server), or None."""
    return _imported_in if _imported_in != os.getpid() else None


@contextlib.contextmanager
def _environment(name: str, value: str) -> Iterator[None]:
    os.environ[name] = value
    try:
        yield
    finally:
        os.environ.pop(name, None)


def _serve(mode: str, bot: int) -> None:
    """In the server, before it forks any worker."""
    set_parent_death_signal(signal.SIGKILL)
    if os.getppid() != bot:  # the bot died before the signal was armed
        os._exit(EXIT_ORPHANED)
    # The bot says once whether the opening book is there (PoolRunner.start).
    logging.getLogger("core.ai.book").setLevel(logging.ERROR)
    from core.ai import engine
    from core.workers import tasks  # noqa: F401  (what the workers run, imported once here)

    if mode == "warm":
        from core.ai import warm_up

        engine.size_table(0.0)  # the smallest table for the warm-up, and then none
        warm_up()
        engine.release()
    gc.collect()
    gc.freeze()


_requested = os.environ.pop(SERVER_ENV, None)  # popped: the workers must not serve again
if _requested is not None:
    _mode, _, _bot = _requested.partition(":")
    _serve(_mode, int(_bot))
