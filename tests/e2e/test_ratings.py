"""Ratings end to end across both platforms in ONE process: the real application (``python -m
chatbots run``) connected to the Discord double and to a real Synapse, on one SQLite file.

- ``/top all`` on Discord and ``!top all`` on Matrix list a Discord player and a Matrix player,
  each with their platform and never a chat's name or id.
- ``/link`` on Discord gives a code that ``!link CODE`` on Matrix redeems; the same code again
  is refused as used.
- ``!link`` in a Matrix room of the player and the bot gives a code that ``/link CODE`` on
  Discord redeems; once a third person is invited into that room, ``!link`` there refuses, and
  so does a public room of the player and the bot.

The ladders list settled players only (ten rated games), so their rated games are stored
first, as the bot stores a finished game (the same store operations), before the bot starts.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path

import nio

from core.games import CONNECT_FOUR, Position
from core.i18n import render
from core.store import Seat, SqliteStore, sessions
from tests.core.store.helpers import make_session
from tests.core.store.ratings_helpers import finished
from tests.e2e.discord_double import TOKEN, DiscordDouble
from tests.e2e.synapse import BOT, PASSWORD, Player, SynapseServer, synapse_server
from tests.e2e.test_health import health_becomes, running_app
from tests.e2e.test_matrix import open_room
from tests.e2e.test_matrix_admin import answer_to

__all__ = ["synapse_server"]  # the fixture

_CODE = re.compile(r"\b[A-Z2-9]{8}\b")


async def settle(store: SqliteStore, platform: str, user: str, name: str, chat: str) -> None:
    """``user`` wins ten rated Connect Four games against newcomers, just now."""
    won = Position.from_moves(CONNECT_FOUR, (0, 1, 0, 1, 0, 1, 0))
    for n in range(10):
        game = replace(
            make_session(alice=user, bob=f"{user}-{n}", chat=chat),
            platform=platform,
            rules=CONNECT_FOUR,
            seats=(Seat.person(user, name), Seat.person(f"{user}-{n}", f"Rookie {n}")),
        )
        await store.run(sessions.create(game))
        done = replace(finished(game, 1, at=time.time()), moves=won.moves, outcome=won.outcome)
        assert await store.run(sessions.update(done, expected_version=game.version))


async def test_top_all_and_link_across_discord_and_matrix(
    synapse_server: SynapseServer, tmp_path: Path
) -> None:
    server = synapse_server
    bot = server.user_id(BOT)
    async with DiscordDouble() as double:
        dora = double.user("dora")["id"]
        carol = server.user_id("carol")
        async with SqliteStore.open(tmp_path / "games.sqlite3") as store:
            await settle(store, "discord", dora, "Dora", "somewhere")
            await settle(store, "matrix", carol, "Carol", "!secret-room:x")
        settings = {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE_URL": double.api_base_url,
            "DISCORD_GATEWAY_URL": double.gateway_url,
            "MATRIX_HOMESERVER": server.url,
            "MATRIX_USER_ID": bot,
            "MATRIX_PASSWORD": PASSWORD,
            "MATRIX_STORE_PATH": str(tmp_path / "matrix"),
        }
        async with running_app(tmp_path, **settings) as port:
            await double.wait_ready(within=60)
            body = await health_becomes(port, 200, within=60)
            assert body["checks"] == {"store": "ok", "discord": "ok", "matrix": "ok"}

            top = await double.slash("top", {"ladder": "all"}, user="dora")
            shown = "\n".join(top.public())
            assert "Dora (discord)" in shown and "Carol (matrix)" in shown, shown
            assert "somewhere" not in shown and "secret-room" not in shown

            async with Player(server, "carol") as player:
                room = await open_room(server, player)
                answer = await answer_to(player, room, "!top all", bot)
                text = str(answer.source["content"]["body"])
                assert "Dora (discord)" in text and "Carol (matrix)" in text, text
                assert "somewhere" not in text and "secret-room" not in text

                given = await double.slash("link", user="dora")
                [private] = given.ephemeral()
                found = _CODE.search(private)
                assert found is not None, private
                code = found.group()
                assert f"!link {code}" in private  # typed on Matrix, with its prefix
                linked = await answer_to(player, room, f"!link {code}", bot)
                assert str(linked.source["content"]["body"]) == render(
                    "ratings.linked", "en", platform="discord"
                )
                again = await answer_to(player, room, f"!link {code}", bot)
                assert str(again.source["content"]["body"]) == render(
                    "ratings.link.used", "en", code=code, prefix="!"
                )

            # A Matrix room of the player and the bot alone is direct: it gives a code, which
            # Discord redeems. Once a third person is invited, the same room refuses.
            async with Player(server, "bob") as player:
                room = await open_room(server, player)
                given_here = await answer_to(player, room, "!link", bot)
                found = _CODE.search(str(given_here.source["content"]["body"]))
                assert found is not None, given_here.source["content"]
                assert f"/link {found.group()}" in str(given_here.source["content"]["body"])
                redeemed = await double.slash("link", {"code": found.group()}, user="erin")
                assert redeemed.ephemeral() == [render("ratings.linked", "en", platform="matrix")]
                invited = await player.client.room_invite(room, carol)
                assert isinstance(invited, nio.RoomInviteResponse), invited
                refused = await answer_to(player, room, "!link", bot)
                assert str(refused.source["content"]["body"]) == render(
                    "ratings.link_not_private", "en", prefix="!"
                )
                # A public room of the player and the bot alone: anyone may join and read back.
                created = await player.client.room_create(
                    preset=nio.RoomPreset.public_chat, invite=[bot]
                )
                assert isinstance(created, nio.RoomCreateResponse), created
                public = created.room_id
                await player.wait_for(
                    lambda seen: (
                        seen.room_id == public
                        and seen.source.get("type") == "m.room.member"
                        and seen.source.get("state_key") == bot
                        and seen.source.get("content", {}).get("membership") == "join"
                    ),
                    after=0,
                    what="the bot joining the public room",
                )
                refused = await answer_to(player, public, "!link", bot)
                assert str(refused.source["content"]["body"]) == render(
                    "ratings.link_not_private", "en", prefix="!"
                )
