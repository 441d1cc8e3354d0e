"""Games whose chat lost a player or the bot: ended as abandoned, so nobody is held hostage.

A player who leaves a chat (a Matrix room, a Discord server) cannot finish their games there, and
a chat the bot left (or that was deleted) can never see a move again. Their live games end as
``abandoned`` and their open challenges are withdrawn, each a compare-and-set on the session's
version: a move that arrives in the same instant either counts before the game ends, or finds
it ended. The player who stayed wins a game in which a move was played, has nothing counted
against them, and may start another game at once (a finished game holds nobody). They are told
where the bot can still write (an open game, one game in two chats, in each of its chats the bot
is still in) through the outbox: the notices are left in the end's own transaction, so a
process killed after the commit loses none, and the relay shows them at once (a chat another
process serves, by that process).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from core.i18n import Text
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.openplay.open_games import recording
from core.sessions.openplay.relay import Relay, Shown
from core.sessions.play.model import Event, abandoned, check_removal
from core.sessions.views import board_reply, board_view
from core.store import Session, Status, departures, sessions
from core.store.models import JsonValue, Kind, OutboxItem

log = logging.getLogger("core.sessions")

Chats = set[tuple[str, str]]
"""Chats, as ``(platform, chat id)``."""

_ATTEMPTS = 5
"""Compare-and-sets tried on one session: each failure means a move (or an end) landed first,
and a game whose player left can take only a few more of those."""


class Departures:
    """Ends the games and challenges of a chat the bot left, or of a player who left a chat."""

    def __init__(self, ctx: Context, relay: Relay) -> None:
        self._ctx = ctx
        self._relay = relay
        relay.renders(Kind.ABANDONED, self._render)

    async def abandon(
        self,
        platform: str,
        chat_ids: Sequence[str],
        user_id: str | None,
        server_id: str | None = None,
    ) -> int:
        """End the live sessions in ``chat_ids`` and the chats of ``server_id`` (all, or those
        of ``user_id``); how many ended here (a session ended meanwhile by a move or by another
        process is not counted)."""
        ended = 0
        store = self._ctx.store
        found_all = await store.run(
            departures.live_in_chats(platform, chat_ids, user_id, server_id=server_id)
        )
        left = {(platform, chat_id) for chat_id in chat_ids}
        if server_id is not None:  # every chat of the server is left, listed or not
            left.update(*(_in_server(found, platform, server_id) for found in found_all))
        for found in found_all:
            if len(found.chats) > 1:
                # Told here in every chat the bot is still in, so OtherChats.followed leaves
                # the other one to us.
                with recording():
                    replies = await self._end_retrying(
                        found, user_id, left, left if user_id is None else set()
                    )
            else:
                # Where a player left, the bot is still there to tell the others.
                told = None if user_id is None else set[tuple[str, str]]()
                replies = await self._end_retrying(found, user_id, left, told)
            if replies is not None:
                ended += 1
        if ended:
            await self._show()
            log.info(
                "abandoned %d games and challenges: platform=%s user=%s chats=%d",
                ended,
                platform,
                user_id or "<the bot>",
                len(chat_ids),
                extra={"action": "abandon"},
            )
        return ended

    async def _show(self) -> None:
        """Show the notices just left in the outbox with the ends, before the caller goes on
        (as a pass does: the chats this process serves; the others' are their processes')."""
        try:
            await self._relay.deliver()
        except Exception:
            # The games are ended and the notices stored: the next pass shows them.
            log.exception("could not show abandoned games yet", extra={"action": "abandon"})

    async def live_chats(self, platform: str, server_id: str) -> list[str]:
        """The chats of ``server_id`` that show a live game or challenge, each once."""
        found = await self._ctx.store.run(
            departures.live_in_chats(platform, [], server_id=server_id)
        )
        chats = (chat for session in found for chat in _in_server(session, platform, server_id))
        return list(dict.fromkeys(chat_id for _, chat_id in chats))

    async def opponent_left(
        self, actor: Actor, session: Session | None = None, *, tell: bool = False
    ) -> list[Reply]:
        """Where the platform can say who is still in a chat (:attr:`PlatformStyle.in_chat`:
        Discord without its privileged member events): end the actor's game here (``session``,
        or their live game) as abandoned when their opponent has left the chat. The replies that
        show the end (also published to the chat when ``tell``), or none when nothing ended.
        """
        style = self._ctx.styles.get(actor.platform)
        in_chat = None if style is None else style.in_chat
        if in_chat is None:
            return []
        if session is None:
            session = await self._ctx.live_game(actor)
        opponent = None if session is None else _opponent(session, actor.user_id)
        if session is None or opponent is None:
            return []
        seat = session.seat_of(opponent)
        where = session.chat_of(seat) if seat is not None else (session.platform, session.chat_id)
        if where != (actor.platform, actor.chat_id):
            # An open game's opponent plays from another chat (another server, or the other
            # platform): whether they are a member here says nothing. Their own chat's
            # departure, or the clock, ends the game.
            return []
        try:
            here = await in_chat(actor, opponent)
        except Exception:
            log.exception("could not tell whether a player left", extra={"action": "abandon"})
            return []
        if here is not False:  # still here, or the platform cannot tell
            return []
        replies = await self._end_retrying(session, opponent, {where}, set() if tell else None)
        if replies is None:
            return []
        if tell:
            await self._show()
        return replies

    async def _end_retrying(
        self, session: Session, user_id: str | None, left: Chats, gone: Chats | None
    ) -> list[Reply] | None:
        """:meth:`_end`, again on the stored game while a move or an end comes first and it is
        still live (and still ``user_id``'s). ``left``: the chats left; ``gone``: the chats
        not to tell (the bot is not there), None to tell none."""
        current: Session | None = session
        for _ in range(_ATTEMPTS):
            if current is None or not _concerns(current, user_id):
                return None
            leaver = _leaver(current, user_id, left)
            replies = await self._end(current, leaver, _told(current, user_id, gone))
            if replies is not None:
                return replies
            current = await self._ctx.store.run(sessions.get(current.id))
        return None

    async def _end(
        self, session: Session, leaver: int | None, told: list[tuple[str, str, int | None]]
    ) -> list[Reply] | None:
        """End ``session`` (``leaver``: the seat of the player who left, if seated) if it is
        still the stored version, telling the chats ``told`` (see :func:`_told`) through the
        outbox; the replies that show it, or None when it changed meanwhile."""
        ctx = self._ctx
        if session.status is Status.CHALLENGE:
            check_removal(session, Event.LEAVE)
            name = session.seats[leaver - 1].name if leaver is not None else ""
            version = session.version + 1
            if not await ctx.delete(session, _notices(session, version, told, {"left": name})):
                return None
            # As a declined challenge: its message says so and loses its buttons.
            return [_challenge_left(name, session.id, version)]
        # The one who stayed claims the game once it has begun; before any move, or with
        # nobody left to claim it (the bot left, a watched bots' game), it counts for nobody.
        winner = 3 - leaver if leaver is not None and session.moves else None
        now, ttl = ctx.now_and_ttl(Status.FINISHED, kept=session)
        after = abandoned(session, winner, now=now, ttl=ttl)
        notices = _notices(session, after.version, told, {})
        if not await ctx.update(after, expected_version=session.version, notices=notices):
            return None
        return _ended(after)

    async def _render(self, item: OutboxItem, session: Session | None) -> Shown | None:
        """The notice as the chat's reader (in ``detail``) sees it: a withdrawn challenge's
        line, or the game's board edited to its end and why (nothing once the game is gone)."""
        detail = item.detail
        server = detail.get("server")
        reader = Actor(
            item.platform,
            item.chat_id,
            str(detail.get("user") or ""),
            str(detail.get("name") or ""),
            locale=self._ctx.settings.default_locale,
            # The chat's own settings (its language): a server's apply as in any request there.
            server_id=None if server is None else str(server),
        )
        if "left" in detail:
            return reader, [_challenge_left(str(detail["left"]), item.session_id, item.version)]
        if session is None or session.status is not Status.FINISHED:
            return None
        return reader, _ended(session)


def _ended(session: Session) -> list[Reply]:
    # The board shows the end; the text, apart, reaches the players (a Matrix notice).
    return [board_reply(session, result=False), Reply(text=board_view(session).status)]


def _challenge_left(name: str, session_id: str | None, version: int) -> Reply:
    text = Text("game.challenge_left", {"player": name})
    return Reply(text=text, session_id=session_id, version=version)


def _told(
    session: Session, user_id: str | None, gone: Chats | None
) -> list[tuple[str, str, int | None]]:
    """The chats to tell of ``session``'s end, each with the seat of the one who reads it
    there: an open game's chats but those the bot is ``gone`` from, each as its seat sees it;
    a game of one chat, as the one who stayed sees it (a bots' game: nobody's). None: none."""
    if gone is None:
        return []
    if len(session.chats) > 1:
        return [(*session.chat_of(n), n) for n in (1, 2) if session.chat_of(n) not in gone]
    stayer = next(
        (
            n
            for n, seat in enumerate(session.seats, start=1)
            if seat.user_id is not None and seat.user_id != user_id
        ),
        None,
    )
    return [(session.platform, session.chat_id, stayer)]


def _notices(
    session: Session,
    version: int,
    told: list[tuple[str, str, int | None]],
    detail: dict[str, JsonValue],
) -> list[OutboxItem]:
    """The notices of ``session``'s end at ``version``, one for each chat of ``told``, with
    who reads it there (the challenge is gone when it is shown)."""
    notices = []
    for platform, chat_id, seat in told:
        person = None if seat is None else session.seats[seat - 1]
        reader: dict[str, JsonValue] = {
            "user": "" if person is None else person.user_id or "",
            "name": "" if person is None else person.name,
            "server": session.server_id if seat is None else session.server_of(seat),
        }
        notices.append(
            OutboxItem(
                Kind.ABANDONED, platform, chat_id, session.id, version, seat, detail | reader
            )
        )
    return notices


def _opponent(session: Session, user_id: str) -> str | None:
    """The person ``user_id`` plays or challenged in ``session`` (None: the bot, or nobody)."""
    if session.status is Status.CHALLENGE:
        return session.challenged if session.challenger == user_id else None
    if session.seat_of(user_id) is None:
        return None
    return next((s.user_id for s in session.seats if s.user_id not in (None, user_id)), None)


def _leaver(session: Session, user_id: str | None, left: set[tuple[str, str]]) -> int | None:
    """The seat of ``user_id`` in a chat they left (an open game's seats sit in two chats),
    or None (the bot left; the starter of a bots' game is seated nowhere)."""
    if user_id is None:
        return None
    for number, seat in enumerate(session.seats, start=1):
        if seat.user_id == user_id and session.chat_of(number) in left:
            return number
    return None


def _in_server(session: Session, platform: str, server_id: str) -> list[tuple[str, str]]:
    """The chats of ``session`` (an open game's two) that are ``platform``'s in that server."""
    return [
        session.chat_of(seat)
        for seat in (1, 2)
        if session.chat_of(seat)[0] == platform and session.server_of(seat) == server_id
    ]


def _concerns(session: Session, user_id: str | None) -> bool:
    """Whether ``session`` is still live and, when a player left, still theirs."""
    if session.status not in (Status.CHALLENGE, Status.ACTIVE):
        return False
    if user_id is None:
        return True
    return user_id in (
        *(seat.user_id for seat in session.seats),
        session.challenger,
        session.challenged,
    )
