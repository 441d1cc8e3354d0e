"""The operator's commands, for the person who runs the process (no chat needed):

    chatbots settings SCOPE                  every setting of a scope: value and where it is from
    chatbots settings SCOPE KEY              one setting
    chatbots settings SCOPE KEY VALUE...     set it (``reset`` forgets it)
    chatbots backup PATH                     a consistent copy of the SQLite database, online
    chatbots stats                           games per platform, live games, moves today

SCOPE is ``PLATFORM:server:ID`` (a Discord server), ``PLATFORM:channel:ID`` (one channel of a
server) or ``PLATFORM:CHAT`` (a Matrix room, the console): ``discord:server:123``,
``discord:channel:456``, ``matrix:!room:example.org``, ``console:console``. A running bot sees a
change within ``core.admin.effective.CACHE_SECONDS`` (10 s). Each command returns the exit code
(0 done, 1 the database failed, 2 bad input), and prints one clear line when it refuses.
"""

from __future__ import annotations

import datetime
import getpass
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from chatbots.app import EXIT_CONFIG, EXIT_FAILED, with_store
from core.admin.effective import resolve, write
from core.admin.keys import BY_NAME, HERE, KEYS, Effective
from core.admin.scopes import SERVER, Place, Source, parse_scope
from core.clean import clean_text
from core.commands import RESET
from core.errors import UserError
from core.store import StoreError, archive, ratings, stats
from core.store import settings as store_settings

if TYPE_CHECKING:
    from chatbots.settings import Settings
    from core.store.models.session import PlatformTotals
    from core.store.port import Store

_SOURCES = {
    Source.CHANNEL: "set for this channel",
    Source.SERVER: "set for this server",
    Source.CHAT: "set for this chat",
    Source.PLAYER: "set by this player",
    Source.DEFAULT: "default",
}


async def settings_command(
    settings: Settings, scope: str, words: Sequence[str], out: TextIO = sys.stdout
) -> int:
    """``chatbots settings SCOPE [KEY [VALUE...|reset]]``; the exit code."""
    # Bytes that are not UTF-8 in argv arrive as lone surrogates: cleaned as the service
    # cleans what people type, so that every store can hold them.
    scope, words = clean_text(scope), [clean_text(word) for word in words]
    try:
        place = parse_scope(scope)
    except ValueError as error:
        return _refuse(str(error))
    key = BY_NAME.get(words[0].lower()) if words else None
    if words and key is None:
        return _refuse(f"{words[0]!r} is not a setting; settings: {', '.join(BY_NAME)}")
    value = " ".join(words[1:])
    if key is not None and key.name == "allowed_chats" and HERE in value.lower().split():
        return _refuse("'here' means the chat of whoever types it: give chat ids instead")
    if key is not None and key.name == "daily_puzzle" and _names_no_channel(place, value):
        # A server's value without one is posted nowhere (core.admin.daily).
        return _refuse(
            "a server's daily_puzzle names the channel to post in: give HOUR CHANNEL_ID "
            "(what /settings daily_puzzle HOUR stores when typed in that channel)"
        )

    async def apply(store: Store) -> str:
        (target,) = place.scopes
        if key is not None and value.lower() == RESET:
            await store.run(store_settings.setting_delete(place.platform, target, key.name))
        elif key is not None and value:
            by = f"cli:{getpass.getuser()}"
            now = datetime.datetime.now(datetime.UTC).timestamp()
            await write(store, place.platform, target, key.name, value, by=by, now=now)
        names = [key.name] if key is not None else [k.name for k in KEYS]
        return await _shown(store, settings, place, names)

    try:
        shown = await with_store(settings, apply)
    except UserError as error:
        return _refuse(error.english())
    except StoreError as error:
        return _failed(error)
    print(shown, file=out)
    return 0


def _names_no_channel(place: Place, value: str) -> bool:
    """Whether ``value``, to be set as a server's ``daily_puzzle``, is an hour alone."""
    if not place.scopes[0].startswith(SERVER) or not value or value.lower() == RESET:
        return False
    try:
        daily = Effective.daily_puzzle.parse(value)
    except UserError:
        return False  # write() refuses it in the setting's own words
    return daily is not None and daily.channel is None


async def _shown(store: Store, settings: Settings, place: Place, names: list[str]) -> str:
    rows = await store.run(store_settings.settings_rows(place.platform, place.scopes))
    effective = resolve(rows, place, settings.chat_defaults)
    lines = []
    for name in names:
        shown = BY_NAME[name].show(effective.values[name])
        lines.append(f"{name} = {shown} ({_SOURCES[effective.sources[name]]})")
    return "\n".join(lines)


def backup_command(settings: Settings, path: str, out: TextIO = sys.stdout) -> int:
    """``chatbots backup PATH``: SQLite's online backup of ``DATABASE_PATH`` into a new file.

    The copy is one consistent snapshot (every committed transaction up to its start, none
    half), taken while the bot keeps playing: WAL lets the bot write meanwhile. PostgreSQL has
    its own tool for that, ``pg_dump``.
    """
    if settings.database_url is not None:
        return _refuse(
            "DATABASE_URL is PostgreSQL: back it up with pg_dump (for example "
            "'pg_dump --format=custom --file=chatbots.dump DBNAME'); "
            "chatbots backup copies SQLite databases"
        )
    source, target = Path(settings.database_path), Path(path)
    if not source.is_file():
        return _refuse(f"there is no database at {str(source)!r} (DATABASE_PATH)")
    if target.exists():
        return _refuse(f"{str(target)!r} exists already: give a new file")
    if not target.parent.is_dir():
        return _refuse(f"{str(target.parent)!r} is not a directory")
    try:
        _copy(source, target)
    except sqlite3.Error as error:
        target.unlink(missing_ok=True)
        print(f"chatbots: backup failed: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(f"backed up {source} to {target} ({target.stat().st_size} bytes, checked)", file=out)
    return 0


def _copy(source: Path, target: Path) -> None:
    # One step (pages=-1): the copy is taken under one read transaction, so it is one
    # consistent snapshot; the bot's writers go on meanwhile (WAL).
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            (check,) = dst.execute("PRAGMA integrity_check").fetchone()
            if check != "ok":
                raise sqlite3.DatabaseError(f"the copy failed its integrity check: {check}")
        finally:
            dst.close()
    finally:
        src.close()


async def stats_command(settings: Settings, out: TextIO = sys.stdout) -> int:
    """``chatbots stats``: per platform, live and finished games, results, moves today (UTC)."""
    today = datetime.datetime.now(datetime.UTC).replace(hour=0, minute=0, second=0, microsecond=0)

    async def read(store: Store) -> tuple[list[PlatformTotals], tuple[int, int, int]]:
        return (
            await store.run(stats.totals(today.timestamp())),
            await store.run(ratings.rating_totals()),
        )

    try:
        totals, (rated, rated_games, linked) = await with_store(settings, read)
    except StoreError as error:
        return _failed(error)
    header = ["platform", "live games", "finished (kept)", "results", "moves today"]
    rows = [header]
    rows += [[t.platform, *(str(getattr(t, f)) for f in _FIELDS)] for t in totals]
    rows.append(["all", *(str(sum(getattr(t, f) for t in totals)) for f in _FIELDS)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for row in rows:
        cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        print("  ".join(cells).rstrip(), file=out)
    print(
        "moves today: in games changed since 00:00 UTC that are still stored;"
        " results: one per player per finished game, kept for ever",
        file=out,
    )
    print(
        f"ratings: {rated} (a player in a game's pool), {rated_games} rated games,"
        f" {linked} linked accounts",
        file=out,
    )
    return 0


_FIELDS = ("live", "finished", "results", "moves_since")

BACKFILL_BATCH = 500
"""Games archived per store operation by ``chatbots archive backfill``."""


async def archive_command(settings: Settings, out: TextIO = sys.stdout) -> int:
    """``chatbots archive backfill``: the finished games still stored that the archive lacks
    (ended before the archive existed) archived, so each has its page
    (:func:`core.store.archive.backfill`); safe while the bot runs, and to run again."""

    async def backfill(store: Store) -> int:
        done = 0
        while made := await store.run(archive.backfill(BACKFILL_BATCH)):
            done += made
        return done

    try:
        done = await with_store(settings, backfill)
    except StoreError as error:
        return _failed(error)
    print(f"archived {done} finished games that had no page", file=out)
    return 0


def _refuse(message: str) -> int:
    print(f"chatbots: {message}", file=sys.stderr)
    return EXIT_CONFIG


def _failed(error: Exception) -> int:
    print(f"chatbots: {error}", file=sys.stderr)
    return EXIT_FAILED
