"""``/help`` through the service: one message where it fits Discord's 2,000 characters, else
the commands and then the notes (options, levels, moves) as two; on a real SQLite file."""

from __future__ import annotations

import random
from pathlib import Path

from core.commands import help_text
from core.i18n import LOCALES, render
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore


async def test_help_is_one_or_two_messages_each_within_2000_characters(tmp_path: Path) -> None:
    async with SqliteStore.open(tmp_path / "db.sqlite3") as store:
        svc = GameService(store, settings=ServiceSettings(ai_workers=0), rng=random.Random(1))
        for locale in LOCALES:
            actor = Actor("discord", "games", "alice", "Alice", locale=locale)
            replies = await svc.handle_text(actor, "/help")
            texts = [r.text.render(locale) for r in replies if r.text is not None]
            assert all(r.private for r in replies) and all(len(t) <= 2000 for t in texts)
            assert texts[0].startswith(render("help.title", locale))
            assert render("help.levels", locale) in texts[-1]
            whole = help_text(locale, "/")
            assert len(texts) == (1 if len(whole) <= 2000 else 2)
