"""Results: ``/stats`` for a player (counted by the store, in the same transaction that finishes
a game), with their ratings (:mod:`core.sessions.players.ratings`, which also answers ``/top``)."""

from __future__ import annotations

from core.commands import Stats
from core.i18n import Text
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.players.ratings import Ratings
from core.sessions.players.weblinks import WebLinks
from core.store import stats as store_stats


class Results:
    """Answers ``/stats``."""

    def __init__(self, ctx: Context, ratings: Ratings) -> None:
        self._ctx = ctx
        self._ratings = ratings
        self._links = WebLinks(ctx)

    async def stats(self, actor: Actor, command: Stats) -> list[Reply]:
        ctx = self._ctx
        if command.user is None:
            user_id, name = actor.user_id, actor.display_name
        elif command.name is not None:  # resolved by the platform (a slash command's option)
            user_id, name = command.user, command.name
        else:
            user_id = ctx.style(actor).user_id(actor, command.user)
            name = command.user.strip()
        total = await ctx.store.run(store_stats.player_stats(actor.platform, user_id))
        if total is None:
            return [Reply(text=Text("stats.none", {"player": name}))]
        here = await ctx.store.run(store_stats.player_stats(actor.platform, user_id, actor.chat_id))
        shown = total.name if command.user is not None else name
        results = Text(
            "stats.player",
            {
                "player": shown,
                "wins": total.wins,
                "losses": total.losses,
                "draws": total.draws,
                "chat_wins": here.wins if here else 0,
                "chat_losses": here.losses if here else 0,
                "chat_draws": here.draws if here else 0,
            },
        )
        text = await self._ratings.with_ratings(actor, user_id, results)
        return [Reply(text=text, links=await self._links.of_player(actor, user_id, shown))]
