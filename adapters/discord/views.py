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

from adapters.discord.ids import TEMPLATE, ButtonId, button_from_match, parse_custom_id
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


def build_view(spec: MessageSpec) -> discord.ui.View:
    """A view with the buttons of ``spec`` (empty when it has none, which clears old ones)."""
    view = discord.ui.View(timeout=None)
    for spec_button in spec.buttons:
        view.add_item(_item(spec_button))
    return view


def _item(spec: ButtonSpec) -> discord.ui.Item[Any]:
    button: discord.ui.Button[Any] = discord.ui.Button(
        style=spec.style,
        label=spec.label,
        emoji=spec.emoji,
        custom_id=spec.custom_id,
        disabled=spec.disabled,
        row=spec.row,
    )
    parsed = parse_custom_id(spec.custom_id)
    if parsed is None:
        raise ValueError(f"not one of our button ids: {spec.custom_id!r}")
    return BoardButton(button, parsed)
