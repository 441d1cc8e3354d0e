"""The container image, built and run for real with podman: a console game through stdin, the
games kept in the /data volume, a stop by SIGTERM well inside the stop timeout, and compose.yaml
brought up and stopped by podman-compose.

No image registry is reachable, so the base image is made here (``deploy/debian-base``:
debootstrap from the Debian mirror of this machine's apt sources, cached between runs), and the
Dockerfile gets it as ``BASE_IMAGE``. The mirror and pip's CA bundle come in as a build argument
and a build secret, as the Dockerfile asks (tests/deploy/podman.py; the image is the ``image``
fixture of conftest.py).

Measured on a 2-core machine: cold (no base tarball, no podman layers) the base takes about
2.5 min and the image 2.5 min (5 under heavy load), and tests/deploy as a whole 6 min; warm, the
build is all cache hits (about 15 s) and this module takes under a minute. A change of the code
rebuilds the last layers only (about 1.5 min, most of it compiling the solver).
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from chatbots.settings import KEY_NAMES
from tests.deploy.podman import RUN_OPTIONS, podman
from tests.deploy.support import CONSOLE_GAME, ROOT, assert_console_game

pytestmark = pytest.mark.timeout(1800)  # a cold machine: debootstrap and the whole image

DRAIN = 10.0  # the bot's own limit from SIGTERM to exit (chatbots.app.SHUTDOWN_TIMEOUT)
_RESULT = re.compile(r"\(([XO])\) wins!|It's a draw\.")


@pytest.fixture
def volume() -> Iterator[str]:
    name = f"chatbots-test-{uuid.uuid4().hex[:8]}"
    podman("volume", "create", name)
    yield name
    podman("volume", "rm", "--force", name, check=False)


class Container:
    """``podman run -i`` of the image with a pipe on stdin; stdout is read by a thread."""

    def __init__(self, image: str, volume: str) -> None:
        self.name = f"chatbots-test-{uuid.uuid4().hex[:8]}"
        command = ["podman", "--runtime", "runc", "run", "--rm", "-i", f"--name={self.name}"]
        # The console's player is named as the acceptance checks name it (else the image's user).
        command += [*RUN_OPTIONS, "--env=CONSOLE_NAME=you", f"--volume={volume}:/data", image]
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.output = ""
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._errors: list[str] = []
        assert self.process.stdout is not None and self.process.stderr is not None
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()
        threading.Thread(
            target=lambda: self._errors.extend(self.process.stderr or ()), daemon=True
        ).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put(None)

    @property
    def errors(self) -> str:
        return "".join(self._errors)

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def wait_for(self, pattern: re.Pattern[str], timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not pattern.search(self.output):
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                raise AssertionError(f"no {pattern.pattern!r} in:\n{self.output}{self.errors}")
            self.output += line

    def finish(self, timeout: float) -> int:
        code = self.process.wait(timeout)
        while (line := self._lines.get(timeout=5)) is not None:
            self.output += line
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            podman("kill", self.name, check=False)
            self.process.wait(30)


def _inspect(image: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = json.loads(podman("image", "inspect", image).stdout)
    return found[0]


def test_the_image_is_set_up_as_documented(image: str) -> None:
    facts = _inspect(image)
    config = facts["Config"]
    assert config["User"] == "chatbots"
    assert config["StopSignal"] == "SIGTERM"
    assert "/data" in config["Volumes"]
    assert "DATABASE_PATH=/data/chatbots.sqlite3" in config["Env"]
    assert config["Entrypoint"] == ["chatbots"] and config["Cmd"] == ["run"]
    check = " ".join(facts["Healthcheck"]["Test"])
    assert "/healthz" in check and "urllib" in check  # python, not curl
    version = podman("run", "--rm", *RUN_OPTIONS, image, "--version").stdout
    assert version.startswith("chatbots ")


def test_a_console_game_then_a_stop_by_sigterm(image: str, volume: str) -> None:
    container = Container(image, volume)
    try:
        # Every line but the final /exit: the bot stays up, waiting for input, until the signal.
        container.send(CONSOLE_GAME.removesuffix("/exit\n"))
        container.wait_for(_RESULT, timeout=120)
        container.wait_for(re.compile(r"\[/rematch\]"), timeout=10)
        assert_console_game(container.output)

        # The image's health check probes /healthz on HTTP_PORT: healthy once the bot serves it
        # (chatbots knows HTTP_PORT), unhealthy while nothing listens; either way it ran.
        health = podman("healthcheck", "run", container.name, check=False)
        serves_health = "HTTP_PORT" in KEY_NAMES
        assert (health.returncode == 0) == serves_health, health.stdout + health.stderr

        started = time.monotonic()
        stop = podman("stop", "--time=20", container.name, timeout=40)
        code = container.finish(timeout=30)
        took = time.monotonic() - started
    finally:
        container.kill()
    assert stop.returncode == 0
    print(f"\nstopped by SIGTERM in {took:.1f} s")
    assert took < DRAIN + 2, f"stopped after {took:.1f} s"
    assert code == 0, f"exit code {code}\n{container.errors}"  # a requested stop: 0, not 143
    assert "Traceback" not in container.errors, container.errors


def test_the_games_stay_in_the_volume(image: str, volume: str) -> None:
    first = Container(image, volume)
    try:
        first.send(CONSOLE_GAME)  # ends with /exit: the console ends, the bot exits
        assert first.finish(timeout=120) == 0, first.errors
    finally:
        first.kill()
    assert_console_game(first.output)

    second = Container(image, volume)  # a new container, the same volume
    try:
        second.send("/stats\n/exit\n")
        assert second.finish(timeout=120) == 0, second.errors
    finally:
        second.kill()
    # "1 win, 0 losses" or "1 wins, 0 losses": plural forms depend on the catalogue.
    played = re.search(r"you: (\d+) wins?, (\d+) loss(?:es)?, (\d+) draws?", second.output)
    assert played is not None, second.output
    assert sum(map(int, played.groups())) == 1, second.output
    mountpoint = podman("volume", "inspect", "--format={{.Mountpoint}}", volume).stdout.strip()
    assert (Path(mountpoint) / "chatbots.sqlite3").is_file()


def test_compose_runs_the_bot_on_its_named_volume(image: str, tmp_path: Path) -> None:
    # compose.yaml as shipped, plus what a test needs: the image built above instead of a build
    # (no registry for its base), and stdin kept open so the console waits instead of ending.
    shutil.copy(ROOT / "compose.yaml", tmp_path / "compose.yaml")
    (tmp_path / ".env").write_text("# no platform: the console game\n")
    (tmp_path / "compose.test.yaml").write_text(
        f"services:\n  chatbots:\n    image: {image}\n    stdin_open: true\n"
    )
    # podman-compose has no --ulimit; podman takes default rlimits from containers.conf.
    (tmp_path / "containers.conf").write_text(
        '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]\n'
    )
    project = f"chatbots-test-{uuid.uuid4().hex[:8]}"
    env = os.environ | {"CONTAINERS_CONF": str(tmp_path / "containers.conf")}
    compose = ["podman-compose", "-p", project, "-f", "compose.yaml", "-f", "compose.test.yaml"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [*compose, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result

    container, volume = f"{project}_chatbots_1", f"{project}_chatbots-data"
    try:
        run("up", "-d", "--no-build")
        database = None
        deadline = time.monotonic() + 60
        while database is None or not database.is_file():
            assert time.monotonic() < deadline, podman("logs", container, check=False).stderr
            time.sleep(0.5)
            inspected = podman("volume", "inspect", "--format={{.Mountpoint}}", volume)
            database = Path(inspected.stdout.strip()) / "chatbots.sqlite3"
        state = podman("inspect", "--format={{.State.Running}} {{.Config.StopSignal}}", container)
        assert state.stdout.split() == ["true", "15"]  # running; SIGTERM from compose.yaml
        started = time.monotonic()
        run("stop")
        took = time.monotonic() - started
        code = podman("inspect", "--format={{.State.ExitCode}}", container).stdout.strip()
        assert code == "0" and took < DRAIN + 2, (code, took)
    finally:
        subprocess.run([*compose, "down"], cwd=tmp_path, env=env, capture_output=True, timeout=120)
        podman("volume", "rm", "--force", volume, check=False)
        podman("network", "rm", "--force", f"{project}_default", check=False)
