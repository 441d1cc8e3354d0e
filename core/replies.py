"""What the service hands to adapters: who acted, and a neutral description of what to show.

Adapters translate an :class:`Actor` plus a command, a click or a reaction into a call on
``core.sessions.GameService`` and render the :class:`Reply` values it returns; they never decide
game logic themselves.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from core.games import Rules
from core.i18n import Text

THEME_NAMES = ("classic", "discs", "contrast")
"""The board themes a reply may name (:attr:`Reply.theme`), each drawn by ``core.pictures``:
here, below both, so that the settings and the commands check a name without the pictures."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who did something, and where.

    Attributes:
        platform: ``"discord"``, ``"matrix"`` or ``"console"``.
        chat_id: the channel, room or terminal the game lives in.
        user_id: the platform's stable id of the person.
        display_name: how to call the person in messages.
        locale: the person's language tag as the platform gives it (``pt-BR``); may be empty.
        server_id: the Discord server (guild) the chat belongs to; None where chats stand
            alone (Matrix rooms, the console, Discord direct messages).
        is_admin: the person may change the settings of this chat, as the platform says:
            Manage Server on Discord, power level 50 or more (or ``BOT_ADMINS``) on Matrix, the
            local user on the console. Adapters read it from the platform, never from the
            person's text.
        direct: the chat is a direct conversation between the person and the bot (a Discord
            DM, a Matrix room of two that nobody joins uninvited); open play (``/seek``) is on
            there unless set, and ``/link`` hands out codes there.
    """

    platform: str
    chat_id: str
    user_id: str
    display_name: str
    locale: str = "en"
    server_id: str | None = None
    is_admin: bool = False
    direct: bool = False


class ActionKind(enum.Enum):
    """A button (or command) that acts on a session rather than playing a move."""

    ACCEPT = "accept"
    DECLINE = "decline"
    REMATCH = "rematch"
    REVIEW = "review"
    BLOCK = "block"  # an open game's player never meets the other again (matchmaking)


@dataclass(frozen=True, slots=True)
class CellView:
    """One cell of a board as shown to players."""

    index: int  # row-major, 0 is the top-left cell
    row: int  # 0 is the top row
    col: int
    mark: int  # 0 empty, 1 the first player (X), 2 the second player (O)
    clickable: bool  # pressing it is a legal move now (free boards); False on gravity boards
    winning: bool  # on the completed line
    last: bool  # where the last stone landed


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A seat at the board: a person (``user_id``) or the bot at a level."""

    name: str
    user_id: str | None  # None for the bot
    level: str | None  # "easy" / "medium" / "hard" for the bot, else None


@dataclass(frozen=True, slots=True)
class BoardView:
    """A whole board to draw.

    ``playable`` lists the legal moves now, in the move encoding of the rules (cells for free
    boards, columns for gravity boards), and is empty when nobody may move (game over, challenge
    pending). ``status`` is the line under the board: whose turn it is, or the result.
    ``starter`` is the user id of who started the game (its theme wins, ``/theme``), if anyone.
    """

    session_id: str
    version: int
    rules: Rules
    cells: tuple[CellView, ...]  # row-major, rows * cols of them
    playable: tuple[int, ...]
    players: tuple[PlayerView, PlayerView]  # X (plays first), then O
    to_move: int | None  # 1 or 2 while the game goes on, else None
    finished: bool
    status: Text
    deadline: float | None = None
    """When the player to move runs out of time (seconds since the epoch), in a running game
    with a clock: Discord shows it as ``<t:…:R>``, which counts down by itself; Matrix and the
    console in words (:func:`core.render.status_line`)."""
    starter: str | None = None
    public_id: str | None = None
    """The game's unguessable id on the web pages (:attr:`core.store.Session.public_id`),
    from which :mod:`core.pages.addresses` makes its address."""

    @property
    def rows(self) -> tuple[tuple[CellView, ...], ...]:
        cols = self.rules.cols
        return tuple(self.cells[r * cols : (r + 1) * cols] for r in range(self.rules.rows))


@dataclass(frozen=True, slots=True)
class WebLink:
    """A web page a reply points to (:mod:`core.pages.addresses`): its name for people and
    its whole address. Discord shows it as a link button; Matrix and the console write it out
    under the reply's text."""

    label: Text
    url: str


@dataclass(frozen=True, slots=True)
class Reply:
    """One thing to show, in order.

    Attributes:
        text: a message (a result, an error, help, a challenge); None when only a board changes.
        board: the board to show. With ``new_message`` it is posted as a new board message
            (start, accepted challenge, rematch); otherwise it replaces the session's existing
            board message (Discord: edit the message with the buttons; Matrix: an ``m.replace``
            edit of the original event).
        actions: buttons to offer for ``session_id`` at ``version`` (Accept/Decline, Rematch).
        session_id, version: the game this reply is about, if any.
        private: only the acting user should see it (Discord ephemeral); used for mistakes such
            as clicking someone else's board.
        error: the text is about a mistake of the acting user.
        locale: the language the chat's admins chose (the ``language`` setting), when they
            chose one: every adapter renders this reply in it, rather than in the person's own
            language (Discord's client locale) or the adapter's configured default.
        theme: the board theme to draw ``board`` in (one of :data:`THEME_NAMES`): the
            theme of the player who started the game (``/theme``), else the one the chat's
            admins chose (the ``theme`` setting); None for each game's own.
        mention: the user id of the one person this text is meant for, who must be notified
            (a challenge names the challenged player, a clock's reminder the player to move),
            or None. Adapters whose platform silences some messages make this one reach that
            person (Matrix: an ``m.text`` that mentions them, where every other reply is an
            ``m.notice``).
        picture: the chat's admins asked for boards as pictures (``board_style: picture``),
            for platforms that choose (Matrix: an ``m.image`` rather than the text board).
        links: web pages about this reply (the game's page, the ladder), set only where
            ``PUBLIC_URL`` is and the chat's ``web_links`` setting is on
            (:mod:`core.sessions.players.weblinks`).
    """

    text: Text | None = None
    board: BoardView | None = None
    new_message: bool = False
    actions: tuple[ActionKind, ...] = ()
    session_id: str | None = None
    version: int | None = None
    private: bool = False
    error: bool = False
    locale: str | None = None
    theme: str | None = None
    mention: str | None = None
    picture: bool = False
    links: tuple[WebLink, ...] = ()
