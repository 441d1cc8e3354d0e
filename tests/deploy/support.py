"""What the deployment tests share: the checkout's files, the Debian tools, a console game.

These tests use the real things (a wheel built by pip, podman, systemd-analyze) and install
their Debian tools through ``deploy/test-tools`` when missing, so a fresh CI machine needs
nothing but ``make test``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "adapters", "chatbots")

# Try every cell of the board once, in order: each try either takes the cell or finds it taken
# by the bot, so after nine lines the board is full or the game is over. Whatever the easy
# bot's random moves, a result is printed. /exit then ends the run.
CONSOLE_GAME = "/tres easy\n" + "".join(f"{cell}\n" for cell in range(1, 10)) + "/exit\n"
_BOARD = re.compile(r"^  a b c\n(?:[123] [XO·] [XO·] [XO·]\n){3}", re.MULTILINE)
_RESULT = re.compile(r"\(([XO])\) wins!|It's a draw\.")


def assert_console_game(output: str) -> None:
    """The output of :data:`CONSOLE_GAME`: the welcome, boards, and how the game ended."""
    assert "No chat platform is configured" in output, output
    boards = _BOARD.findall(output)
    assert len(boards) >= 2, output  # the empty board, then at least one after a move
    assert "1 · · ·\n2 · · ·\n3 · · ·" in boards[0], output
    assert _RESULT.search(output), output
    assert "[/rematch]" in output, output


def tracked_files() -> list[Path]:
    """The checkout's files as git sees them (tracked, or new and not ignored), relative."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to know which files belong to the source")
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [Path(name) for name in listing.split("\0") if name and (ROOT / name).is_file()]


def copy_source(destination: Path) -> Path:
    """Copies the checkout's files to ``destination`` (what a clean clone holds): building
    there leaves no ``build/`` in the checkout and cannot pick up caches or a local ``.env``."""
    for relative in tracked_files():
        target = destination / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, target)
    return destination


def ensure_tools() -> None:
    """Installs the Debian packages the deployment tests use, if missing (root on Debian)."""
    result = subprocess.run(
        [str(ROOT / "deploy" / "test-tools")], capture_output=True, text=True, timeout=900
    )
    assert result.returncode == 0, f"deploy/test-tools failed:\n{result.stderr}"


def debian_mirror() -> str:
    """The Debian mirror this machine's apt uses for its own release (the one-line
    ``sources.list`` format or deb822 ``.sources`` files), so the image is built from the same
    place the host installs from and no address is written into the project's files."""
    suite = _os_release().get("VERSION_CODENAME", "bookworm")
    sources = Path("/etc/apt")
    found: list[str] = []
    for path in [sources / "sources.list", *sorted((sources / "sources.list.d").glob("*"))]:
        if not path.is_file():
            continue
        text = path.read_text(errors="replace")
        if path.suffix == ".sources":
            for stanza in re.split(r"\n\s*\n", text):
                fields = dict(
                    (key.strip().lower(), value.strip())
                    for key, _, value in (line.partition(":") for line in stanza.splitlines())
                    if not key.startswith("#") and value
                )
                if suite in fields.get("suites", "").split() and "deb" in fields.get("types", ""):
                    found += fields.get("uris", "").split()
        else:
            for line in text.splitlines():
                words = line.split("#", 1)[0].split()
                if len(words) >= 3 and words[0] == "deb":
                    # Skip options such as [signed-by=...]: the URI is the first word with "://".
                    uri = next((w for w in words[1:] if "://" in w), None)
                    if uri is not None and suite in words:
                        found.append(uri)
    # The main archive rather than the security one (which has no bookworm suite).
    mirrors = [uri.rstrip("/") for uri in found if "security" not in uri]
    if not mirrors:
        pytest.skip(f"no Debian {suite} mirror in this machine's apt sources")
    return mirrors[0]


def _os_release() -> dict[str, str]:
    path = Path("/etc/os-release")
    if not path.is_file():
        return {}
    pairs = (line.partition("=") for line in path.read_text().splitlines())
    return {key: value.strip('"') for key, _, value in pairs if key}
