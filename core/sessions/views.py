"""What players see: boards and the replies that carry them (pure functions of a session)."""

from __future__ import annotations

from core.ai.review import can_review
from core.errors import UserError
from core.games import GameKind, Position, Rules, Termination
from core.i18n import Text
from core.replies import ActionKind, BoardView, CellView, PlayerView, Reply
from core.store import Seat, Session, Status

MARKS = ("", "X", "O")
"""Mark names for the ``{mark}`` parameter: the same letters in every language."""


_ENDED_BY_A_PLAYER = {
    Termination.RESIGNATION: "game.resigned",
    Termination.TIMEOUT: "game.timeout",
    Termination.ABANDONED: "game.abandoned",
}


def _player_view(seat: Seat) -> PlayerView:
    return PlayerView(
        name=seat.name, user_id=seat.user_id, level=seat.level.value if seat.level else None
    )


def game_name(rules: Rules) -> Text:
    """The game's name in the reader's language (tic-tac-toe, Connect Four 6x7, ...)."""
    return Text(*GameKind.of(rules).title(rules))


def status_text(session: Session, position: Position) -> Text:
    """The line under the board: whose turn it is, or how the game ended."""
    if session.status is Status.CHALLENGE:
        x, o = session.seats
        return Text("game.challenge_status", {"player_x": x.name, "player_o": o.name})
    outcome = session.outcome
    if outcome is None:
        seat = session.seats[position.to_move - 1]
        return Text("game.turn", {"player": seat.name, "mark": MARKS[position.to_move]})
    if outcome.winner is None:
        if outcome.termination is Termination.ABANDONED:
            return Text("game.abandoned_nobody")
        return Text("game.stopped" if outcome.termination is Termination.STOPPED else "game.draw")
    winner = session.seats[outcome.winner - 1]
    if outcome.termination in _ENDED_BY_A_PLAYER:
        loser = session.seats[2 - outcome.winner]
        key = _ENDED_BY_A_PLAYER[outcome.termination]
        return Text(key, {"player": loser.name, "winner": winner.name})
    return Text("game.won", {"player": winner.name, "mark": MARKS[outcome.winner]})


def board_view(session: Session, *, ended: Text | None = None) -> BoardView:
    """The board of ``session`` as adapters draw it.

    Args:
        session: the game.
        ended: for a game that was just deleted without a result: the status line to show;
            nothing is playable then, and the board is one version later (the deletion was a
            change: the buttons of the board before it are stale).
    """
    position = session.position()
    running = session.status is Status.ACTIVE and not position.is_over and ended is None
    rules = position.rules
    playable = position.legal_moves() if running else ()
    return BoardView(
        session_id=session.id,
        version=session.version if ended is None else session.version + 1,
        rules=rules,
        cells=board_cells(position, playable),
        playable=playable,
        players=(_player_view(session.seats[0]), _player_view(session.seats[1])),
        to_move=position.to_move if running else None,
        finished=not running and session.status is not Status.CHALLENGE,
        status=ended if ended is not None else status_text(session, position),
        deadline=session.deadline if running else None,
        starter=session.challenger,
        public_id=session.public_id,
    )


def board_cells(position: Position, playable: tuple[int, ...]) -> tuple[CellView, ...]:
    """The cells of ``position`` as adapters draw them, row-major; on a free board the cells of
    ``playable`` are clickable."""
    rules = position.rules
    winning = frozenset(position.winning_line)
    last = position.last_cell
    free = frozenset(playable) if not rules.gravity else frozenset()
    first, second = position.stones
    # Straight from the bitboards: Position.cell() per cell costs a geometry lookup each.
    return tuple(
        CellView(
            index=index,
            row=index // rules.cols,
            col=index % rules.cols,
            mark=1 if first >> bit & 1 else 2 if second >> bit & 1 else 0,
            clickable=index in free,
            winning=index in winning,
            last=index == last,
        )
        for index, bit in enumerate(position.geometry.cell_bits)
    )


def board_reply(
    session: Session,
    *,
    new_message: bool = False,
    text: Text | None = None,
    result: bool = True,
) -> Reply:
    """The board of ``session``; a finished game carries its result and offers a rematch.

    Args:
        new_message: post a new board message rather than update the existing one.
        text: a message to show with the board (overrides the result text).
        result: show the result text of a finished game (False when repeating a board).
    """
    view = board_view(session)
    actions: tuple[ActionKind, ...] = ()
    if session.status is Status.FINISHED:
        # Review only where the game can be solved exactly: a button that always says "no"
        # would be noise.
        reviewable = can_review(session.rules)
        actions = (ActionKind.REMATCH, ActionKind.REVIEW) if reviewable else (ActionKind.REMATCH,)
        if session.outcome is not None and session.outcome.termination is Termination.ABANDONED:
            # Someone left: a Rematch button would challenge a player who is not there.
            actions = actions[1:]
        if len(session.chats) > 1:  # an open game: its players may block each other
            actions = (*actions, ActionKind.BLOCK)
        if result and text is None:
            text = view.status
    return Reply(
        text=text,
        board=view,
        new_message=new_message,
        actions=actions,
        session_id=session.id,
        version=session.version,
    )


def error_reply(error: UserError, session_id: str | None = None) -> Reply:
    """A player's mistake, shown only to them where the platform can."""
    return Reply(
        text=Text(error.key, dict(error.params)),
        session_id=session_id,
        private=True,
        error=True,
    )


def board_changed(session: Session) -> list[Reply]:
    """The board as it now stands, then a private "the board changed" (a lost race or a stale
    button)."""
    replies: list[Reply] = []
    if session.status is not Status.CHALLENGE:
        replies.append(board_reply(session, result=False))
    replies.append(
        Reply(
            text=Text("error.board_changed"),
            session_id=session.id,
            version=session.version,
            private=True,
            error=True,
        )
    )
    return replies
