"""discord.py components for a :class:`~adapters.discord.layout.MessageSpec`.

A click reaches the client's ``on_interaction``, which parses its ``custom_id`` once
(:mod:`adapters.discord.ids`) and answers it from the store, so boards keep working after a
restart; discord.py keeps no view of ours.
"""

from __future__ import annotations

from typing import Any

import discord

from adapters.discord.layout import ButtonSpec, MessageSpec


class _Drawn(discord.ui.Button[Any]):
    """A button as sent. A press on it reaches the client's ``on_interaction``, so the view
    need not be dispatchable: discord.py would otherwise keep every board's view in memory for
    as long as the process runs, and rebuild our items on every edit."""

    def is_dispatchable(self) -> bool:
        return False


def drawn_button(button: ButtonSpec, *, row: int | None = None) -> discord.ui.Button[Any]:
    """``button`` as sent (``row``: its row in a classic view; a layout places it itself)."""
    if button.url is not None:  # opens a page; no press reaches the bot
        return discord.ui.Button(
            style=discord.ButtonStyle.link, label=button.label, url=button.url, row=row
        )
    return _Drawn(
        style=button.style,
        label=button.label,
        emoji=button.emoji,
        custom_id=button.custom_id,
        disabled=button.disabled,
        row=row,
    )


def build_view(spec: MessageSpec) -> discord.ui.View:
    """A view with the buttons of ``spec`` (empty when it has none, which clears old ones)."""
    view = discord.ui.View(timeout=None)
    for button in spec.buttons:
        view.add_item(drawn_button(button, row=button.row))
    return view
