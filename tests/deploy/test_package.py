"""The wheel: built by pip from the source, installed outside the checkout, it runs anywhere.

Installing the wheel's dependencies from an index would download numba and friends (hundreds of
MB) on every run, and the container test already does that for real. So the wheel goes into a
fresh venv with ``--no-deps``, and that venv sees the project venv's site-packages through a
``.pth`` line. A directory named in a ``.pth`` file is put on ``sys.path`` but its own ``.pth``
files are not run, so the project's editable install (a ``.pth`` hook pointing at the checkout)
stays off: ``core``, ``adapters`` and ``chatbots`` can only come from the wheel, and the test
checks that they do.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from collections.abc import Iterator
from importlib.metadata import version as installed_version
from pathlib import Path

import pytest

import chatbots
from tests.deploy.support import (
    CONSOLE_GAME,
    PACKAGES,
    ROOT,
    assert_console_game,
    copy_source,
    tracked_files,
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built by pip from a copy of the checkout."""
    source = copy_source(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(source)],
        check=True,
        timeout=240,
    )
    (built,) = out.glob("chatbots-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh venv outside the checkout with the wheel installed; yields its ``bin``."""
    home = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=False).create(home)
    python = home / "bin" / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "project-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    # The venv's own interpreter runs pip (the project venv's, seen through the .pth line), from
    # outside the checkout and without PYTHONPATH: a checkout on the path shows pip the
    # editable install's chatbots.egg-info, the same version as the wheel, and pip then keeps
    # "what is installed" and installs nothing (a full run failed so once).
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel)],
        cwd=home,
        env=_outside_env(home / "bin"),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (home / "bin" / "chatbots").exists(), done.stdout + done.stderr
    yield home / "bin"


def _outside_env(bin_dir: Path) -> dict[str, str]:
    """The environment of a command run from the installed venv ``bin_dir``: no platform
    credentials, no database, and nothing that puts the checkout on the path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "MATRIX_"))}
    # The plain-Python solver: a fresh install would compile the numba kernel for ~20 s, and the
    # JIT path from an installed package is what the container test runs.
    env |= {"CHATBOTS_JIT": "0", "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"}
    env.pop("DATABASE_PATH", None)
    env.pop("PYTHONPATH", None)
    return env


def _run(bin_dir: Path, args: list[str], cwd: Path, stdin: str = "") -> str:
    result = subprocess.run(
        args,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=_outside_env(bin_dir),
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_the_wheel_holds_every_file_of_the_packages(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    sources = {p.as_posix() for p in tracked_files() if p.parts[0] in PACKAGES}
    assert sources, "no package files found in the checkout"
    assert sources <= names, f"missing from the wheel: {sorted(sources - names)}"
    assert not [n for n in names if "__pycache__" in n or n.endswith((".nbi", ".nbc"))]
    assert f"chatbots-{chatbots.__version__}.dist-info/licenses/LICENSE" in names


def test_the_installed_command_runs_from_anywhere(installed: Path, tmp_path: Path) -> None:
    out = _run(installed, ["chatbots", "--version"], cwd=tmp_path)
    assert out.strip() == f"chatbots {chatbots.__version__}"
    assert installed_version("chatbots") == chatbots.__version__  # the metadata agrees

    where = _run(
        installed,
        [
            "python",
            "-c",
            "import core, adapters, chatbots; print(core.__file__, adapters.__file__,"
            " chatbots.__file__)",
        ],
        cwd=tmp_path,
    )
    home = installed.parent
    for module_file in where.split():
        assert Path(module_file).is_relative_to(home), where  # not the checkout's modules
        assert not Path(module_file).is_relative_to(ROOT), where


def test_the_installed_command_plays_a_console_game(installed: Path, tmp_path: Path) -> None:
    output = _run(installed, ["chatbots", "run"], cwd=tmp_path, stdin=CONSOLE_GAME)
    assert_console_game(output)
    # The default database, relative to where the command ran.
    assert (tmp_path / "data" / "chatbots.sqlite3").is_file()
