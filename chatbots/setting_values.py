"""The value parsers of the settings: each turns the text of one key into a typed value or
raises ``ValueError`` with a message that :mod:`chatbots.settings` prefixes with the key.

Bounds (:data:`LIMITS`) and shapes (tokens, user ids, URLs) live here, next to the parsers that
enforce them; a message about a secret says what is wrong with it, never what it is.
"""

from __future__ import annotations

import enum
import ipaddress
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from core.admin.keys import BY_NAME, DECIMAL
from core.errors import UserError
from core.i18n import Text


@dataclass(frozen=True, slots=True, repr=False)
class Secret:
    """A secret value (token, password) that never shows in ``repr``, ``str`` or f-strings."""

    value: str

    def __repr__(self) -> str:
        return "Secret('***')"

    def __str__(self) -> str:
        return "***"


class LogFormat(enum.Enum):
    TEXT = "text"
    JSON = "json"


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# The bounds of every number that is not a chat setting's default, inclusive (chatbots.settings
# adds the bounds of those from the chat settings); .env.example states them, and a test checks
# it does.
LIMITS: dict[str, tuple[float, float]] = {
    # Below 50 ms the hard bot plays hardly better than medium; above 30 s a player gives up
    # (and a searching worker is busy for every other chat that long).
    "AI_BUDGET_SECONDS": (0.05, 30.0),
    # Each worker holds about 250 MiB.
    "AI_WORKERS": (0, 64),
    # A takeover comes about this long after the holder died: at most 20 keeps a Matrix
    # takeover (the lease, a login, a sync) within 30 s; below 1 s renewals would be a load.
    "LEASE_TTL_SECONDS": (1, 20),
    "HTTP_PORT": (1, 65535),
    # Discord wants a shard per 2,500 servers at most: 4,096 shards reach ten million servers.
    "DISCORD_SHARD_COUNT": (1, 4096),
}
MAX_GUILD_IDS = 100

_GUILD_ID = re.compile(r"[1-9][0-9]{0,19}")
# A bot token: base64url of the bot's id, a timestamp, an HMAC, joined by dots.
_DISCORD_TOKEN = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
_TOKEN_CHARS = re.compile(r"[\x21-\x7e]+")  # printable ASCII, no space
# A host name, an IPv4 address or a bracketed IPv6 address, then maybe a port.
_SERVER = r"(?:[A-Za-z0-9][A-Za-z0-9.-]*|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?"
_SERVER_NAME = re.compile(_SERVER)
# The localpart may use any printable ASCII but ":" (the spec's historical user ids).
_MATRIX_USER = re.compile(rf"@[\x21-\x39\x3b-\x7e]+:{_SERVER}")
_LISTEN_HOST = re.compile(r"[A-Za-z0-9.:][A-Za-z0-9.\-:]*")  # a host name or an IP address


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a problem line: escaped, so that the line stays one line, and cut
    short, so that a pasted blob does not fill the screen."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def path(text: str) -> Path:
    if "\x00" in text:
        raise ValueError(f"{shown(text)} is not a valid path")
    return Path(text).expanduser()


def log_level(text: str) -> str | None:
    if not text:
        return None
    if text.upper() not in LOG_LEVELS:
        raise ValueError(f"{shown(text)} is not one of {', '.join(LOG_LEVELS)}")
    return text.upper()


def log_format(text: str) -> LogFormat:
    try:
        return LogFormat(text.lower())
    except ValueError:
        raise ValueError(f"{shown(text)} is not one of text, json") from None


def chat_setting(name: str) -> Callable[[str], Any]:
    """A parser of the ``.env`` default of the chat setting ``name``
    (``core.admin.keys.Effective``): the setting's own parser and bounds, its complaint in
    English."""
    key = BY_NAME[name]

    def parse(text: str) -> Any:
        try:
            return key.parse(text)
        except UserError as error:
            expected = error.params.get("expected")
            what = expected.render("en") if isinstance(expected, Text) else error.english()
            raise ValueError(f"{shown(text)} is not {what}") from None

    return parse


def seconds(low: float, high: float) -> Callable[[str], float]:
    """A parser of a number of seconds from ``low`` to ``high`` (decimal, finite)."""
    expected = f"a number of seconds from {amount(low)} to {amount(high)}"

    def parse(text: str) -> float:
        # float() would also take "inf", "nan", "1_0" and non-ASCII digits; none is meant here.
        if not DECIMAL.fullmatch(text) or not low <= float(text) <= high:
            raise ValueError(f"{shown(text)} is not {expected}")
        return float(text)

    return parse


def amount(seconds: float) -> str:
    """A bound as an admin would type it, and how long that is when it is not obvious:
    ``0.05``, ``30``, ``86400 (1 day)``."""
    text = f"{seconds:.10g}"
    if seconds > 60:
        for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
            if seconds % size == 0:
                count = int(seconds // size)
                return f"{text} ({count} {unit}{'s' * (count > 1)})"
    return text


def whole(
    low: float, high: float, *, digits: int = 9, noun: str = "a whole number"
) -> Callable[[str], int]:
    """A parser of a whole number from ``low`` to ``high``, of at most ``digits`` digits."""

    def parse(text: str) -> int:
        # The length test first: int() refuses numbers of thousands of digits with its own
        # message.
        if not (
            text.isascii() and text.isdigit() and len(text) <= digits and low <= int(text) <= high
        ):
            raise ValueError(f"{shown(text)} is not {noun} from {low:g} to {high:g}")
        return int(text)

    return parse


def _unset_is_none(parse: Callable[[str], int]) -> Callable[[str], int | None]:
    """``parse``, but an empty value means "not set" (None)."""

    def parse_or_none(text: str) -> int | None:
        return parse(text) if text else None

    return parse_or_none


workers = _unset_is_none(whole(*LIMITS["AI_WORKERS"], digits=4))
shard_count = _unset_is_none(whole(*LIMITS["DISCORD_SHARD_COUNT"], digits=5))
port = _unset_is_none(whole(*LIMITS["HTTP_PORT"], digits=5, noun="a port number"))


def shard_ids(text: str) -> tuple[int, ...]:
    """Shard numbers, distinct; whether each is below the shard count is checked with it."""
    listed = items(text)
    high = int(LIMITS["DISCORD_SHARD_COUNT"][1]) - 1
    if not all(item.isascii() and item.isdigit() and len(item) <= 5 for item in listed):
        raise ValueError(f"{shown(text)} is not a list of shard numbers such as 0,1")
    ids = [int(item) for item in listed]
    if any(shard > high for shard in ids):
        raise ValueError(f"{shown(text)}: shard numbers run from 0 to {high} at most")
    repeated = sorted({shard for shard in ids if ids.count(shard) > 1})
    if repeated:
        raise ValueError(f"shard {repeated[0]} is listed twice: each shard runs in one place")
    return tuple(ids)


def discord_token(text: str) -> Secret:
    # The value is secret: messages say what is wrong with it, never what it is.
    if text[:4].lower() == "bot ":
        raise ValueError("starts with 'Bot ': set the token alone, without the prefix")
    if text[0] in "\"'" and text[-1] == text[0]:
        raise ValueError("is in quotes: remove them (only a .env file strips quotes)")
    if any(c.isspace() for c in text):
        raise ValueError("contains a space or a line break: a bot token is one word")
    if not _DISCORD_TOKEN.fullmatch(text):
        raise ValueError(
            "is not a bot token (three dot-separated parts of letters, digits, - and _): "
            "copy it again from the Developer Portal"
        )
    return Secret(text)


def matrix_token(text: str) -> Secret:
    if text[:7].lower() == "bearer ":
        raise ValueError("starts with 'Bearer ': set the token alone, without the prefix")
    if text[0] in "\"'" and text[-1] == text[0]:
        raise ValueError("is in quotes: remove them (only a .env file strips quotes)")
    if any(c.isspace() for c in text):
        raise ValueError("contains a space or a line break: an access token is one word")
    if not _TOKEN_CHARS.fullmatch(text):
        raise ValueError("contains a character that is not printable ASCII: not an access token")
    return Secret(text)


def device_id(text: str) -> str:
    if not _TOKEN_CHARS.fullmatch(text):
        raise ValueError(f"{shown(text)} is not a device id (one word of printable ASCII)")
    return text


def listen_host(text: str) -> str:
    """An address to listen on: an IP address, or a host name that resolves here (``check``
    then finds what binding would only find at start, after the database was opened)."""
    if not _LISTEN_HOST.fullmatch(text):
        raise ValueError(f"{shown(text)} is not a host name or IP address to listen on")
    try:
        ipaddress.ip_address(text)
    except ValueError:
        pass
    else:
        return text
    if ":" in text or all(part.isdigit() for part in text.split(".")):
        raise ValueError(f"{shown(text)} is not an IP address (such as 127.0.0.1, 0.0.0.0 or ::)")
    try:
        socket.getaddrinfo(text, None, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as error:
        raise ValueError(
            f"{shown(text)} is not an IP address, and no address was found for it as a host"
            " name: give an address of this machine (127.0.0.1, or 0.0.0.0 for every interface)"
        ) from error
    return text


_SWITCH = {"on": True, "true": True, "yes": True, "1": True}
_SWITCH |= {"off": False, "false": False, "no": False, "0": False}


def switch(text: str) -> bool:
    """``on``/``off`` (or true/false, yes/no, 1/0), in any case."""
    value = _SWITCH.get(text.strip().lower())
    if value is None:
        raise ValueError(f"{shown(text)} is neither on nor off")
    return value


def items(text: str) -> list[str]:
    return [item for item in re.split(r"[,\s]+", text) if item]


def guild_ids(text: str) -> tuple[int, ...]:
    listed = items(text)
    # A snowflake is a 64-bit number: 20 digits at most, and not every 20-digit number.
    if not all(_GUILD_ID.fullmatch(item) and int(item) < 2**64 for item in listed):
        raise ValueError(f"{shown(text)} is not a list of numeric ids")
    if len(listed) > MAX_GUILD_IDS:
        raise ValueError(
            f"{len(listed)} ids, more than {MAX_GUILD_IDS}: leave it empty to sync commands "
            "globally (the list is for a few test servers)"
        )
    return tuple(int(item) for item in listed)


def url(example: str, *schemes: str) -> Callable[[str], str]:
    """A parser of a URL with one of ``schemes`` and a host (``example`` shows one)."""

    def parse(text: str) -> str:
        if not _has_host(text, schemes):
            kind = " or ".join(schemes)
            article = "an" if kind.startswith("h") else "a"
            raise ValueError(f"{shown(text)} is not {article} {kind} URL like {example}")
        return text

    return parse


def public_url(text: str) -> str:
    """The address people reach the web pages at (``PUBLIC_URL``), behind a proxy or not: an
    http(s) URL with a host and maybe a path, no query or fragment; kept without its trailing
    slash, so that links are the URL and a path."""
    url("https://games.example.org", "http", "https")(text)
    parts = urlsplit(text)
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(
            f"{shown(text)} has a query, a fragment or a user: give the pages' address alone, "
            "like https://games.example.org or https://example.org/games"
        )
    return text.rstrip("/")


def networks(text: str) -> tuple[str, ...]:
    """The reverse proxies whose ``X-Forwarded-For`` the pages' rate limit believes
    (``WEB_TRUSTED_PROXIES``): IP addresses or networks, separated by commas (``10.0.0.5,
    192.168.1.0/24``), or ``none`` to believe no header; normalized (``::1`` is ``::1/128``)."""
    if text.strip().lower() == "none":
        return ()
    found = []
    for item in (part.strip() for part in text.split(",")):
        try:
            found.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise ValueError(
                f"{shown(item)} is not an IP address or network (such as 10.0.0.5 or "
                "192.168.1.0/24): list the proxies' addresses with commas, or none"
            ) from None
    return tuple(found)


def _has_host(text: str, schemes: tuple[str, ...]) -> bool:
    if not text.isprintable() or any(c.isspace() for c in text):
        return False
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number below 65536
    except ValueError:
        return False
    return parts.scheme.lower() in schemes and bool(parts.hostname) and "://" in text


def redacted(url: str) -> str:
    # The store's own masking, imported late: the settings module stays light to import.
    from core.store.postgres_health import redact_url

    return redact_url(url)


def database_url(text: str) -> Secret:
    """A PostgreSQL URL: scheme postgresql or postgres, and a host (``@host``) or a Unix
    socket folder (``?host=/run/postgresql``). It may hold a password: problems show it
    masked."""
    masked = shown(redacted(text), limit=80)
    expected = "a PostgreSQL URL like postgresql://user:password@host:5432/dbname"
    if not text.isprintable() or any(c.isspace() for c in text):
        raise ValueError(f"{masked} is not {expected} (no spaces)")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number below 65536
    except ValueError:
        raise ValueError(f"{masked} is not {expected}") from None
    if parts.scheme.lower() not in ("postgresql", "postgres") or "://" not in text:
        raise ValueError(f"{masked} is not {expected}")
    sockets = [v for k, v in parse_qsl(parts.query) if k == "host" and v.startswith("/")]
    if not parts.hostname and not sockets:
        raise ValueError(
            f"{masked} names no server: add a host (postgresql://user@host/dbname) or a socket"
            " folder (postgresql:///dbname?host=/run/postgresql)"
        )
    return Secret(text)


def matrix_user(text: str) -> str:
    if not _is_matrix_user(text):
        raise ValueError(f"{shown(text)} is not a Matrix user id like @bot:example.org")
    return text


def matrix_users(text: str) -> tuple[str, ...]:
    bad = [item for item in items(text) if not _is_matrix_user(item)]
    if bad:
        raise ValueError(f"{shown(bad[0])} is not a Matrix user id like @alice:example.org")
    return tuple(items(text))


def _is_matrix_user(text: str) -> bool:
    return len(text) <= 255 and _MATRIX_USER.fullmatch(text) is not None


def servers(text: str) -> tuple[str, ...]:
    bad = [item for item in items(text) if not _SERVER_NAME.fullmatch(item)]
    if bad:
        raise ValueError(f"{shown(bad[0])} is not a server name like example.org")
    return tuple(items(text))
