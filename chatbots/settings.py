"""Settings of the application, from the environment and a ``.env`` file.

Every key is declared once in :data:`KEYS` (name, group, default, whether it is a secret);
``.env.example`` describes the same keys, grouped, and a test keeps the two in step. Settings
are read and validated once, at start-up, by :func:`load_settings`: every problem is reported
at once, each naming its key, as a :class:`SettingsError` (one line per problem).

Every number has a lower and an upper bound (:data:`LIMITS`): a value that parses but makes no
sense (an AI budget of 1e308 seconds: a hard move that never answers) is refused like a typo.
Tokens, user ids and URLs are checked for their shape, so that a token pasted with a space or a
newline fails ``chatbots check`` rather than the login; a problem with a secret says what is
wrong with it, never what it is.

Values are taken literally (no ``${VAR}`` expansion). The environment wins over the file, and an
empty value means "not set", so ``DISCORD_TOKEN=`` in the environment switches Discord off even if
the file has a token.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar
from urllib.parse import parse_qsl, urlsplit

from dotenv import dotenv_values

from core.i18n import LOCALES

T = TypeVar("T")


class SettingsError(ValueError):
    """One or more settings are missing or bad; ``problems`` has one line per key."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


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


@dataclass(frozen=True, slots=True)
class Key:
    """One setting: its environment name, its group in ``.env.example`` (where each key is
    described), its default, and whether its value is a secret."""

    name: str
    group: str
    default: str = ""
    secret: bool = False


GENERAL, AI, DISCORD, MATRIX = "General", "AI and games", "Discord", "Matrix"
HTTP = "Health and metrics"

KEYS: tuple[Key, ...] = (
    Key("DATABASE_PATH", GENERAL, "./data/chatbots.sqlite3"),
    Key("DATABASE_URL", GENERAL, secret=True),
    Key("LOG_LEVEL", GENERAL),
    Key("LOG_FORMAT", GENERAL, "text"),
    Key("DEFAULT_LOCALE", GENERAL, "en"),
    Key("AI_BUDGET_SECONDS", AI, "1.0"),
    Key("AI_WORKERS", AI),
    Key("GAME_TTL_SECONDS", AI, "86400"),
    Key("CHALLENGE_TTL_SECONDS", AI, "120"),
    Key("DISCORD_TOKEN", DISCORD, secret=True),
    Key("DISCORD_GUILD_IDS", DISCORD),
    Key("DISCORD_API_BASE_URL", DISCORD, "https://discord.com/api/v10"),
    Key("DISCORD_GATEWAY_URL", DISCORD, "wss://gateway.discord.gg/"),
    Key("MATRIX_HOMESERVER", MATRIX),
    Key("MATRIX_USER_ID", MATRIX),
    Key("MATRIX_PASSWORD", MATRIX, secret=True),
    Key("MATRIX_ACCESS_TOKEN", MATRIX, secret=True),
    Key("MATRIX_DEVICE_ID", MATRIX),
    Key("MATRIX_STORE_PATH", MATRIX, "./data/matrix"),
    Key("MATRIX_ALLOWED_SERVERS", MATRIX),
    Key("MATRIX_ALLOWED_USERS", MATRIX),
    Key("HTTP_PORT", HTTP),
    Key("HTTP_HOST", HTTP, "127.0.0.1"),
)
KEY_NAMES = frozenset(key.name for key in KEYS)
_DEFAULTS = {key.name: key.default for key in KEYS}
_DISCORD_API, _DISCORD_GATEWAY = _DEFAULTS["DISCORD_API_BASE_URL"], _DEFAULTS["DISCORD_GATEWAY_URL"]

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# The bounds of every number, inclusive; .env.example states them, and a test checks it does.
LIMITS: dict[str, tuple[float, float]] = {
    # Below 50 ms the hard bot plays hardly better than medium; above 30 s a player gives up
    # (and a searching worker is busy for every other chat that long).
    "AI_BUDGET_SECONDS": (0.05, 30.0),
    # Each worker holds about 250 MiB.
    "AI_WORKERS": (0, 64),
    "GAME_TTL_SECONDS": (60, 30 * 86400),
    "CHALLENGE_TTL_SECONDS": (10, 86400),
    "HTTP_PORT": (1, 65535),
}
MAX_GUILD_IDS = 100

_DECIMAL = re.compile(r"\+?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?")
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


@dataclass(frozen=True, slots=True)
class DiscordSettings:
    token: Secret
    guild_ids: tuple[int, ...] = ()
    api_base_url: str = _DEFAULTS["DISCORD_API_BASE_URL"]
    gateway_url: str = _DEFAULTS["DISCORD_GATEWAY_URL"]


@dataclass(frozen=True, slots=True)
class MatrixSettings:
    homeserver: str
    user_id: str
    password: Secret | None = None
    access_token: Secret | None = None
    device_id: str | None = None
    store_path: Path = Path(_DEFAULTS["MATRIX_STORE_PATH"])
    allowed_servers: tuple[str, ...] = ()
    allowed_users: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the application needs, validated.

    ``log_level`` is None when not set: the application then picks INFO when it runs as a
    service and WARNING on the console (so log lines do not interleave with the game).
    ``discord`` and ``matrix`` are None when that platform is not configured. ``http_port``
    is None when ``/healthz`` and ``/metrics`` are not served. ``database_url`` (PostgreSQL) is
    None when unset: the SQLite file at ``database_path`` is the store then.
    """

    database_path: Path = Path(_DEFAULTS["DATABASE_PATH"])
    database_url: Secret | None = None
    log_level: str | None = None
    log_format: LogFormat = LogFormat.TEXT
    default_locale: str = "en"
    ai_budget: float = 1.0
    ai_workers: int | None = None
    game_ttl: float = 86400.0
    challenge_ttl: float = 120.0
    discord: DiscordSettings | None = None
    matrix: MatrixSettings | None = None
    http_port: int | None = None
    http_host: str = _DEFAULTS["HTTP_HOST"]
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @property
    def platforms(self) -> tuple[str, ...]:
        """The configured platforms, ``("discord", "matrix")`` or fewer."""
        return tuple(
            name for name, cfg in (("discord", self.discord), ("matrix", self.matrix)) if cfg
        )

    @property
    def database(self) -> str:
        """Which store is used, for people: the PostgreSQL URL (password masked) or the file."""
        if self.database_url is not None:
            return f"PostgreSQL at {_redacted(self.database_url.value)}"
        return f"SQLite at {self.database_path}"

    def secrets(self) -> tuple[str, ...]:
        """The secret values, for the log filter that masks them."""
        found: list[Secret | None] = []
        if self.database_url is not None:
            password = urlsplit(self.database_url.value).password
            found.append(Secret(password) if password else None)
        if self.discord:
            found.append(self.discord.token)
        if self.matrix:
            found += [self.matrix.password, self.matrix.access_token]
        return tuple(s.value for s in found if s is not None)


def load_settings(
    environ: Mapping[str, str], env_file: str | Path | None = ".env", *, required: bool = False
) -> Settings:
    """Read and validate the settings.

    Args:
        environ: the process environment (``os.environ``); it wins over the file.
        env_file: a ``.env`` file; None reads none. A missing file is fine unless ``required``.
        required: the file was named explicitly, so it must exist.

    Returns:
        The validated settings; ``warnings`` lists unknown keys found in the file or looking like
        ours in the environment (a typo such as ``DISCORD_TOKN`` would otherwise go unnoticed).

    Raises:
        SettingsError: naming every missing or bad key.
    """
    raw: dict[str, str] = {}
    warnings: list[str] = []
    if env_file is not None:
        path = Path(env_file)
        if path.is_file():
            for name, value in dotenv_values(path, interpolate=False).items():
                raw[name] = value or ""
                if name not in KEY_NAMES:
                    warnings.append(f"{path}: unknown setting {name}")
        elif required:
            raise SettingsError([f"settings file {str(path)!r} does not exist"])
    for name, value in environ.items():
        if name in KEY_NAMES:
            raw[name] = value
        elif name.startswith(("DISCORD_", "MATRIX_")):
            warnings.append(f"environment: unknown setting {name}")
    return _Parser(raw).settings(tuple(warnings))


class _Parser:
    """Turns raw strings into typed values, collecting one problem line per bad key."""

    def __init__(self, raw: Mapping[str, str]) -> None:
        # Unknown keys were warned about; blank values mean "not set".
        self.raw = {n: v.strip() for n, v in raw.items() if n in KEY_NAMES and v.strip()}
        self.problems: list[str] = []

    def given(self, name: str) -> bool:
        return name in self.raw

    def chosen(self, prefix: str) -> list[str]:
        """Keys of ``prefix`` set to something other than their default: signs that the
        platform is meant to run (a copy of ``.env.example`` holds only defaults)."""
        return sorted(n for n, v in self.raw.items() if n.startswith(prefix) and v != _DEFAULTS[n])

    def get(self, name: str, parse: Callable[[str], T], fallback: T) -> T:
        """The value of ``name`` through ``parse`` (its default when unset); a ValueError from
        ``parse`` becomes a problem ``NAME: message`` and ``fallback`` is returned."""
        text = self.raw.get(name, _DEFAULTS[name])
        try:
            return parse(text)
        except ValueError as error:
            self.problems.append(f"{name}: {error}")
            return fallback

    def optional(self, name: str, parse: Callable[[str], T]) -> T | None:
        """The value of ``name`` through ``parse``, None when unset (or bad: a problem)."""
        return self.get(name, parse, None) if self.given(name) else None

    def settings(self, warnings: tuple[str, ...]) -> Settings:
        settings = Settings(
            database_path=self.get("DATABASE_PATH", _path, Path()),
            database_url=self.optional("DATABASE_URL", _database_url),
            log_level=self.get("LOG_LEVEL", _log_level, None),
            log_format=self.get("LOG_FORMAT", _log_format, LogFormat.TEXT),
            default_locale=self.get("DEFAULT_LOCALE", _locale, "en"),
            ai_budget=self.get("AI_BUDGET_SECONDS", _seconds(*LIMITS["AI_BUDGET_SECONDS"]), 1.0),
            ai_workers=self.get("AI_WORKERS", _workers, None),
            game_ttl=self.get("GAME_TTL_SECONDS", _seconds(*LIMITS["GAME_TTL_SECONDS"]), 86400.0),
            challenge_ttl=self.get(
                "CHALLENGE_TTL_SECONDS", _seconds(*LIMITS["CHALLENGE_TTL_SECONDS"]), 120.0
            ),
            discord=self.discord(),
            matrix=self.matrix(),
            http_port=self.http_port(),
            http_host=self.get("HTTP_HOST", _listen_host, ""),
            warnings=warnings,
        )
        if self.problems:
            raise SettingsError(self.problems)
        if settings.database_url is not None and self.chosen("DATABASE_PATH"):
            notice = "DATABASE_PATH is ignored: DATABASE_URL is set, the store is PostgreSQL"
            settings = replace(settings, warnings=(*settings.warnings, notice))
        return settings

    def discord(self) -> DiscordSettings | None:
        if not self.given("DISCORD_TOKEN"):
            others = self.chosen("DISCORD_")
            if others:
                self.problems.append(
                    f"DISCORD_TOKEN: missing, but {', '.join(others)} is set "
                    "(set the token to run on Discord, or remove the other DISCORD_ keys)"
                )
            return None
        return DiscordSettings(
            token=self.get("DISCORD_TOKEN", _discord_token, Secret("")),
            guild_ids=self.get("DISCORD_GUILD_IDS", _guild_ids, ()),
            api_base_url=self.get("DISCORD_API_BASE_URL", _url(_DISCORD_API, "http", "https"), ""),
            gateway_url=self.get("DISCORD_GATEWAY_URL", _url(_DISCORD_GATEWAY, "ws", "wss"), ""),
        )

    def matrix(self) -> MatrixSettings | None:
        # Where the keys are kept says nothing about running Matrix: an image or a service unit
        # sets it for every install.
        present = [n for n in self.chosen("MATRIX_") if n != "MATRIX_STORE_PATH"]
        if not present:
            return None
        missing = [n for n in ("MATRIX_HOMESERVER", "MATRIX_USER_ID") if not self.given(n)]
        if not (self.given("MATRIX_PASSWORD") or self.given("MATRIX_ACCESS_TOKEN")):
            missing.append("MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN")
        if missing:
            self.problems.append(
                f"{missing[0]}: missing, but {', '.join(present)} is set (Matrix needs "
                "MATRIX_HOMESERVER, MATRIX_USER_ID and MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN"
                f"; missing: {', '.join(missing)})"
            )
            return None
        password = self.raw.get("MATRIX_PASSWORD")
        return MatrixSettings(
            homeserver=self.get(
                "MATRIX_HOMESERVER", _url("https://matrix.example.org", "http", "https"), ""
            ),
            user_id=self.get("MATRIX_USER_ID", _matrix_user, ""),
            password=Secret(password) if password else None,
            access_token=self.optional("MATRIX_ACCESS_TOKEN", _matrix_token),
            device_id=self.optional("MATRIX_DEVICE_ID", _device_id),
            store_path=self.get("MATRIX_STORE_PATH", _path, Path()),
            allowed_servers=self.get("MATRIX_ALLOWED_SERVERS", _servers, ()),
            allowed_users=self.get("MATRIX_ALLOWED_USERS", _matrix_users, ()),
        )

    def http_port(self) -> int | None:
        if not self.given("HTTP_PORT") and self.chosen("HTTP_"):
            # A listening address without a port serves nothing: surely a forgotten port.
            self.problems.append("HTTP_PORT: missing, but HTTP_HOST is set (set both, or neither)")
        return self.get("HTTP_PORT", _port, None)


def _shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a problem line: escaped, so that the line stays one line, and cut
    short, so that a pasted blob does not fill the screen."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def _path(text: str) -> Path:
    if "\x00" in text:
        raise ValueError(f"{_shown(text)} is not a valid path")
    return Path(text).expanduser()


def _log_level(text: str) -> str | None:
    if not text:
        return None
    if text.upper() not in LOG_LEVELS:
        raise ValueError(f"{_shown(text)} is not one of {', '.join(LOG_LEVELS)}")
    return text.upper()


def _log_format(text: str) -> LogFormat:
    try:
        return LogFormat(text.lower())
    except ValueError:
        raise ValueError(f"{_shown(text)} is not one of text, json") from None


def _locale(text: str) -> str:
    language = text.replace("_", "-").split("-", 1)[0].lower()
    if language not in LOCALES:
        raise ValueError(f"{_shown(text)} is not one of {', '.join(LOCALES)}")
    return language


def _seconds(low: float, high: float) -> Callable[[str], float]:
    """A parser of a number of seconds from ``low`` to ``high`` (decimal, finite)."""
    expected = f"a number of seconds from {_amount(low)} to {_amount(high)}"

    def parse(text: str) -> float:
        # float() would also take "inf", "nan", "1_0" and non-ASCII digits; none is meant here.
        if not _DECIMAL.fullmatch(text) or not low <= float(text) <= high:
            raise ValueError(f"{_shown(text)} is not {expected}")
        return float(text)

    return parse


def _amount(seconds: float) -> str:
    """A bound as an admin would type it, and how long that is when it is not obvious:
    ``0.05``, ``30``, ``86400 (1 day)``."""
    text = f"{seconds:.10g}"
    if seconds > 60:
        for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
            if seconds % size == 0:
                count = int(seconds // size)
                return f"{text} ({count} {unit}{'s' * (count > 1)})"
    return text


def _workers(text: str) -> int | None:
    if not text:
        return None
    low, high = LIMITS["AI_WORKERS"]
    # The length test first: int() refuses numbers of thousands of digits with its own message.
    if not (text.isascii() and text.isdigit() and len(text) <= 4 and low <= int(text) <= high):
        raise ValueError(f"{_shown(text)} is not a whole number from {low:g} to {high:g}")
    return int(text)


def _discord_token(text: str) -> Secret:
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


def _matrix_token(text: str) -> Secret:
    if text[:7].lower() == "bearer ":
        raise ValueError("starts with 'Bearer ': set the token alone, without the prefix")
    if text[0] in "\"'" and text[-1] == text[0]:
        raise ValueError("is in quotes: remove them (only a .env file strips quotes)")
    if any(c.isspace() for c in text):
        raise ValueError("contains a space or a line break: an access token is one word")
    if not _TOKEN_CHARS.fullmatch(text):
        raise ValueError("contains a character that is not printable ASCII: not an access token")
    return Secret(text)


def _device_id(text: str) -> str:
    if not _TOKEN_CHARS.fullmatch(text):
        raise ValueError(f"{_shown(text)} is not a device id (one word of printable ASCII)")
    return text


def _port(text: str) -> int | None:
    if not text:
        return None
    low, high = LIMITS["HTTP_PORT"]
    if not (text.isascii() and text.isdigit() and len(text) <= 5 and low <= int(text) <= high):
        raise ValueError(f"{_shown(text)} is not a port number from {low:g} to {high:g}")
    return int(text)


def _listen_host(text: str) -> str:
    if not _LISTEN_HOST.fullmatch(text):
        raise ValueError(f"{_shown(text)} is not a host name or IP address to listen on")
    return text


def _items(text: str) -> list[str]:
    return [item for item in re.split(r"[,\s]+", text) if item]


def _guild_ids(text: str) -> tuple[int, ...]:
    items = _items(text)
    # A snowflake is a 64-bit number: 20 digits at most, and not every 20-digit number.
    if not all(_GUILD_ID.fullmatch(item) and int(item) < 2**64 for item in items):
        raise ValueError(f"{_shown(text)} is not a list of numeric ids")
    if len(items) > MAX_GUILD_IDS:
        raise ValueError(
            f"{len(items)} ids, more than {MAX_GUILD_IDS}: leave it empty to sync commands "
            "globally (the list is for a few test servers)"
        )
    return tuple(int(item) for item in items)


def _url(example: str, *schemes: str) -> Callable[[str], str]:
    """A parser of a URL with one of ``schemes`` and a host (``example`` shows one)."""

    def parse(text: str) -> str:
        if not _has_host(text, schemes):
            kind = " or ".join(schemes)
            article = "an" if kind.startswith("h") else "a"
            raise ValueError(f"{_shown(text)} is not {article} {kind} URL like {example}")
        return text

    return parse


def _has_host(text: str, schemes: tuple[str, ...]) -> bool:
    if not text.isprintable() or any(c.isspace() for c in text):
        return False
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number below 65536
    except ValueError:
        return False
    return parts.scheme.lower() in schemes and bool(parts.hostname) and "://" in text


def _redacted(url: str) -> str:
    # The store's own masking, imported late: the settings module stays light to import.
    from core.store.pg_health import redact_url

    return redact_url(url)


def _database_url(text: str) -> Secret:
    """A PostgreSQL URL: scheme postgresql or postgres, and a host (``@host``) or a Unix
    socket folder (``?host=/run/postgresql``). It may hold a password: problems show it
    masked."""
    shown = _shown(_redacted(text), limit=80)
    expected = "a PostgreSQL URL like postgresql://user:password@host:5432/dbname"
    if not text.isprintable() or any(c.isspace() for c in text):
        raise ValueError(f"{shown} is not {expected} (no spaces)")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number below 65536
    except ValueError:
        raise ValueError(f"{shown} is not {expected}") from None
    if parts.scheme.lower() not in ("postgresql", "postgres") or "://" not in text:
        raise ValueError(f"{shown} is not {expected}")
    sockets = [v for k, v in parse_qsl(parts.query) if k == "host" and v.startswith("/")]
    if not parts.hostname and not sockets:
        raise ValueError(
            f"{shown} names no server: add a host (postgresql://user@host/dbname) or a socket"
            " folder (postgresql:///dbname?host=/run/postgresql)"
        )
    return Secret(text)


def _matrix_user(text: str) -> str:
    if not _is_matrix_user(text):
        raise ValueError(f"{_shown(text)} is not a Matrix user id like @bot:example.org")
    return text


def _matrix_users(text: str) -> tuple[str, ...]:
    bad = [item for item in _items(text) if not _is_matrix_user(item)]
    if bad:
        raise ValueError(f"{_shown(bad[0])} is not a Matrix user id like @alice:example.org")
    return tuple(_items(text))


def _is_matrix_user(text: str) -> bool:
    return len(text) <= 255 and _MATRIX_USER.fullmatch(text) is not None


def _servers(text: str) -> tuple[str, ...]:
    bad = [item for item in _items(text) if not _SERVER_NAME.fullmatch(item)]
    if bad:
        raise ValueError(f"{_shown(bad[0])} is not a server name like example.org")
    return tuple(_items(text))
