"""Message catalogues: every player-facing text is a key with parameters, rendered per locale.

Catalogues live in ``core/i18n/messages/<area>.py``; each has ``MESSAGES``, a mapping of key to
``{locale: template}`` with ``str.format`` placeholders. One key holds all its languages side by
side so a missing translation is seen where it is written (and a test checks every key has every
locale with the same placeholders).

Counts are worded by plural messages, kept in an area's ``PLURALS``: a key maps each locale to
``{category: template}``, one template per CLDR plural category of that language (``one``,
``few``, ``many``, ``other``...; Babel has the rules, and a test checks every locale has exactly
the categories its rules use). Each template shows the number as ``{count}``. A message uses a
plural message through a placeholder's format spec: ``"{wins:stats.count.wins}"`` renders the
integer parameter ``wins`` as ``stats.count.wins`` with ``count=wins`` ("1 win", "5 побед"). So
the code that builds a :class:`Text` passes plain numbers, and the grammar stays with the
translations. A plural message names its grammatical context when a language needs a case for it
(Russian "через 1 секунду" is not "1 секунда").
"""

from __future__ import annotations

import importlib
import pkgutil
import string
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from babel import Locale

LOCALES: tuple[str, ...] = ("en", "ca", "es", "pt", "ru")
DEFAULT_LOCALE = "en"
# The parameter a plural message is chosen by, and the placeholder of its number.
COUNT = "count"
# Every language has it; CLDR leaves it out of a language's rules because it is the default.
OTHER = "other"


@dataclass(frozen=True, slots=True)
class Text:
    """A message to show: a catalogue key and its parameters, rendered late, per reader.

    A parameter may itself be a :class:`Text` (a game's name, say) or :class:`Lines`: it is
    rendered in the same locale as the message around it. Counts are plain integers: the
    catalogue words them (see the module's docstring).
    """

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def render(self, locale: str) -> str:
        """This message in ``locale``; see :func:`render`."""
        return render(self.key, locale, **self.params)


@dataclass(frozen=True, slots=True)
class Lines:
    """Texts shown one per line (a leaderboard's rows), as one parameter of another text.

    Example: ``Text("stats.top", {"lines": Lines((Text("stats.top_line", {...}), ...))})``.
    """

    texts: tuple[Text, ...]
    separator: str = "\n"
    """What stands between two texts: a new line, or ``", "`` for a list within a line."""

    def render(self, locale: str) -> str:
        """Each text in ``locale``, joined by :attr:`separator`."""
        return self.separator.join(text.render(locale) for text in self.texts)


Param = str | int | Text | Lines


@dataclass(frozen=True, slots=True)
class _Catalogues:
    messages: Mapping[str, Mapping[str, str]]
    plurals: Mapping[str, Mapping[str, Mapping[str, str]]]


@cache
def _catalogues() -> _Catalogues:
    from core.i18n import messages

    merged: dict[str, Mapping[str, str]] = {}
    plural: dict[str, Mapping[str, Mapping[str, str]]] = {}
    seen: set[str] = set()
    for info in sorted(pkgutil.iter_modules(messages.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{messages.__name__}.{info.name}")
        area_plurals = getattr(module, "PLURALS", {})
        for key in [*module.MESSAGES, *area_plurals]:
            if key in seen:
                raise RuntimeError(f"message key {key!r} is defined twice ({info.name})")
            seen.add(key)
        merged.update(module.MESSAGES)
        plural.update(area_plurals)
    return _Catalogues(merged, plural)


def catalogue() -> Mapping[str, Mapping[str, str]]:
    """Every message key with its templates, merged from all ``messages`` modules."""
    return _catalogues().messages


def plurals() -> Mapping[str, Mapping[str, Mapping[str, str]]]:
    """Every plural message: key -> locale -> CLDR plural category -> template with ``{count}``."""
    return _catalogues().plurals


def normalize_locale(locale: str | None) -> str:
    """Our locale for a platform's tag: ``pt-BR`` -> ``pt``, ``es-ES`` -> ``es``; else English."""
    if not locale:
        return DEFAULT_LOCALE
    language = locale.replace("_", "-").split("-", 1)[0].lower()
    return language if language in LOCALES else DEFAULT_LOCALE


@cache
def _babel_locale(locale: str) -> Locale:
    # Babel is imported on the first count, not with this module: it would add about 7 ms to
    # every import of core.commands, which most texts never need. Its CLDR data for the locale
    # is read from the package here, once per locale.
    from babel import Locale

    return Locale.parse(locale)


def plural_category(locale: str | None, count: int) -> str:
    """The CLDR plural category of ``count`` in ``locale`` (normalized, English by default).

    Returns:
        ``"one"``, ``"few"``, ``"many"``, ``"other"``... as Babel's data for the language says:
        Russian 21 -> ``"one"``, 22 -> ``"few"``, 25 -> ``"many"``; Portuguese 0 -> ``"one"``.
    """
    return _babel_locale(normalize_locale(locale)).plural_form(count)


def render(key: str, locale: str | None, /, **params: Param) -> str:
    """The message ``key`` in ``locale`` (English when missing), filled with ``params``.

    ``key`` may be a plural message: its form is chosen by the integer parameter ``count``.
    An unknown key renders as the key itself, so a missing text never crashes a reply; a
    template that cannot be filled falls back to English with the missing ``{names}`` shown.
    """
    ours = normalize_locale(locale)
    values = {
        name: value.render(ours) if isinstance(value, Text | Lines) else value
        for name, value in params.items()
    }
    template = _template(key, ours, values)
    if template is None:
        return key
    try:
        return _formatter(ours).vformat(template, (), values)
    except (KeyError, IndexError, ValueError):
        english = _template(key, DEFAULT_LOCALE, values) or key
        return _formatter(DEFAULT_LOCALE).vformat(english, (), _Lenient(values))


def _template(key: str, locale: str, params: Mapping[str, object]) -> str | None:
    templates = catalogue().get(key)
    if templates is not None:
        return templates.get(locale) or templates[DEFAULT_LOCALE]
    forms = plurals().get(key)
    if forms is None:
        return None
    if locale not in forms:
        # English forms need English categories: never mix one language's rules with another's.
        locale = DEFAULT_LOCALE
    count = params.get(COUNT)
    category = plural_category(locale, count) if isinstance(count, int) else OTHER
    by_category = forms[locale]
    return by_category.get(category) or by_category[OTHER]


class _Formatter(string.Formatter):
    """``str.format`` that words a count whose format spec names a plural message."""

    def __init__(self, locale: str) -> None:
        super().__init__()
        self._locale = locale

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec in plurals():
            if isinstance(value, int):
                return render(format_spec, self._locale, count=value)
            # A placeholder kept by the English fallback, or a text given where a count goes.
            return str(value)
        return format(value, format_spec)


@cache
def _formatter(locale: str) -> _Formatter:
    return _Formatter(locale)


class _Lenient(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def placeholders(template: str) -> frozenset[str]:
    """The ``{names}`` a template uses."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)
