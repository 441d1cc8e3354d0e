"""Structured logs: one line per event, fields as key=value or JSON, secrets masked."""

from __future__ import annotations

import io
import json
import logging
import string
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chatbots.__main__ import describe
from chatbots.logs import MIN_MASKED_LENGTH, SecretFilter, configure_logging
from chatbots.settings import LogFormat, load_settings
from tests.e2e.discord_double import DiscordDouble
from tests.e2e.discord_harness import Harness

TOKEN = "MTIz.secret-discord/token+value"


@pytest.fixture
def restore_root() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    hooks = sys.excepthook, threading.excepthook
    yield
    sys.excepthook, threading.excepthook = hooks
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(False)


def emit(fmt: LogFormat, secrets: tuple[str, ...] = ()) -> list[str]:
    stream = io.StringIO()
    configure_logging("INFO", fmt, secrets, stream)
    log = logging.getLogger("tests.chatbots")
    log.info("move", extra={"platform": "discord", "chat": "room 1", "session": "abc", "ms": 12})
    log.debug("hidden at INFO")
    log.warning("token is %s", TOKEN, extra={"url": f"https://x/?access_token={TOKEN}"})
    try:
        raise RuntimeError(f"login failed with {TOKEN}")
    except RuntimeError:
        log.exception("crashed", extra={"adapter": "discord"})
    return stream.getvalue().splitlines()


@pytest.mark.usefixtures("restore_root")
def test_text_lines_are_key_value() -> None:
    lines = emit(LogFormat.TEXT)
    assert len(lines) == 3  # one line per event, the traceback included
    assert lines[0].split(" ", 1)[1] == (
        'INFO tests.chatbots move platform=discord chat="room 1" session=abc ms=12'
    )
    assert "exc=" in lines[2] and "RuntimeError" in lines[2]
    assert "INFO tests.chatbots move platform" in lines[0]


@pytest.mark.usefixtures("restore_root")
def test_json_lines_are_objects() -> None:
    records = [json.loads(line) for line in emit(LogFormat.JSON)]
    assert records[0]["event"] == "move"
    assert records[0]["level"] == "INFO"
    assert (records[0]["chat"], records[0]["ms"]) == ("room 1", 12)
    assert "RuntimeError" in records[2]["exc"]


@pytest.mark.usefixtures("restore_root")
@pytest.mark.parametrize("fmt", list(LogFormat))
def test_secrets_are_masked_everywhere(fmt: LogFormat) -> None:
    # A password may hold any character; "/" and "+" change when URL-encoded.
    matrix = {"MATRIX_HOMESERVER": "https://m.org", "MATRIX_USER_ID": "@bot:m.org"}
    settings = load_settings({**matrix, "MATRIX_PASSWORD": TOKEN}, None)
    output = "\n".join(emit(fmt, settings.secrets()))
    assert TOKEN not in output
    assert "MTIz.secret-discord%2Ftoken%2Bvalue" not in output  # nor URL-encoded
    assert output.count("***") >= 3  # message, field, traceback


@pytest.mark.usefixtures("restore_root")
def test_without_secrets_nothing_is_masked() -> None:
    assert TOKEN in "\n".join(emit(LogFormat.TEXT))


@pytest.mark.usefixtures("restore_root")
def test_fields_already_in_the_message_are_not_repeated() -> None:
    stream = io.StringIO()
    configure_logging("INFO", LogFormat.TEXT, (), stream)
    logging.getLogger("core").info(
        "action=%s duration_ms=%.1f",
        "move",
        1.23456,
        extra={"action": "move", "duration_ms": 1.23456, "chat": "c"},
    )
    line = stream.getvalue().strip()
    assert line.endswith("core action=move duration_ms=1.2 chat=c")


@pytest.mark.usefixtures("restore_root")
def test_uncaught_errors_in_threads_are_logged_and_masked() -> None:
    stream = io.StringIO()
    configure_logging("INFO", LogFormat.TEXT, (TOKEN,), stream)

    def fail() -> None:
        raise RuntimeError(f"bad token {TOKEN}")

    thread = threading.Thread(target=fail, name="worker")
    thread.start()
    thread.join()
    output = stream.getvalue()
    assert "uncaught exception in a thread thread_name=worker" in output
    assert "RuntimeError" in output and TOKEN not in output


# --- tokens in the libraries' lines -----------------------------------------------------------

INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZg_x-y"


def discord_debug_lines(fmt: LogFormat) -> str:
    """What discord.py logs at DEBUG for one interaction (its own format strings)."""
    stream = io.StringIO()
    configure_logging("DEBUG", fmt, (), stream)  # no secret configured: the tokens are not ours
    api = "https://discord.com/api/v10"
    http = logging.getLogger("discord.http")
    callback = f"{api}/interactions/1234567890/{INTERACTION_TOKEN}/callback"
    original = f"{api}/webhooks/55555/{INTERACTION_TOKEN}/messages/@original"
    http.debug("%s %s with %s has returned %s", "POST", callback, None, 204)
    http.debug("%s %s has received %s", "PATCH", original, {"id": "1"})
    event = {"t": "INTERACTION_CREATE", "d": {"id": "1", "token": INTERACTION_TOKEN}}
    logging.getLogger("discord.gateway").debug("For Shard ID %s: WebSocket Event: %s", 0, event)
    try:
        raise ConnectionError(f"404, url='{api}/webhooks/55555/{INTERACTION_TOKEN}?wait=true'")
    except ConnectionError:
        logging.getLogger("discord.client").exception("Ignoring exception")
    logging.getLogger("nio").debug("login answered %s", json.dumps({"access_token": "syt_a_b"}))
    return stream.getvalue()


@pytest.mark.usefixtures("restore_root")
@pytest.mark.parametrize("fmt", list(LogFormat))
def test_discord_interaction_tokens_are_masked_in_library_lines(fmt: LogFormat) -> None:
    output = discord_debug_lines(fmt)
    assert INTERACTION_TOKEN not in output and "syt_a_b" not in output
    assert "/interactions/1234567890/***/callback" in output
    assert "/webhooks/55555/***/messages/@original" in output
    assert "'token': '***'" in output
    assert len(output.splitlines()) == 5


@pytest.mark.usefixtures("restore_root")
def test_fields_named_like_a_token_are_masked() -> None:
    stream = io.StringIO()
    configure_logging("INFO", LogFormat.JSON, (), stream)
    logging.getLogger("core").info("login", extra={"password": "pw", "access_token": "syt_x"})
    record = json.loads(stream.getvalue())
    assert (record["password"], record["access_token"]) == ("***", "***")


@pytest.mark.usefixtures("restore_root")
async def test_a_real_interaction_at_debug_leaks_no_token(tmp_path: Path) -> None:
    # The real discord.py client against the loopback Discord, logging everything it does.
    stream = io.StringIO()
    configure_logging("DEBUG", LogFormat.TEXT, (), stream)
    async with DiscordDouble() as double:
        harness = Harness(double, tmp_path / "bot.sqlite3")
        await harness.start()
        try:
            sent = await double.slash("tres", {"level": "easy"}, user="alice")
        finally:
            await harness.stop()
    output = stream.getvalue()
    assert f"/interactions/{sent.id}/***/callback" in output  # it was logged...
    assert sent.token not in output  # ...masked, there and in the gateway's event


# --- short secrets ----------------------------------------------------------------------------


@pytest.mark.usefixtures("restore_root")
def test_short_secrets_do_not_garble_lines_and_long_ones_are_masked() -> None:
    stream = io.StringIO()
    configure_logging("INFO", LogFormat.TEXT, ("x", "pw", "1234567", "hunter2-matrix"), stream)
    logging.getLogger("adapters.matrix").info("matrix sync took 12 ms for @bot:example.org")
    logging.getLogger("adapters.matrix").info("logging in with hunter2-matrix")
    first, second = stream.getvalue().splitlines()
    assert first.endswith("adapters.matrix matrix sync took 12 ms for @bot:example.org")
    assert second.endswith("logging in with ***")


def test_a_short_secret_still_shows_masked_in_check() -> None:
    matrix = {"MATRIX_HOMESERVER": "https://m.org", "MATRIX_USER_ID": "@bot:m.org"}
    shown = describe(load_settings({**matrix, "MATRIX_PASSWORD": "x"}, None))
    assert "MATRIX_PASSWORD = ***" in shown.splitlines()
    assert "MATRIX_HOMESERVER = https://m.org" in shown.splitlines()


SECRET_CHARS = st.characters(codec="utf-8", exclude_characters="*")


@given(
    secret=st.text(SECRET_CHARS, min_size=MIN_MASKED_LENGTH),
    before=st.text(SECRET_CHARS),
    after=st.text(SECRET_CHARS),
)
def test_a_long_secret_never_survives_masking(secret: str, before: str, after: str) -> None:
    masker = SecretFilter([secret])
    assert secret not in masker.mask(before + secret + after)
    assert quote(secret, safe="") not in masker.mask(f"{before}{quote(secret, safe='')}{after}")


@given(secret=st.text(max_size=MIN_MASKED_LENGTH - 1), text=st.text(string.ascii_letters + " @.:"))
def test_a_short_secret_leaves_text_as_it_is(secret: str, text: str) -> None:
    assert SecretFilter([secret]).mask(text) == text
