"""MatrixConfig: validated once, secrets kept out of its repr."""

from __future__ import annotations

import pytest

from adapters.matrix import MatrixConfig


def test_valid_config_and_secret_free_repr() -> None:
    config = MatrixConfig("https://matrix.example.org", "@bot:example.org", password="hunter2")
    assert "hunter2" not in repr(config)
    assert "password='***'" in repr(config)
    token = MatrixConfig("http://127.0.0.1:8008", "@bot:example.org", access_token="syt_secret")
    assert "syt_secret" not in repr(token)


@pytest.mark.parametrize(
    ("kwargs", "names"),
    [
        ({"homeserver": "matrix.example.org"}, "MATRIX_HOMESERVER"),
        ({"user_id": "bot"}, "MATRIX_USER_ID"),
        ({"password": None}, "MATRIX_PASSWORD"),
        ({"allowed_users": ("bob",)}, "MATRIX_ALLOWED_USERS"),
        ({"bot_admins": ("@ops:example.org", "ops")}, "BOT_ADMINS"),
        ({"default_locale": "xx"}, "locale"),
    ],
)
def test_bad_settings_are_named(kwargs: dict[str, object], names: str) -> None:
    base: dict[str, object] = {
        "homeserver": "https://m.example.org",
        "user_id": "@bot:example.org",
        "password": "pw",
    }
    with pytest.raises(ValueError, match=names):
        MatrixConfig(**{**base, **kwargs})  # type: ignore[arg-type]


def test_invites_from_allowed_servers_or_users() -> None:
    anyone = MatrixConfig("https://m.example.org", "@bot:example.org", password="pw")
    assert anyone.invite_allowed("@eve:evil.example")
    strict = MatrixConfig(
        "https://m.example.org",
        "@bot:example.org",
        password="pw",
        allowed_servers=("example.org",),
        allowed_users=("@friend:other.org",),
    )
    assert strict.invite_allowed("@alice:example.org")
    assert strict.invite_allowed("@friend:other.org")
    assert not strict.invite_allowed("@eve:evil.example")
    assert not strict.invite_allowed("")


def test_locale_tags_are_normalized() -> None:
    config = MatrixConfig("https://m.example.org", "@bot:x", password="pw", default_locale="pt-BR")
    assert config.default_locale == "pt"
