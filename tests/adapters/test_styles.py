"""Each adapter's platform style: how its users' mentions become user ids."""

from __future__ import annotations

from adapters.discord.bot import STYLE as DISCORD
from adapters.matrix.adapter import STYLE as MATRIX
from core.replies import Actor


def test_discord_mentions_are_user_ids() -> None:
    ann = Actor("discord", "c", "111", "Ann")
    assert DISCORD.user_id(ann, "<@222>") == "222"
    assert DISCORD.user_id(ann, "<@!222>") == "222"
    assert DISCORD.user_id(ann, " <@x> ") == "<@x>"
    assert DISCORD.prefix == "/"


def test_matrix_mentions_default_to_the_speakers_server() -> None:
    ann = Actor("matrix", "!r:x.org", "@ann:x.org", "Ann")
    assert MATRIX.user_id(ann, "@bob:y.org") == "@bob:y.org"
    assert MATRIX.user_id(ann, "@bob") == "@bob:x.org"
    assert MATRIX.prefix == "!"
