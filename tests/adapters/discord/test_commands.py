"""Slash commands: generated from the command table, translated from the catalogues."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import discord
from discord import app_commands

from adapters.discord.commands import (
    DISCORD_LOCALES,
    MANAGE_SERVER_COMMANDS,
    MAX_CHOICES,
    MAX_DESCRIPTION,
    MOVE,
    WATCH,
    CatalogueTranslator,
    Interaction,
    build_commands,
    choice_key,
    completer,
    discord_options,
    table_command,
    text,
)
from core.admin.keys import SETTING_NAMES
from core.commands import COMMANDS, CommandSpec, Help, OptionType
from core.i18n import catalogue, render

_DISCORD_TYPES = {
    OptionType.TEXT: discord.AppCommandOptionType.string,
    OptionType.INTEGER: discord.AppCommandOptionType.integer,
    OptionType.USER: discord.AppCommandOptionType.user,
    OptionType.SWITCH: discord.AppCommandOptionType.boolean,
}


class Recorder:
    """A command handler that only remembers what it was asked (no Discord, no service)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Mapping[str, Any]]] = []

    async def run_slash(
        self, interaction: Interaction, spec: CommandSpec, options: Mapping[str, Any]
    ) -> None:
        self.calls.append((spec.name, options))

    async def play_text(self, interaction: Interaction, cell: str) -> None:
        self.calls.append((MOVE, {"cell": cell}))


def test_every_table_command_is_a_slash_command_with_the_table_options() -> None:
    commands = {c.name: c for c in build_commands(Recorder())}
    assert list(commands) == [spec.name for spec in COMMANDS] + [MOVE]
    for spec in COMMANDS:
        command = commands[spec.name]
        assert str(command.description) == render(spec.description, "en")
        parameters = {p.name: p for p in command.parameters}
        options = {o.name: o for o in spec.options}
        assert set(parameters) == set(options) | ({WATCH} if "opponent" in options else set())
        for name, option in options.items():
            parameter = parameters[name]
            assert parameter.required == option.required, (spec.name, name)
            assert parameter.type is _DISCORD_TYPES[option.type], (spec.name, name)
            if len(option.choices) > MAX_CHOICES:  # more than Discord lists: completed
                assert parameter.autocomplete and not parameter.choices, (spec.name, name)
            else:
                assert [c.value for c in parameter.choices] == list(option.choices)
            assert (parameter.min_value, parameter.max_value) == (option.minimum, option.maximum)
            assert str(parameter.description) == render(option.description, "en")[:100]


def test_the_stable_names_and_types() -> None:
    # docs/design.md promises these names; players' muscle memory and old clients depend on them.
    commands = {c.name: c for c in build_commands(Recorder())}
    tres = {p.name: p for p in commands["tres"].parameters}
    assert tres["opponent"].type is discord.AppCommandOptionType.user
    assert [c.value for c in tres["level"].choices] == ["easy", "medium", "hard"]
    assert [c.value for c in tres["first"].choices] == ["me", "opponent", "random"]
    assert tres[WATCH].type is discord.AppCommandOptionType.boolean
    assert not tres[WATCH].required
    ratlla = {p.name: p for p in commands["ratlla"].parameters}
    assert ratlla["k"].type is discord.AppCommandOptionType.integer
    assert (ratlla["k"].min_value, ratlla["k"].max_value) == (3, 25)
    assert ratlla["size"].type is discord.AppCommandOptionType.string
    stats = {p.name: p for p in commands["stats"].parameters}
    assert stats["player"].type is discord.AppCommandOptionType.user


async def test_callbacks_hand_the_row_and_its_options_to_the_handler() -> None:
    recorder = Recorder()
    commands = {c.name: c for c in build_commands(recorder)}
    nobody = cast(Interaction, None)  # the handler is what is checked, not Discord
    await commands["ratlla"].callback(nobody, size="9x9", k=5, level=None)  # type: ignore[call-arg]
    await commands["top"].callback(nobody)  # type: ignore[call-arg]
    await commands[MOVE].callback(nobody, cell="b2")  # type: ignore[call-arg]
    assert recorder.calls == [
        ("ratlla", {"size": "9x9", "k": 5, "level": None}),
        ("top", {}),
        (MOVE, {"cell": "b2"}),
    ]


def test_every_option_text_exists_and_fits() -> None:
    for spec in COMMANDS:
        for option in discord_options(spec):
            for value in option.choices:
                assert choice_key(option.name, value) in catalogue(), (option.name, value)
    assert "discord.option.watch" in catalogue()


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


def test_settings_is_offered_to_members_who_manage_the_server_in_servers_only() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    admin_row = CommandSpec("settings", (), "[KEY [VALUE]]", (), lambda typed, args: Help())
    registered = table_command(Recorder(), admin_row).to_dict(tree)
    assert registered["default_member_permissions"] == discord.Permissions(manage_guild=True).value
    assert registered["dm_permission"] is False
    assert registered["contexts"] == [0]  # the guild context
    assert registered["integration_types"] == [0]  # a server's install, never a user's
    for command in build_commands(Recorder()):
        if command.name not in MANAGE_SERVER_COMMANDS:
            shown = command.to_dict(tree)
            assert shown["default_member_permissions"] is None, command.name
            assert shown["dm_permission"] is True, command.name


def test_every_other_command_is_offered_through_both_installs_in_every_context() -> None:
    # Discord's values: integration types 0 = a server's install, 1 = a user's own install;
    # contexts 0 = a server, 1 = the bot's DM, 2 = a group DM or a DM between other users.
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    commands = build_commands(Recorder())
    assert {c.name for c in commands} >= {
        "tres",
        "quatre",
        "ratlla",
        "final",
        "stats",
        "top",
        "review",
        "move",
    }
    for command in commands:
        payload = command.to_dict(tree)
        if command.name in MANAGE_SERVER_COMMANDS:
            continue
        assert sorted(payload["integration_types"]) == [0, 1], command.name
        assert sorted(payload["contexts"]) == [0, 1, 2], command.name


async def test_the_settings_keys_past_discords_25_choices_are_completed_as_typed() -> None:
    assert len(SETTING_NAMES) > MAX_CHOICES
    settings = {c.name: c for c in build_commands(Recorder())}["settings"]
    assert {p.name: p for p in settings.parameters}["key"].autocomplete
    complete = completer(SETTING_NAMES)
    interaction = cast(Interaction, None)  # not read
    assert [c.value for c in await complete(interaction, "TIME")] == ["timezone"]
    assert [c.value for c in await complete(interaction, "clock")] == ["clock", "max_clock"]
    assert [c.value for c in await complete(interaction, "")] == list(SETTING_NAMES[:MAX_CHOICES])
