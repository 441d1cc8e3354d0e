"""Rapfi (dhbloo/rapfi, GPL-3) as a peer of the five-in-a-row benchmarks (gomoku_peer,
gomoku_judge): built from a checkout of its sources given in ``RAPFI_SOURCE`` (CMake, classic
pattern evaluation, no network weights), then driven through the Gomocup (piskvork) protocol by
the small client below. Nothing of Rapfi is imported or shipped; the client speaks to any
engine of that protocol."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

SOURCE_VARIABLE = "RAPFI_SOURCE"
BUILD_FOLDER = "build-chatbots-bench"


class EngineError(RuntimeError):
    """The engine said ERROR, answered something unexpected, went silent or exited."""


class GomocupEngine:
    """A Gomocup engine in a child process, driven one command at a time.

    Coordinates are the protocol's ``x,y``: x the column, y the row, from 0. The engine may say
    ``MESSAGE``/``DEBUG`` lines at any time; they are skipped. An engine that has just sent its
    move can still be busy for a moment (Rapfi drops any command that arrives before it has
    marked itself idle), so before every command after a move the client pings it with
    ``ABOUT`` until one ping is answered: from then on it reads its input again.
    """

    PING_WAIT = 0.05  # seconds to wait for the answer to one ping before sending another

    def __init__(self, command: Sequence[str], cwd: Path | None = None, timeout: float = 120.0):
        self.timeout = timeout
        self.process = subprocess.Popen(
            list(command),
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.busy = False  # a move was answered and no ping since
        self.messages: list[str] = []
        """The MESSAGE lines said since the last command (Rapfi's evaluation is one)."""
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)  # end of output: the engine exited

    def _send(self, text: str) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(text + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise EngineError(f"the engine exited before {text.split()[0]!r}") from None

    def _line(self, wait: float) -> str | None:
        """The next line that is not a message, or None if none came within ``wait`` s."""
        deadline = time.monotonic() + wait
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                return None
            if line is None:
                raise EngineError(f"the engine exited (code {self.process.wait()})")
            word = line.split(maxsplit=1)[0].upper() if line else ""
            if word == "MESSAGE":
                self.messages.append(line.split(maxsplit=1)[1] if " " in line else "")
            if word in ("", "MESSAGE", "DEBUG"):
                continue
            if word == "ERROR":
                raise EngineError(f"the engine said {line!r}")
            return line

    def _answer(self, awaited: str) -> str:
        """The next answer that is not a late ping answer (``name=...``)."""
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._line(max(deadline - time.monotonic(), 0.0))
            if line is None:
                raise EngineError(f"no {awaited} within {self.timeout:.0f} s")
            if not line.startswith("name="):
                return line

    def _command(self, text: str) -> None:
        if self.busy:
            self._wait_ready()
        self.messages.clear()
        self._send(text)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            self._send("ABOUT")
            line = self._line(self.PING_WAIT)
            while line is not None and not line.startswith("name="):
                line = self._line(self.PING_WAIT)  # e.g. UNKNOWN: keep listening
            if line is not None:
                self.busy = False
                return
        raise EngineError(f"the engine stayed busy for {self.timeout:.0f} s")

    def _move(self) -> tuple[int, int]:
        line = self._answer("move")
        try:
            x, y = (int(part) for part in line.split(","))
        except ValueError:
            raise EngineError(f"expected a move 'x,y', got {line!r}") from None
        self.busy = True
        return x, y

    def start(self, size: int, info: dict[str, int]) -> None:
        """A new game on a ``size`` board, with these INFO settings (in order), that owes
        nothing to the games before it.

        Rapfi keeps its transposition table across START, so what it said of a position
        depended on what it was asked before; ``YXHASHCLEAR`` (a Yixin-protocol extension)
        empties it. An engine without that command answers UNKNOWN, which the ping after it
        reads past: the command only returns once the engine is ready again."""
        self._command("YXHASHCLEAR")
        self._wait_ready()
        self._command(f"START {size}")
        line = self._answer("OK")
        if line.upper() != "OK":
            raise EngineError(f"expected OK to START {size}, got {line!r}")
        for key, value in info.items():
            self._command(f"INFO {key} {value}")

    def board(self, stones: Sequence[tuple[int, int, bool]]) -> tuple[int, int]:
        """Sets up ``stones`` (x, y, whether the engine's own) in the order played; its move."""
        self._command("BOARD")
        for x, y, own in stones:
            self._send(f"{x},{y},{1 if own else 2}")
        self._send("DONE")
        return self._move()

    def turn(self, x: int, y: int) -> tuple[int, int]:
        """Our move ``x,y``; its answer."""
        self._command(f"TURN {x},{y}")
        return self._move()

    def evaluation(self) -> str | None:
        """The engine's last evaluation since the last command, for the side it played, as it
        said it (Rapfi: ``MESSAGE ... | Eval -197 | ...``, ``+M13`` a win in 13 plies)."""
        for message in reversed(self.messages):
            for field_ in message.split("|"):
                name, _, value = field_.strip().partition(" ")
                if name == "Eval" and value.strip():
                    return value.strip()
        return None

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self._command("END")
                self.process.wait(timeout=10)
            except (EngineError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> GomocupEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build(source: Path) -> Path:
    """Rapfi's engine built from ``source`` (incremental after the first time)."""
    if (source / "Rapfi" / "CMakeLists.txt").exists():
        source = source / "Rapfi"
    if not (source / "CMakeLists.txt").exists():
        raise FileNotFoundError(f"no Rapfi CMakeLists.txt in {source}")
    out = source / BUILD_FOLDER
    configure = ["cmake", "-S", str(source), "-B", str(out), "-DCMAKE_BUILD_TYPE=Release"]
    # Without the command modules (self-play, training data...), which a match does not use.
    configure.append("-DNO_COMMAND_MODULES=ON")
    if shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    if not (out / "CMakeCache.txt").exists():
        subprocess.run(configure, check=True, capture_output=True)
    subprocess.run(["cmake", "--build", str(out), "-j", "2"], check=True, capture_output=True)
    return out / "pbrain-rapfi"


def rapfi(purpose: str) -> Path | None:
    """Rapfi's engine, built from ``RAPFI_SOURCE``; None (and why, said) when it is not set."""
    given = os.environ.get(SOURCE_VARIABLE)
    if not given:
        print(
            f"no Rapfi {purpose}: set {SOURCE_VARIABLE} to a checkout of dhbloo/rapfi"
            " (GPL-3; built here with CMake and g++) to run this benchmark"
        )
        return None
    print(f"building Rapfi from {given} (some minutes the first time)...", flush=True)
    started = time.perf_counter()
    binary = build(Path(given).resolve())
    print(f"Rapfi built in {time.perf_counter() - started:.0f} s: {binary}")
    return binary
