"""``core`` stays free of platforms, and its pure packages free of I/O: every module imported in
a fresh interpreter, so that nothing imported by other tests hides a dependency."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The pure packages: rules, players and parsing, with no I/O at all (no network, store, event
# loop, processes or thread pools: the AI's processes are core.workers'), and numba only once
# the solver is first used.
PURE = (
    *("core.games", "core.ai", "core.commands", "core.pictures"),
    *("core.pairing", "core.tournaments", "core.puzzles"),
)
# values and tables without I/O that the pure packages share with the rest of core
PURE_MAY_USE = (
    *PURE,
    "core.errors",
    "core.i18n",
    "core.render",
    "core.replies",
    "core.admin.keys",
    "core.admin.scopes",
    "core.admin.durations",
    "core.admin.zones",  # the timezone setting's names: the standard library's zoneinfo
    "core.admin.kind",  # what a setting's value is, which keys and daily share
    "core.admin.daily",  # the daily_puzzle setting's value, read in a zone
    # matchmaking's rating window (core.pairing.seeks) starts at their deviation; the puzzles
    # rate attempts with their OpenSkill update
    "core.ratings",
)
NOT_IN_PURE = (
    *("discord", "nio", "aiohttp", "socket", "ssl", "selectors"),  # network
    *("aiosqlite", "sqlite3", "asyncpg"),  # stores
    *("asyncio", "concurrent", "multiprocessing", "subprocess", "ctypes"),  # processes, pools
    *("numba", "llvmlite"),  # compiled on first use, not on import
)
NOT_IN_CORE = ("discord", "nio")


def every_module_of(*packages: str) -> str:
    """Code that imports every module of ``packages``, subpackages included."""
    return (
        "import importlib, pkgutil\n"
        f"for root in {packages!r}:\n"
        "    package = importlib.import_module(root)\n"
        "    for info in pkgutil.walk_packages(package.__path__, root + '.'):\n"
        "        importlib.import_module(info.name)\n"
    )


def loaded_after(code: str) -> set[str]:
    """The names of the modules loaded by ``code`` in a fresh interpreter."""
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def top_level(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def test_every_module_of_the_pure_packages_imports_no_io_library_and_no_numba() -> None:
    loaded = loaded_after(every_module_of(*PURE))
    # the walk reached the leaves (it proves nothing otherwise)
    assert {"core.ai.engine", "core.ai.solver", "core.games.rules", "core.commands.text"} <= loaded
    assert not top_level(loaded) & set(NOT_IN_PURE)


def test_the_pure_packages_use_no_other_part_of_core() -> None:
    loaded = loaded_after(every_module_of(*PURE))
    outside = {
        name
        for name in loaded
        if name.startswith("core.")
        and not any(
            name == part or name.startswith(part + ".") or part.startswith(name + ".")
            for part in PURE_MAY_USE
        )
    }
    assert not outside


def test_all_of_core_imports_neither_discord_nor_nio() -> None:
    loaded = loaded_after(every_module_of("core"))
    assert {"core.workers.runner", "core.sessions.service", "core.store.sqlite"} <= loaded
    assert not top_level(loaded) & set(NOT_IN_CORE)


# The settings (core.admin) sit below the parts that read them: the commands parse their names,
# the pictures draw the themes they name, the service applies them. What the settings need of
# those (the theme names, the /settings scope) lives here or lower.
ADMIN_MAY_NOT_IMPORT = ("core.commands", "core.pictures", "core.sessions", "core.workers")


def _imported(node: ast.AST) -> list[str]:
    """The modules an import statement names (none for any other node)."""
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module]
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return []


def _imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth (type-only imports too)."""
    tree = ast.parse(path.read_text(), str(path))
    return {name for node in ast.walk(tree) for name in _imported(node)}


def test_the_settings_import_nothing_above_or_beside_them() -> None:
    written = {
        (str(path.relative_to(ROOT)), name)
        for path in sorted((ROOT / "core" / "admin").glob("*.py"))
        for name in _imports_of(path)
        if name.startswith(ADMIN_MAY_NOT_IMPORT)
    }
    assert not written
    # and nothing they import brings those in (the settings table alone, in a fresh process)
    loaded = loaded_after("import core.admin.keys, core.admin.scopes, core.admin.durations")
    assert "core.admin.scopes" in loaded
    assert not {name for name in loaded if name.startswith(ADMIN_MAY_NOT_IMPORT)}


# What adapters may see of core: its public faces. The service, the store's implementations,
# the AI and the admin settings reach them only through core.ports (docs/architecture.md).
ADAPTERS_MAY_IMPORT = (
    "core.commands",
    "core.errors",
    "core.games",
    "core.i18n",
    "core.leases",
    "core.pages",  # what the web pages show, and their reads of the store
    "core.pictures",
    "core.ports",
    "core.render",
    "core.replies",
    "core.store.port",  # Store, for type hints
    "core.store.kv",  # adapter state: operations run by the store
    "core.store.boards",  # where boards are shown: operations run by the store
    "core.store.leases",
)


def test_adapters_import_only_the_public_faces_of_core() -> None:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "adapters").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module == "core.store":
                names = [f"core.store.{alias.name}" for alias in node.names]  # its modules
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
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


def test_the_pages_values_load_no_web_library() -> None:
    # core.pages says what a page shows; the HTML and aiohttp are adapters/web's.
    loaded = loaded_after(every_module_of("core.pages"))
    assert "core.pages.reads" in loaded
    assert not top_level(loaded) & {"aiohttp", "jinja2", "markupsafe", *NOT_IN_CORE}


# The pages draw the service's boards (core.pages.live imports core.sessions' views) and the
# service links to the pages (core.sessions.players.weblinks imports their addresses): each
# imports what it needs of the other at the top of a module, never inside a function, where an
# import hides a cycle until another order of imports meets it. What the service needs of the
# pages sits below both (core.pages.paths' GAMES; core.render's move_label).
BOTH_WAYS = ("core.sessions", "core.pages")


def test_the_service_and_the_pages_import_each_other_at_the_top_only() -> None:
    hidden = set()
    for package in BOTH_WAYS:
        for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
            for function in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                names = {
                    name
                    for node in ast.walk(function)
                    for name in _imported(node)
                    if name.startswith(BOTH_WAYS)
                }
                hidden |= {(str(path.relative_to(ROOT)), function.name, name) for name in names}
    assert not hidden
