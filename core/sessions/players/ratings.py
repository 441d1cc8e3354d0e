"""Ratings as players see them: ``/top`` (a chat's, a Discord server's or everyone's ladder),
the rating lines of ``/stats``, ``/link``, ``/unlink`` and ``/hide`` (off the web pages). The
ratings themselves are written by the store with each rated result
(:mod:`core.store.rating_ops`); the rules are :mod:`core.ratings`'."""

from __future__ import annotations

import secrets
from dataclasses import replace

from core.commands import GameKind, Hide, Ladder, Link, Top
from core.commands.ratings import CODE_ALPHABET, CODE_LENGTH
from core.errors import UserError
from core.games.kinds import pool_title
from core.i18n import Lines, Param, Text
from core.pages import HIDDEN
from core.ports import PlatformStyle
from core.ratings import PROVISIONAL_GAMES, format_delta, is_listed
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.players.weblinks import WebLinks
from core.sessions.views import game_name
from core.store import kv, links, ratings
from core.store.models import Linked
from core.store.ratings import place_of_chat, place_of_server

CODE_SECONDS = 600
"""How long a ``/link`` code works: long enough to switch to the other app, short enough that
a code seen over a shoulder is soon worthless."""
RECENT_CHANGES = 5
"""Rated games ``/stats`` lists."""


class Ratings:
    """Answers ``/top``, ``/link``, ``/unlink``, and the ratings part of ``/stats``."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._links = WebLinks(ctx)

    async def top(self, actor: Actor, command: Top) -> list[Reply]:
        ctx = self._ctx
        kind = command.game or GameKind.QUATRE
        rules = kind.rules
        assert rules is not None  # /top takes only the words of a kind with one board
        pool = kind.pool(rules)
        game = game_name(rules)
        ladder = command.ladder
        said: list[Reply] = []
        if ladder is Ladder.SERVER and actor.server_id is None:
            # A Matrix room, a DM, the console: the chat is the whole place, as the answer says.
            top = f"{ctx.prefix(actor)}top"
            said.append(Reply(text=Text("ratings.top_no_server", {"top": top})))
            ladder = Ladder.CHAT
        place = {
            Ladder.CHAT: place_of_chat(actor.platform, actor.chat_id),
            Ladder.SERVER: place_of_server(actor.platform, actor.server_id or ""),
            Ladder.ALL: None,
        }[ladder]
        rows = await ctx.store.run(ratings.ladder(place, pool, ctx.clock(), ctx.settings.top_size))
        if not rows:
            empty = Text("ratings.top_empty", {"game": game, "games": PROVISIONAL_GAMES})
            return [*said, Reply(text=empty)]
        line = "ratings.top_line_all" if ladder is Ladder.ALL else "ratings.top_line"
        lines = Lines(
            tuple(
                Text(
                    line,
                    {
                        "rank": rank,
                        "name": row.name,
                        "platform": row.platform,
                        "rating": row.rating.display(),
                    },
                )
                for rank, row in enumerate(rows, start=1)
            )
        )
        shown = Text(f"ratings.top.{ladder.value}", {"game": game, "lines": lines})
        links = await self._links.of_ladder(kind, actor, ladder is Ladder.ALL)
        return [*said, Reply(text=shown, links=links)]

    async def annotated(self, replies: list[Reply]) -> list[Reply]:
        """The replies, where one announces the result of a rated game, with both players'
        new ratings and changes under the result ("Alice 1523? (+23) · Bob 1477? (-23)").

        Only a reply that shows a finished board between two people with its result text costs
        a query (the end of a game, once); a board repeated without its result is left alone.
        """
        shown = []
        for reply in replies:
            board = reply.board
            if (
                board is None
                or not board.finished
                or reply.text is None
                or any(player.user_id is None for player in board.players)
            ):
                shown.append(reply)
                continue
            change = await self._ctx.store.run(ratings.rating_change_of(board.session_id))
            if change is None:
                shown.append(reply)
                continue
            line = " · ".join(
                f"{player.name} {after.display()} ({format_delta(delta)})"
                for player, after, delta in zip(
                    board.players, change.after, change.deltas, strict=True
                )
            )
            status = Text("ratings.game_result", {"result": board.status, "change": line})
            # Where the reply's text is the result itself, both say it the same way (Matrix
            # then shows the board's edit alone).
            text = status if reply.text == board.status else reply.text
            shown.append(replace(reply, text=text, board=replace(board, status=status)))
        return shown

    async def with_ratings(self, actor: Actor, user_id: str, results: Text) -> Text:
        """``/stats``' text: the player's results, then their ratings and last rated games if
        they have played any."""
        ctx = self._ctx
        identity, pools = await ctx.store.run(ratings.player_ratings(actor.platform, user_id))
        if not pools:
            return results
        now = ctx.clock()
        lines = []
        for pool in pools:
            params: dict[str, Param] = {
                "pool": Text(*pool_title(pool.pool)),
                "rating": pool.rating.display(),
                "games": pool.rating.games,
            }
            if is_listed(pool.rating, pool.last_rated_at, now):
                params["rank"] = await ctx.store.run(
                    ratings.rating_rank(pool.pool, pool.rating.rating, now)
                )
                lines.append(Text("ratings.stats_line", params))
            else:
                lines.append(Text("ratings.stats_line_unranked", params))
        changes = await ctx.store.run(ratings.rating_changes(identity, RECENT_CHANGES))
        shown = Lines(
            tuple(
                Text(
                    "ratings.recent_change",
                    {"change": format_delta(c.after - c.before), "game": Text(*pool_title(c.pool))},
                )
                for c in changes
            ),
            separator=", ",
        )
        return Text(
            "ratings.stats",
            {
                "results": results,
                "lines": Lines(tuple(lines)),
                "changes": shown if changes else "—",
            },
        )

    async def link(self, actor: Actor, command: Link) -> list[Reply]:
        ctx = self._ctx
        prefix = ctx.prefix(actor)
        if command.code is None:
            if not (ctx.style(actor).private_replies or actor.direct):
                # Everyone in a shared room would read it, and whoever types it joins this
                # player; a direct chat holds the person and the bot alone (adapters say so).
                raise UserError("ratings.link_not_private", prefix=prefix)
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            await ctx.store.run(
                links.link_code(code, actor.platform, actor.user_id, ctx.clock() + CODE_SECONDS)
            )
            text = Text(
                "ratings.link_code",
                {"code": code, "prefix": _other_prefix(ctx, actor), "minutes": CODE_SECONDS // 60},
            )
            return [Reply(text=text, private=True)]
        done = await ctx.store.run(
            links.link(command.code, actor.platform, actor.user_id, ctx.clock())
        )
        if done is Linked.LINKED:
            identity, _ = await ctx.store.run(ratings.player_ratings(actor.platform, actor.user_id))
            other = identity.partition(":")[0]
            return [Reply(text=Text("ratings.linked", {"platform": other}), private=True)]
        raise UserError(f"ratings.link.{done.value}", code=command.code, prefix=prefix)

    async def hide(self, actor: Actor, command: Hide) -> list[Reply]:
        """``/hide``: the player's identity (every account linked with this one) leaves the web
        pages or comes back to them (a kv row, :data:`core.pages.HIDDEN`, read by the pages)."""
        store = self._ctx.store
        identity, _ = await store.run(ratings.player_ratings(actor.platform, actor.user_id))
        if command.hidden:
            await store.run(kv.kv_set(HIDDEN, identity, "1"))
            text = Text("ratings.hidden", {"prefix": self._ctx.prefix(actor)})
        else:
            await store.run(kv.kv_delete(HIDDEN, identity))
            text = Text("ratings.unhidden")
        return [Reply(text=text, private=True)]

    async def unlink(self, actor: Actor) -> list[Reply]:
        left = await self._ctx.store.run(links.unlink(actor.platform, actor.user_id))
        if not left:
            raise UserError("ratings.not_linked")
        return [Reply(text=Text("ratings.unlinked", {"count": left}), private=True)]


def _other_prefix(ctx: Context, actor: Actor) -> str:
    """How the code is typed on the player's other platform: the prefix the other platforms
    served here share (Discord's ``/`` for a code given on Matrix, Matrix's ``!`` for one given
    on Discord), else the usual ``/``."""
    others = {style.prefix for name, style in ctx.styles.items() if name != actor.platform}
    return others.pop() if len(others) == 1 else PlatformStyle(actor.platform).prefix
