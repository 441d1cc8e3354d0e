"""The message catalogues: every key in every language, with the same placeholders."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

import pytest

from core.i18n import LOCALES, Text, catalogue, messages, normalize_locale, placeholders, render


def catalogue_modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"{messages.__name__}.{info.name}")
        for info in pkgutil.iter_modules(messages.__path__)
    ]


MODULES = catalogue_modules()
KEYS = [(module.__name__, key) for module in MODULES for key in module.MESSAGES]


def test_there_are_catalogues() -> None:
    assert "core.i18n.messages.parse" in {module.__name__ for module in MODULES}


@pytest.mark.parametrize(("module_name", "key"), KEYS)
def test_every_key_has_every_locale_with_the_same_placeholders(module_name: str, key: str) -> None:
    templates = importlib.import_module(module_name).MESSAGES[key]
    assert set(templates) == set(LOCALES), f"{module_name}: {key}"
    english = placeholders(templates["en"])
    for locale in LOCALES:
        assert templates[locale].strip(), f"{key} [{locale}] is empty"
        assert placeholders(templates[locale]) == english, f"{key} [{locale}]"


def test_keys_are_unique_across_modules() -> None:
    # catalogue() raises on a key defined twice; the count confirms nothing was dropped.
    assert len(catalogue()) == len(KEYS)


def test_render_falls_back_to_english_for_unknown_locales() -> None:
    assert render("help.title", "xx") == render("help.title", "en") == "Commands:"
    assert render("help.title", None) == "Commands:"
    assert render("help.title", "") == "Commands:"


def test_render_uses_the_locale_and_fills_parameters() -> None:
    assert render("help.title", "ca") == "Ordres:"
    assert render("parse.bad_size", "es", size="6y7") == (
        "'6y7' no es un tamaño de tablero: escribe FILASxCOLUMNAS, como 6x7."
    )
    assert Text("help.title").render("ru") == "Команды:"


def test_render_unknown_key_is_the_key() -> None:
    assert render("no.such.key", "en") == "no.such.key"


@pytest.mark.parametrize(
    ("tag", "locale"),
    [
        ("pt-BR", "pt"),
        ("pt_PT", "pt"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("ca", "ca"),
        ("RU", "ru"),
        ("en-US", "en"),
        ("de", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
def test_normalize_locale(tag: str | None, locale: str) -> None:
    assert normalize_locale(tag) == locale
