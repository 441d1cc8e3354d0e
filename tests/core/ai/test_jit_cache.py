"""numba's cache and constants that live in another file (core.ai._solver_jit.drop_stale).

A compiled function is cached on disk until its own file changes; the kernels read constants
from each other's files. These tests compile a tiny function in fresh processes, on a real
cache in a temporary directory, as the bot does at start-up.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.ai import _solver_jit

ROOT = Path(__file__).resolve().parents[3]

# The user's file reads a constant from another file, like _gomoku_search from _gomoku_kernel.
USER = """from kernelpkg.consts import VALUE


def answer():
    return VALUE
"""

RUNNER = """import sys
from pathlib import Path

import numba

import kernelpkg.user
from core.ai import _solver_jit

dispatcher = numba.njit(cache=True)(kernelpkg.user.answer)
if sys.argv[1] == "stamped":
    package = Path(kernelpkg.user.__file__).parent
    digest = _solver_jit.sources_digest([package / "consts.py", package / "user.py"])
    _solver_jit.drop_stale([dispatcher], digest)
print(dispatcher())
"""


def _answer(tmp_path: Path, mode: str) -> int:
    done = subprocess.run(
        [sys.executable, str(tmp_path / "runner.py"), mode],
        cwd=tmp_path,
        # No .pyc: Python's own cache keys a module by its size and mtime in whole seconds, and
        # the constant is rewritten at the same size within the second (seen in CI: stale 1).
        env={
            "PYTHONPATH": f"{tmp_path}:{ROOT}",
            "PATH": "/usr/bin:/bin",
            "PYTHONDONTWRITEBYTECODE": "1",
        },
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout.strip())


@pytest.fixture
def package(tmp_path: Path) -> Path:
    package = tmp_path / "kernelpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "consts.py").write_text("VALUE = 1\n")
    (package / "user.py").write_text(USER)
    (tmp_path / "runner.py").write_text(RUNNER)
    return package


def test_a_constant_changed_in_another_file_is_compiled_again(
    tmp_path: Path, package: Path
) -> None:
    assert _answer(tmp_path, "stamped") == 1
    (package / "consts.py").write_text("VALUE = 2\n")
    assert _answer(tmp_path, "stamped") == 2
    # and the fresh cache is kept while nothing changes
    stamp = package / "__pycache__" / _solver_jit.STAMP_NAME
    written = stamp.stat().st_mtime_ns
    assert _answer(tmp_path, "stamped") == 2
    assert stamp.stat().st_mtime_ns == written


def test_without_the_stamp_numba_keeps_the_stale_constant(tmp_path: Path, package: Path) -> None:
    """What drop_stale is for: should numba learn to see it, this fails and the stamp can go."""
    assert _answer(tmp_path, "plain") == 1
    (package / "consts.py").write_text("VALUE = 2\n")
    assert _answer(tmp_path, "plain") == 1


def test_the_stamp_covers_every_kernel_file() -> None:
    names = {path.name for path in _solver_jit.kernel_sources()}
    assert {"_gomoku_kernel.py", "_gomoku_search.py", "_solver_kernel.py"} <= names
    assert "_solver_jit.py" in names
    assert all(path.is_file() for path in _solver_jit.kernel_sources())
