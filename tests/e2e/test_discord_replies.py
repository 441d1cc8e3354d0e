"""End to end on Discord: how answers are worded: their language, and their length.

The real discord.py client and the real service against the loopback double.
"""

from __future__ import annotations

from core.errors import ECHO_LIMIT
from core.i18n import render
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.discord_harness import Harness, clock, double, harness

__all__ = ["clock", "double", "harness"]  # fixtures

DISCORD_CONTENT = 2000  # characters of a message's content


async def test_a_huge_bad_option_is_cut_in_the_echo_and_keeps_the_explanation(
    harness: Harness, double: DiscordDouble
) -> None:
    size = "😀" * 3000  # Discord lets an option carry up to 6,000 characters
    sent = await double.slash("quatre", {"size": size}, user="alice")
    [answer] = sent.ephemeral()
    assert len(answer) <= DISCORD_CONTENT
    cut = "😀" * (ECHO_LIMIT - 1) + "\u2026"
    assert answer == render("parse.bad_size", "en", size=cut)
    assert answer.endswith("write ROWSxCOLS, such as 6x7.")


async def test_a_chats_chosen_language_wins_over_the_players_client(
    harness: Harness, double: DiscordDouble
) -> None:
    double.grant("bob")
    options = {"key": "language", "value": "ca", "scope": "channel"}
    await double.slash("settings", options, user="bob")  # for the channel "games"
    # Discord has no Catalan locale: a Catalan chat's players use Spanish or English clients.
    for user, locale in (("alice", "es-ES"), ("carol", "en-US")):
        sent = await double.slash("tres", {"level": "easy"}, user=user, locale=locale)
        assert render("game.started", "ca") in "\n".join(sent.public())
        await double.slash("final", user=user, locale=locale)
    mistake = await double.slash("quatre", {"size": "axb"}, user="alice", locale="es-ES")
    assert mistake.ephemeral() == [render("parse.bad_size", "ca", size="axb")]

    # In a channel nobody chose for, each reader's client decides.
    sent = await double.slash(
        "tres", {"level": "easy"}, user="dave", channel="general", locale="pt-BR"
    )
    assert render("game.started", "pt") in "\n".join(sent.public())
