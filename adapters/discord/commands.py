"""Slash commands, declared from the command table of :mod:`core.commands`.

Names, option names and choice values are stable (DESIGN.md: ``level``, ``opponent``, ``size``,
``k``, ``first``); descriptions and choice names are catalogue keys, translated for Discord's
locales by :class:`CatalogueTranslator`. The callbacks only collect the options and hand them to
the client (:class:`CommandHandler`), which turns them into a :class:`core.commands.Command`.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from core import commands as core_commands
from core.commands import Accept, Command, Decline, Final, Help, Rematch, Review, Top
from core.games.rules import MAX_SIDE, MIN_K
from core.i18n import catalogue, render

Interaction = discord.Interaction[Any]
UserOption = discord.User | discord.Member

# Discord's locales that have a catalogue. Discord has no Catalan (players who write Catalan
# get the seed names, which are Catalan already, and English descriptions).
DISCORD_LOCALES: dict[discord.Locale, str] = {
    discord.Locale.spain_spanish: "es",
    discord.Locale.latin_american_spanish: "es",
    discord.Locale.brazil_portuguese: "pt",
    discord.Locale.russian: "ru",
}
MAX_DESCRIPTION = 100  # Discord's limit for descriptions and choice names


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

    async def start_game(
        self,
        interaction: Interaction,
        name: str,
        *,
        size: str | None = None,
        k: int | None = None,
        level: str | None = None,
        opponent: UserOption | None = None,
        first: str | None = None,
    ) -> None: ...

    async def run_command(self, interaction: Interaction, command: Command) -> None: ...

    async def show_stats(self, interaction: Interaction, player: UserOption | None) -> None: ...

    async def play_text(self, interaction: Interaction, cell: str) -> None: ...


def _choices(option: str, values: tuple[str, ...]) -> list[Choice[str]]:
    return [Choice(name=text(f"discord.choice.{option}.{v}"), value=v) for v in values]


LEVEL_CHOICES = _choices("level", ("easy", "medium", "hard"))
FIRST_CHOICES = _choices("first", ("me", "opponent", "random"))
KRange = app_commands.Range[int, MIN_K, MAX_SIDE]


def _spec(name: str) -> core_commands.CommandSpec:
    spec = core_commands.find_command(name)
    if spec is None:
        raise LookupError(f"no command {name!r} in core.commands.COMMANDS")
    return spec


def _description(name: str) -> locale_str:
    return text(_spec(name).description)


def _option(name: str) -> locale_str:
    return text(f"help.option.{name}")


def build_commands(handler: CommandHandler) -> list[app_commands.Command[Any, Any, None]]:
    """Every slash command, calling ``handler``."""

    @app_commands.command(name="tres", description=_description("tres"))
    @app_commands.describe(level=_option("level"), opponent=_option("opponent"))
    @app_commands.describe(first=_option("first"))
    @app_commands.choices(level=LEVEL_CHOICES, first=FIRST_CHOICES)
    async def tres(
        interaction: Interaction,
        level: str | None = None,
        opponent: UserOption | None = None,
        first: str | None = None,
    ) -> None:
        await handler.start_game(interaction, "tres", level=level, opponent=opponent, first=first)

    @app_commands.command(name="quatre", description=_description("quatre"))
    @app_commands.describe(size=_option("size"), level=_option("level"))
    @app_commands.describe(opponent=_option("opponent"), first=_option("first"))
    @app_commands.choices(level=LEVEL_CHOICES, first=FIRST_CHOICES)
    async def quatre(
        interaction: Interaction,
        size: str | None = None,
        level: str | None = None,
        opponent: UserOption | None = None,
        first: str | None = None,
    ) -> None:
        await handler.start_game(
            interaction, "quatre", size=size, level=level, opponent=opponent, first=first
        )

    @app_commands.command(name="ratlla", description=_description("ratlla"))
    @app_commands.describe(size=_option("size"), k=_option("k"), level=_option("level"))
    @app_commands.describe(opponent=_option("opponent"), first=_option("first"))
    @app_commands.choices(level=LEVEL_CHOICES, first=FIRST_CHOICES)
    async def ratlla(
        interaction: Interaction,
        size: str,
        k: KRange,
        level: str | None = None,
        opponent: UserOption | None = None,
        first: str | None = None,
    ) -> None:
        await handler.start_game(
            interaction, "ratlla", size=size, k=k, level=level, opponent=opponent, first=first
        )

    @app_commands.command(name="stats", description=_description("stats"))
    @app_commands.describe(player=_option("player"))
    async def stats(interaction: Interaction, player: UserOption | None = None) -> None:
        await handler.show_stats(interaction, player)

    @app_commands.command(name="move", description=text("discord.command.move"))
    @app_commands.describe(cell=text("discord.option.cell"))
    async def move(interaction: Interaction, cell: app_commands.Range[str, 1, 8]) -> None:
        await handler.play_text(interaction, cell)

    def simple(name: str, command: Command) -> app_commands.Command[Any, Any, None]:
        async def callback(interaction: Interaction) -> None:
            await handler.run_command(interaction, command)

        return app_commands.Command(name=name, description=_description(name), callback=callback)

    return [
        simple("help", Help()),
        tres,
        quatre,
        ratlla,
        simple("accept", Accept()),
        simple("decline", Decline()),
        simple("rematch", Rematch()),
        simple("final", Final()),
        simple("review", Review()),
        stats,
        simple("top", Top()),
        move,
    ]
