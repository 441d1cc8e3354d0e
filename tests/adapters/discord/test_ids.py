"""Component ids: what a click names, and Discord's 100-character limit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.discord.ids import (
    MAX_LENGTH,
    ActionId,
    CellPick,
    ColumnPick,
    MoveId,
    parse_custom_id,
)
from core.replies import ActionKind

SESSION_IDS = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
    min_size=1,
    max_size=64,
)


@given(SESSION_IDS, st.integers(0, 999_999_999), st.integers(0, 624))
def test_move_ids_round_trip_within_the_limit(session: str, version: int, move: int) -> None:
    button = MoveId(session, version, move)
    custom_id = button.encode()
    assert len(custom_id) <= MAX_LENGTH
    assert parse_custom_id(custom_id) == button


@given(SESSION_IDS, st.integers(0, 999_999_999), st.sampled_from(list(ActionKind)))
def test_action_ids_round_trip_within_the_limit(
    session: str, version: int, action: ActionKind
) -> None:
    button = ActionId(session, version, action)
    assert parse_custom_id(button.encode()) == button


@given(SESSION_IDS, st.integers(0, 999_999_999))
def test_menu_ids_round_trip_within_the_limit(session: str, version: int) -> None:
    for menu in (ColumnPick(session, version), CellPick(session, version)):
        custom_id = menu.encode()
        assert len(custom_id) <= MAX_LENGTH and parse_custom_id(custom_id) == menu


def test_the_format_is_readable() -> None:
    assert MoveId("k0C0DlJ_", 3, 4).encode() == "c4:move:k0C0DlJ_:3:4"
    assert ActionId("abc", 7, ActionKind.REMATCH).encode() == "c4:act:abc:7:rematch"
    assert ColumnPick("abc", 7).encode() == "c4:col:abc:7"
    assert CellPick("abc", 7).encode() == "c4:cell:abc:7"


@pytest.mark.parametrize(
    "custom_id",
    [
        "",
        "ttt:5",
        "c4:move:abc:1",
        "c4:move:abc:x:1",
        "c4:move:a/b:1:1",
        "c4:move:abc:1:1:extra",
        "c4:act:abc:1:surrender",
        "c4:move:" + "a" * 65 + ":1:1",
        "c4:move:abc:1:1234",
        "c4:act:abc:1:5",
        "c4:col:abc:1:2",
        "c4:cell:abc:1:accept",
        "c4:cell:abc",
    ],
)
def test_other_ids_are_not_ours(custom_id: str) -> None:
    assert parse_custom_id(custom_id) is None


def test_a_session_id_that_cannot_be_named_is_refused() -> None:
    with pytest.raises(ValueError, match="component id"):
        MoveId("has:colon", 1, 1).encode()
    with pytest.raises(ValueError, match="component id"):
        MoveId("a" * 65, 1, 1).encode()
