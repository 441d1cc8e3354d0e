"""Links from the chat to the web pages, where ``PUBLIC_URL`` is set and the chat's
``web_links`` setting is on (the default): a game's board links to its page once it is over
and to its live page while it runs, ``/review`` to the game's page, ``/stats`` to the player's
page and their last games in this chat, ``/top`` to the game's ladder, ``/tournament`` to the
event's page. The addresses are made
by :mod:`core.pages.addresses`; each adapter shows :attr:`core.replies.Reply.links` its own way.

A game's address is unguessable (:attr:`core.store.Session.public_id`), so a game of a direct
chat may be linked there for its players; ``/stats`` links only games of the chat it is asked
in, which that chat has seen already.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from core.admin.keys import Effective
from core.commands import GameKind
from core.i18n import Text
from core.pages.addresses import Addresses
from core.pages.ops import ladder_public, page_hidden
from core.pages.paths import GAMES
from core.pages.recent import recent_games
from core.replies import Actor, BoardView, Reply, WebLink
from core.sessions.context import Context
from core.store import Session, ratings

RECENT_LINKS = 3
"""A player's last games in the chat that ``/stats`` links (with their page, four links: a
row of Discord's buttons holds five)."""


class WebLinks:
    """The links of replies to the web pages (see the module docstring)."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        url = ctx.settings.public_url
        self._at = Addresses(url) if url else None

    def of_game(self, session: Session) -> tuple[WebLink, ...]:
        """A finished game's page (``/review``); none for a game without moves, which has
        nothing to show."""
        if self._at is None or not session.moves:
            return ()
        return (WebLink(Text("links.game"), self._at.game(session.public_id)),)

    def of_event(self, public_id: str) -> tuple[WebLink, ...]:
        """A tournament's page (``/tournament``; its address is unguessable, as a game's)."""
        if self._at is None:
            return ()
        return (WebLink(Text("links.event"), self._at.event(public_id)),)

    async def of_ladder(self, kind: GameKind, actor: Actor, everyone: bool) -> tuple[WebLink, ...]:
        """``/top``'s ladder of ``kind``, where the pages have one: the actor's Discord
        server's, or their room's, where its admins turned ``public_ladder`` on (the page of
        the players ``/top server`` or a room's ``/top`` lists); else, and for ``everyone``
        (``/top all``), the global ladder."""
        if self._at is None or kind not in GAMES:
            return ()
        place = actor.server_id if actor.server_id is not None else actor.chat_id
        if not everyone and await self._ctx.store.run(ladder_public(actor.platform, place)):
            url = self._at.local_ladder(kind.word, actor.platform, place)
        else:
            url = self._at.ladder(kind.word)
        return (WebLink(Text("links.ladder"), url),)

    async def of_player(self, actor: Actor, user_id: str, name: str) -> tuple[WebLink, ...]:
        """``/stats``: the player's page (when they have a rated game and have not hidden
        themselves, ``/hide``), then their last games in the actor's chat."""
        if self._at is None:
            return ()
        store = self._ctx.store
        links = []
        identity, pools = await store.run(ratings.player_ratings(actor.platform, user_id))
        if pools and not await store.run(page_hidden((identity,))):
            links.append(WebLink(Text("links.player", {"player": name}), self._at.player(identity)))
        games = await store.run(recent_games(actor.platform, actor.chat_id, user_id, RECENT_LINKS))
        links.extend(
            WebLink(Text("links.recent", {"index": n}), self._at.game(public_id))
            for n, public_id in enumerate(games, start=1)
        )
        return tuple(links)

    def marked(self, replies: Sequence[Reply], chat: Effective | None) -> list[Reply]:
        """``replies`` with each board's link added, or with no link at all where the chat's
        ``web_links`` is off (or its settings could not be read: the admins may have turned
        them off). Marking twice gives the same replies."""
        if self._at is None:
            return list(replies)
        on = chat is not None and bool(chat.web_links)
        marked = []
        for reply in replies:
            if not on:
                if reply.links:
                    reply = dataclasses.replace(reply, links=())
            elif reply.board is not None and not reply.links:
                link = self._of_board(reply.board)
                if link is not None:
                    reply = dataclasses.replace(reply, links=(link,))
            marked.append(reply)
        return marked

    def _of_board(self, board: BoardView) -> WebLink | None:
        """A board's link: the game's page once it is over, its live page while it runs;
        none for a challenge or a game ended before its first move."""
        assert self._at is not None
        if board.public_id is None or not any(cell.mark for cell in board.cells):
            return None
        if board.finished:
            return WebLink(Text("links.game"), self._at.game(board.public_id))
        if board.to_move is not None:
            return WebLink(Text("links.live"), self._at.live(board.public_id))
        return None
