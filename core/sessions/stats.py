"""Results: ``/stats`` for a player and ``/top`` for a chat (counted by the store, in the same
transaction that finishes a game)."""

from __future__ import annotations

from core.commands import Stats
from core.i18n import Lines, Text
from core.replies import Actor, Reply
from core.sessions.context import Context


class Results:
    """Answers ``/stats`` and ``/top``."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx

    async def stats(self, actor: Actor, command: Stats) -> list[Reply]:
        ctx = self._ctx
        if command.user is None:
            user_id, name = actor.user_id, actor.display_name
        elif command.name is not None:  # resolved by the platform (a slash command's option)
            user_id, name = command.user, command.name
        else:
            user_id = ctx.style(actor).user_id(actor, command.user)
            name = command.user.strip()
        total = await ctx.store.player_stats(actor.platform, user_id)
        if total is None:
            return [Reply(text=Text("stats.none", {"player": name}))]
        here = await ctx.store.player_stats(actor.platform, user_id, actor.chat_id)
        return [
            Reply(
                text=Text(
                    "stats.player",
                    {
                        "player": total.name if command.user is not None else name,
                        "wins": total.wins,
                        "losses": total.losses,
                        "draws": total.draws,
                        "chat_wins": here.wins if here else 0,
                        "chat_losses": here.losses if here else 0,
                        "chat_draws": here.draws if here else 0,
                    },
                )
            )
        ]

    async def top(self, actor: Actor) -> list[Reply]:
        ctx = self._ctx
        rows = await ctx.store.top(actor.platform, actor.chat_id, ctx.settings.top_size)
        if not rows:
            return [Reply(text=Text("stats.top_empty"))]
        lines = Lines(
            tuple(
                Text(
                    "stats.top_line",
                    {
                        "rank": rank,
                        "name": row.name,
                        "wins": row.wins,
                        "losses": row.losses,
                        "draws": row.draws,
                    },
                )
                for rank, row in enumerate(rows, start=1)
            )
        )
        return [Reply(text=Text("stats.top", {"lines": lines}))]
