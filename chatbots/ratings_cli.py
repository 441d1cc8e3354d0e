"""``chatbots ratings rebuild``: every rating recomputed from the stored log of rated games (and
merges of linked accounts), compared with the ratings the bot keeps (:mod:`core.ratings.rebuild`).

Exit 0 when they agree (rating and deviation within a relative 1e-9, games exactly: the
library may round the last bits differently after an upgrade), 1 when some do not (each one
printed, up to :data:`SHOWN`) or the database failed.
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, TextIO

from chatbots.app import EXIT_FAILED, with_store
from core.ratings import Merge, RatedResult, Rating, rebuild
from core.store import StoreError, ratings

if TYPE_CHECKING:
    from chatbots.settings import Settings
    from core.ratings.rebuild import Key
    from core.store.port import Store

SHOWN = 20
"""Differences printed at most."""


def same(a: Rating | None, b: Rating | None) -> bool:
    """Two ratings agree: the same games, rating and deviation within a relative 1e-9."""
    if a is None or b is None:
        return a is b
    return (
        a.games == b.games
        and math.isclose(a.rating, b.rating, rel_tol=1e-9)
        and math.isclose(a.deviation, b.deviation, rel_tol=1e-9)
    )


async def rebuild_command(settings: Settings, out: TextIO = sys.stdout) -> int:
    """Recompute every rating and compare; the exit code."""

    async def read(store: Store) -> tuple[list[RatedResult | Merge], dict[Key, Rating]]:
        return await store.run(ratings.rating_log()), await store.run(ratings.stored_ratings())

    try:
        log, live = await with_store(settings, read)
    except StoreError as error:
        print(f"chatbots: {error}", file=sys.stderr)
        return EXIT_FAILED
    rebuilt = rebuild(log)
    # A rating the log gives 0 games to is no rating at all (a merge that moved nothing).
    rebuilt = {key: rating for key, rating in rebuilt.items() if rating.games > 0}
    wrong = sorted(
        key for key in live.keys() | rebuilt.keys() if not same(live.get(key), rebuilt.get(key))
    )
    merges = sum(1 for entry in log if isinstance(entry, Merge))
    games = len(log) - merges
    print(f"{len(rebuilt)} ratings from {games} rated games and {merges} merges", file=out)
    for pool, identity in wrong[:SHOWN]:
        print(
            f"differs: {pool} {identity}: kept {live.get((pool, identity))},"
            f" rebuilt {rebuilt.get((pool, identity))}",
            file=out,
        )
    if wrong:
        print(f"{len(wrong)} ratings differ from their rebuild", file=out)
        return EXIT_FAILED
    print("every rating equals its rebuild", file=out)
    return 0
