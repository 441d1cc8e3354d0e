"""Message catalogues: every player-facing text is a key with parameters, rendered per locale.

Catalogues live in ``core/i18n/messages/<area>.py``; each has ``MESSAGES``, a mapping of key to
``{locale: template}`` with ``str.format`` placeholders. One key holds all its languages side by
side so a missing translation is seen where it is written (and a test checks every key has every
locale with the same placeholders).
"""

from __future__ import annotations

import importlib
import pkgutil
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

LOCALES: tuple[str, ...] = ("en", "ca", "es", "pt", "ru")
DEFAULT_LOCALE = "en"


@dataclass(frozen=True, slots=True)
class Text:
    """A message to show: a catalogue key and its parameters, rendered late, per reader.

    A parameter may itself be a :class:`Text` (a game's name, say), or a tuple of them (the
    lines of a list): it is rendered in the same locale as the message around it, a tuple one
    line each.
    """

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def render(self, locale: str) -> str:
        return render(self.key, locale, **self.params)


Param = str | int | Text | tuple[Text, ...]


@cache
def catalogue() -> Mapping[str, Mapping[str, str]]:
    """Every message key with its templates, merged from all ``messages`` modules."""
    from core.i18n import messages

    merged: dict[str, Mapping[str, str]] = {}
    for info in sorted(pkgutil.iter_modules(messages.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{messages.__name__}.{info.name}")
        for key, templates in module.MESSAGES.items():
            if key in merged:
                raise RuntimeError(f"message key {key!r} is defined twice ({info.name})")
            merged[key] = templates
    return merged


def normalize_locale(locale: str | None) -> str:
    """Our locale for a platform's tag: ``pt-BR`` -> ``pt``, ``es-ES`` -> ``es``; else English."""
    if not locale:
        return DEFAULT_LOCALE
    language = locale.replace("_", "-").split("-", 1)[0].lower()
    return language if language in LOCALES else DEFAULT_LOCALE


def render(key: str, locale: str | None, /, **params: Param) -> str:
    """The message ``key`` in ``locale`` (English when missing), filled with ``params``.

    An unknown key renders as the key itself, so a missing text never crashes a reply.
    """
    templates = catalogue().get(key)
    if templates is None:
        return key
    params = {name: _rendered(value, locale or DEFAULT_LOCALE) for name, value in params.items()}
    template = templates.get(normalize_locale(locale)) or templates[DEFAULT_LOCALE]
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return templates[DEFAULT_LOCALE].format_map(_Lenient(params))


def _rendered(value: Param, locale: str) -> str | int:
    if isinstance(value, Text):
        return value.render(locale)
    if isinstance(value, tuple):
        return "\n".join(line.render(locale) for line in value)
    return value


class _Lenient(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def placeholders(template: str) -> frozenset[str]:
    """The ``{names}`` a template uses."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)
