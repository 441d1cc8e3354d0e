"""Boards drawn as Discord messages: rows of buttons, marks, limits."""

from __future__ import annotations

from collections import Counter

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.discord.ids import (
    ActionId,
    CellPick,
    ColumnPick,
    MoveId,
    parse_cell,
    parse_column,
    parse_custom_id,
)
from adapters.discord.layout import (
    BLANK_LABEL,
    MAX_CONTENT,
    MAX_PER_ROW,
    MAX_ROWS,
    BoardMode,
    MessageSpec,
    board_message,
    board_mode,
    cell_menu,
    text_message,
)
from adapters.discord.picture_layout import build_layout
from adapters.discord.views import build_view
from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.i18n import catalogue, render
from core.replies import ActionKind
from tests.boards import board_of as board
from tests.boards import picked_board
from tests.e2e import discord_v2 as v2


def rows(spec: MessageSpec) -> list[list[str]]:
    grouped: list[list[str]] = [[] for _ in range(spec.rows)]
    for button in spec.buttons:
        grouped[button.row].append(button.custom_id)
    return grouped


def check_discord_limits(spec: MessageSpec) -> None:
    # Five action rows a message; a Components V2 one counts its 40 components instead.
    assert spec.rows <= MAX_ROWS or spec.picture is not None
    assert all(n <= MAX_PER_ROW for n in Counter(b.row for b in spec.buttons).values())
    assert len({b.custom_id for b in spec.buttons}) == len(spec.buttons)
    assert all(len(b.custom_id) <= 100 and parse_custom_id(b.custom_id) for b in spec.buttons)
    assert all(b.label or b.emoji for b in spec.buttons)
    assert 0 < len(spec.content) <= MAX_CONTENT


def test_tictactoe_is_three_rows_of_three_cells() -> None:
    spec = board_message(board(TICTACTOE), "en")
    assert [len(r) for r in rows(spec)] == [3, 3, 3]
    assert [b.custom_id for b in spec.buttons] == [
        MoveId("s3ss10n", 1, cell).encode() for cell in range(9)
    ]
    assert all(b.label == BLANK_LABEL and not b.disabled for b in spec.buttons)
    assert "Alice" in spec.content and "Bot (hard)" in spec.content


def test_marks_are_emoji_and_taken_cells_are_disabled() -> None:
    spec = board_message(board(TICTACTOE, [4, 0]), "en")
    by_cell = {move_of(b.custom_id): b for b in spec.buttons}
    assert by_cell[4].emoji == "❌" and by_cell[4].disabled
    assert by_cell[0].emoji == "⭕" and by_cell[0].disabled
    assert by_cell[0].style is discord.ButtonStyle.primary  # the last move
    assert not by_cell[8].disabled and by_cell[8].emoji is None


def move_of(custom_id: str) -> int:
    parsed = parse_custom_id(custom_id)
    assert isinstance(parsed, MoveId)
    return parsed.move


def test_a_won_game_marks_the_line_and_disables_every_cell() -> None:
    won = board(TICTACTOE, [0, 3, 1, 4, 2])
    spec = board_message(won, "es", actions=(ActionKind.REMATCH,), text="Alice gana")
    cells = [b for b in spec.buttons if isinstance(parse_custom_id(b.custom_id), MoveId)]
    assert all(b.disabled for b in cells)
    winners = [move_of(b.custom_id) for b in cells if b.style is discord.ButtonStyle.success]
    assert winners == [0, 1, 2]
    assert all(cells[i].emoji == "❌" for i in winners)
    rematch = spec.buttons[-1]
    assert rematch.row == 3 and rematch.label == render("discord.button.rematch", "es")
    assert parse_custom_id(rematch.custom_id) == ActionId("s3ss10n", 6, ActionKind.REMATCH)
    assert spec.content.startswith("Alice gana\n")


def test_a_finished_five_by_five_names_rematch_instead_of_a_sixth_row() -> None:
    rules = Rules(5, 5, 4)
    spec = board_message(board(rules, [0, 1], ended=True), "en", actions=(ActionKind.REMATCH,))
    assert spec.rows == 5 and len(spec.buttons) == 25
    assert all(isinstance(parse_custom_id(b.custom_id), MoveId) for b in spec.buttons)
    assert render("discord.hint.rematch", "en", command="/rematch") in spec.content


def test_a_five_by_five_challenge_keeps_accept_and_decline() -> None:
    rules = Rules(5, 5, 4)
    actions = (ActionKind.ACCEPT, ActionKind.DECLINE)
    spec = board_message(board(rules, pending=True), "en", actions=actions)
    assert [b.label for b in spec.buttons] == ["Accept", "Decline"]
    assert "```" in spec.content  # the board still shows, as text


def test_connect_four_has_seven_numbered_columns_in_two_rows() -> None:
    moves = [3, 3, 3, 3, 3, 3]  # column 4 is full
    spec = board_message(board(CONNECT_FOUR, moves), "en")
    assert [len(r) for r in rows(spec)] == [5, 2]
    assert [b.label for b in spec.buttons] == [str(c) for c in range(1, 8)]
    assert [b.disabled for b in spec.buttons] == [False, False, False, True, False, False, False]
    lines = spec.content.splitlines()
    assert "1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣" in lines
    assert "⚫⚫⚫⭕⚫⚫⚫" in lines and "⚫⚫⚫❌⚫⚫⚫" in lines


def test_the_winning_stones_are_drawn_differently() -> None:
    won = board(CONNECT_FOUR, [0, 6, 1, 6, 2, 6, 3])
    assert "❎❎❎❎⚫⚫⭕" in board_message(won, "en").content.splitlines()


def test_wide_gravity_boards_drop_the_rematch_button_when_it_cannot_fit() -> None:
    wide = Rules(6, 25, 4, gravity=True)
    ongoing = board_message(board(wide), "en")
    assert ongoing.rows == 5 and len(ongoing.buttons) == 25
    ended = board_message(board(wide, [0], ended=True), "en", actions=(ActionKind.REMATCH,))
    assert len(ended.buttons) == 25 and "/rematch" in ended.content
    narrow = Rules(6, 20, 4, gravity=True)
    spec = board_message(board(narrow, [0], ended=True), "en", actions=(ActionKind.REMATCH,))
    assert spec.rows == 5 and spec.buttons[-1].label == "Rematch"


def test_large_free_boards_are_pictures_with_a_column_menu_then_a_cell_menu() -> None:
    big = board(Rules(7, 7, 4), [24])  # d4 taken
    assert board_mode(big) is BoardMode.PICTURE
    spec = board_message(big, "pt")
    assert spec.buttons == () and spec.picture is not None
    assert spec.picture.png.startswith(b"\x89PNG")
    assert "/move cell:" in spec.content
    columns, cells = spec.picture.selects
    assert parse_custom_id(columns.custom_id) == ColumnPick("s3ss10n", 2)
    assert [label for label, _ in columns.options] == list("abcdefg")
    d = parse_column(columns.options[3][1])
    assert d is not None and d.free_rows == (0, 1, 2, 4, 5, 6)
    assert cells.disabled and parse_custom_id(cells.custom_id) == CellPick("s3ss10n", 2)
    menu = cell_menu(CellPick("s3ss10n", 2), "en", d)
    assert [label for label, _ in menu.options] == ["d1", "d2", "d3", "d5", "d6", "d7"]
    assert [int(value) for _, value in menu.options] == [3, 10, 17, 31, 38, 45]
    assert parse_column("3:7:ff") is not None and parse_column("9:7:1") is None
    assert parse_column("zz") is None and parse_cell("12") == 12 and parse_cell("-1") is None
    assert board_mode(board(Rules(3, 8, 3))) is BoardMode.PICTURE  # 24 cells, but 8 wide
    finished = board_message(board(Rules(7, 7, 4), [24], ended=True), "en")
    assert finished.picture is not None and finished.picture.selects == ()


def test_a_text_reply_carries_its_actions() -> None:
    actions = (ActionKind.ACCEPT, ActionKind.DECLINE)
    spec = text_message("Alice challenges Bob", "ru", session_id="abc", version=1, actions=actions)
    assert [b.label for b in spec.buttons] == ["Принять", "Отклонить"]
    assert text_message("Hello", "en", actions=actions).buttons == ()


def test_views_are_plain_components_named_by_our_ids() -> None:
    spec = board_message(board(CONNECT_FOUR), "en", actions=(ActionKind.REMATCH,))
    view = build_view(spec)
    # What is sent is plain components: discord.py keeps no view, a press reaches the client's
    # on_interaction, which parses the id.
    assert not view.is_dispatchable()
    ids = [item.custom_id for item in view.children if isinstance(item, discord.ui.Button)]
    kinds = Counter(type(parse_custom_id(custom_id or "")) for custom_id in ids)
    assert kinds == {MoveId: 7, ActionId: 1}
    payload = view.to_components()
    assert [len(row["components"]) for row in payload] == [5, 2, 1]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 25),
    st.integers(3, 25),
    st.booleans(),
    st.lists(st.integers(0, 10_000), max_size=30),
    st.sampled_from(
        [
            (),
            (ActionKind.REMATCH,),
            (ActionKind.REMATCH, ActionKind.REVIEW),
            (ActionKind.ACCEPT, ActionKind.DECLINE),
        ],
    ),
    st.sampled_from(["en", "ca", "es", "pt", "ru"]),
    st.sampled_from([None, "classic", "discs", "contrast"]),
)
def test_every_board_fits_discord(
    rows_: int,
    cols: int,
    gravity: bool,
    picks: list[int],
    actions: tuple[ActionKind, ...],
    locale: str,
    theme: str | None,
) -> None:
    rules = Rules(rows_, cols, min(4, max(rows_, cols)), gravity=gravity)
    view = picked_board(rules, picks, pending=ActionKind.ACCEPT in actions)
    spec = board_message(view, locale, actions=actions, theme=theme)
    check_discord_limits(spec)
    # A gravity board in a theme is a picture (with its column buttons), else as before.
    big_free = not gravity and max(rows_, cols) > MAX_ROWS
    assert (spec.picture is not None) == (big_free or (gravity and theme is not None))
    if spec.picture is None:
        build_view(spec)  # discord.py accepts the layout
        return
    layout = {"components": build_layout(spec).to_components()}  # type: ignore[no-untyped-call]
    attachments = [{"filename": spec.picture.filename}]
    assert v2.problem(layout, v2.IS_COMPONENTS_V2, attachments) is None


def test_every_action_kind_is_a_button_labelled_from_the_catalogue() -> None:
    # A new ActionKind (Review, say) needs only its text ``discord.button.<kind>``.
    kinds = tuple(ActionKind)
    finished = board(TICTACTOE, [0, 3, 1, 4, 2], ended=True)
    for spec in (
        board_message(finished, "pt", actions=kinds),
        text_message("after the game", "pt", session_id="s3ss10n", version=6, actions=kinds),
    ):
        actions = [b for b in spec.buttons if isinstance(parse_custom_id(b.custom_id), ActionId)]
        assert [parse_custom_id(b.custom_id) for b in actions] == [
            ActionId("s3ss10n", 6, kind) for kind in kinds
        ]
        assert [b.label for b in actions] == [
            render(f"discord.button.{k.value}", "pt") for k in kinds
        ]
        assert all(f"discord.button.{k.value}" in catalogue() for k in kinds)
        assert len({b.row for b in actions}) == 1  # a row of their own
        view = build_view(spec)
        pressed = [
            parse_custom_id(item.custom_id or "")
            for item in view.children
            if isinstance(item, discord.ui.Button)
        ]
        assert sum(isinstance(button, ActionId) for button in pressed) == len(kinds)


def test_a_full_board_names_every_action_as_a_command() -> None:
    spec = board_message(board(Rules(5, 5, 4), [0, 1], ended=True), "en", actions=tuple(ActionKind))
    assert all(isinstance(parse_custom_id(b.custom_id), MoveId) for b in spec.buttons)
    for kind in ActionKind:
        assert f"/{kind.value}" in spec.content


def test_a_gravity_picture_board_stays_one_without_a_theme() -> None:
    # A message shown as a picture keeps the V2 flag: drawn as a picture again, in the game's
    # own theme (discs), its column buttons in rows of five and the actions in a row of theirs.
    spec = board_message(
        board(CONNECT_FOUR, [3, 3], ended=True),
        "en",
        actions=(ActionKind.REMATCH,),
        keep_picture=True,
    )
    assert spec.picture is not None and "🔴" in spec.content
    assert [len(row) for row in rows(spec)] == [5, 2, 1]
    assert board_message(board(CONNECT_FOUR, [3]), "en").picture is None
