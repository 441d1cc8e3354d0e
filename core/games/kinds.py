"""Which game a set of rules plays: the one value every classification of games derives from.

A kind knows its family, the words players type for it (the same on every platform: the start
command and its aliases, which ``/seek``, ``/top`` and the ``games`` setting take too), its name
in the catalogues (``game.name.*`` and ``/help``'s ``help.<word>``, in every language), its
rating pool, its metrics label and its clock where a chat's clock is ``auto``. Nothing else
lists the games: a new kind is a member here plus its messages, and tests fail for a kind
without a pool, a word, or a message in some language.

Here rather than in ``core.commands`` (which re-exports it as part of its contract) because the
chat settings name games too (``games``), and the settings' key table must not import the
command parser, which reads the settings' names from it.
"""

from __future__ import annotations

import enum
import re

from core.games.rules import CONNECT_FOUR, TICTACTOE, Rules

BIG_FREE_CELLS = 100
"""Free boards of at least this many cells (10x10 and up) share a pool per line length."""

_MINUTE = 60.0


class GameKind(enum.Enum):
    """Which family of game a set of rules plays (:meth:`of`).

    The values are stable ids (the rating pool of the kinds with one pool). Each kind has:

    - ``word``: the start command that starts it (``/quatre 5x5`` starts a ``GRAVITY`` game), the
      word the ``games`` setting turns on and off, and the one ``/help`` names it by (its line
      is ``help.<word>``); ``aliases``: the English words that mean the same.
    - ``label``: its metrics label (``tictactoe``, ``connect4``, ``free``): few values, so every
      board where stones fall counts as ``connect4`` there.
    - ``rules``: the rules the word alone means (``/seek tres``, ``/top quatre``), or None for a
      kind whose start needs a size.
    - ``auto_clock``: seconds per move where the chat's clock is ``auto`` (a big free board
      takes thought).
    """

    _value_: str
    word: str
    aliases: tuple[str, ...]
    label: str
    rules: Rules | None
    auto_clock: float

    def __new__(
        cls,
        value: str,
        word: str,
        aliases: tuple[str, ...],
        label: str,
        rules: Rules | None,
        auto_clock: float,
    ) -> GameKind:
        kind = object.__new__(cls)
        kind._value_ = value
        kind.word = word
        kind.aliases = aliases
        kind.label = label
        kind.rules = rules
        kind.auto_clock = auto_clock
        return kind

    # id, word, aliases, metrics label, the rules the word alone means, the auto clock
    TRES = ("tictactoe", "tres", ("tictactoe",), "tictactoe", TICTACTOE, 5 * _MINUTE)
    """Tic-tac-toe: 3x3, three in a row."""
    QUATRE = ("connect4", "quatre", ("connect4",), "connect4", CONNECT_FOUR, 5 * _MINUTE)
    """Connect Four: 6x7, four in a row, stones fall."""
    GRAVITY = ("gravity", "quatre", ("connect4",), "connect4", None, 5 * _MINUTE)
    """Every other board where stones fall (``/quatre ROWSxCOLS``)."""
    RATLLA = ("free", "ratlla", (), "free", None, 15 * _MINUTE)
    """K in a row on a free board other than tic-tac-toe."""

    @classmethod
    def of(cls, rules: Rules) -> GameKind:
        """The kind ``rules`` play."""
        if rules.gravity:
            return cls.QUATRE if rules == CONNECT_FOUR else cls.GRAVITY
        return cls.TRES if rules == TICTACTOE else cls.RATLLA

    @classmethod
    def named(cls, word: str) -> GameKind | None:
        """The kind a word or alias starts (any case): ``quatre`` is Connect Four; else None."""
        return _BY_WORD.get(word.lower())

    @property
    def words(self) -> tuple[str, ...]:
        """The word and its aliases."""
        return (self.word, *self.aliases)

    @property
    def starter(self) -> GameKind:
        """The kind its word starts (``GRAVITY``'s is ``QUATRE``: ``/quatre`` with a size)."""
        return _BY_WORD[self.word]

    def pool(self, rules: Rules) -> str:
        """The rating pool of a game of this kind played on ``rules``. Pool ids are stored with
        every rating: never change one, add new ones.

        - ``tictactoe``, ``connect4``: their one board.
        - ``gravity``: every other board where stones fall. One pool: each other size is a game
          few people play, and a ladder per size would hold a player or two; kept apart from 6x7
          so a tiny board cannot be farmed for a Connect Four rating.
        - ``free-RxC-kK`` for a smaller free board (fewer than ``BIG_FREE_CELLS`` cells), such
          as ``free-4x4-k3``: on a small board the size changes the game (some are forced wins
          for the first player, some draws). A board and its rotation are one pool
          (``free-4x5-k4`` for both 4x5 and 5x4).
        - ``free-big-kK`` for bigger free boards: away from the edges a 15x15 and a 19x19 board
          play alike, so they share one rating per line length (five in a row is gomoku; three
          in a row is another game entirely).
        """
        if self is not GameKind.RATLLA:
            return self._value_
        if rules.rows * rules.cols >= BIG_FREE_CELLS:
            return f"free-big-k{rules.k}"
        short, long = sorted((rules.rows, rules.cols))
        return f"free-{short}x{long}-k{rules.k}"

    def title(self, rules: Rules) -> tuple[str, dict[str, str | int]]:
        """The catalogue key and parameters of a game's name on ``rules`` (tic-tac-toe,
        Connect Four 6x7, 5 in a row on 15x15)."""
        size = f"{rules.rows}x{rules.cols}"
        if self is GameKind.TRES:
            return "game.name.tictactoe", {}
        if self is not GameKind.RATLLA and rules.k == CONNECT_FOUR.k:
            return "game.name.connect_four", {"size": size}
        return "game.name.k_in_a_row", {"size": size, "k": rules.k}


_FREE_POOL = re.compile(r"free-(?:(?P<size>[0-9]+x[0-9]+)|big)-k(?P<k>[0-9]+)")


def pool_title(pool: str) -> tuple[str, dict[str, str | int]]:
    """The catalogue key and parameters of a rating pool's name in words (:meth:`GameKind.pool`
    makes the ids): "Connect Four 6x7", "4 in a row on 4x5", "5 in a row on big boards". An id
    this code does not know (a newer release's) is named by itself."""
    if pool == GameKind.TRES.value:
        return GameKind.TRES.title(TICTACTOE)
    if pool == GameKind.QUATRE.value:
        return GameKind.QUATRE.title(CONNECT_FOUR)
    if pool == GameKind.GRAVITY.value:
        return "game.name.gravity", {}
    found = _FREE_POOL.fullmatch(pool)
    if found is None:
        return "game.name.pool", {"pool": pool}
    k = int(found["k"])
    if found["size"] is None:
        return "game.name.k_in_a_row_big", {"k": k}
    return "game.name.k_in_a_row", {"size": found["size"], "k": k}


def _by_word() -> dict[str, GameKind]:
    found: dict[str, GameKind] = {}
    for kind in GameKind:
        for word in kind.words:
            found.setdefault(word, kind)  # the first kind with a word is the one it starts
    return found


_BY_WORD = _by_word()

STARTERS = tuple(kind for kind in GameKind if kind.starter is kind)
"""The kinds a start command starts (a start's ``kind``), one per command."""
WORDS = tuple(kind.word for kind in STARTERS)
"""The start words, one per start command, in the order ``/help`` lists them."""

Variant = GameKind
"""The name ``docs`` and older code use for the kind (``Variant.of(rules)``); its metrics
label is ``.label``."""
