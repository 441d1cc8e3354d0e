"""A parent for the orphan tests: starts a ``spawn`` pool whose workers die with it.

    python tests/core/workers/orphan_parent.py WORKERS main|signal|thread

Starts the pool from the main thread (``signal``: the same, with the watchdog slowed to once an
hour, so only the parent-death signal acts), or from a thread that then ends (the signal would
fire then if it were armed for such workers, so only the watchdog acts). Runs a task on every
worker, prints the workers' pids as one JSON line, and sleeps until it is killed.
"""

from __future__ import annotations

import concurrent.futures
import functools
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

from core.workers.orphans import Parent, die_with_parent


def _ready(folder: str, workers: int) -> int:
    # Held until every worker holds a task of this round, so that each task lands on a worker of
    # its own however slowly the others start (a fixed pause was not enough at load 12).
    Path(folder, str(os.getpid())).touch()
    deadline = time.monotonic() + 300
    while len(os.listdir(folder)) < workers and time.monotonic() < deadline:
        time.sleep(0.02)
    return os.getpid()


def _round(pool: concurrent.futures.ProcessPoolExecutor, workers: int) -> set[int]:
    with tempfile.TemporaryDirectory() as folder:
        return set(pool.map(_ready, [folder] * workers, [workers] * workers))


def main() -> None:
    workers, starter = int(sys.argv[1]), sys.argv[2]
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=functools.partial(die_with_parent, poll=3600 if starter == "signal" else 0.5),
        initargs=(Parent.this_process(),),
    )
    first: set[int] = set()
    if starter == "thread":
        thread = threading.Thread(target=lambda: first.update(_round(pool, workers)))
        thread.start()
        thread.join()
        time.sleep(1.0)  # the starting thread is gone: the workers must still be there
    else:
        first = _round(pool, workers)
    again = _round(pool, workers)
    print(json.dumps({"workers": sorted(first), "again": sorted(again)}), flush=True)
    time.sleep(600)


if __name__ == "__main__":
    main()
