"""The soak itself: set up Synapse, the Discord double and the bot; play, restart, check, report."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.soak.bot import BotProcess, Life, Sample
from benchmarks.soak.discord_players import SOLO_PLANS as DISCORD_PLANS
from benchmarks.soak.discord_players import DiscordPlayers
from benchmarks.soak.ledger import Ledger, Verdict, check
from benchmarks.soak.matrix_players import SOLO_PLANS as MATRIX_PLANS
from benchmarks.soak.matrix_players import MatrixPlayers
from tests.e2e.discord_double import TOKEN, DiscordDouble, Sent
from tests.e2e.synapse import BOT, PASSWORD, Player, SynapseServer
from tests.processes import rss_mib

# The settings check wants a token of Discord's shape (three dot-separated parts); the double
# accepts only its own test token at IDENTIFY, so the soak's double translates the one to the
# other (see SoakDouble).
AI_WORKERS = 2
AI_BUDGET = 0.2  # the hard bot's thinking time: games keep moving, the two cores stay shared
KEEP_MESSAGES = 500  # the double's newest messages kept (and every board in play)
DRAIN = 45.0  # after the end, seconds the drivers get to see their last answers
MEMORY_GROWTH_LIMIT = (1.25, 40.0)  # last minute at most 25 % and 40 MiB over the first
MATRIX_PLAYERS = ("soak-mara", "soak-milo")
DISCORD_SOLO = ("soak-ann", "soak-ben")
DISCORD_PAIR = ("soak-cid", "soak-dot")


class SoakDouble(DiscordDouble):
    """The loopback Discord, accepting the soak's well-formed token at IDENTIFY, and telling
    when it has just sent a button click to the bot (:attr:`clicked`)."""

    def __init__(self) -> None:
        super().__init__()
        self.clicked = asyncio.Event()

    async def send_interaction(self, payload: dict[str, Any], *, wait: bool = True) -> Sent:
        sent = await super().send_interaction(payload, wait=False)
        if payload.get("type") == 3:
            self.clicked.set()
        if wait:
            await self.wait_answered(sent)
        return sent


@dataclass(frozen=True, slots=True)
class Schedule:
    """When the bot is stopped and started again, in seconds from the start of play."""

    seconds: float
    restart_every: float

    def stops(self) -> list[tuple[float, str]]:
        terms = [t for t in _multiples(self.restart_every, self.seconds)]
        # One SIGKILL, halfway between the first two TERMs (or halfway through a short run).
        kill = 1.5 * self.restart_every
        if kill >= self.seconds - 10:
            kill = self.seconds / 2
        return sorted([(t, "TERM") for t in terms if abs(t - kill) > 10] + [(kill, "KILL")])


def _multiples(step: float, end: float) -> list[float]:
    found, t = [], step
    while t < end - 10:  # no restart in the last seconds: the final stop comes anyway
        found.append(t)
        t += step
    return found


@dataclass(slots=True)
class Report:
    minutes: float = 0.0
    lives: list[Life] = field(default_factory=list)
    samples: list[Sample] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)
    verdict: Verdict = field(default_factory=Verdict)
    ledger: Ledger = field(default_factory=Ledger)


async def soak(schedule: Schedule, keep: Path | None = None) -> Report:
    """Run the whole soak and return its figures (checks included; nothing raised for them).

    Args:
        keep: a directory for the database, the bot's logs and Synapse's files, kept after the
            run (None: a temporary directory, deleted).
    """
    report = Report()
    with contextlib.ExitStack() as stack:
        if keep is None:
            base = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="chatbots-soak-")))
        else:
            base = keep
            base.mkdir(parents=True, exist_ok=True)
        server = await asyncio.to_thread(SynapseServer.start, base / "synapse")
        try:
            await asyncio.to_thread(server.register, [BOT, *MATRIX_PLAYERS])
            double = SoakDouble()
            await double.start()
            try:
                await _play(schedule, server, double, base, report)
            finally:
                await double.close()
        finally:
            await asyncio.to_thread(server.stop)
    return report


async def _play(
    schedule: Schedule, server: SynapseServer, double: SoakDouble, base: Path, report: Report
) -> None:
    database = base / "games.sqlite3"
    settings = {
        "DATABASE_PATH": str(database),
        "AI_WORKERS": str(AI_WORKERS),
        "AI_BUDGET_SECONDS": str(AI_BUDGET),
        "LOG_LEVEL": "INFO",
        "LOG_FORMAT": "text",
        # The soak's four Discord players start about 1,000 games a minute in one channel: a
        # load test, not a flood, so the limits are as high as they go.
        "RATE_BURST": "1000",
        "RATE_PER_MINUTE": "6000",
        "BOARDS_PER_MINUTE": "6000",
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE_URL": double.api_base_url,
        "DISCORD_GATEWAY_URL": double.gateway_url,
        "MATRIX_HOMESERVER": server.url,
        "MATRIX_USER_ID": server.user_id(BOT),
        "MATRIX_PASSWORD": PASSWORD,
        "MATRIX_STORE_PATH": str(base / "matrix-store"),
    }
    bot = BotProcess(base, settings, lambda: double.identify_count)
    report.lives = bot.lives
    report.ledger = ledger = Ledger()
    first = await bot.start()
    print(f"bot up in {first.up_after:.1f} s (pid {first.pid})", flush=True)
    try:
        async with _players(server) as players:
            started = time.monotonic()
            stop_at = started + schedule.seconds
            matrix = MatrixPlayers(server.user_id(BOT), database, ledger, bot.uptime, stop_at)
            rooms = [await matrix.open_room(player) for player in players]
            discord = DiscordPlayers(double, ledger, bot.uptime, stop_at)
            drivers = [
                *(
                    matrix.solo(player, room, random.Random(n), MATRIX_PLANS[n % 2 :])
                    for n, (player, room) in enumerate(zip(players, rooms, strict=True))
                ),
                *(
                    discord.solo(name, random.Random(10 + n), DISCORD_PLANS[n % 2 :])
                    for n, name in enumerate(DISCORD_SOLO)
                ),
                discord.pair(*DISCORD_PAIR, random.Random(20)),
            ]
            tasks = [asyncio.create_task(driver) for driver in drivers]
            operator = asyncio.create_task(
                _operate(bot, double, discord.boards, schedule, started, report)
            )
            done, pending = await asyncio.wait(tasks, timeout=schedule.seconds + DRAIN)
            last = bot.sample(max(1, round(schedule.seconds / 60)))
            if last is not None and (not report.samples or report.samples[-1].minute < last.minute):
                report.samples.append(last)  # the last minute's, had the end come first
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            failed = operator.exception() if operator.done() and not operator.cancelled() else None
            operator.cancel()
            await asyncio.gather(operator, return_exceptions=True)
            report.minutes = (time.monotonic() - started) / 60
            if failed:
                raise failed  # a restart that did not come up
            for task in done:
                task.result()  # a driver's own bug must not pass for a clean soak
    finally:
        if bot.lives[-1].stop == "":  # still running
            await bot.stop("final")
        await asyncio.sleep(1.0)
        report.orphans = bot.leftovers()
    report.verdict = await check(ledger, database)


async def _click_in_flight(double: SoakDouble) -> None:
    """Return as soon as the double has sent a click to the bot (or after 5 s).

    The players and the double share this event loop, which is the busiest part of the soak:
    at a random moment the bot has usually answered everything already, and an answer in a
    socket buffer still arrives after a kill. Killing right after a click goes out catches the
    bot with the click in hand, which is what a SIGKILL in production does.
    """
    double.clicked.clear()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(double.clicked.wait(), 5.0)


def _prune(double: DiscordDouble, boards: set[int]) -> None:
    """Forget the double's records of old interactions and messages.

    The double keeps every request, interaction and message for the tests' assertions; over
    half an hour of clicks that would be most of the soak's own memory. A player looks at its
    interaction only until it is answered (or given up, after ``EDIT_WAIT``), and at the board
    it plays; the bot edits only recent messages and the boards of live games.
    """
    horizon = time.perf_counter() - 120.0
    double.requests[:] = [r for r in double.requests if r.at > horizon]
    for token, sent in list(double.interactions.items()):
        if sent.sent_at < horizon:
            del double.interactions[token]
    recent = set(sorted(double.messages)[-KEEP_MESSAGES:])
    for message_id in list(double.messages):
        if message_id not in recent and message_id not in boards:
            del double.messages[message_id]


@contextlib.asynccontextmanager
async def _players(server: SynapseServer) -> AsyncIterator[list[Player]]:
    async with contextlib.AsyncExitStack() as stack:
        players = [await stack.enter_async_context(Player(server, name)) for name in MATRIX_PLAYERS]
        yield players


async def _operate(
    bot: BotProcess,
    double: SoakDouble,
    boards: set[int],
    schedule: Schedule,
    started: float,
    report: Report,
) -> None:
    """Restart the bot on schedule, sample its memory every minute, keep the double lean."""
    stops = schedule.stops()
    minute = 1
    while True:
        elapsed = time.monotonic() - started
        # A minute's sample comes before a stop due at the same time: it shows the life that
        # ran through that minute, not one seconds old.
        if elapsed >= 60 * minute and (sample := bot.sample(minute)) is not None:
            report.samples.append(sample)
            print(
                f"{minute:5d} min: bot RSS {sample.total_mib:6.0f} MiB (main "
                f"{sample.main_mib:.0f}, {sample.workers} children {sample.workers_mib:.0f}), "
                f"life {sample.life}, up {sample.uptime:.0f} s; soak itself "
                f"{rss_mib(os.getpid()):.0f} MiB; {sum(report.ledger.moves_acked.values())} "
                f"moves acked so far",
                flush=True,
            )
            minute += 1
            _prune(double, boards)
            continue
        if stops and elapsed >= stops[0][0]:
            _, how = stops.pop(0)
            if how == "KILL":
                await _click_in_flight(double)
            life = await bot.stop(how)
            code = life.exit_code
            print(
                f"{elapsed / 60:5.1f} min: SIG{how} -> exit {code} in {life.stop_seconds:.1f} s"
                f"{', left: ' + ', '.join(life.survivors) if life.survivors else ''}",
                flush=True,
            )
            new = await bot.start()
            print(f"{(time.monotonic() - started) / 60:5.1f} min: up again in {new.up_after:.1f} s")
            continue
        await asyncio.sleep(0.5)
