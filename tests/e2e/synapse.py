"""A real Synapse on 127.0.0.1 for the Matrix end-to-end tests and the latency benchmark.

The recipe is docs/design.md's ("Matrix"): ``matrix-synapse`` from PyPI (the ``test`` extra installs
it; nothing is installed here), SQLite, a registration shared secret, no federation listener and
no federation, a config written into a temporary directory, the server started with
``subprocess.Popen(cwd=...)``, ready when ``/_matrix/client/versions`` answers, users registered
with ``register_new_matrix_user -k SECRET``, and stopped by its own PID.

Two configurations. :data:`RELAXED` raises every ``rc_*`` limit (the bulk of the suite sends
far faster than people do). :data:`DEFAULT_LIMITS` keeps Synapse's own defaults, as people run
it (``rc_message``: 0.2 events a second after a burst of 10), optionally with a short
``session_lifetime`` so that access tokens expire: the tests that prove the bot holds up on a
real homeserver use it.

Use :class:`SynapseServer` directly (the benchmarks do) or the session-scoped fixtures::

    from tests.e2e.synapse import synapse_server  # noqa: F401  (a pytest fixture)
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import importlib.util
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nio
import pytest

from adapters.matrix import MatrixAdapter, MatrixConfig
from core.ai import Level
from core.games import Position
from core.sessions import GameService, ServiceSettings
from core.store import SqliteStore
from core.workers.runner import PoolRunner

SERVER_NAME = "chatbots.test"
BOT = "gamebot"
PLAYERS = ("alice", "bob", "carol")
PASSWORD = "correct horse battery staple"
START_TIMEOUT = 90.0
RELAXED = "relaxed"
DEFAULT_LIMITS = "default"

# Generous limits: the tests and the benchmark send far faster than people do.
_RELAXED = {"per_second": 10_000, "burst_count": 10_000}
_RATE_LIMITS: dict[str, object] = {
    "rc_message": _RELAXED,
    "rc_registration": _RELAXED,
    "rc_login": {"address": _RELAXED, "account": _RELAXED, "failed_attempts": _RELAXED},
    "rc_joins": {"local": _RELAXED, "remote": _RELAXED},
    "rc_joins_per_room": _RELAXED,
    "rc_invites": {"per_room": _RELAXED, "per_user": _RELAXED, "per_issuer": _RELAXED},
    "rc_key_requests": _RELAXED,
    "rc_3pid_validation": _RELAXED,
    "rc_admin_redaction": _RELAXED,
    "rc_room_creation": _RELAXED,
    "rc_presence": {"per_user": _RELAXED},
    "rc_delayed_event_mgmt": _RELAXED,
    "rc_reports": _RELAXED,
    "rc_user_directory": _RELAXED,
    "rc_profile": _RELAXED,
    "rc_media_create": _RELAXED,
}
# With Synapse's defaults, only what no real player meets: every client of a test logs in and
# registers from 127.0.0.1 (rc_login.address allows 5 logins, then one per 5 minutes, per
# address), and expiring tokens make each of them log in again every lifetime.
_DEFAULT_RATE_LIMITS: dict[str, object] = {
    "rc_registration": _RELAXED,
    "rc_login": _RATE_LIMITS["rc_login"],
}


def synapse_missing() -> str | None:
    """Why Synapse cannot run here, or None when it can."""
    if importlib.util.find_spec("synapse") is None:
        return "matrix-synapse is not installed (install the test extra: pip install -e '.[test]')"
    for tool in ("synapse_homeserver", "register_new_matrix_user"):
        if not _bin(tool).exists():
            return f"{_bin(tool)} not found next to {sys.executable}"
    return None


def _bin(name: str) -> Path:
    # The scripts live beside the interpreter running the tests (the venv's bin directory).
    return Path(sys.executable).parent / name


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(slots=True)
class SynapseServer:
    """A running Synapse: its base URL, the registered users and the process that serves."""

    workdir: Path
    port: int
    secret: str
    process: subprocess.Popen[bytes]
    users: dict[str, str] = field(default_factory=dict)  # localpart -> user id
    limits: str = RELAXED  # RELAXED or DEFAULT_LIMITS

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.workdir / "homeserver.log"

    def user_id(self, localpart: str) -> str:
        return f"@{localpart}:{SERVER_NAME}"

    @classmethod
    def start(
        cls,
        workdir: Path,
        *,
        timeout: float = START_TIMEOUT,
        limits: str = RELAXED,
        session_lifetime: str | None = None,
    ) -> SynapseServer:
        """Write a config into ``workdir``, start Synapse and wait until it answers.

        Args:
            limits: :data:`RELAXED` (every ``rc_*`` raised) or :data:`DEFAULT_LIMITS`
                (Synapse's defaults for everything the bot meets).
            session_lifetime: how long a login lasts (``"1m"``); None: forever.

        Raises:
            RuntimeError: the server exited or did not answer within ``timeout`` seconds (the
                message carries the end of its log).
        """
        workdir.mkdir(parents=True, exist_ok=True)
        port = _free_port()
        # token_urlsafe may start with "-"; this one always does, so that every run checks
        # that the secret reaches register_new_matrix_user as a value.
        secret = "-" + secrets.token_urlsafe(24)
        config = _write_config(workdir, port, secret, limits, session_lifetime)
        out = (workdir / "stdout.log").open("wb")
        process = subprocess.Popen(
            [str(_bin("synapse_homeserver")), "--config-path", str(config)],
            cwd=workdir,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        out.close()
        server = cls(workdir=workdir, port=port, secret=secret, process=process, limits=limits)
        try:
            server._wait_ready(timeout)
        except BaseException:
            server.stop()
            raise
        return server

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"synapse exited with {self.process.returncode}:\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(f"{self.url}/_matrix/client/versions", timeout=2):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"synapse did not answer in {timeout:.0f} s:\n{self.log_tail()}")
            time.sleep(0.1)

    def register(self, localparts: Sequence[str], *, admin: bool = False) -> None:
        """Register users (password :data:`PASSWORD`) with ``register_new_matrix_user -k``."""
        flag = "--admin" if admin else "--no-admin"
        jobs = [
            (
                name,
                subprocess.Popen(
                    [
                        str(_bin("register_new_matrix_user")),
                        # One argument: a secret that starts with "-" is not an option.
                        f"--shared-secret={self.secret}",
                        "-u",
                        name,
                        "-p",
                        PASSWORD,
                        flag,
                        self.url,
                    ],
                    cwd=self.workdir,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                ),
            )
            for name in localparts
        ]
        for name, job in jobs:
            output, _ = job.communicate(timeout=60)
            if job.returncode != 0:
                raise RuntimeError(
                    f"registering {name!r} failed: {output.decode(errors='replace')}"
                )
            self.users[name] = self.user_id(name)

    def log_tail(self, lines: int = 40) -> str:
        text = ""
        for path in (self.workdir / "stdout.log", self.log_path):
            if path.exists():
                text += "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) + "\n"
        return text

    def stop(self) -> None:
        """Stop the server by its own PID: SIGTERM, then SIGKILL after 15 seconds."""
        if self.process.poll() is not None:
            return
        os.kill(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=5)


def _write_config(
    workdir: Path, port: int, secret: str, limits: str, session_lifetime: str | None
) -> Path:
    if limits not in (RELAXED, DEFAULT_LIMITS):
        raise ValueError(f"limits must be {RELAXED!r} or {DEFAULT_LIMITS!r}, got {limits!r}")
    # A signing key in Synapse's format ("ed25519 <key id> <unpadded base64 seed>"), written
    # here rather than by a second `--generate-keys` start of the server.
    seed = base64.b64encode(secrets.token_bytes(32)).decode().rstrip("=")
    (workdir / "signing.key").write_text(f"ed25519 a_test {seed}\n")
    log_config = {
        "version": 1,
        "formatters": {"plain": {"format": "%(asctime)s %(name)s %(levelname)s %(message)s"}},
        "handlers": {
            "file": {
                "class": "logging.FileHandler",
                "formatter": "plain",
                "filename": str(workdir / "homeserver.log"),
            }
        },
        "root": {"level": "WARNING", "handlers": ["file"]},
        "disable_existing_loggers": False,
    }
    (workdir / "log.yaml").write_text(json.dumps(log_config, indent=2))
    config: dict[str, object] = {
        "server_name": SERVER_NAME,
        "pid_file": str(workdir / "homeserver.pid"),
        "listeners": [
            {
                "port": port,
                "bind_addresses": ["127.0.0.1"],
                "type": "http",
                "tls": False,
                "x_forwarded": False,
                # The client API only (the admin API rides on it): no federation listener.
                "resources": [{"names": ["client"], "compress": False}],
            }
        ],
        "database": {"name": "sqlite3", "args": {"database": str(workdir / "homeserver.db")}},
        "log_config": str(workdir / "log.yaml"),
        "media_store_path": str(workdir / "media"),
        "signing_key_path": str(workdir / "signing.key"),
        "registration_shared_secret": secret,
        "enable_registration": False,
        "report_stats": False,
        "macaroon_secret_key": secrets.token_urlsafe(32),
        "form_secret": secrets.token_urlsafe(32),
        "federation_domain_whitelist": [],
        "trusted_key_servers": [],
        "suppress_key_server_warning": True,
        "enable_metrics": False,
        "presence": {"enabled": False},
        "url_preview_enabled": False,
        **(_RATE_LIMITS if limits == RELAXED else _DEFAULT_RATE_LIMITS),
    }
    if session_lifetime is not None:
        config["session_lifetime"] = session_lifetime
    path = workdir / "homeserver.yaml"
    path.write_text(json.dumps(config, indent=2))  # JSON is YAML
    return path


@contextlib.contextmanager
def started_synapse(
    limits: str = RELAXED, session_lifetime: str | None = None
) -> Iterator[SynapseServer]:
    """A Synapse in a temporary directory with the bot and three players registered."""
    reason = synapse_missing()
    if reason is not None:
        pytest.skip(reason)
    with tempfile.TemporaryDirectory(prefix="synapse-") as tmp:
        server = SynapseServer.start(Path(tmp), limits=limits, session_lifetime=session_lifetime)
        try:
            server.register([BOT, *PLAYERS])
            yield server
        finally:
            server.stop()


@pytest.fixture(scope="session")
def synapse_server() -> Iterator[SynapseServer]:
    """A Synapse for the whole test session with relaxed rate limits."""
    with started_synapse() as server:
        yield server


@pytest.fixture(scope="session")
def synapse_default_limits() -> Iterator[SynapseServer]:
    """A Synapse with its default rate limits, as homeservers run it."""
    with started_synapse(DEFAULT_LIMITS) as server:
        yield server


SESSION_LIFETIME_S = 40.0


@pytest.fixture(scope="session")
def synapse_expiring() -> Iterator[SynapseServer]:
    """A Synapse with its default rate limits whose logins expire after
    :data:`SESSION_LIFETIME_S` seconds (Matrix Authentication Service's tokens die too)."""
    with started_synapse(DEFAULT_LIMITS, f"{SESSION_LIFETIME_S:.0f}s") as server:
        yield server


# --- Players: plain matrix-nio clients --------------------------------------------------------


def is_edit_of(source: Mapping[str, Any], original: str) -> bool:
    relates = source.get("content", {}).get("m.relates_to", {})
    return bool(relates.get("rel_type") == "m.replace" and relates.get("event_id") == original)


def reply_target(source: Mapping[str, Any]) -> str | None:
    relates = source.get("content", {}).get("m.relates_to", {})
    in_reply = relates.get("m.in_reply_to") if isinstance(relates, dict) else None
    target = in_reply.get("event_id") if isinstance(in_reply, dict) else None
    return target if isinstance(target, str) else None


def is_notice_from(source: Mapping[str, Any], sender: str) -> bool:
    content = source.get("content", {})
    return bool(
        source.get("type") == "m.room.message"
        and source.get("sender") == sender
        and content.get("msgtype") == "m.notice"
    )


@dataclass(slots=True)
class Seen:
    """An event a player's client received, in arrival order, with when it arrived."""

    room_id: str
    source: dict[str, Any]
    at: float
    encrypted: bool = False  # it came as m.room.encrypted and was decrypted here


class Player:
    """A person at a Matrix client: logs in, syncs in the background, records every event.

    Waits are explicit: :meth:`wait_for` returns the first recorded event (after a mark) that
    matches, or fails after a timeout; nothing sleeps a fixed time.
    """

    def __init__(self, server: SynapseServer, localpart: str, store_dir: Path | None = None):
        self.user_id = server.user_id(localpart)
        self._password = PASSWORD
        encryption = store_dir is not None and bool(nio.crypto.ENCRYPTION_ENABLED)
        if store_dir is not None:
            store_dir.mkdir(parents=True, exist_ok=True)
        self.client = nio.AsyncClient(
            server.url,
            self.user_id,
            store_path=str(store_dir) if encryption else "",
            config=nio.AsyncClientConfig(
                encryption_enabled=encryption, store_sync_tokens=False, max_limit_exceeded=None
            ),
        )
        self.events: list[Seen] = []
        self._changed = asyncio.Condition()
        self._task: asyncio.Task[None] | None = None
        self._undecrypted: list[tuple[str, Any]] = []

    async def __aenter__(self) -> Player:
        await self._login()
        if self.client.olm and self.client.should_upload_keys:
            await self.client.keys_upload()
        first = await self.client.sync(timeout=0, full_state=True)
        assert isinstance(first, nio.SyncResponse), first
        self._task = asyncio.create_task(self._sync_forever())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.client.close()

    async def _login(self) -> None:
        # The same device again after an expiry, as a client does.
        response = await self.client.login(self._password, device_name="e2e player")
        assert isinstance(response, nio.LoginResponse), response

    async def _sync_forever(self) -> None:
        client = self.client
        while True:
            response = await client.sync(timeout=30_000, sync_filter=_PLAYER_FILTER)
            if _expired(response):
                await self._login()
                continue
            if not isinstance(response, nio.SyncResponse):
                await asyncio.sleep(0.2)
                continue
            now = time.perf_counter()
            fresh: list[Seen] = []
            for room_id, info in response.rooms.join.items():
                for event in info.timeline.events:
                    if isinstance(event, nio.MegolmEvent):
                        self._undecrypted.append((room_id, event))
                    elif isinstance(getattr(event, "source", None), dict):
                        decrypted = bool(getattr(event, "decrypted", False))
                        fresh.append(Seen(room_id, event.source, now, decrypted))
            if client.olm:
                fresh.extend(self._retry_undecrypted(now))
                await client.send_to_device_messages()
                if client.should_upload_keys:
                    await client.keys_upload()
                if client.should_query_keys:
                    await client.keys_query()
                if client.should_claim_keys:
                    await client.keys_claim(client.get_users_for_key_claiming())
            if fresh:
                async with self._changed:
                    self.events.extend(fresh)
                    self._changed.notify_all()

    def _retry_undecrypted(self, now: float) -> list[Seen]:
        kept, done = [], []
        for room_id, event in self._undecrypted:
            try:
                plain = self.client.decrypt_event(event)
            except Exception:
                kept.append((room_id, event))
                continue
            done.append(Seen(room_id, plain.source, now, True))
        self._undecrypted = kept
        return done

    def mark(self) -> int:
        """A position in the record: later waits look only at events after it."""
        return len(self.events)

    async def wait_for(
        self,
        predicate: Callable[[Seen], bool],
        *,
        after: int = 0,
        within: float = 20.0,
        what: str = "an event",
    ) -> Seen:
        """The first recorded event after ``after`` that matches ``predicate``."""

        def find() -> Seen | None:
            return next((seen for seen in self.events[after:] if predicate(seen)), None)

        async def wait() -> Seen:
            async with self._changed:
                while (found := find()) is None:
                    await self._changed.wait()
                return found

        try:
            return await asyncio.wait_for(wait(), within)
        except TimeoutError:
            recent = [
                (seen.source.get("type"), seen.source.get("sender"), seen.source.get("content"))
                for seen in self.events[after:][-8:]
            ]
            raise AssertionError(
                f"{self.user_id}: no {what} within {within} s; last: {recent}"
            ) from None

    async def create_room(
        self, invite: Sequence[str], *, moderators: Sequence[str] = (), encrypted: bool = False
    ) -> str:
        # Room version 12: the creator is above power levels and must not be listed.
        users = {user: 50 for user in moderators}
        state = (
            [
                {
                    "type": "m.room.encryption",
                    "state_key": "",
                    "content": {"algorithm": "m.megolm.v1.aes-sha2"},
                }
            ]
            if encrypted
            else []
        )
        response = await self.client.room_create(
            name="games",
            invite=list(invite),
            initial_state=state,
            power_level_override={"users": users},
        )
        assert isinstance(response, nio.RoomCreateResponse), response
        return str(response.room_id)

    async def join(self, room_id: str) -> None:
        response = await self.client.join(room_id)
        assert isinstance(response, nio.JoinResponse), response

    async def send(
        self, room_id: str, content: dict[str, Any], event_type: str = "m.room.message"
    ) -> str:
        response = await self.client.room_send(
            room_id, event_type, content, ignore_unverified_devices=True
        )
        if _expired(response):
            await self._login()
            response = await self.client.room_send(
                room_id, event_type, content, ignore_unverified_devices=True
            )
        assert isinstance(response, nio.RoomSendResponse), response
        return str(response.event_id)

    async def say(self, room_id: str, body: str) -> str:
        return await self.send(room_id, {"msgtype": "m.text", "body": body})

    async def react(self, room_id: str, target: str, key: str) -> str:
        content = {"m.relates_to": {"rel_type": "m.annotation", "event_id": target, "key": key}}
        return await self.send(room_id, content, "m.reaction")


_PLAYER_FILTER = {"room": {"timeline": {"limit": 100}}}


def _expired(response: object) -> bool:
    return isinstance(response, nio.ErrorResponse) and response.status_code == "M_UNKNOWN_TOKEN"


# --- The bot: the real service, store and adapter ----------------------------------------------


class HeldRunner(PoolRunner):
    """The real AI, whose moves a test may hold: after :meth:`hold_after` the next ``moves``
    moves are chosen, and the ones after wait for :meth:`release`. A bots' game then stands
    still on a known board while the test acts on it, however slow the machine is."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._left: int | None = None
        self._released = asyncio.Event()

    def hold_after(self, moves: int) -> None:
        self._left = moves
        self._released.clear()

    def release(self) -> None:
        self._left = None
        self._released.set()

    async def choose(
        self, position: Position, level: Level, *, budget: float, interactive: bool = True
    ) -> int:
        if self._left is not None:
            if self._left > 0:
                self._left -= 1
            else:
                await self._released.wait()
        return await super().choose(position, level, budget=budget, interactive=interactive)


@dataclass(slots=True)
class RunningBot:
    adapter: MatrixAdapter
    service: GameService
    task: asyncio.Task[None]
    stop: asyncio.Event
    runner: HeldRunner


@contextlib.asynccontextmanager
async def running_bot(
    server: SynapseServer,
    data_dir: Path,
    *,
    ai_workers: int = 0,
    watch_move_interval: float = 0.2,
    bot_admins: Sequence[str] = (),
    access_token: str | None = None,
    clock: Callable[[], float] = time.time,
    public_url: str | None = None,
) -> AsyncIterator[RunningBot]:
    """The whole bot (SQLite store, GameService, MatrixAdapter) on ``data_dir``, until exit.

    The same ``data_dir`` again is a restart: same database, same device, same sync token.

    Args:
        ai_workers: processes for HARD, as in a deployment (warmed up at start); 0 runs HARD
            in a thread.
        watch_move_interval: the pace of bots' games (brisker than people watch them).
        bot_admins: users who may change every room's settings (``BOT_ADMINS``).
        access_token: log in with this token alone (no password to log in again with).
        clock: the service's clock (a test moves it by hand to run a move clock out; the
            sweep of due clocks then runs every 20 ms).
        public_url: where the web pages are (``PUBLIC_URL``): replies link to them.
    """
    await asyncio.to_thread(data_dir.mkdir, parents=True, exist_ok=True)
    store = await SqliteStore.open(data_dir / "chatbots.sqlite3")
    settings = ServiceSettings(
        ai_workers=ai_workers,
        ai_budget=0.5,
        ai_warm_up=ai_workers > 0,
        watch_move_interval=watch_move_interval,
        bot_vs_bot_budget=0.05,
        clock_interval=1.0 if clock is time.time else 0.02,
        public_url=public_url,
    )
    runner = HeldRunner(
        workers=settings.workers,
        warm_up=settings.ai_warm_up,
        grace=settings.ai_grace,
        budget=settings.ai_budget,
    )
    service = GameService(store, settings=settings, clock=clock, runner=runner)
    await service.start()
    config = MatrixConfig(
        homeserver=server.url,
        user_id=server.user_id(BOT),
        password=None if access_token else PASSWORD,
        access_token=access_token,
        store_path=str(data_dir / "matrix"),
        bot_admins=tuple(bot_admins),
        # A server whose every limit is raised exempts the bot, as its operator would say.
        exempt=server.limits == RELAXED,
    )
    adapter = MatrixAdapter(service, config)
    stop = asyncio.Event()
    task = asyncio.create_task(adapter.run(stop))
    try:
        ready = asyncio.create_task(adapter.ready.wait())
        await asyncio.wait({ready, task}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            task.result()  # raises what ended it
            raise AssertionError("the adapter stopped during start-up")
        assert ready.done(), "the adapter did not catch up within 30 s"
        yield RunningBot(adapter, service, task, stop, runner)
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)
        await service.close()
        await store.close()
