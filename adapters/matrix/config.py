"""The Matrix adapter's settings (the application fills them from ``MATRIX_*`` variables)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from core.i18n import LOCALES, normalize_locale


@dataclass(frozen=True, slots=True)
class MatrixConfig:
    """How to reach the homeserver and whom to serve.

    Attributes:
        homeserver: base URL of the client API, ``https://matrix.example.org``.
        user_id: the bot's full Matrix id, ``@gamebot:example.org``.
        password: log in with a password; the access token and device id obtained are kept in
            the store, so a restart reuses the same device.
        access_token: log in with an existing token instead (then ``device_id`` is read from
            the server when not given).
        device_id: the device to use with ``access_token`` (needed for encrypted rooms).
        store_path: directory for the end-to-end encryption store (``matrix-nio[e2e]``).
        allowed_servers: accept invites only from users on these servers (``example.org``);
            empty together with ``allowed_users`` means accept every invite.
        allowed_users: accept invites from these user ids too.
        bot_admins: users who may change the settings of every room the bot is in, whatever
            their power level there (``BOT_ADMINS``).
        default_locale: the language of every reply (Matrix has no per-user locale).
        exempt: the homeserver exempts the bot from its rate limits (``MATRIX_EXEMPT``):
            keycaps and clean-up from the first board on. Unset, the bot sends none until it
            has seen that the homeserver lets it past Synapse's default rate.

    Raises:
        ValueError: on construction, naming the bad setting.
    """

    homeserver: str
    user_id: str
    password: str | None = None
    access_token: str | None = None
    device_id: str | None = None
    store_path: str = "./data/matrix"
    allowed_servers: tuple[str, ...] = ()
    allowed_users: tuple[str, ...] = ()
    default_locale: str = "en"
    bot_admins: tuple[str, ...] = ()
    exempt: bool = False

    def __post_init__(self) -> None:
        url = urlsplit(self.homeserver)
        if url.scheme not in ("http", "https") or not url.netloc:
            raise ValueError(f"MATRIX_HOMESERVER must be an http(s) URL, got {self.homeserver!r}")
        if not is_user_id(self.user_id):
            raise ValueError(
                f"MATRIX_USER_ID must be a full Matrix id like @bot:example.org, "
                f"got {self.user_id!r}"
            )
        if not self.password and not self.access_token:
            raise ValueError("set MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN")
        for user in self.allowed_users:
            if not is_user_id(user):
                raise ValueError(f"MATRIX_ALLOWED_USERS: {user!r} is not a Matrix user id")
        for user in self.bot_admins:
            if not is_user_id(user):
                raise ValueError(f"BOT_ADMINS: {user!r} is not a Matrix user id")
        locale = normalize_locale(self.default_locale)
        if locale != self.default_locale:
            if self.default_locale.replace("_", "-").split("-", 1)[0].lower() != locale:
                raise ValueError(
                    f"the Matrix locale must be one of {', '.join(LOCALES)}, "
                    f"got {self.default_locale!r}"
                )
            object.__setattr__(self, "default_locale", locale)  # "pt-BR" -> "pt"

    def __repr__(self) -> str:
        # Secrets never appear in logs, and a config is the kind of thing that gets logged.
        hidden = {"password", "access_token"}
        fields = ", ".join(
            f"{name}={'***' if name in hidden and getattr(self, name) else getattr(self, name)!r}"
            for name in self.__dataclass_fields__
        )
        return f"MatrixConfig({fields})"

    def invite_allowed(self, inviter: str) -> bool:
        """Whether an invite sent by ``inviter`` should be accepted."""
        if not self.allowed_servers and not self.allowed_users:
            return True
        return inviter in self.allowed_users or server_of(inviter) in self.allowed_servers


def is_user_id(text: str) -> bool:
    """``@localpart:server`` (the grammar is loose on purpose: servers decide)."""
    local, sep, server = text.removeprefix("@").partition(":")
    return text.startswith("@") and bool(local) and bool(sep) and bool(server)


def server_of(user_id: str) -> str:
    """The server part of a user id: ``@bob:example.org`` -> ``example.org``."""
    return user_id.partition(":")[2]
