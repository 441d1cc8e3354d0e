"""``/settings`` as typed and as slash-command options -> :class:`Settings`, and a player's own
``/theme`` -> :class:`PersonalTheme` (the commands' rows are in :mod:`core.commands.table`)."""

from __future__ import annotations

from collections.abc import Sequence

from core.admin.keys import AUTO, SETTING_NAMES
from core.commands.values import (
    RESET,
    Command,
    CommandError,
    PersonalTheme,
    Settings,
    SettingsScope,
)
from core.replies import THEME_NAMES

SCOPES = {scope.value: scope for scope in SettingsScope}
SETTINGS_SYNTAX = "[server|channel] [KEY [VALUE|reset]]"
THEME_CHOICES = (*THEME_NAMES, AUTO, RESET)
"""What ``/theme`` takes: a theme, ``auto`` (each game its own) or ``reset``."""
THEME_SYNTAX = "[THEME|auto|reset]"


def build_theme(typed: str, args: Sequence[str]) -> Command:
    """``/theme [THEME|auto|reset]``: nothing shows the player's theme; an unknown word is
    refused with the choices (nothing is changed)."""
    if not args:
        return PersonalTheme()
    word = args[0].lower()
    if len(args) > 1 or word not in THEME_CHOICES:
        bad = args[0] if word not in THEME_CHOICES else args[1]
        raise CommandError("parse.bad_theme", theme=bad, choices=", ".join(THEME_CHOICES))
    if word == RESET:
        return PersonalTheme(reset=True)
    return PersonalTheme(word)


def build_settings(typed: str, args: Sequence[str]) -> Command:
    """``[server|channel] [KEY [VALUE...|reset]]``: the value keeps its words and their case
    (room ids are case-sensitive); whether it is valid for the key is checked by the service,
    which knows the key's parser and the chat."""
    rest = list(args)
    scope: SettingsScope | None = None
    if rest and rest[0].lower() in SCOPES:
        scope = SCOPES[rest.pop(0).lower()]
    if not rest:
        return Settings(scope=scope)
    key = rest.pop(0).lower()
    if key not in SETTING_NAMES:
        raise CommandError(
            "parse.bad_setting", setting=key, keys=", ".join(SETTING_NAMES), usage=SETTINGS_SYNTAX
        )
    if not rest:
        return Settings(key, scope=scope)
    if len(rest) == 1 and rest[0].lower() == RESET:
        return Settings(key, reset=True, scope=scope)
    return Settings(key, " ".join(rest), scope=scope)


def settings_from_options(
    *, key: str | None = None, value: str | None = None, scope: str | None = None
) -> Settings:
    """``/settings`` from named options (Discord), checked like typed text.

    Raises:
        CommandError: an unknown key or scope, or a value without a key.
    """
    words: list[str] = []
    if scope is not None:
        if scope.strip().lower() not in SCOPES:
            raise CommandError(
                "parse.bad_option", command="/settings", option=scope, usage=SETTINGS_SYNTAX
            )
        words.append(scope.strip())
    if key is not None:
        words.append(key.strip())
    elif value is not None:
        raise CommandError("parse.settings_value_without_key", usage=SETTINGS_SYNTAX)
    if value is not None and value.strip():
        words.extend(value.split())
    built = build_settings("/settings", words)
    assert isinstance(built, Settings)
    return built
