"""The language a page is drawn in: ``?lang=`` when the reader chose one (the links at the
foot of every page), else the best of the browser's ``Accept-Language`` that the catalogues
have, else English. No cookie: a language chosen by a link is carried by the pages' own
links (:func:`Language.link`).

The choice is held for the request in a context variable set by the server's guard, so every
template drawn while answering (the game, event and puzzle pages' too) speaks it."""

from __future__ import annotations

import contextvars
import html
import re
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from core.i18n import DEFAULT_LOCALE, LOCALES, Lines, Text, render
from core.pages.names import ANONYMOUS

LANG = "lang"
"""The query parameter that chooses a language."""
_QUALITY = re.compile(r"^q=([0-9](?:\.[0-9]{0,3})?)$")


@dataclass(frozen=True, slots=True)
class Language:
    """The language of one answer: the locale, and whether the reader chose it by ``?lang=``
    (then the pages' links carry it)."""

    locale: str = DEFAULT_LOCALE
    chosen: bool = False

    def link(self, path: str) -> str:
        """``path`` as a page links it: with ``lang`` when the reader chose the language."""
        if not self.chosen:
            return path
        return f"{path}{'&' if '?' in path else '?'}{LANG}={self.locale}"


_DEFAULT = Language()
_current: contextvars.ContextVar[Language] = contextvars.ContextVar("page_language")


def choose(asked: str | None, accepted: str | None) -> Language:
    """The language of an answer: ``asked`` (``?lang=``) when the catalogues have it, else the
    preferred of ``accepted`` (``Accept-Language``: tags with optional ``q`` weights; ``pt-BR``
    is ``pt``), else English."""
    if asked is not None and asked in LOCALES:
        return Language(asked, chosen=True)
    return Language(best_accepted(accepted))


def best_accepted(header: str | None) -> str:
    """The locale the header prefers among the catalogues' (the first of equal weights)."""
    best, weight = DEFAULT_LOCALE, 0.0
    for part in (header or "").split(",")[:32]:
        tag, *params = (p.strip() for p in part.split(";"))
        quality = 1.0
        for param in params:
            found = _QUALITY.match(param.replace(" ", ""))
            if found:
                quality = float(found[1])
        language = tag.replace("_", "-").split("-", 1)[0].lower()
        if language in LOCALES and quality > weight:
            best, weight = language, quality
    return best


def use(language: Language) -> None:
    """Speak ``language`` for the rest of this request (the guard sets it first)."""
    _current.set(language)


def current() -> Language:
    """The language of the request being answered."""
    return _current.get(_DEFAULT)


def say(what: str | Text | Lines, /, **params: Any) -> str:
    """A catalogue key (with ``params``), a :class:`~core.i18n.Text` or :class:`Lines`, in the
    request's language. Never a name: a name is shown as it is (or by :func:`who`)."""
    locale = current().locale
    if isinstance(what, Text | Lines):
        return what.render(locale)
    return render(what, locale, **params)


def who(name: str) -> str:
    """A name as shown: a player who hid themselves is "anonymous" in the request's language."""
    return render("page.anonymous", current().locale) if name == ANONYMOUS else name


def say_names(key: str, /, **params: Any) -> Markup:
    """The message ``key`` with each name (a ``str`` parameter) isolated in ``<bdi>`` (a name
    written right to left keeps the sentence around it in order); other parameters (texts,
    counts) as :func:`say` renders them; everything escaped."""
    marks = {name: f"\x00{index}\x00" for index, name in enumerate(params)}
    values = {
        name: marks[name] if isinstance(value, str) else value for name, value in params.items()
    }
    text = html.escape(render(key, current().locale, **values), quote=False)
    for name, mark in marks.items():
        value = params[name]
        if isinstance(value, str):
            text = text.replace(mark, f"<bdi>{html.escape(who(value), quote=False)}</bdi>")
    return Markup(text)  # every part was escaped above


def template_globals() -> dict[str, Any]:
    """What the templates use to speak: ``t`` (:func:`say`), ``tn`` (:func:`say_names`),
    ``who`` (:func:`who`), ``language()`` (the request's), ``link`` (a path carrying a chosen
    language), the catalogues' locales and each one's name in itself."""
    return {
        "t": say,
        "tn": say_names,
        "who": who,
        "language": current,
        "link": lambda path: current().link(path),
        "locales": LOCALES,
        "language_name": lambda locale: render("page.language", locale),
    }
