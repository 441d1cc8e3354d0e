"""Board pictures: every board renders in every theme, and what is drawn is where it should be.

The probes read the decoded picture back: the colour that dominates the middle of a cell names
its mark, the winning stroke covers the grid line between two winning cells, the last move's
frame sits on its cell's edge.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import cast

import pytest
from PIL import Image

from core.games import CONNECT_FOUR, TICTACTOE, Position, Rules
from core.games.rules import MAX_SIDE, MIN_SIDE
from core.pictures import THEMES, Theme, board_png, picture_geometry
from core.pictures.geometry import Geometry
from core.pictures.picture import CACHE_SIZE, _render
from core.replies import BoardView, PlayerView
from tests.boards import board_of, random_moves

ROOT = Path(__file__).resolve().parents[3]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ALL_THEMES = tuple(THEMES.values())
GOMOKU = Rules(15, 15, 5, gravity=False)
BIGGEST = Rules(MAX_SIDE, MAX_SIDE, 5, gravity=False)


def decode(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    assert image.mode == "P"
    return image.convert("RGB")


def colours(image: Image.Image) -> Counter[tuple[int, int, int]]:
    """How many pixels of each colour ``image`` has."""
    found = image.getcolors(1024) or []
    return Counter({cast(tuple[int, int, int], colour): count for count, colour in found})


def mark_colour(theme: Theme, mark: int) -> tuple[int, int, int]:
    """The colour that says "this mark is here": its disc, or the bare shape."""
    style = theme.marks[mark - 1]
    return style.disc or style.colour


def mark_at(image: Image.Image, theme: Theme, layout: Geometry, row: int, col: int) -> int:
    """The mark the middle of a cell shows: 0 when neither player's colour covers 5% of it."""
    x0, y0, x1, y1 = layout.cell_box(row, col)
    inset = layout.tile * 15 // 100
    counts = colours(image.crop((x0 + inset, y0 + inset, x1 - inset, y1 - inset)))
    area = (x1 - x0 - 2 * inset) * (y1 - y0 - 2 * inset)
    found = [m for m in (1, 2) if counts[mark_colour(theme, m)] >= area * 0.05]
    assert len(found) <= 1, (row, col, found)
    return found[0] if found else 0


def framed(image: Image.Image, layout: Geometry, theme: Theme) -> list[tuple[int, int]]:
    """The cells whose edge shows the last move's frame (a quarter down the left side, where
    neither a mark nor a winning stroke reaches)."""
    found = []
    for row in range(layout.rows):
        for col in range(layout.cols):
            x0, y0, _, _ = layout.cell_box(row, col)
            if image.getpixel((x0 + 1, y0 + layout.tile // 4)) == theme.last:
                found.append((row, col))
    return found


def every_board() -> list[Rules]:
    sides = range(MIN_SIDE, MAX_SIDE + 1)
    boards = [Rules(n, n, min(n, 5), gravity=False) for n in sides]
    boards += [Rules(n, n, min(n, 4), gravity=True) for n in sides]
    boards += [Rules(3, 25, 3, gravity=False), Rules(25, 3, 3, gravity=True), CONNECT_FOUR]
    return boards


@pytest.mark.parametrize("theme", ALL_THEMES, ids=lambda t: t.name)
def test_every_board_from_3x3_to_25x25_renders_in_every_theme(theme: Theme) -> None:
    for rules in every_board():
        layout = picture_geometry(rules)
        for moves in ([], random_moves(rules, rules.cells // 2), random_moves(rules, rules.cells)):
            image = decode(board_png(board_of(rules, moves), theme))
            assert image.size == (layout.width, layout.height), rules


@pytest.mark.parametrize("theme", ALL_THEMES, ids=lambda t: t.name)
@pytest.mark.parametrize(
    "rules", [TICTACTOE, CONNECT_FOUR, GOMOKU, BIGGEST], ids=lambda r: f"{r.rows}x{r.cols}"
)
def test_probes_at_cell_centres_find_every_mark(theme: Theme, rules: Rules) -> None:
    moves = random_moves(rules, rules.cells, seed=7)
    board = board_of(rules, moves)
    image = decode(board_png(board, theme))
    layout = picture_geometry(rules)
    seen = [mark_at(image, theme, layout, cell.row, cell.col) for cell in board.cells]
    assert seen == [cell.mark for cell in board.cells]
    assert {1, 2} <= set(seen)


@pytest.mark.parametrize("theme", ALL_THEMES, ids=lambda t: t.name)
@pytest.mark.parametrize(
    "rules, moves",
    [
        (TICTACTOE, [0, 3, 4, 5, 8]),  # a diagonal
        (CONNECT_FOUR, [0, 1, 0, 1, 0, 1, 0]),  # a column
        (GOMOKU, [112, 0, 113, 1, 114, 2, 115, 3, 116]),  # a row
        (BIGGEST, [264, 0, 288, 1, 312, 2, 336, 3, 360]),  # an anti-diagonal
    ],
    ids=["diagonal", "column", "row", "anti-diagonal"],
)
def test_the_winning_line_is_struck_through_and_the_last_move_framed(
    theme: Theme, rules: Rules, moves: list[int]
) -> None:
    position = Position.from_moves(rules, moves)
    line = sorted(position.winning_line)
    assert len(line) == rules.k
    image = decode(board_png(board_of(rules, moves), theme))
    layout = picture_geometry(rules)
    cells = [divmod(index, rules.cols) for index in line]
    for (r0, c0), (r1, c1) in itertools.pairwise(cells):
        (xa, ya), (xb, yb) = layout.centre(r0, c0), layout.centre(r1, c1)
        # Half-way between two winning cells: the grid line, which only the stroke covers.
        assert image.getpixel(((xa + xb) // 2, (ya + yb) // 2)) == theme.winning_line
    for row, col in cells:
        _, y0, x1, _ = layout.cell_box(row, col)
        assert image.getpixel((x1 - 2, y0 + layout.tile // 4)) in (theme.winning_cell, theme.last)
    assert position.last_cell is not None
    assert framed(image, layout, theme) == [divmod(position.last_cell, rules.cols)]


@pytest.mark.parametrize("theme", ALL_THEMES, ids=lambda t: t.name)
def test_a_board_without_a_winner_has_no_stroke_and_no_highlight(theme: Theme) -> None:
    rules = GOMOKU
    moves = [0, 1, 2, 3]
    image = decode(board_png(board_of(rules, moves), theme))
    layout = picture_geometry(rules)
    assert theme.winning_cell not in colours(image)
    assert framed(image, layout, theme) == [(0, 3)]


def near(colour: tuple[int, int, int], target: tuple[int, int, int]) -> bool:
    return sum(abs(a - b) for a, b in zip(colour, target, strict=True)) < 90


def inked(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    return sum(n for pixel, n in colours(image.crop(box)).items() if near(pixel, colour))


@pytest.mark.parametrize("theme", ALL_THEMES, ids=lambda t: t.name)
def test_coordinates_name_every_column_and_row_on_the_edges(theme: Theme) -> None:
    rules = GOMOKU
    image = decode(board_png(board_of(rules), theme))
    layout = picture_geometry(rules)
    bx0, by0, bx1, by1 = layout.board_box
    half = layout.pitch // 2
    tops, lefts = [], []
    for col in range(rules.cols):
        x = layout.centre(0, col)[0]
        top = (x - half, 0, x + half, by0)
        bottom = (x - half, by1, x + half, layout.height)
        assert inked(image, top, theme.label) and inked(image, bottom, theme.label)
        tops.append(image.crop(top).tobytes())
    for row in range(rules.rows):
        y = layout.centre(row, 0)[1]
        left = (0, y - half, bx0, y + half)
        assert inked(image, left, theme.label)
        assert inked(image, (bx1, y - half, layout.width, y + half), theme.label)
        lefts.append(image.crop(left).tobytes())
    assert len(set(tops)) == rules.cols and len(set(lefts)) == rules.rows
    assert not inked(image, (0, 0, bx0, by0), theme.label)  # the corner stays empty


def test_gravity_boards_number_their_columns_and_leave_rows_unnamed() -> None:
    theme = THEMES["discs"]
    image = decode(board_png(board_of(CONNECT_FOUR), theme))
    layout = picture_geometry(CONNECT_FOUR)
    bx0, by0, _, by1 = layout.board_box
    numbers = []
    for col in range(CONNECT_FOUR.cols):
        x = layout.centre(0, col)[0]
        box = (x - layout.pitch // 2, 0, x + layout.pitch // 2, by0)
        assert inked(image, box, theme.label)
        numbers.append(image.crop(box).tobytes())
    assert len(set(numbers)) == CONNECT_FOUR.cols
    assert not inked(image, (0, by0, bx0, by1), theme.label)


def test_the_same_state_gives_the_same_bytes() -> None:
    moves = random_moves(GOMOKU, 60, seed=3)
    first = board_png(board_of(GOMOKU, moves))
    _render.cache_clear()
    again = board_png(board_of(GOMOKU, moves))
    assert again == first
    # Another session, another version, the same stones: the same picture.
    other = board_of(GOMOKU, moves)
    moved = BoardView(**{**{f: getattr(other, f) for f in other.__slots__}, "version": 99})
    assert board_png(moved) == first
    assert board_png(board_of(GOMOKU, moves[:-1])) != first


def test_a_fresh_interpreter_draws_the_same_bytes() -> None:
    moves = random_moves(GOMOKU, 60, seed=3)
    script = (
        "import hashlib\n"
        "from core.games import Rules\n"
        "from core.pictures import board_png\n"
        "from tests.boards import board_of\n"
        f"print(hashlib.sha256(board_png(board_of(Rules(15, 15, 5, gravity=False), {moves!r}),"
        " caption='Alice: 5:00')).hexdigest())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    here = hashlib.sha256(board_png(board_of(GOMOKU, moves), caption="Alice: 5:00"))
    assert result.stdout.strip() == here.hexdigest()


def test_pictures_are_cached_by_state_theme_and_caption_within_a_bound() -> None:
    _render.cache_clear()
    board = board_of(TICTACTOE, [4])
    for theme in ALL_THEMES:
        board_png(board, theme)
        board_png(board, theme)
    board_png(board, caption="Alice to move")
    info = _render.cache_info()
    assert (info.hits, info.misses, info.maxsize) == (3, 4, CACHE_SIZE)


def test_a_caption_adds_the_players_and_the_line_under_the_board() -> None:
    board = board_of(TICTACTOE, [4, 0])
    theme = THEMES["classic"]
    bare = decode(board_png(board, theme))
    captioned = decode(board_png(board, theme, caption="Alice (X) to move · 4:59 left"))
    assert captioned.width == bare.width and captioned.height > bare.height
    assert captioned.crop((0, 0, *bare.size)).tobytes() == bare.tobytes()
    under = (0, bare.height, captioned.width, captioned.height)
    assert inked(captioned, under, theme.caption) > 50
    for mark in (1, 2):  # each player's mark beside their name
        assert theme.marks[mark - 1].colour in colours(captioned.crop(under))
    long = decode(board_png(board, theme, caption="word " * 400))
    assert long.height - bare.height <= captioned.height - bare.height + 2 * 27


def test_a_caption_in_a_script_the_font_lacks_is_drawn_without_empty_boxes() -> None:
    from core.pictures.text import drawable

    assert drawable("José à Vilafranca \u2013 5\u00d75") == "Jose a Vilafranca - 5x5"
    # Letters of other scripts as their Latin spelling; symbols the font lacks as "?".
    assert drawable("Жанна") == "Zhanna"
    assert drawable("李明 · Ελένη · 김민준") == "LiMing · Eleni · GimMinJun"
    assert drawable("🙂 Bob") == "? Bob"
    assert drawable("a\x00b\u200bc") == "abc"


def test_a_name_in_another_script_is_drawn_as_its_transliteration() -> None:
    def named(first: str) -> bytes:
        players = (PlayerView(first, "u1", None), PlayerView("Bot (easy)", None, "easy"))
        board = board_of(TICTACTOE, [4, 0], players=players)
        return board_png(board, THEMES["classic"], caption="X to move")

    assert named("Алиса") == named("Alisa")  # the same picture: nothing drawn as a box
    assert named("李明") == named("LiMing")


def ink_bands(image: Image.Image, top: int, colour: tuple[int, int, int]) -> list[range]:
    """The bands of rows from ``top`` down that hold ink of ``colour``, each a line of text:
    three rows or more without it separate two bands (a line's own gaps, between a mark's
    outline and its name, are a row or two)."""
    width, height = image.size
    bands: list[range] = []
    start = None
    for y in range(top, height + 1):
        row = image.crop((0, y, width, y + 1)) if y < height else None
        inked_row = row is not None and any(near(pixel, colour) for pixel in colours(row))
        if inked_row and start is None:
            start = y
        elif not inked_row and start is not None:
            if bands and start - bands[-1].stop < 3:
                start = bands.pop().start
            bands.append(range(start, y))
            start = None
    return bands


@pytest.mark.parametrize("theme", ALL_THEMES, ids=lambda t: t.name)
@pytest.mark.parametrize(
    "rules", [TICTACTOE, CONNECT_FOUR, GOMOKU, BIGGEST], ids=lambda r: f"{r.rows}x{r.cols}"
)
def test_a_caption_keeps_its_line_breaks(theme: Theme, rules: Rules) -> None:
    # A result and its ratings line (ratings.result_with_change): two lines of text under the
    # two players' names, never "Alice (X) wins!Ratings: ...".
    board = board_of(rules, random_moves(rules, 5, seed=3))
    bare = decode(board_png(board, theme))
    result, ratings = "Alice (X) wins!", "Ratings: Alice +12"
    two = decode(board_png(board, theme, caption=f"{result}\n{ratings}"))
    one = decode(board_png(board, theme, caption=f"{result} {ratings}"))
    names = 2
    assert len(ink_bands(one, bare.height, theme.caption)) == names + 1  # it fits on one line
    bands = ink_bands(two, bare.height, theme.caption)
    assert len(bands) == names + 2, bands
    # Each line is the text drawn alone: the first caption line's ink matches the picture
    # whose whole caption is the result.
    alone = decode(board_png(board, theme, caption=result))
    first = bands[names]
    box = (0, first.start, two.width, first.stop)
    assert two.crop(box).tobytes() == alone.crop(box).tobytes()
    # More lines than a caption takes end with an ellipsis, never past the limit.
    many = decode(board_png(board, theme, caption="\n".join(f"line {n}" for n in range(9))))
    assert len(ink_bands(many, bare.height, theme.caption)) == names + 5
