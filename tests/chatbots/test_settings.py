"""Settings: parsing, validation naming the bad key, .env against the environment, secrets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chatbots.settings import (
    KEYS,
    LogFormat,
    Secret,
    Settings,
    SettingsError,
    load_settings,
)

ROOT = Path(__file__).resolve().parents[2]
MATRIX = {
    "MATRIX_HOMESERVER": "https://matrix.example.org",
    "MATRIX_USER_ID": "@bot:example.org",
    "MATRIX_PASSWORD": "hunter2-matrix-pw",
}


def problems(environ: dict[str, str], env_file: Path | None = None) -> str:
    with pytest.raises(SettingsError) as caught:
        load_settings(environ, env_file)
    return str(caught.value)


def test_defaults_run_the_console() -> None:
    settings = load_settings({}, None)
    assert settings == Settings()
    assert settings.database_path == Path("data/chatbots.sqlite3")
    assert settings.platforms == ()
    assert settings.secrets() == ()
    assert settings.log_level is None and settings.log_format is LogFormat.TEXT


def test_every_value_is_parsed() -> None:
    settings = load_settings(
        {
            "DATABASE_PATH": "/tmp/x.sqlite3",
            "LOG_LEVEL": "debug",
            "LOG_FORMAT": "JSON",
            "DEFAULT_LOCALE": "pt-BR",
            "AI_BUDGET_SECONDS": "0.25",
            "AI_WORKERS": "3",
            "GAME_TTL_SECONDS": "60",
            "CHALLENGE_TTL_SECONDS": "30",
            "DISCORD_TOKEN": " discord-token-value ",
            "DISCORD_GUILD_IDS": "123, 456 789",
            "DISCORD_API_BASE_URL": "http://127.0.0.1:8080/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
            **MATRIX,
            "MATRIX_DEVICE_ID": "BOTDEVICE",
            "MATRIX_STORE_PATH": "/tmp/matrix-store",
            "MATRIX_ALLOWED_SERVERS": "example.org,localhost:8448",
            "MATRIX_ALLOWED_USERS": "@alice:example.org",
        },
        None,
    )
    assert settings.database_path == Path("/tmp/x.sqlite3")
    assert (settings.log_level, settings.log_format) == ("DEBUG", LogFormat.JSON)
    assert settings.default_locale == "pt"
    assert (settings.ai_budget, settings.ai_workers) == (0.25, 3)
    assert (settings.game_ttl, settings.challenge_ttl) == (60.0, 30.0)
    assert settings.platforms == ("discord", "matrix")
    assert settings.discord is not None and settings.matrix is not None
    assert settings.discord.token == Secret("discord-token-value")  # surrounding blanks dropped
    assert settings.discord.guild_ids == (123, 456, 789)
    assert settings.discord.gateway_url == "ws://127.0.0.1:8080/gateway"
    assert settings.matrix.password == Secret("hunter2-matrix-pw")
    assert settings.matrix.access_token is None
    assert settings.matrix.allowed_servers == ("example.org", "localhost:8448")
    assert settings.matrix.allowed_users == ("@alice:example.org",)
    assert set(settings.secrets()) == {"discord-token-value", "hunter2-matrix-pw"}


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL: 'loud' is not one of DEBUG, INFO"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT: 'xml' is not one of text, json"),
        ({"DEFAULT_LOCALE": "de"}, "DEFAULT_LOCALE: 'de' is not one of en, ca, es, pt, ru"),
        ({"AI_BUDGET_SECONDS": "fast"}, "AI_BUDGET_SECONDS: 'fast' is not a number of seconds"),
        ({"AI_BUDGET_SECONDS": "0"}, "AI_BUDGET_SECONDS: '0' is not a positive number"),
        ({"GAME_TTL_SECONDS": "nan"}, "GAME_TTL_SECONDS: 'nan' is not a positive number"),
        ({"CHALLENGE_TTL_SECONDS": "-5"}, "CHALLENGE_TTL_SECONDS: '-5' is not a positive"),
        ({"AI_WORKERS": "two"}, "AI_WORKERS: 'two' is not a whole number from 0 to 256"),
        ({"AI_WORKERS": "-1"}, "AI_WORKERS: '-1' is not a whole number"),
        ({"AI_WORKERS": "257"}, "AI_WORKERS: '257' is not a whole number"),
        (
            {"DISCORD_TOKEN": "t0ken", "DISCORD_GUILD_IDS": "12a"},
            "DISCORD_GUILD_IDS: '12a' is not a list of numeric ids",
        ),
        (
            {"DISCORD_TOKEN": "t0ken", "DISCORD_GATEWAY_URL": "https://gateway"},
            "DISCORD_GATEWAY_URL: 'https://gateway' is not a ws or wss URL",
        ),
        (
            {"DISCORD_TOKEN": "t0ken", "DISCORD_API_BASE_URL": "discord.com/api"},
            "DISCORD_API_BASE_URL: 'discord.com/api' is not a http or https URL",
        ),
        ({"DISCORD_GUILD_IDS": "123"}, "DISCORD_TOKEN: missing, but DISCORD_GUILD_IDS is set"),
        (
            {**MATRIX, "MATRIX_USER_ID": "bot"},
            "MATRIX_USER_ID: 'bot' is not a Matrix user id like @bot:example.org",
        ),
        (
            {**MATRIX, "MATRIX_HOMESERVER": "matrix.example.org"},
            "MATRIX_HOMESERVER: 'matrix.example.org' is not a http or https URL",
        ),
        (
            {**MATRIX, "MATRIX_ALLOWED_USERS": "@a:x.org,bob"},
            "MATRIX_ALLOWED_USERS: 'bob' is not a Matrix user id",
        ),
        (
            {"MATRIX_HOMESERVER": "https://m.org", "MATRIX_USER_ID": "@b:m.org"},
            "MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN: missing",
        ),
        ({"MATRIX_PASSWORD": "pw-only-value"}, "MATRIX_HOMESERVER: missing"),
    ],
)
def test_a_bad_value_is_named(environ: dict[str, str], message: str) -> None:
    assert message in problems(environ)


def test_every_problem_is_reported_at_once() -> None:
    error = problems({"LOG_LEVEL": "loud", "AI_WORKERS": "x", "DISCORD_GUILD_IDS": "1"})
    assert re.findall(r"\b[A-Z_]+(?=: )", error) == ["LOG_LEVEL", "AI_WORKERS", "DISCORD_TOKEN"]


def test_half_configured_matrix_names_what_is_missing() -> None:
    error = problems({"MATRIX_USER_ID": "@bot:example.org"})
    assert "missing: MATRIX_HOMESERVER, MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN" in error


def test_an_access_token_is_enough_for_matrix() -> None:
    environ = {k: v for k, v in MATRIX.items() if k != "MATRIX_PASSWORD"}
    settings = load_settings({**environ, "MATRIX_ACCESS_TOKEN": "syt_token_value"}, None)
    assert settings.matrix is not None
    assert settings.matrix.access_token == Secret("syt_token_value")
    assert settings.secrets() == ("syt_token_value",)


def test_env_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(
        "# comment\n"
        "DATABASE_PATH=from-file.sqlite3\n"
        "LOG_FORMAT=json\n"
        "DISCORD_TOKEN='file-token-value'\n"
        "AI_BUDGET_SECONDS=2.5\n",
        encoding="utf-8",
    )
    settings = load_settings({"DATABASE_PATH": "from-env.sqlite3"}, env_file)
    assert settings.database_path == Path("from-env.sqlite3")  # the environment wins
    assert settings.log_format is LogFormat.JSON  # the file fills the rest
    assert settings.ai_budget == 2.5
    assert settings.discord is not None and settings.discord.token.value == "file-token-value"
    # An empty value in the environment unsets the file's value.
    assert load_settings({"DISCORD_TOKEN": ""}, env_file).discord is None


def test_env_file_values_are_literal(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("MATRIX_PASSWORD=pa$$${word}\n", encoding="utf-8")
    environ = {k: v for k, v in MATRIX.items() if k != "MATRIX_PASSWORD"}
    settings = load_settings(environ, env_file)
    assert settings.matrix is not None and settings.matrix.password == Secret("pa$$${word}")


def test_a_missing_env_file_is_fine_unless_named(tmp_path: Path) -> None:
    assert load_settings({}, tmp_path / ".env") == Settings()
    with pytest.raises(SettingsError, match="does not exist"):
        load_settings({}, tmp_path / ".env", required=True)


def test_a_bad_value_in_the_file_is_named(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=abc\nDISCORD_GUILD_IDS=12a\n", encoding="utf-8")
    assert "DISCORD_GUILD_IDS: '12a' is not a list of numeric ids" in problems({}, env_file)


def test_unknown_keys_are_warned_about(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKN=abc\n", encoding="utf-8")
    settings = load_settings({"MATRIX_HOMESERVR": "x", "PATH": "/bin"}, env_file)
    assert settings.platforms == ()
    assert any("DISCORD_TOKN" in w for w in settings.warnings)
    assert any("MATRIX_HOMESERVR" in w for w in settings.warnings)
    assert not any("PATH" in w.split()[-1] for w in settings.warnings)


def test_secrets_never_show_in_repr_or_str() -> None:
    settings = load_settings(
        {"DISCORD_TOKEN": "discord-token-value", **MATRIX, "MATRIX_ACCESS_TOKEN": "syt_abcdef"},
        None,
    )
    for text in (repr(settings), str(settings), f"{settings.discord}", repr(settings.matrix)):
        assert "discord-token-value" not in text
        assert "hunter2-matrix-pw" not in text
        assert "syt_abcdef" not in text
    assert "Secret('***')" in repr(settings)
    assert str(Secret("x")) == "***"


def test_env_example_lists_every_key_with_a_comment_and_no_secret() -> None:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    assignments = [(i, line.split("=", 1)) for i, line in enumerate(lines) if "=" in line]
    assignments = [(i, kv) for i, kv in assignments if not lines[i].startswith("#")]
    names = [kv[0] for _, kv in assignments]
    assert names == [key.name for key in KEYS]  # all of them, in the same order
    groups = [(i, line) for i, line in enumerate(lines) if line.startswith("# --- ")]
    for i, (name, value) in assignments:
        assert lines[i - 1].startswith("#"), f"{name} has no comment above it"
        key = next(k for k in KEYS if k.name == name)
        group = max((g for g in groups if g[0] < i), default=(0, ""))[1]
        assert group.startswith(f"# --- {key.group} "), f"{name} is not under {key.group}"
        if key.secret:
            assert value == "", f"{name} is a secret and must be empty in .env.example"
        else:
            assert value == key.default, f"{name}: .env.example says {value!r}"
    # Copying the example as it is gives a valid console setup.
    settings = load_settings({}, ROOT / ".env.example")
    assert settings.platforms == () and settings.warnings == ()
