"""Soak: the real bot process plays without pause for half an hour, restarted again and again.

``python -m benchmarks soak`` (30 minutes; ``--quick``: 3) starts a real Synapse on 127.0.0.1,
the loopback Discord double, and ``chatbots run`` as a subprocess configured through its
environment (the double's REST and gateway URLs, the homeserver, a temporary database,
``AI_WORKERS=2``). Then, all at once and without pause:

- Discord: two players start games against the bot (``/tres``, ``/quatre`` at easy, medium and
  hard) and click random free cells or columns; a pair challenges each other and plays out;
- Matrix: two registered users, each in a room with the bot, type ``!tres``/``!quatre`` and
  their moves.

The bot is stopped by SIGTERM every 5 minutes (every minute with ``--quick``) and once by
SIGKILL, and started again each time on the same database. Its resident memory (main process
and workers) is printed every minute. After the final SIGTERM the database is checked (see
``ledger``): no acknowledged move lost, no move applied twice, stats equal to the results the
players saw; and nothing of the bot's process trees may be left running. A summary table is
printed; a failed check raises (a non-zero exit).

Environment: ``SOAK_MINUTES`` sets the length (such as ``SOAK_MINUTES=10``), and
``SOAK_RESTART_MINUTES`` the time between SIGTERMs; ``SOAK_KEEP_DIR`` keeps the database, the
bot's logs (one per life) and Synapse's files in that directory for a look afterwards. The
default ``python -m benchmarks`` run (``make bench``) leaves the soak out (``IN_DEFAULT_RUN``);
name it to run it.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from benchmarks.soak.run import MEMORY_GROWTH_LIMIT, Report, Schedule, soak
from tests.e2e.synapse import synapse_missing
from tests.processes import HAS_PROC

IN_DEFAULT_RUN = False  # half an hour: run only when named


def main(quick: bool) -> None:
    """Soak the bot for ``SOAK_MINUTES`` (default 30, 3 with ``quick``); raise if a check fails."""
    if not HAS_PROC:
        print("skipped: needs Linux /proc (to follow the bot's processes)")
        return
    reason = synapse_missing()
    if reason is not None:
        print(f"skipped: {reason}")
        return
    minutes = _minutes("SOAK_MINUTES", 3.0 if quick else 30.0)
    every = _minutes("SOAK_RESTART_MINUTES", 1.0 if quick else 5.0)
    print(
        f"soak: {minutes:g} min, SIGTERM every {every:g} min and one SIGKILL; "
        f"Discord double + Synapse + `chatbots run`",
        flush=True,
    )
    keep = os.environ.get("SOAK_KEEP_DIR", "").strip()
    report = asyncio.run(soak(Schedule(minutes * 60, every * 60), Path(keep) if keep else None))
    failures = summarize(report)
    if failures:
        raise SystemExit("soak failed: " + "; ".join(failures))


def _minutes(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SystemExit(f"{name}={raw!r} is not a number of minutes") from None
    if not 0.5 <= value <= 24 * 60:
        raise SystemExit(f"{name}={raw!r}: choose 0.5 to 1440 minutes")
    return value


def summarize(report: Report) -> list[str]:
    """Print the summary table; return the failed checks (empty when all passed)."""
    ledger, verdict = report.ledger, report.verdict
    restarts = [life.stop for life in report.lives if life.stop in ("TERM", "KILL")]
    print()
    print(f"{'minutes run':<34}{report.minutes:>10.1f}")
    print(
        f"{'restarts (TERM/KILL)':<34}{restarts.count('TERM'):>8}/{restarts.count('KILL')}"
        f"  (start-up {', '.join(f'{life.up_after or 0:.0f}' for life in report.lives)} s)"
    )
    stops = [life for life in report.lives if life.stop]
    bad_exits = [
        f"life {life.index} {life.stop}: exit {life.exit_code} in {life.stop_seconds or 0:.1f} s"
        for life in stops
        if life.stop != "KILL" and (life.exit_code != 0 or (life.stop_seconds or 0) > 10.0)
    ]
    print(f"{'':<34}{'discord':>10}{'matrix':>10}")
    for label, counts in (
        ("games started", ledger.started),
        ("games given up (bot died)", ledger.gave_up),
        ("moves sent", ledger.moves_sent),
        ("moves acknowledged", ledger.moves_acked),
    ):
        print(f"{label:<34}{counts['discord']:>10}{counts['matrix']:>10}")
    unanswered = ledger.moves_sent - ledger.moves_acked
    print(
        f"{'moves unanswered (bot down)':<34}{unanswered['discord']:>10}{unanswered['matrix']:>10}"
    )
    print(f"{'games finished':<34}{ledger.finished('discord'):>10}{ledger.finished('matrix'):>10}")
    print(f"{'stored sessions':<34}{verdict.sessions:>10}")
    print(f"{'lost moves':<34}{verdict.lost:>10}")
    print(f"{'doubled moves':<34}{verdict.doubled:>10}")
    print(
        f"{'stats mismatches':<34}{verdict.stats_mismatches:>10}"
        f"  ({verdict.results_from_store} results read from the store, unseen by the players)"
    )
    if verdict.unmatched_games:
        print(f"{'games without a stored session':<34}{verdict.unmatched_games:>10}")
    survivors = [s for life in report.lives for s in life.survivors]
    warnings = sum(life.warnings for life in report.lives)
    errors = sum(life.errors for life in report.lives)
    print(f"{'bot log warnings / errors':<34}{warnings:>8}/{errors}")
    print(f"{'orphans after the final stop':<34}{len(report.orphans):>10}")
    print(f"{'left 5 s after a restart stop':<34}{len(survivors):>10}")
    print("RSS per minute (MiB, main + children: AI workers and the resource tracker):")
    for s in report.samples:
        print(
            f"  {s.minute:3d} min  {s.total_mib:6.0f}  (main {s.main_mib:5.0f}, "
            f"{s.workers} children {s.workers_mib:5.0f}; life {s.life}, up {s.uptime:4.0f} s)"
        )
    failures = []
    if report.samples:
        first, last = report.samples[0], report.samples[-1]
        ratio, slack = MEMORY_GROWTH_LIMIT
        flat = last.total_mib <= max(first.total_mib * ratio, first.total_mib + slack)
        print(
            f"memory: first minute {first.total_mib:.0f} MiB, last {last.total_mib:.0f} MiB "
            f"({last.total_mib - first.total_mib:+.0f}): {'flat' if flat else 'GROWING'}"
        )
        if not flat:
            failures.append("memory grew")
    else:
        failures.append("no memory sample")
    for life in report.lives:
        for line in life.samples:
            print(f"  life {life.index} log: {line}")
    for problem in verdict.problems:
        print(f"  ! {problem}")
    for line in bad_exits:
        print(f"  ! {line}")
    if verdict.lost:
        failures.append(f"{verdict.lost} lost moves")
    if verdict.doubled:
        failures.append(f"{verdict.doubled} doubled moves")
    if verdict.stats_mismatches:
        failures.append(f"{verdict.stats_mismatches} stats mismatches")
    if report.orphans or survivors:
        failures.append(f"{len(report.orphans) + len(survivors)} orphan processes")
    if bad_exits:
        failures.append("a SIGTERM stop was not clean")
    if not ledger.moves_acked["discord"] or not ledger.moves_acked["matrix"]:
        failures.append("a platform acknowledged no move")
    return failures
