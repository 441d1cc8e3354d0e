from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.sessions import GameService
from tests.adapters.matrix.harness import serving


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    """The real service on a fresh SQLite file."""
    async with serving(tmp_path / "chatbots.sqlite3") as service:
        yield service
