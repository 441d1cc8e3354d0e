"""Two bot processes on one PostgreSQL behind the Discord double, each on one of two shards.

Real parts only: ``chatbots run`` subprocesses configured by their environment, the embedded
PostgreSQL server of the test session, the double routing each guild's interactions to the
process that holds its shard. Games are started and played in a guild of each shard; then the
process of shard 0 is SIGKILLed. A press in its guild meanwhile is lost, as on Discord ("this
interaction failed"). The other process takes the dead one's shard over (its lease runs out)
and serves the boards the dead process posted; then a new process for shard 0 starts and gets
its shard back. Every game then plays to its end; the database must hold exactly the moves the
players saw acknowledged, none lost and none twice, and stats that add up to the results.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from adapters.discord.ids import MoveId, parse_custom_id
from core.store.rows import decode_moves
from tests.backends import Backends
from tests.e2e.bot_processes import lease_holder_pid
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.discord_fleet import Game, ShardProcess, move_of

GAMES_PER_SHARD = 3
LEASE_TTL = "3"  # seconds: a quick takeover for the test (the default is 15)


async def play(double: DiscordDouble, game: Game) -> None:
    """The player's next move: the first free cell, acknowledged by the board's update."""
    cell = game.free(double)[0]
    sent = await double.click(game.board_id, cell, user=game.player)
    assert sent.callback["type"] == 7 and not sent.ephemeral(), sent.requests
    game.clicks.append(move_of(cell))


def session_of(double: DiscordDouble, game: Game) -> str:
    button = parse_custom_id(game.free(double)[0])
    assert isinstance(button, MoveId)
    return button.session_id


def running_shards(bot: ShardProcess) -> list[str]:
    """The shard sets the bot's current process ran, in order (its log)."""
    text = bot.process.life.log.read_text(errors="replace")
    marker = "discord: running shards "
    return [line.split(marker, 1)[1].split()[0] for line in text.splitlines() if marker in line]


async def test_a_killed_process_s_shard_is_taken_over_and_given_back(
    backends: Backends, tmp_path: Path
) -> None:
    async with (
        backends.fresh("postgres", tmp_path) as db,
        DiscordDouble(shards=2, identify_interval=5.0) as double,
    ):
        guilds = [double.add_guild(f"shard {s}", shard=s) for s in (0, 1)]
        fleet = [
            ShardProcess(double, tmp_path / f"bot{s}", db.where, (s,), LEASE_TTL_SECONDS=LEASE_TTL)
            for s in (0, 1)
        ]
        try:
            await asyncio.gather(*(bot.start() for bot in fleet))
            await double.wait_for(lambda: double.command_syncs >= 1, within=30.0)
            assert sorted(double.identified) == [(0, 2), (1, 2)]
            # Started together, the two processes kept Discord's identify rate between them.
            assert double.identify_refused == 0
            first, second = double.identified_at
            assert second - first >= 5.0

            games: dict[int, list[Game]] = {0: [], 1: []}
            sessions: dict[str, Game] = {}
            for shard, guild in enumerate(guilds):
                for n in range(GAMES_PER_SHARD):
                    player = f"player{shard}{n}"
                    start = await double.slash("tres", {"level": "easy"}, user=player, guild=guild)
                    assert start.shard == shard and start.original_id is not None
                    game = Game(player, start.original_id, [])
                    games[shard].append(game)
                    sessions[session_of(double, game)] = game
            for game in games[0] + games[1]:
                await play(double, game)
            assert double.command_syncs == 1  # two processes started at once: one synced

            await fleet[0].kill()
            await double.wait_for(lambda: not double.shard_live(0))
            gap = games[0][0]
            lost = await double.click(
                gap.board_id, gap.free(double)[0], user=gap.player, wait=False
            )
            assert not lost.delivered

            # The survivor takes shard 0 over: its client restarts on both shards.
            survivor = fleet[1].process.life.pid
            await double.wait_for(lambda: running_shards(fleet[1])[-1:] == ["0,1"], within=60)
            await double.wait_for(lambda: double.shard_live(0) and double.shard_live(1), 60)
            assert await lease_holder_pid(db.sql, "discord-shard:2:0") == survivor
            for game in games[0] + games[1]:  # the dead process's boards play on
                await play(double, game)

            # A new process for shard 0 asks for it back; the survivor returns to its own.
            life = await fleet[0].start()
            await double.wait_for(lambda: running_shards(fleet[1])[-1:] == ["1"], within=60)
            await double.wait_for(lambda: double.shard_live(0) and double.shard_live(1), 60)
            assert await lease_holder_pid(db.sql, "discord-shard:2:0") == life.pid
            assert await lease_holder_pid(db.sql, "discord-shard:2:1") == survivor
            for game in games[0] + games[1]:
                while game.free(double):
                    await play(double, game)

            rows = await db.sql(
                "SELECT id, x_user, moves, status, winner FROM sessions WHERE platform = $1",
                "discord",
            )
            assert {row[0] for row in rows} == set(sessions)
            outcomes: dict[str, str] = {}
            for session_id, x_user, moves, status, winner in rows:
                game = sessions[session_id]
                stored = decode_moves(moves)
                assert x_user == double.user(game.player)["id"]
                # Exactly the acknowledged presses, in order, none lost, none twice.
                assert list(stored[0::2]) == game.clicks, (stored, game.clicks)
                assert status == "finished"
                outcomes[x_user] = {1: "win", 2: "loss", None: "draw"}[winner]
            stats = await db.sql(
                "SELECT user_id, wins, losses, draws FROM stats WHERE platform = $1", "discord"
            )
            counted = {
                user: {"win": wins, "loss": losses, "draw": draws}
                for user, wins, losses, draws in stats
                if user in outcomes
            }
            assert counted == {
                user: {kind: int(kind == outcome) for kind in ("win", "loss", "draw")}
                for user, outcome in outcomes.items()
            }
        finally:
            lives = [await bot.stop() for bot in fleet if bot.process.uptime.up]
        assert all(life.exit_code == 0 for life in lives), lives
        assert not any(bot.process.leftovers() for bot in fleet)
