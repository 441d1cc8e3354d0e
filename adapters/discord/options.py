"""A slash command's option values -> a :class:`core.commands.Command`, checked once.

The values reach core as neutral values: a picked user is a :class:`~core.commands.VsUser` (or a
:class:`~core.commands.Stats`) with the user's id and display name, never mention text for core
to parse back; sizes, line lengths, levels and who starts go through
:func:`core.commands.start_from_options`, the same checks as typed commands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from adapters.discord.commands import WATCH
from core.commands import (
    Block,
    Command,
    CommandSpec,
    MoveText,
    Stats,
    VsUser,
    parse,
    settings_from_options,
    start_from_options,
    top_from_options,
)
from core.errors import UserError
from core.replies import Actor

__all__ = ["channel_written", "command_from_options", "move_from_text", "seeks"]

# A channel as Discord writes it in text, options included: <#123>.
_CHANNEL_MENTION = re.compile(r"<#([0-9]{1,20})>")


def command_from_options(
    spec: CommandSpec,
    options: Mapping[str, Any],
    *,
    bot_id: int | None,
    in_guild: bool,
) -> Command:
    """The command that a table row's slash command means with ``options``.

    Args:
        spec: the table row of the command.
        options: the option values by name (absent ones None): text, ints, booleans and
            ``discord.User``/``discord.Member`` for user options.
        bot_id: our own user id: picking the bot as opponent is a game against it.
        in_guild: the command came from a server (a challenge needs one; DMs have no one else).

    Raises:
        UserError: a value is not valid; the message names it.
    """
    if spec.kind is not None:
        opponent = options.get("opponent")
        return start_from_options(
            spec.kind,
            size=options.get("size"),
            k=options.get("k"),
            level=options.get("level"),
            opponent=_challenged(opponent, bot_id=bot_id, in_guild=in_guild),
            bots=bool(options.get(WATCH)),
            clock=options.get("clock"),
            first=options.get("first"),
            casual=bool(options.get("casual")),
        )
    if spec.name == "settings":
        return settings_from_options(
            key=options.get("key"), value=options.get("value"), scope=options.get("scope")
        )
    if spec.name == "theme":
        theme = options.get("theme")
        return spec.build(f"/{spec.name}", () if theme is None else (theme,))
    if spec.name == "seek":
        # The same words as typed, so the same checks and answers: /seek quatre rated 2m.
        words = [str(options[name]) for name in ("game", "mode", "clock") if options.get(name)]
        return spec.build("/seek", words)
    if spec.name == "tournament":
        # The same words as typed: /tournament arena connect4 1h 2m, /tournament join ID.
        names = ("action", "event", "game", "length", "clock", "start", "mode")
        words = [str(options[n]) for n in names if options.get(n)]
        if options.get("name"):
            words += ["name", *str(options["name"]).split()]  # last: the name is the rest
        return spec.build("/tournament", words)
    if spec.name == "block":
        player = options.get("player")
        if isinstance(player, discord.abc.User):
            return Block(str(player.id), player.display_name)
        # A recent opponent by the name their board showed (a Matrix player has no Discord
        # user to pick), or none: the latest opponent.
        name = str(options.get("name") or "").strip()
        return Block(None, name or None)
    if spec.name == "help":
        topic = options.get("topic")
        return spec.build("/help", (topic,) if topic else ())
    if spec.name == "link":
        code = options.get("code")
        return spec.build(f"/{spec.name}", str(code).split() if code else ())
    if spec.name == "top":
        return top_from_options(options.get("ladder"), options.get("game"))
    if spec.name == "stats":
        player = options.get("player")
        if isinstance(player, discord.abc.User):
            return Stats(str(player.id), player.display_name)
        return Stats()
    return spec.build(f"/{spec.name}", ())


def seeks(spec: CommandSpec, options: Mapping[str, Any]) -> bool:
    """Whether a ``/seek`` joins the queue (rather than showing it or leaving it)."""
    if spec.name != "seek" or options.get("game") == "cancel":
        return False
    return any(options.get(name) for name in ("game", "mode", "clock"))


def _challenged(opponent: object, *, bot_id: int | None, in_guild: bool) -> VsUser | None:
    if not isinstance(opponent, discord.abc.User) or opponent.id == bot_id:
        # Nobody, or the bot itself: a game against the bot, at the level chosen.
        return None
    if opponent.bot:
        raise UserError("discord.opponent_is_bot", name=opponent.display_name)
    if not in_guild:
        raise UserError("discord.challenge_in_dm")
    return VsUser(str(opponent.id), opponent.display_name)


def channel_written(actor: Actor, written: str) -> str:
    """The channel id a channel written in a setting stands for: ``<#123>`` (what Discord puts
    in the text when someone picks ``#games``) is ``123``; anything else is taken as written."""
    match = _CHANNEL_MENTION.fullmatch(written.strip())
    return match[1] if match else written


def channel_link(channel_id: str) -> str:
    """A channel as Discord shows it in a message (``123`` -> ``<#123>``), the inverse of
    :func:`channel_written`."""
    return f"<#{channel_id}>"


def move_from_text(cell: str) -> MoveText:
    """``/move cell:...``: the move as typed, parsed once.

    Raises:
        UserError: not a move (``discord.not_a_move``), or a malformed one (``parse.bad_move``).
    """
    try:
        parsed = parse(cell)
    except UserError as error:
        if error.key != "parse.bad_move":
            raise UserError("discord.not_a_move", text=cell) from None
        raise
    if not isinstance(parsed, MoveText):
        raise UserError("discord.not_a_move", text=cell)
    return parsed
