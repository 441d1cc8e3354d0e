"""An immutable game position on integer bitboards."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from core.games.bitboard import Geometry, geometry, has_line, iter_bits, line_bits_through
from core.games.outcome import Outcome, Termination
from core.games.rules import Rules


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message says why."""


@dataclass(frozen=True, slots=True)
class Position:
    """A position: the stones of both players and the moves that led to it.

    Positions are values: :meth:`play` returns a new one. Two positions are equal (and hash
    alike) when they have the same rules and the same stones, whatever the order of the moves.
    """

    rules: Rules
    stones: tuple[int, int]  # bitboards of player 1 and player 2 (layout: core.games.bitboard)
    moves: tuple[int, ...] = field(compare=False)
    winner: int | None = field(default=None, compare=False)
    last_bit: int | None = field(default=None, compare=False, repr=False)

    @classmethod
    def start(cls, rules: Rules) -> Position:
        """The empty board, player 1 to move."""
        return cls(rules, (0, 0), ())

    @classmethod
    def from_moves(cls, rules: Rules, moves: Iterable[int]) -> Position:
        """Replay ``moves`` (0-based) from the empty board.

        Raises:
            IllegalMove: a move is not legal where it is played; the message names its index.
        """
        position = cls.start(rules)
        for index, move in enumerate(moves):
            try:
                position = position.play(move)
            except IllegalMove as error:
                raise IllegalMove(f"move #{index + 1} ({move!r}): {error}") from None
        return position

    @property
    def geometry(self) -> Geometry:
        return geometry(self.rules)

    @property
    def occupied(self) -> int:
        return self.stones[0] | self.stones[1]

    @property
    def to_move(self) -> int:
        """The player to move: 1 (first player) or 2."""
        return 1 + len(self.moves) % 2

    @property
    def is_draw(self) -> bool:
        return self.winner is None and len(self.moves) == self.rules.cells

    @property
    def is_over(self) -> bool:
        return self.winner is not None or len(self.moves) == self.rules.cells

    @property
    def outcome(self) -> Outcome | None:
        """How the board ended the game (a win or a draw), or None while it goes on."""
        if self.winner is not None:
            return Outcome(Termination.WIN, self.winner)
        return Outcome(Termination.DRAW) if self.is_over else None

    def move_bit(self, move: int) -> int:
        """The bit a legal ``move`` would fill.

        Raises:
            IllegalMove: the move is off the board, on an occupied cell or a full column, or the
                game is over.
        """
        if self.is_over:
            raise IllegalMove("the game is over")
        if not isinstance(move, int) or isinstance(move, bool):
            raise IllegalMove(f"a move is a whole number, got {move!r}")
        geo = self.geometry
        occupied = self.occupied
        if self.rules.gravity:
            if not 0 <= move < self.rules.cols:
                raise IllegalMove(
                    f"column {move!r} is off the board (columns 0..{self.rules.cols - 1})"
                )
            column = geo.column_masks[move]
            if occupied & column == column:
                raise IllegalMove(f"column {move!r} is full")
            lowest_empty = (occupied & column) + (1 << (move * geo.height))
            return lowest_empty.bit_length() - 1
        if not 0 <= move < self.rules.cells:
            raise IllegalMove(f"cell {move!r} is off the board (cells 0..{self.rules.cells - 1})")
        bit = geo.cell_bits[move]
        if occupied >> bit & 1:
            raise IllegalMove(f"cell {move!r} is occupied")
        return bit

    def play(self, move: int) -> Position:
        """The position after the side to move plays ``move``; ``self`` is unchanged.

        Raises:
            IllegalMove: see :meth:`move_bit`.
        """
        bit = self.move_bit(move)
        player = self.to_move
        mine = self.stones[player - 1] | (1 << bit)
        stones = (mine, self.stones[1]) if player == 1 else (self.stones[0], mine)
        winner = player if has_line(mine, self.geometry) else None
        return Position(self.rules, stones, (*self.moves, move), winner, bit)

    def legal_moves(self) -> tuple[int, ...]:
        """Every legal move, ascending; empty when the game is over."""
        if self.is_over:
            return ()
        geo = self.geometry
        occupied = self.occupied
        if self.rules.gravity:
            return tuple(
                col for col, column in enumerate(geo.column_masks) if occupied & column != column
            )
        return tuple(cell for cell, bit in enumerate(geo.cell_bits) if not occupied >> bit & 1)

    @property
    def winning_line(self) -> tuple[int, ...]:
        """Cells (row-major indexes) of the completed line(s) through the last move, or ()."""
        if self.winner is None or self.last_bit is None:
            return ()
        geo = self.geometry
        bits = line_bits_through(self.stones[self.winner - 1], self.last_bit, geo)
        return tuple(sorted(geo.cell_of_bit(bit) for bit in iter_bits(bits)))

    def cell(self, row: int, col: int) -> int:
        """0 for an empty cell, else the player (1 or 2) whose stone is there; row 0 is the top."""
        if not (0 <= row < self.rules.rows and 0 <= col < self.rules.cols):
            raise IndexError(f"cell ({row!r}, {col!r}) is off the board")
        bit = self.geometry.bit_of(row, col)
        if self.stones[0] >> bit & 1:
            return 1
        if self.stones[1] >> bit & 1:
            return 2
        return 0

    @property
    def last_cell(self) -> int | None:
        """Row-major cell index of the last stone played, or None on the empty board."""
        return None if self.last_bit is None else self.geometry.cell_of_bit(self.last_bit)

    def __repr__(self) -> str:
        return f"Position.from_moves({self.rules!r}, {list(self.moves)!r})"
