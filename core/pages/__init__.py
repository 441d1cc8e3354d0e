"""What the web pages show, as plain values (:mod:`core.pages.views`), read from the store by
:mod:`core.pages.reads` (and, for the games in progress, :mod:`core.pages.live`, followed by
:mod:`core.pages.feed`). No HTML and no network here: ``adapters/web`` draws these values."""

from core.pages.chart import Chart, chart
from core.pages.names import NAME_LENGTH, shown_name
from core.pages.ops import HIDDEN
from core.pages.paths import GAMES
from core.pages.reads import Pages
from core.pages.views import (
    HomePage,
    LadderEntry,
    LadderPage,
    PlayerPage,
    PlayerPool,
    RecentGame,
)
from core.ratings import PROVISIONAL_GAMES as SETTLED_GAMES

__all__ = [
    "GAMES",
    "HIDDEN",
    "NAME_LENGTH",
    "SETTLED_GAMES",
    "Chart",
    "HomePage",
    "LadderEntry",
    "LadderPage",
    "Pages",
    "PlayerPage",
    "PlayerPool",
    "RecentGame",
    "chart",
    "shown_name",
]
