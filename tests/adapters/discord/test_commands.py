"""Slash commands: declared from the command table, translated from the catalogues."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from adapters.discord.commands import (
    DISCORD_LOCALES,
    MAX_DESCRIPTION,
    CatalogueTranslator,
    Interaction,
    UserOption,
    build_commands,
    text,
)
from core.commands import COMMANDS, Command, find_command
from core.i18n import catalogue, render


class Recorder:
    """A command handler that only remembers what it was asked (no Discord, no service)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    async def start_game(self, interaction: Interaction, name: str, **options: Any) -> None:
        self.calls.append((name, options))

    async def run_command(self, interaction: Interaction, command: Command) -> None:
        self.calls.append(("run", command))

    async def show_stats(self, interaction: Interaction, player: UserOption | None) -> None:
        self.calls.append(("stats", player))

    async def play_text(self, interaction: Interaction, cell: str) -> None:
        self.calls.append(("move", cell))


def test_every_table_command_is_a_slash_command_with_the_table_options() -> None:
    commands = {c.name: c for c in build_commands(Recorder())}
    assert set(commands) == {spec.name for spec in COMMANDS} | {"move"}
    for name, command in commands.items():
        spec = find_command(name)
        if spec is None:
            continue
        assert {p.name for p in command.parameters} == {o.name for o in spec.options}
        required = {p.name for p in command.parameters if p.required}
        assert required == {o.name for o in spec.options if o.required}


def test_option_types_and_choices_are_stable() -> None:
    commands = {c.name: c for c in build_commands(Recorder())}
    tres = {p.name: p for p in commands["tres"].parameters}
    assert tres["opponent"].type is discord.AppCommandOptionType.user
    assert [c.value for c in tres["level"].choices] == ["easy", "medium", "hard"]
    assert [c.value for c in tres["first"].choices] == ["me", "opponent", "random"]
    ratlla = {p.name: p for p in commands["ratlla"].parameters}
    assert ratlla["k"].type is discord.AppCommandOptionType.integer
    assert (ratlla["k"].min_value, ratlla["k"].max_value) == (3, 25)
    assert ratlla["size"].type is discord.AppCommandOptionType.string


async def test_descriptions_and_choices_are_translated_for_discord_locales() -> None:
    translator = CatalogueTranslator()
    context: app_commands.TranslationContext[Any, Any] = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.other, None
    )
    description = text("help.tres")
    assert str(description) == render("help.tres", "en")
    for locale, ours in DISCORD_LOCALES.items():
        translated = await translator.translate(description, locale, context)
        assert translated == render("help.tres", ours)[:MAX_DESCRIPTION]
    assert await translator.translate(description, discord.Locale.french, context) is None
    name = app_commands.locale_str("tres")  # names are not translated: they stay stable
    assert await translator.translate(name, discord.Locale.russian, context) is None


def test_every_discord_text_fits_discord_limits() -> None:
    for key, templates in catalogue().items():
        if key.startswith(
            ("discord.choice.", "discord.command.", "discord.option.", "help.option.")
        ):
            assert all(0 < len(t) <= MAX_DESCRIPTION for t in templates.values()), key
        if key.startswith("discord.button."):
            assert all(0 < len(t) <= 80 for t in templates.values()), key
