"""The rating core is pure: no I/O library, no store, no sessions, no platform. It takes the games'
own values (``core.games``: how a game ended, which kind it is), themselves pure."""

from __future__ import annotations

import ast
from pathlib import Path

import core.ratings
from tests.core.test_imports import NOT_IN_PURE, loaded_after

PACKAGE = Path(core.ratings.__file__).parent


def test_ratings_load_no_io_library() -> None:
    loaded = loaded_after("import core.ratings")
    assert "openskill" in loaded
    assert not loaded & {*NOT_IN_PURE, "asyncpg", "numba"}


def test_ratings_import_only_themselves_the_library_and_the_standard_library() -> None:
    allowed = {"__future__", "collections", "dataclasses", "enum", "math", "openskill"}
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert (
                    name.startswith(("core.ratings", "core.games")) or name.split(".")[0] in allowed
                ), (
                    path.name,
                    name,
                )
