"""Structured logs: one line per event, fields as key=value or JSON, secrets masked."""

from __future__ import annotations

import io
import json
import logging
import sys
import threading
from collections.abc import Iterator

import pytest

from chatbots.logs import configure_logging
from chatbots.settings import LogFormat, load_settings

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
