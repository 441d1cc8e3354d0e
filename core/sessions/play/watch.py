"""Bots' games that people watch: played at a readable pace, one board edited move by move.

Where the platform can show replies after the request that caused them
(:attr:`core.ports.PlatformStyle.publish`), the request answers with the new board at once and
the game goes on in a task of its own: at most one move per ``watch_move_interval`` seconds,
stopped after ``watch_max_seconds``, and by ``/final`` (its compare-and-set then fails and the
task ends). Elsewhere the game is played out within the request, under the same time cap.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Sequence

from core.i18n import Text
from core.replies import Actor, Reply
from core.sessions.context import Context
from core.sessions.play.model import stopped
from core.sessions.play.moves import Moves, Publish
from core.sessions.views import board_reply
from core.store import Session, Status

log = logging.getLogger("core.sessions")


class Watcher:
    """Runs the bots' games; :meth:`close` stops the ones still running."""

    def __init__(self, ctx: Context, moves: Moves) -> None:
        self._ctx = ctx
        self._moves = moves
        self._games: set[asyncio.Task[None]] = set()

    async def watch(self, actor: Actor, session: Session) -> list[Reply]:
        """The stored bots' game ``session``, as the watcher ``actor`` is to see it."""
        self._ctx.observer.game_started(session.platform, session.variant.label)
        first = board_reply(session, new_message=True, text=Text("game.watch"))
        publish = self._ctx.style(actor).publish
        if publish is None:
            replies = [first]

            async def collect(_: Actor, more: Sequence[Reply]) -> None:
                replies.extend(more)

            await self._play(actor, session, collect, paced=False)
            return replies
        # A fresh context: the task must not carry the request's receipt along.
        task = asyncio.create_task(
            self._play(actor, session, publish, paced=True),
            name=f"watch-{session.id}",
            context=contextvars.Context(),
        )
        self._games.add(task)
        task.add_done_callback(self._games.discard)
        return [first]

    async def _play(self, actor: Actor, session: Session, publish: Publish, paced: bool) -> None:
        settings = self._ctx.settings
        started = time.monotonic()
        current = session
        try:
            while current.status is Status.ACTIVE:
                move_started = time.monotonic()
                if move_started - started >= settings.watch_max_seconds:
                    await self._stop(actor, current, publish)
                    return
                following = await self._moves.bot_move(
                    current, settings.bot_vs_bot_budget, interactive=False
                )
                if following is None:  # ended by /final, or expired, meanwhile
                    return
                current = following
                await publish(actor, [board_reply(current)])
                if paced and current.status is Status.ACTIVE:
                    pause = settings.watch_move_interval - (time.monotonic() - move_started)
                    if pause > 0:
                        await asyncio.sleep(pause)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The game stays as stored; its watcher can end it with /final.
            log.exception("bots' game %s stopped by an error", session.id)

    async def _stop(self, actor: Actor, session: Session, publish: Publish) -> None:
        now, ttl = self._ctx.now_and_ttl(Status.FINISHED, kept=session)
        ended = stopped(session, now=now, ttl=ttl)
        if await self._ctx.update(ended, expected_version=session.version):
            await publish(actor, [board_reply(ended)])

    @property
    def running(self) -> int:
        """Bots' games being played now."""
        return len(self._games)

    async def close(self) -> None:
        """Stop every bots' game (each stays stored as it is)."""
        games = list(self._games)
        for task in games:
            task.cancel()
        await asyncio.gather(*games, return_exceptions=True)
