"""Settings of the application, from the environment and a ``.env`` file.

Every key is declared once in :data:`KEYS` (name, group, default, whether it is a secret, and
the chat setting whose default it sets, if any); ``.env.example`` describes the same keys,
grouped, and a test keeps the two in step. A chat setting's ``.env`` default is parsed by that
setting's own parser, and unset it is the setting's built-in default (``core.admin.keys``). Settings
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

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from dotenv import dotenv_values

from chatbots import setting_values as parse
from chatbots.setting_values import LOG_LEVELS, LogFormat, Secret
from core.admin import keys as chat

__all__ = [
    "KEYS",
    "KEY_NAMES",
    "LIMITS",
    "LOG_LEVELS",
    "DiscordSettings",
    "Key",
    "LogFormat",
    "MatrixSettings",
    "Secret",
    "Settings",
    "SettingsError",
    "load_settings",
]

T = TypeVar("T")


class SettingsError(ValueError):
    """One or more settings are missing or bad; ``problems`` has one line per key."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.problems))


@dataclass(frozen=True, slots=True)
class Key:
    """One setting: its environment name, its group in ``.env.example`` (where each key is
    described), its default, whether its value is a secret, and the chat setting whose default
    it sets (its default is then that setting's built-in one)."""

    name: str
    group: str
    default: str = ""
    secret: bool = False
    chat: str | None = None


GENERAL, AI, DISCORD, MATRIX = "General", "AI and games", "Discord", "Matrix"
HTTP = "Health and metrics"
WEB = "Web pages"

KEYS: tuple[Key, ...] = (
    Key("DATABASE_PATH", GENERAL, "./data/chatbots.sqlite3"),
    Key("DATABASE_URL", GENERAL, secret=True),
    Key("LEASE_TTL_SECONDS", GENERAL, "15"),
    Key("LOG_LEVEL", GENERAL),
    Key("LOG_FORMAT", GENERAL, "text"),
    Key("DEFAULT_LOCALE", GENERAL, chat="language"),
    Key("DEFAULT_THEME", GENERAL, chat="theme"),
    Key("DEFAULT_BOARD_STYLE", GENERAL, chat="board_style"),
    Key("CONSOLE_NAME", GENERAL),
    Key("DEFAULT_LEVEL", AI, chat="level"),
    Key("AI_BUDGET_SECONDS", AI, "1.0"),
    Key("AI_WORKERS", AI),
    Key("GAME_TTL_SECONDS", AI, chat="game_ttl"),
    Key("CHALLENGE_TTL_SECONDS", AI, chat="challenge_ttl"),
    Key("DEFAULT_CLOCK", AI, chat="clock"),
    Key("MAX_CLOCK", AI, chat="max_clock"),
    Key("RATE_BURST", AI, chat="rate_burst"),
    Key("RATE_PER_MINUTE", AI, chat="rate_per_minute"),
    Key("BOARDS_PER_MINUTE", AI, chat="boards_per_minute"),
    Key("DEFAULT_GAMES", AI, chat="games"),
    Key("DEFAULT_MAX_BOARD", AI, chat="max_board"),
    Key("DEFAULT_PVP", AI, chat="pvp"),
    Key("DEFAULT_BOT_VS_BOT", AI, chat="bot_vs_bot"),
    Key("DEFAULT_RATED", AI, chat="rated"),
    Key("DEFAULT_COOLDOWN_SECONDS", AI, chat="cooldown"),
    Key("DEFAULT_MAX_GAMES_PER_USER", AI, chat="max_games_per_user"),
    Key("DEFAULT_MAX_GAMES_PER_CHAT", AI, chat="max_games_per_chat"),
    Key("DISCORD_TOKEN", DISCORD, secret=True),
    Key("DISCORD_GUILD_IDS", DISCORD),
    Key("DISCORD_API_BASE_URL", DISCORD, "https://discord.com/api/v10"),
    Key("DISCORD_GATEWAY_URL", DISCORD, "wss://gateway.discord.gg/"),
    Key("DISCORD_SHARD_COUNT", DISCORD),
    Key("DISCORD_SHARD_IDS", DISCORD),
    Key("DISCORD_MEMBER_EVENTS", DISCORD, "off"),
    Key("MATRIX_HOMESERVER", MATRIX),
    Key("MATRIX_USER_ID", MATRIX),
    Key("MATRIX_PASSWORD", MATRIX, secret=True),
    Key("MATRIX_ACCESS_TOKEN", MATRIX, secret=True),
    Key("MATRIX_DEVICE_ID", MATRIX),
    Key("MATRIX_STORE_PATH", MATRIX, "./data/matrix"),
    Key("MATRIX_ALLOWED_SERVERS", MATRIX),
    Key("MATRIX_ALLOWED_USERS", MATRIX),
    Key("MATRIX_EXEMPT", MATRIX, "off"),
    Key("BOT_ADMINS", MATRIX),
    Key("HTTP_PORT", HTTP),
    Key("HTTP_HOST", HTTP, "127.0.0.1"),
    Key("WEB_PORT", WEB),
    Key("WEB_HOST", WEB, "127.0.0.1"),
    Key("PUBLIC_URL", WEB),
    Key("WEB_TRUSTED_PROXIES", WEB, "127.0.0.0/8,::1"),
)
KEY_NAMES = frozenset(key.name for key in KEYS)
CHAT_DEFAULTS: tuple[tuple[str, str], ...] = tuple((k.name, k.chat) for k in KEYS if k.chat)
"""The .env keys that set the default of a chat setting (``/settings``), with that setting's
name; each is parsed by that setting's own parser, and unset the setting keeps its built-in
default."""
LIMITS: dict[str, tuple[float, float]] = parse.LIMITS | {
    name: bounds for name, setting in CHAT_DEFAULTS if (bounds := chat.BY_NAME[setting].bounds)
}
"""The bounds of every number, inclusive: a chat setting's default has that setting's."""
_DEFAULTS = {key.name: key.default for key in KEYS}
_DISCORD_API, _DISCORD_GATEWAY = _DEFAULTS["DISCORD_API_BASE_URL"], _DEFAULTS["DISCORD_GATEWAY_URL"]


@dataclass(frozen=True, slots=True)
class DiscordSettings:
    token: Secret
    guild_ids: tuple[int, ...] = ()
    api_base_url: str = _DEFAULTS["DISCORD_API_BASE_URL"]
    gateway_url: str = _DEFAULTS["DISCORD_GATEWAY_URL"]
    # None: one connection without sharding, as a bot in fewer than 2,500 servers runs.
    shard_count: int | None = None
    # Empty with a count: every shard of the count, in this process.
    shard_ids: tuple[int, ...] = ()
    # The privileged GUILD_MEMBERS intent: a member who leaves ends their games at once.
    member_events: bool = False


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
    bot_admins: tuple[str, ...] = ()
    exempt: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the application needs, validated.

    ``log_level`` is None when not set: the application then picks INFO when it runs as a
    service and WARNING on the console (so log lines do not interleave with the game).
    ``discord`` and ``matrix`` are None when that platform is not configured. ``http_port``
    is None when ``/healthz`` and ``/metrics`` are not served, ``web_port`` when the web pages
    are not (``public_url``, the address people reach them at, may be set without it: another
    process behind the same proxy serves them). ``database_url`` (PostgreSQL) is
    None when unset: the SQLite file at ``database_path`` is the store then.
    ``chat_defaults`` holds the chat settings' defaults the ``.env`` sets, by setting name.
    ``console_name`` is the console player's name when set (checked where the console is
    planned, by the console's own rule for names); None: the OS user's.
    """

    database_path: Path = Path(_DEFAULTS["DATABASE_PATH"])
    database_url: Secret | None = None
    lease_ttl: float = 15.0
    log_level: str | None = None
    log_format: LogFormat = LogFormat.TEXT
    ai_budget: float = 1.0
    ai_workers: int | None = None
    chat_defaults: Mapping[str, Any] = field(default_factory=dict)
    discord: DiscordSettings | None = None
    matrix: MatrixSettings | None = None
    http_port: int | None = None
    http_host: str = _DEFAULTS["HTTP_HOST"]
    web_port: int | None = None
    web_host: str = _DEFAULTS["WEB_HOST"]
    public_url: str | None = None
    web_trusted_proxies: tuple[str, ...] = ("127.0.0.0/8", "::1/128")
    console_name: str | None = None
    warnings: tuple[str, ...] = field(default=(), compare=False)

    def chat_default(self, key: chat.Key[T]) -> T:
        """The default of a chat setting: the ``.env``'s, else the built-in one."""
        return key.default_in(self.chat_defaults)

    @property
    def default_locale(self) -> str:
        """The language where nobody chose one: the default of the chat setting ``language``."""
        return self.chat_default(chat.Effective.language)

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
            return f"PostgreSQL at {parse.redacted(self.database_url.value)}"
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
            database_path=self.get("DATABASE_PATH", parse.path, Path()),
            database_url=self.optional("DATABASE_URL", parse.database_url),
            lease_ttl=self.get(
                "LEASE_TTL_SECONDS", parse.seconds(*LIMITS["LEASE_TTL_SECONDS"]), 15.0
            ),
            log_level=self.get("LOG_LEVEL", parse.log_level, None),
            log_format=self.get("LOG_FORMAT", parse.log_format, LogFormat.TEXT),
            ai_budget=self.get(
                "AI_BUDGET_SECONDS", parse.seconds(*LIMITS["AI_BUDGET_SECONDS"]), 1.0
            ),
            ai_workers=self.get("AI_WORKERS", parse.workers, None),
            chat_defaults={
                setting: self.get(name, parse.chat_setting(setting), None)
                for name, setting in CHAT_DEFAULTS
                if self.given(name)
            },
            discord=self.discord(),
            matrix=self.matrix(),
            http_port=self.http_port(),
            http_host=self.get("HTTP_HOST", parse.listen_host, ""),
            web_port=self.web_port(),
            web_host=self.get("WEB_HOST", parse.listen_host, ""),
            public_url=self.optional("PUBLIC_URL", parse.public_url),
            web_trusted_proxies=self.get("WEB_TRUSTED_PROXIES", parse.networks, ()),
            console_name=self.optional("CONSOLE_NAME", str),
            warnings=warnings,
        )
        if self.problems:
            raise SettingsError(self.problems)
        if settings.database_url is not None and self.chosen("DATABASE_PATH"):
            notice = "DATABASE_PATH is ignored: DATABASE_URL is set, the store is PostgreSQL"
            settings = replace(settings, warnings=(*settings.warnings, notice))
        if settings.matrix is None and self.given("BOT_ADMINS"):
            notice = "BOT_ADMINS is ignored: Matrix is not configured (it lists Matrix users)"
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
        shard_count, shard_ids = self.shards()
        return DiscordSettings(
            token=self.get("DISCORD_TOKEN", parse.discord_token, Secret("")),
            guild_ids=self.get("DISCORD_GUILD_IDS", parse.guild_ids, ()),
            api_base_url=self.get(
                "DISCORD_API_BASE_URL", parse.url(_DISCORD_API, "http", "https"), ""
            ),
            gateway_url=self.get(
                "DISCORD_GATEWAY_URL", parse.url(_DISCORD_GATEWAY, "ws", "wss"), ""
            ),
            shard_count=shard_count,
            shard_ids=shard_ids,
            member_events=self.get("DISCORD_MEMBER_EVENTS", parse.switch, False),
        )

    def shards(self) -> tuple[int | None, tuple[int, ...]]:
        """``shard_count`` and ``shard_ids``, each id checked against the count."""
        count = self.get("DISCORD_SHARD_COUNT", parse.shard_count, None)
        ids: tuple[int, ...] = self.get("DISCORD_SHARD_IDS", parse.shard_ids, ())
        if ids and count is None and not self.given("DISCORD_SHARD_COUNT"):
            self.problems.append(
                "DISCORD_SHARD_IDS: set, but DISCORD_SHARD_COUNT is not (the ids are shards "
                "of how many? Every process of the bot needs the same count)"
            )
        elif count is not None and any(shard >= count for shard in ids):
            beyond = next(shard for shard in ids if shard >= count)
            self.problems.append(
                f"DISCORD_SHARD_IDS: shard {beyond} does not exist with DISCORD_SHARD_COUNT="
                f"{count} (shards are numbered from 0 to {count - 1})"
            )
        return count, ids

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
                "MATRIX_HOMESERVER", parse.url("https://matrix.example.org", "http", "https"), ""
            ),
            user_id=self.get("MATRIX_USER_ID", parse.matrix_user, ""),
            password=Secret(password) if password else None,
            access_token=self.optional("MATRIX_ACCESS_TOKEN", parse.matrix_token),
            device_id=self.optional("MATRIX_DEVICE_ID", parse.device_id),
            store_path=self.get("MATRIX_STORE_PATH", parse.path, Path()),
            allowed_servers=self.get("MATRIX_ALLOWED_SERVERS", parse.servers, ()),
            allowed_users=self.get("MATRIX_ALLOWED_USERS", parse.matrix_users, ()),
            bot_admins=self.get("BOT_ADMINS", parse.matrix_users, ()),
            exempt=self.get("MATRIX_EXEMPT", parse.switch, False),
        )

    def http_port(self) -> int | None:
        if not self.given("HTTP_PORT") and self.chosen("HTTP_"):
            # A listening address without a port serves nothing: surely a forgotten port.
            self.problems.append("HTTP_PORT: missing, but HTTP_HOST is set (set both, or neither)")
        return self.get("HTTP_PORT", parse.port, None)

    def web_port(self) -> int | None:
        if not self.given("WEB_PORT") and (chosen := self.chosen("WEB_")):
            these = " and ".join(chosen) + (" is" if len(chosen) == 1 else " are")
            self.problems.append(f"WEB_PORT: missing, but {these} set (set both, or neither)")
        port = self.get("WEB_PORT", parse.port, None)
        if port is not None and port == self.get("HTTP_PORT", parse.port, None):
            # The pages may face the world; the health and metrics listener never should.
            self.problems.append(
                f"WEB_PORT: {port} is HTTP_PORT too; the pages need a listener of their own "
                "(the health and metrics one must stay private): choose another port"
            )
        return port
