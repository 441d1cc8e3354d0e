"""``core`` stays free of platforms and I/O: checked in a fresh interpreter, so that nothing
imported by other tests hides a dependency."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# No I/O library at all in the pure packages; numba only once the solver is first used.
PURE = ("core.games", "core.ai", "core.commands")
NOT_IN_PURE = ("discord", "nio", "aiosqlite", "aiohttp", "asyncio", "socket", "ssl", "sqlite3")
NOT_IN_CORE = ("discord", "nio")


def loaded_after(code: str) -> set[str]:
    """Top-level names of the modules loaded by ``code`` in a fresh interpreter."""
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return {name.split(".")[0] for name in json.loads(result.stdout.splitlines()[-1])}


def test_pure_packages_import_no_io_library_and_no_numba() -> None:
    loaded = loaded_after("\n".join(f"import {name}" for name in PURE))
    assert not loaded & {*NOT_IN_PURE, "numba", "llvmlite"}


def test_all_of_core_imports_neither_discord_nor_nio() -> None:
    code = (
        "import importlib, pkgutil, core\n"
        "for info in pkgutil.walk_packages(core.__path__, 'core.'):\n"
        "    importlib.import_module(info.name)\n"
    )
    loaded = loaded_after(code)
    assert "core" in loaded
    assert not loaded & set(NOT_IN_CORE)
