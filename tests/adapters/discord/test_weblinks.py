"""Links to the web pages as Discord link buttons (pure): where they go on every board, and that
what discord.py sends of them is what Discord documents (the double's rules,
``tests/e2e/discord_v2.py``, which refuse any other shape)."""

from __future__ import annotations

from collections import Counter

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.discord.layout import MAX_PER_ROW, MAX_ROWS, board_message, text_message
from adapters.discord.picture_layout import build_layout
from adapters.discord.views import build_view
from adapters.discord.weblinks import MAX_LABEL, with_links
from core.games import CONNECT_FOUR, TICTACTOE, Rules
from core.i18n import Text
from core.replies import ActionKind, WebLink
from tests.boards import board_of as board
from tests.boards import picked_board
from tests.e2e import discord_v2 as v2

GAME = WebLink(Text("links.game"), "https://games.example.org/game/" + "ab" * 16)
PLAYER = WebLink(Text("links.player", {"player": "P" * 100}), "https://games.example.org/p")
FINISHED = (ActionKind.REMATCH, ActionKind.REVIEW)


def link_buttons(components: list[dict[str, object]]) -> list[dict[str, object]]:
    return [c for c in v2.walk(components) if c.get("type") == v2.BUTTON and c.get("url")]


def test_a_finished_tictactoe_board_gets_a_row_of_links_under_its_actions() -> None:
    finished = board(TICTACTOE, [0, 3, 1, 4, 2], ended=True)
    spec = with_links(board_message(finished, "en", actions=FINISHED), (GAME,), "en")
    assert spec.rows == 5 and [b.url for b in spec.buttons if b.row == 4] == [GAME.url]
    payload = {"components": build_view(spec).to_components()}
    assert v2.problem(payload, 0, []) is None
    [link] = link_buttons(payload["components"])
    assert {k: v for k, v in link.items() if k != "disabled"} == {
        "type": 2,
        "style": 5,
        "url": GAME.url,
        "label": "This game on the web",
    }


def test_connect_four_links_sit_under_its_columns_and_actions() -> None:
    spec = with_links(board_message(board(CONNECT_FOUR), "en", actions=FINISHED), (GAME,), "en")
    assert Counter(b.row for b in spec.buttons) == {0: 5, 1: 2, 2: 2, 3: 1}


def test_a_5x5_board_with_no_row_left_writes_its_address() -> None:
    five = Rules(5, 5, 4, gravity=False)
    spec = board_message(board(five, [0, 1]), "en")
    shown = with_links(spec, (GAME,), "en")
    assert shown.buttons == spec.buttons and shown.content.endswith(
        f"This game on the web: {GAME.url}"
    )


def test_a_text_message_gets_its_links_and_long_labels_are_cut() -> None:
    spec = with_links(text_message("Alice: 3 wins", "en"), (PLAYER, GAME), "en")
    assert [b.url for b in spec.buttons] == [PLAYER.url, GAME.url]
    assert all(b.label is not None and len(b.label) <= MAX_LABEL for b in spec.buttons)
    assert v2.problem({"components": build_view(spec).to_components()}, 0, []) is None
    assert with_links(spec, (), "en") is spec


def test_the_double_refuses_what_discord_refuses() -> None:
    def row(button: dict[str, object]) -> dict[str, object]:
        return {"components": [{"type": 1, "components": [button]}]}

    good = {"type": 2, "style": 5, "label": "page", "url": GAME.url}
    assert v2.problem(row(good), 0, []) is None
    assert "custom_id" in str(v2.problem(row({**good, "custom_id": "x"}), 0, []))
    assert "url" in str(v2.problem(row({**good, "url": "ftp://x"}), 0, []))
    assert "url" in str(v2.problem(row({**good, "url": "https://x/" + "a" * 600}), 0, []))
    assert "label" in str(v2.problem(row({**good, "label": "L" * 81}), 0, []))
    assert "url" in str(
        v2.problem(row({"type": 2, "style": 1, "custom_id": "a", "url": "x"}), 0, [])
    )
    assert "custom_id" in str(v2.problem(row({"type": 2, "style": 1, "label": "a"}), 0, []))
    six = {"components": [{"type": 1, "components": [good]}] * 6}
    assert "rows" in str(v2.problem(six, 0, []))
    wide = {"components": [{"type": 1, "components": [good] * 6}]}
    assert "at most 5" in str(v2.problem(wide, 0, []))


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 25),
    st.integers(3, 25),
    st.booleans(),
    st.lists(st.integers(0, 10_000), max_size=30),
    st.sampled_from([(), FINISHED, (*FINISHED, ActionKind.BLOCK)]),
    st.sampled_from([None, "discs"]),
    st.integers(1, 4),
)
def test_links_fit_every_board(
    rows_: int,
    cols: int,
    gravity: bool,
    picks: list[int],
    actions: tuple[ActionKind, ...],
    theme: str | None,
    count: int,
) -> None:
    rules = Rules(rows_, cols, min(4, max(rows_, cols)), gravity=gravity)
    links = (GAME, PLAYER, GAME, PLAYER)[:count]
    shown_board = picked_board(rules, picks)
    spec = with_links(board_message(shown_board, "en", actions=actions, theme=theme), links, "en")
    shown = [b.url for b in spec.buttons if b.url is not None]
    # Every link is shown: as buttons, or written under the text.
    assert shown == [link.url for link in links] or GAME.url in spec.content
    assert all(n <= MAX_PER_ROW for n in Counter(b.row for b in spec.buttons).values())
    if spec.picture is None:
        assert spec.rows <= MAX_ROWS
        payload = {"components": build_view(spec).to_components()}
        assert v2.problem(payload, 0, []) is None
        return
    layout = {"components": build_layout(spec).to_components()}  # type: ignore[no-untyped-call]
    attachments = [{"filename": spec.picture.filename}]
    assert v2.problem(layout, v2.IS_COMPONENTS_V2, attachments) is None
    assert all(
        isinstance(item, discord.ui.Button)
        for item in build_layout(spec).walk_children()
        if getattr(item, "url", None)
    )
