"""Where play is public: the chats and servers whose admins turned ``public_ladder`` on.

The one rule for every page that lists games (issue 33: games from DMs and private rooms are
never listed anywhere). The store cannot tell a private room or channel from a public one, so
only the admins' choice makes a place public: a Discord server (a DM belongs to none), or
another platform's chat (a Matrix room). A game is played in public when every chat it is
shown in is, so an open game's other chat must have chosen it too.
"""

from __future__ import annotations

from core.admin.keys import Effective
from core.admin.scopes import CHAT, SERVER
from core.store.models.session import Session
from core.store.sql import Op, rows

Places = frozenset[tuple[str, str]]
"""``(platform, scope)`` pairs, scopes as the settings table writes them."""


def public_places() -> Op[Places]:
    """Every place whose ``public_ladder`` setting is on."""
    key = Effective.public_ladder
    found = yield rows("SELECT platform, scope, value FROM settings WHERE key = $1", key.name)
    return frozenset((str(r[0]), str(r[1])) for r in found if key.parse(str(r[2])))


def chat_in_public(platform: str, chat_id: str, server_id: str | None, public: Places) -> bool:
    """Whether the chat ``chat_id`` (of Discord server ``server_id``, if any) is public."""
    if platform == "discord":
        return server_id is not None and (platform, SERVER + server_id) in public
    return (platform, CHAT + chat_id) in public


def seat_in_public(session: Session, seat: int, public: Places) -> bool:
    """Whether seat ``seat`` (1 or 2) of ``session`` plays in a public place."""
    return chat_in_public(*session.chat_of(seat), session.server_of(seat), public)


def played_in_public(session: Session, public: Places) -> bool:
    """Whether every chat of ``session`` is a public place: then a page may list it."""
    return all(seat_in_public(session, seat, public) for seat in (1, 2))
