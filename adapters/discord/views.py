"""discord.py components for a :class:`~adapters.discord.layout.MessageSpec`.

Every button is a :class:`discord.ui.DynamicItem`: discord.py matches a click's ``custom_id``
against the templates registered with ``Client.add_dynamic_items`` and builds the item from the
id alone, so boards keep working after a restart (discord.py's ``dynamic_counter`` example).
The items hand the parsed id to the client, which answers every click.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

from adapters.discord.ids import TEMPLATE, ButtonId, button_from_match
from adapters.discord.layout import ButtonSpec, MessageSpec

Interaction = discord.Interaction[Any]


@runtime_checkable
class ButtonHandler(Protocol):
    """What the client does with a click on one of our buttons."""

    async def handle_button(self, interaction: Interaction, button: ButtonId) -> None: ...


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A cell or column (plays a move) or an action on a session (any
    :class:`~core.replies.ActionKind`: Accept, Rematch...): its id names which."""

    def __init__(self, button: discord.ui.Button[Any], pressed: ButtonId) -> None:
        super().__init__(button)
        self.pressed = pressed

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BoardButton:
        button = item if isinstance(item, discord.ui.Button) else _plain_button(match.string)
        return cls(button, button_from_match(match))

    async def callback(self, interaction: Interaction) -> None:
        client = interaction.client
        if isinstance(client, ButtonHandler):
            await client.handle_button(interaction, self.pressed)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (BoardButton,)


def _plain_button(custom_id: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(custom_id=custom_id, label="\u200b")


class _Drawn(discord.ui.Button[Any]):
    """A button as sent. A press on it reaches :class:`BoardButton` through its template, so
    the view need not be dispatchable: discord.py would otherwise keep every board's view in
    memory for as long as the process runs, and rebuild our items on every edit."""

    def is_dispatchable(self) -> bool:
        return False


def drawn_button(button: ButtonSpec, *, row: int | None = None) -> discord.ui.Button[Any]:
    """``button`` as sent (``row``: its row in a classic view; a layout places it itself)."""
    return _Drawn(
        style=button.style,
        label=button.label,
        emoji=button.emoji,
        custom_id=button.custom_id,
        disabled=button.disabled,
        row=row,
    )


def build_view(spec: MessageSpec) -> discord.ui.View:
    """A view with the buttons of ``spec`` (empty when it has none, which clears old ones); the
    ids were made by :mod:`adapters.discord.ids`, so every one of them is a BoardButton's."""
    view = discord.ui.View(timeout=None)
    for button in spec.buttons:
        view.add_item(drawn_button(button, row=button.row))
    return view
