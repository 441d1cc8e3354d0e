"""Run the benchmarks: ``python -m benchmarks [--quick] [NAME ...]``.

Every module in this package that has ``main(quick: bool) -> None`` is a benchmark; it prints
its own table of figures. With no names, all of them run, in alphabetical order, except those
that set ``IN_DEFAULT_RUN = False`` (the half-hour soak): those run only when named.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import time

import benchmarks


def available() -> list[str]:
    return sorted(
        info.name
        for info in pkgutil.iter_modules(benchmarks.__path__)
        if not info.name.startswith("_")
    )


def _in_default_run(name: str) -> bool:
    return bool(getattr(importlib.import_module(f"benchmarks.{name}"), "IN_DEFAULT_RUN", True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("names", nargs="*", help=f"benchmarks to run (default all: {available()})")
    parser.add_argument("--quick", action="store_true", help="smaller samples, for a smoke run")
    args = parser.parse_args(argv)
    names = args.names or [name for name in available() if _in_default_run(name)]
    unknown = sorted(set(names) - set(available()))
    if unknown:
        parser.error(f"unknown benchmark(s) {unknown}; choose from {available()}")
    for name in names:
        module = importlib.import_module(f"benchmarks.{name}")
        run = getattr(module, "main", None)
        if run is None:
            continue
        print(f"\n=== {name} ===", flush=True)
        started = time.perf_counter()
        run(args.quick)
        print(f"({name}: {time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
