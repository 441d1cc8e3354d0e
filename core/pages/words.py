"""Words on the pages that are not names: catalogue texts kept as :class:`~core.i18n.Text`
values, rendered in each reader's language when a page is drawn (the values themselves, and
what is kept of them, serve every language)."""

from __future__ import annotations

from dataclasses import dataclass

from core.i18n import Text


@dataclass(frozen=True, slots=True)
class Title(Text):
    """A text that starts a heading or a line: its first letter in capital ("Tic-tac-toe",
    where the chats' catalogue writes "tic-tac-toe" to fit within a sentence)."""

    def render(self, locale: str) -> str:
        shown = Text.render(self, locale)
        return shown[:1].upper() + shown[1:]
