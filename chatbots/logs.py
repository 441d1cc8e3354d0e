"""Structured logs: one line per event, ``key=value`` text or JSON, secrets masked.

Code anywhere logs with the standard library and passes its fields as ``extra``::

    log.info("move", extra={"platform": "discord", "chat": chat, "session": sid, "ms": 12})

and gets ``... INFO core.sessions move platform=discord chat=... session=... ms=12``. Any
attribute a record carries beyond the standard ones is a field. The :class:`SecretFilter` on the
handler replaces every configured secret (and its URL-encoded form) with ``***`` in the message,
the fields and the traceback before anything is written, and so it does with the interaction
and webhook tokens in Discord's URLs and payloads, which discord.py logs at DEBUG.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import threading
import time
from collections.abc import Iterable
from types import TracebackType
from typing import TextIO
from urllib.parse import quote

from chatbots.settings import LogFormat

MASK = "***"
# A configured secret shorter than this is not masked in log lines: replacing every "x" would
# garble every line ("matri***") and tell the reader the secret anyway. Such a secret still never
# shows in ``chatbots check`` or a ``repr`` (see chatbots.settings.Secret).
MIN_MASKED_LENGTH = 8
# Attributes every LogRecord has; anything else was passed in ``extra`` and is a field.
_STANDARD = frozenset(
    vars(logging.LogRecord("", 0, "", 0, "", None, None)).keys() | {"message", "asctime"}
)
_BARE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/@+")
# Tokens we never configured but that act as passwords while they live: Discord's interaction
# and webhook tokens, in the REST paths discord.py logs at DEBUG
# (``/interactions/<id>/<token>/callback``, ``/webhooks/<app id>/<token>/...``), and any
# ``token``, ``access_token`` or ``password`` key in a logged payload (the gateway's
# INTERACTION_CREATE event carries the interaction's token; a Matrix login answers with one).
_SECRET_KEYS = ("token", "access_token", "refresh_token", "password")
_PATH_TOKEN = re.compile(r"(/(?:interactions|webhooks)/[^/\s?#'\"]+/)[^/\s?#'\"]+")
_KEYED_TOKEN = re.compile(
    # a quoted value after ":" (a dict or JSON), any value after "=" (a query, key=value)
    rf"""(\b(?:{"|".join(_SECRET_KEYS)})['"]?(?:\s*:\s*['"]|\s*=\s*['"]?))[^'"\s,;&}})]+"""
)


class SecretFilter(logging.Filter):
    """Masks secrets in every record that passes through it, ours and the libraries'.

    It masks the configured ``secrets`` of at least :data:`MIN_MASKED_LENGTH` characters (and
    their URL-encoded forms), and the tokens Discord puts in URLs and payloads, whether or not
    any secret is configured. It renders the message (``msg % args``) and the traceback first,
    so a secret can hide in neither, and masks every ``extra`` field (a field named like a
    token or a password entirely).
    """

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        forms = {
            form for s in secrets if len(s) >= MIN_MASKED_LENGTH for form in (s, quote(s, safe=""))
        }
        # Longest first, so a secret that contains another is masked whole.
        self._secrets = tuple(sorted(forms, key=len, reverse=True))

    def mask(self, text: str) -> str:
        """``text`` with every secret and token replaced by ``***``."""
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        text = _PATH_TOKEN.sub(rf"\g<1>{MASK}", text)
        return _KEYED_TOKEN.sub(rf"\g<1>{MASK}", text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a library's bad format string: still print, still masked
            message = f"{record.msg} (arguments that do not fit it: {record.args!r})"
        record.msg = self.mask(message)
        record.args = None
        if (exc := _exception(record)) is not None:
            record.exc_text = self.mask(exc)
            record.exc_info = None  # the masked text is what gets printed
        if record.stack_info:
            record.stack_info = self.mask(record.stack_info)
        for name, value in fields(record).items():
            if name.lower() in _SECRET_KEYS and value:
                setattr(record, name, MASK)
                continue
            masked = self.mask(value if isinstance(value, str) else str(value))
            if masked != str(value):
                setattr(record, name, masked)
        return True


def fields(record: logging.LogRecord) -> dict[str, object]:
    """The ``extra`` fields of a record, in the order they were given."""
    return {k: v for k, v in vars(record).items() if k not in _STANDARD and not k.startswith("_")}


def _exception(record: logging.LogRecord) -> str | None:
    if record.exc_info and not record.exc_text:
        record.exc_text = logging.Formatter().formatException(record.exc_info)
    return record.exc_text or None


class TextFormatter(logging.Formatter):
    """``2025-01-31T12:00:00.123Z INFO logger the event key=value ...`` on one line.

    The message is written as it is unless it holds a newline or another unprintable
    character (then as a JSON string); field values with spaces or quotes are JSON strings.
    """

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        event = message if message.isprintable() else json.dumps(message, ensure_ascii=False)
        parts = [_timestamp(record.created), record.levelname, record.name, event]
        # Code that already writes ``key=value`` into its message (and the same as ``extra``
        # for JSON) would otherwise show every field twice.
        parts += [
            f"{name}={_value(value)}"
            for name, value in fields(record).items()
            if f"{name}=" not in message
        ]
        if (exc := _exception(record)) is not None:
            parts.append(f"exc={_value(exc)}")
        if record.stack_info:
            parts.append(f"stack={_value(record.stack_info)}")
        return " ".join(parts)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ``ts``, ``level``, ``logger``, ``event``, then the fields."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, object] = {
            "ts": _timestamp(record.created),
            "level": record.levelname,
            "logger": record.name,
            "event": record.getMessage(),
        }
        for name, value in fields(record).items():
            data.setdefault(name, _rounded(value))
        if (exc := _exception(record)) is not None:
            data["exc"] = exc
        if record.stack_info:
            data["stack"] = record.stack_info
        return json.dumps(data, default=str, ensure_ascii=False)


def _rounded(value: object) -> object:
    # Durations arrive as raw floats (12.345678901); a millisecond's thousandth is plenty.
    return round(value, 3) if isinstance(value, float) else value


def _timestamp(created: float) -> str:
    millis = int(created * 1000) % 1000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created)) + f".{millis:03d}Z"


def _value(value: object) -> str:
    """A field value as one token: bare when safe, else a JSON string (quoted, escaped)."""
    text = value if isinstance(value, str) else str(_rounded(value))
    if text and all(c in _BARE for c in text):
        return text
    return json.dumps(text, ensure_ascii=False)


def configure_logging(
    level: str, fmt: LogFormat, secrets: Iterable[str] = (), stream: TextIO | None = None
) -> logging.Handler:
    """Send every log record, from our code and the libraries', to ``stream`` (stderr).

    Replaces the root logger's handlers with one that masks ``secrets`` and formats as ``fmt``.

    Returns:
        The handler (tests add a secret to check masking end to end).
    """
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt is LogFormat.JSON else TextFormatter())
    handler.addFilter(SecretFilter(secrets))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    # Whatever would go to stderr unformatted goes through the handler (and its mask) instead.
    logging.captureWarnings(True)
    sys.excepthook = _log_uncaught
    threading.excepthook = _log_thread_uncaught
    return handler


def _log_uncaught(
    kind: type[BaseException], error: BaseException, tb: TracebackType | None
) -> None:
    logging.getLogger("chatbots").critical("uncaught exception", exc_info=(kind, error, tb))


def _log_thread_uncaught(args: threading.ExceptHookArgs) -> None:
    if args.exc_value is None:
        return
    logging.getLogger("chatbots").error(
        "uncaught exception in a thread",
        exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
        extra={"thread_name": args.thread.name if args.thread else None},
    )
