"""``core`` stays free of platforms and I/O: checked in a fresh interpreter, so that nothing
imported by other tests hides a dependency."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# No I/O library at all in the pure packages; numba only once the solver is first used.
PURE = ("core.games", "core.ai", "core.commands", "core.pictures")
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


# What adapters may see of core: its public faces. The service, the store's implementations,
# the AI and the admin settings reach them only through core.ports (docs/architecture.md).
ADAPTERS_MAY_IMPORT = (
    "core.commands",
    "core.errors",
    "core.games",
    "core.i18n",
    "core.leases",
    "core.pictures",
    "core.ports",
    "core.render",
    "core.replies",
    "core.store.base",  # the protocols, for type hints
)


def test_adapters_import_only_the_public_faces_of_core() -> None:
    import ast

    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "adapters").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name == "core" or name.startswith("core."):
                    found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    assert found, "the walk found no import of core: it proves nothing"
    outside = {
        name: where
        for name, where in found.items()
        if not any(name == face or name.startswith(face + ".") for face in ADAPTERS_MAY_IMPORT)
    }
    assert not outside
