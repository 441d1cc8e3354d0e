"""The sessions codec: every valid session survives the round trip; any row at all either
loads as a valid session or is refused with BadRow (never another error)."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from core.ai import Level
from core.games import Outcome, Position, Rules, Termination
from core.store import Seat, Session, Status
from core.store.rows import SESSION_COLUMNS, BadRow, decode_moves, decode_session, session_row

# Finished games whose board goes on: ended by a player, a clock or from outside.
CUT_SHORT = (
    Outcome(Termination.RESIGNATION, 1),
    Outcome(Termination.RESIGNATION, 2),
    Outcome(Termination.TIMEOUT, 1),
    Outcome(Termination.ABANDONED, 2),
    Outcome(Termination.ABANDONED),  # nobody stayed to claim it
    Outcome(Termination.STOPPED),
)


@st.composite
def sessions(draw: st.DrawFn) -> Session:
    gravity = draw(st.booleans())
    rows = draw(st.integers(3, 8))
    cols = draw(st.integers(3, 8))
    rules = Rules(rows, cols, draw(st.integers(3, max(rows, cols))), gravity=gravity)
    position = Position.start(rules)
    for _ in range(draw(st.integers(0, rules.cells))):
        if position.is_over:
            break
        position = position.play(draw(st.sampled_from(position.legal_moves())))

    def seat() -> Seat:
        if draw(st.booleans()):
            return Seat.bot(draw(st.sampled_from(Level)))
        return Seat.person(draw(st.text(min_size=1, max_size=12)), draw(st.text(max_size=20)))

    times = st.floats(0, 4e9, allow_nan=False)
    status = Status.FINISHED if position.is_over else draw(st.sampled_from(Status))
    outcome = position.outcome
    if status is Status.FINISHED and outcome is None:
        outcome = draw(st.sampled_from(CUT_SHORT))
    return Session(
        id=draw(st.text(min_size=1, max_size=10)),
        platform=draw(st.sampled_from(["discord", "matrix", "console"])),
        chat_id=draw(st.text(max_size=30)),
        seats=(seat(), seat()),
        rules=rules,
        moves=position.moves,
        status=status,
        version=draw(st.integers(1, 2**62)),
        created_at=draw(times),
        updated_at=draw(times),
        expires_at=draw(times),
        challenger=draw(st.none() | st.text(max_size=12)),
        challenged=draw(st.none() | st.text(max_size=12)),
        outcome=None if status is not Status.FINISHED else outcome,
        berserk=draw(st.integers(0, 3)),
    )


@given(sessions())
def test_every_valid_session_round_trips(session: Session) -> None:
    assert decode_session((1, *session_row(session))) == session


ANY_VALUE = (
    st.none()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=True)
    | st.text(max_size=20)
    | st.binary(max_size=8)
    | st.sampled_from(["0,1,2", "4", "", "easy", "hard", "active", "finished", "challenge"])
)


@given(st.data())
def test_any_row_loads_or_is_refused_with_a_reason(data: st.DataObject) -> None:
    valid = session_row(data.draw(sessions()))
    # Damage a few columns of a valid row with values of any type SQLite can hold.
    damaged: list[Any] = list(valid)
    for index in data.draw(st.sets(st.integers(0, len(SESSION_COLUMNS) - 1), max_size=4)):
        damaged[index] = data.draw(ANY_VALUE)
    try:
        session = decode_session((7, *damaged))
    except BadRow as bad:
        assert str(bad)
    else:
        # What loads is a playable game: its history replays under its rules.
        assert Position.from_moves(session.rules, session.moves).moves == session.moves
        assert isinstance(session.version, int)


@given(st.text(max_size=30) | st.from_regex(r"[0-9]{1,3}(,[0-9]{1,3}){0,5}", fullmatch=True))
def test_moves_parse_only_as_plain_numbers(text: str) -> None:
    plain = re.fullmatch(r"[0-9]+(,[0-9]+)*", text, flags=re.ASCII) is not None
    try:
        moves = decode_moves(text)
    except BadRow:
        assert not plain and text
    else:
        assert plain or not text
        assert moves == tuple(int(part) for part in text.split(",") if part)
