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

from adapters.discord.ids import (
    ACTION_TEMPLATE,
    MOVE_TEMPLATE,
    ActionId,
    ButtonId,
    MoveId,
    action_from_match,
    move_from_match,
    parse_custom_id,
)
from adapters.discord.layout import ButtonSpec, MessageSpec

Interaction = discord.Interaction[Any]


@runtime_checkable
class ButtonHandler(Protocol):
    """What the client does with a click on one of our buttons."""

    async def handle_button(self, interaction: Interaction, button: ButtonId) -> None: ...


async def _dispatch(interaction: Interaction, button: ButtonId) -> None:
    client = interaction.client
    if isinstance(client, ButtonHandler):
        await client.handle_button(interaction, button)


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=MOVE_TEMPLATE):
    """A cell or column button: plays a move."""

    def __init__(self, button: discord.ui.Button[Any], move: MoveId) -> None:
        super().__init__(button)
        self.move = move

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MoveButton:
        button = item if isinstance(item, discord.ui.Button) else _plain_button(match.string)
        return cls(button, move_from_match(match))

    async def callback(self, interaction: Interaction) -> None:
        await _dispatch(interaction, self.move)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_TEMPLATE):
    """An action on a session (any :class:`~core.replies.ActionKind`: Accept, Rematch...)."""

    def __init__(self, button: discord.ui.Button[Any], action: ActionId) -> None:
        super().__init__(button)
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        button = item if isinstance(item, discord.ui.Button) else _plain_button(match.string)
        return cls(button, action_from_match(match))

    async def callback(self, interaction: Interaction) -> None:
        await _dispatch(interaction, self.action)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (MoveButton, ActionButton)


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
    if isinstance(parsed, MoveId):
        return MoveButton(button, parsed)
    if isinstance(parsed, ActionId):
        return ActionButton(button, parsed)
    raise ValueError(f"not one of our button ids: {spec.custom_id!r}")
