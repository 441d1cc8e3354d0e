"""Slash commands, generated from the command table of :mod:`core.commands`.

Every row of :data:`core.commands.COMMANDS` becomes a slash command with the row's name and
options: each :class:`~core.commands.Option` gives a parameter of the matching Discord type (text,
an integer range, a user), its choices and whether it is required, so a new row is a new slash
command without code here. Names, option names and choice values are stable (docs/design.md:
``level``, ``opponent``, ``size``, ``k``, ``first``); descriptions and choice names are catalogue
keys, translated for Discord's locales by :class:`CatalogueTranslator`. Discord takes at most
25 choices for an option: an option with more (``/settings``' ``key``) completes what is typed
instead, offering the values that contain it, named as they are typed.

Discord adds what only Discord needs: ``/move`` (a move on a board too big for buttons), the
``watch`` option of every command that names an opponent (two bots play for people to watch: the
text option ``bot``, which a user picker cannot express), and who is offered a command: the
commands of :data:`MANAGE_SERVER_COMMANDS` (``/settings``) are registered for members with Manage
Server, in servers that installed the bot only. Discord lets a server's admins grant them to
others (Server Settings -> Integrations), so the bot checks the permission again on every use
(:func:`adapters.discord.serving.actor_for`). The callbacks only collect the options and hand
them to the client (:class:`CommandHandler`); :mod:`adapters.discord.options` turns them into a
:class:`core.commands.Command`.

Every other command is registered for both install types (a server's, and a user's own: the app
added to their account) and every context (servers, the bot's DM, group DMs and other DMs), so
people can play where no admin added the bot; there the bot works through interaction responses
alone (:mod:`adapters.discord.reach`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol, TypeVar

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from core.commands import COMMANDS, CommandSpec, Option, OptionType
from core.i18n import catalogue, render

Interaction = discord.Interaction[Any]
UserOption = discord.User | discord.Member
MAX_CHOICES = 25
"""The most choices Discord takes for an option, and in an answer to autocomplete."""
SlashCommand = app_commands.Command[Any, Any, None]
T = TypeVar("T")

# Discord's locales that have a catalogue. Discord has no Catalan (players who write Catalan
# get the seed names, which are Catalan already, and English descriptions).
DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.brazil_portuguese: "pt",
    discord.Locale.russian: "ru",
}
MAX_DESCRIPTION = 100  # Discord's limit for descriptions and choice names
WATCH = "watch"  # the Discord-only option: two bots play each other
WATCH_DESCRIPTION = "discord.option.watch"
MOVE = "move"  # the Discord-only command
MANAGE_SERVER_COMMANDS = frozenset({"settings"})
"""Table rows for a server's admins: offered to members with Manage Server, in servers only."""


def text(key: str) -> locale_str:
    """A translatable string: English now, other locales when the tree is synced."""
    return locale_str(render(key, "en")[:MAX_DESCRIPTION], key=key)


class CatalogueTranslator(app_commands.Translator):
    """Descriptions and choice names from our catalogues; names stay as declared."""

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        ours = DISCORD_LOCALES.get(locale)
        if not isinstance(key, str) or ours is None:
            return None
        templates = catalogue().get(key)
        if templates is None or ours not in templates:
            return None
        return templates[ours][:MAX_DESCRIPTION] or None


class CommandHandler(Protocol):
    """What the client does with a slash command."""

    async def run_slash(
        self, interaction: Interaction, spec: CommandSpec, options: Mapping[str, Any]
    ) -> None:
        """A command of the table with its option values (absent ones are None)."""
        ...

    async def play_text(self, interaction: Interaction, cell: str) -> None:
        """``/move``: a move as typed."""
        ...


def choice_key(option: str, value: str) -> str:
    """Message key of the name shown for a choice."""
    return f"discord.choice.{option}.{value}"


def discord_options(spec: CommandSpec) -> tuple[Option, ...]:
    """The options of ``spec`` as Discord asks for them: the table's, plus ``watch`` where an
    opponent can be named."""
    if any(option.name == "opponent" for option in spec.options):
        return (*spec.options, Option(WATCH))
    return spec.options


def _annotation(option: Option) -> Any:
    if option.name == WATCH or option.type is OptionType.SWITCH:
        return bool
    match option.type:
        case OptionType.USER:
            return UserOption
        case OptionType.INTEGER if option.minimum is not None or option.maximum is not None:
            return app_commands.Range[int, option.minimum, option.maximum]
        case OptionType.INTEGER:
            return int
        case OptionType.TEXT:
            return str
    raise AssertionError(f"unhandled option type {option.type!r}")  # pragma: no cover


def _description(option: Option) -> locale_str:
    return text(WATCH_DESCRIPTION if option.name == WATCH else option.description)


def _parameter(option: Option) -> inspect.Parameter:
    annotation = _annotation(option)
    if option.required:
        return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation)
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation | None, default=None
    )


def table_command(handler: CommandHandler, spec: CommandSpec) -> SlashCommand:
    """The slash command of one table row, calling ``handler.run_slash``."""

    async def callback(interaction: Interaction, /, **options: Any) -> None:
        await handler.run_slash(interaction, spec, options)

    options = discord_options(spec)
    # discord.py reads a command's parameters from its callback's signature: one signature
    # per row, made from the row's options.
    first = inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_ONLY)
    callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [first, *(_parameter(option) for option in options)]
    )
    if options:
        app_commands.describe(**{o.name: _description(o) for o in options})(callback)
    choices = {
        o.name: [Choice(name=text(choice_key(o.name, v)), value=v) for v in o.choices]
        for o in options
        if 0 < len(o.choices) <= MAX_CHOICES
    }
    if choices:
        app_commands.choices(**choices)(callback)
    completed = {o.name: completer(o.choices) for o in options if len(o.choices) > MAX_CHOICES}
    if completed:
        app_commands.autocomplete(**completed)(callback)
    if spec.name in MANAGE_SERVER_COMMANDS:
        app_commands.default_permissions(manage_guild=True)(callback)
        # A server's settings belong to its admins: never through a user's own install, and
        # never in a DM, whose settings are the .env defaults that nobody may change.
        app_commands.allowed_installs(guilds=True, users=False)(callback)
        app_commands.guild_only()(callback)  # contexts [0], and the older dm_permission
    else:
        _everywhere(callback)
    return app_commands.Command(
        name=spec.name, description=text(spec.description), callback=callback
    )


def completer(
    values: tuple[str, ...],
) -> Callable[[Interaction, str], Coroutine[Any, Any, list[Choice[str]]]]:
    """Discord's autocomplete for an option of more than :data:`MAX_CHOICES` values: those
    that contain what is typed, in the table's order."""

    async def complete(interaction: Interaction, current: str) -> list[Choice[str]]:
        typed = current.strip().lower()
        found = [value for value in values if typed in value.lower()]
        return [Choice(name=value, value=value) for value in found[:MAX_CHOICES]]

    return complete


def _everywhere(callback: T) -> T:
    """Offer a command through both install types, in every context."""
    callback = app_commands.allowed_installs(guilds=True, users=True)(callback)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(callback)


def build_commands(handler: CommandHandler) -> list[SlashCommand]:
    """Every slash command: one per table row, in the table's order, then ``/move``."""
    commands = [table_command(handler, spec) for spec in COMMANDS]

    @app_commands.command(name=MOVE, description=text("discord.command.move"))
    @app_commands.describe(cell=text("discord.option.cell"))
    @_everywhere
    async def move(interaction: Interaction, cell: app_commands.Range[str, 1, 8]) -> None:
        await handler.play_text(interaction, cell)

    return [*commands, move]
