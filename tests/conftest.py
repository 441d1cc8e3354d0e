"""Fixtures shared by every test folder: the stores, SQLite and PostgreSQL, behind one interface.

``backend`` runs a test once per store kind (ids ``[sqlite]`` and ``[postgres]``): a fresh
database each time. The PostgreSQL server is started once per test session, on the first test
that needs it, and stopped at the end; when it cannot start, those tests fail and say why.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.backends import KINDS, Backend, Backends


@pytest.fixture(scope="session")
def backends() -> Iterator[Backends]:
    """Fresh databases of either kind for the whole session (one PostgreSQL server)."""
    made = Backends()
    try:
        yield made
    finally:
        made.close()


@pytest.fixture(params=KINDS)
async def backend(
    request: pytest.FixtureRequest, backends: Backends, tmp_path: Path
) -> AsyncIterator[Backend]:
    """A fresh database of each kind in turn."""
    async with backends.fresh(request.param, tmp_path) as fresh:
        yield fresh
