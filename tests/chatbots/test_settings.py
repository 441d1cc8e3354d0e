"""Settings: parsing, validation naming the bad key, .env against the environment, secrets."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chatbots.settings import (
    CHAT_DEFAULTS,
    KEY_NAMES,
    KEYS,
    LIMITS,
    LogFormat,
    Secret,
    Settings,
    SettingsError,
    load_settings,
)
from core.admin.keys import BY_NAME

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTA5.discord-token.value_1"
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
            "DISCORD_TOKEN": f" {TOKEN} ",
            "DISCORD_GUILD_IDS": "123, 456 789",
            "DISCORD_API_BASE_URL": "http://127.0.0.1:8080/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8080/gateway",
            **MATRIX,
            "MATRIX_DEVICE_ID": "BOTDEVICE",
            "MATRIX_STORE_PATH": "/tmp/matrix-store",
            "MATRIX_ALLOWED_SERVERS": "example.org,localhost:8448",
            "MATRIX_ALLOWED_USERS": "@alice:example.org",
            "BOT_ADMINS": "@ops:example.org, @carol:other.org",
        },
        None,
    )
    assert settings.database_path == Path("/tmp/x.sqlite3")
    assert (settings.log_level, settings.log_format) == ("DEBUG", LogFormat.JSON)
    assert settings.default_locale == "pt"
    assert (settings.ai_budget, settings.ai_workers) == (0.25, 3)
    assert settings.chat_defaults["game_ttl"] == 60.0
    assert settings.chat_defaults["challenge_ttl"] == 30.0
    assert settings.platforms == ("discord", "matrix")
    assert settings.discord is not None and settings.matrix is not None
    assert settings.discord.token == Secret(TOKEN)  # surrounding blanks dropped
    assert settings.discord.guild_ids == (123, 456, 789)
    assert settings.discord.gateway_url == "ws://127.0.0.1:8080/gateway"
    assert settings.matrix.password == Secret("hunter2-matrix-pw")
    assert settings.matrix.access_token is None
    assert settings.matrix.allowed_servers == ("example.org", "localhost:8448")
    assert settings.matrix.allowed_users == ("@alice:example.org",)
    assert settings.matrix.bot_admins == ("@ops:example.org", "@carol:other.org")
    assert set(settings.secrets()) == {TOKEN, "hunter2-matrix-pw"}


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL: 'loud' is not one of DEBUG, INFO"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT: 'xml' is not one of text, json"),
        ({"DEFAULT_LOCALE": "de"}, "DEFAULT_LOCALE: 'de' is not one of en, ca, es, pt, ru"),
        (
            {"AI_BUDGET_SECONDS": "fast"},
            "AI_BUDGET_SECONDS: 'fast' is not a number of seconds from 0.05 to 30",
        ),
        ({"AI_BUDGET_SECONDS": "0"}, "AI_BUDGET_SECONDS: '0' is not a number of seconds from"),
        ({"AI_BUDGET_SECONDS": "1e308"}, "AI_BUDGET_SECONDS: '1e308' is not a number of seconds"),
        (
            {"GAME_TTL_SECONDS": "nan"},
            "GAME_TTL_SECONDS: 'nan' is not a number of seconds from 60 to 2592000",
        ),
        (
            {"CHALLENGE_TTL_SECONDS": "-5"},
            "CHALLENGE_TTL_SECONDS: '-5' is not a number of seconds from 10 to 86400",
        ),
        ({"AI_WORKERS": "two"}, "AI_WORKERS: 'two' is not a whole number from 0 to 64"),
        ({"AI_WORKERS": "-1"}, "AI_WORKERS: '-1' is not a whole number"),
        ({"AI_WORKERS": "65"}, "AI_WORKERS: '65' is not a whole number"),
        (
            {"AI_WORKERS": "9" * 5000},
            "AI_WORKERS: '9999999999999999999999999999999999999999'... (5000 characters) is not",
        ),
        (
            {"DISCORD_TOKEN": TOKEN, "DISCORD_GUILD_IDS": "12a"},
            "DISCORD_GUILD_IDS: '12a' is not a list of numeric ids",
        ),
        (
            {"DISCORD_TOKEN": TOKEN, "DISCORD_GUILD_IDS": "18446744073709551616"},
            "DISCORD_GUILD_IDS: '18446744073709551616' is not a list of numeric ids",
        ),
        (
            {"DISCORD_TOKEN": TOKEN, "DISCORD_GUILD_IDS": ",".join(["1"] * 101)},
            "DISCORD_GUILD_IDS: 101 ids, more than 100: leave it empty to sync commands globally",
        ),
        (
            {"DISCORD_TOKEN": TOKEN, "DISCORD_GATEWAY_URL": "https://gateway"},
            "DISCORD_GATEWAY_URL: 'https://gateway' is not a ws or wss URL like wss://",
        ),
        (
            {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": "discord.com/api"},
            "DISCORD_API_BASE_URL: 'discord.com/api' is not an http or https URL like https://",
        ),
        (
            {"DISCORD_TOKEN": TOKEN, "DISCORD_API_BASE_URL": "https://:443/api"},
            "DISCORD_API_BASE_URL: 'https://:443/api' is not an http or https URL",
        ),
        (
            {"DISCORD_TOKEN": TOKEN, "DISCORD_GATEWAY_URL": "wss://gateway:99999/"},
            "DISCORD_GATEWAY_URL: 'wss://gateway:99999/' is not a ws or wss URL",
        ),
        ({"DISCORD_GUILD_IDS": "123"}, "DISCORD_TOKEN: missing, but DISCORD_GUILD_IDS is set"),
        (
            {**MATRIX, "MATRIX_USER_ID": "bot"},
            "MATRIX_USER_ID: 'bot' is not a Matrix user id like @bot:example.org",
        ),
        (
            {**MATRIX, "MATRIX_HOMESERVER": "matrix.example.org"},
            "MATRIX_HOMESERVER: 'matrix.example.org' is not an http or https URL",
        ),
        (
            {**MATRIX, "MATRIX_HOMESERVER": "https:///_matrix"},
            "MATRIX_HOMESERVER: 'https:///_matrix' is not an http or https URL",
        ),
        (
            {**MATRIX, "MATRIX_USER_ID": "@bot:example.org\n@x:y"},
            "MATRIX_USER_ID: '@bot:example.org\\n@x:y' is not a Matrix user id",
        ),
        (
            {**MATRIX, "MATRIX_USER_ID": "@bot"},
            "MATRIX_USER_ID: '@bot' is not a Matrix user id like @bot:example.org",
        ),
        (
            {**MATRIX, "MATRIX_DEVICE_ID": "MY DEVICE"},
            "MATRIX_DEVICE_ID: 'MY DEVICE' is not a device id (one word of printable ASCII)",
        ),
        (
            {**MATRIX, "MATRIX_ALLOWED_SERVERS": "example.org,ex_ample.org"},
            "MATRIX_ALLOWED_SERVERS: 'ex_ample.org' is not a server name",
        ),
        (
            {**MATRIX, "MATRIX_ALLOWED_USERS": "@a:x.org,bob"},
            "MATRIX_ALLOWED_USERS: 'bob' is not a Matrix user id",
        ),
        (
            {**MATRIX, "BOT_ADMINS": "@ops:example.org ops"},
            "BOT_ADMINS: 'ops' is not a Matrix user id",
        ),
        (
            {"MATRIX_HOMESERVER": "https://m.org", "MATRIX_USER_ID": "@b:m.org"},
            "MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN: missing",
        ),
        ({"MATRIX_PASSWORD": "pw-only-value"}, "MATRIX_HOMESERVER: missing"),
        ({"RATE_BURST": "0"}, "RATE_BURST: '0' is not a whole number from 1 to 1000"),
        ({"DEFAULT_LEVEL": "expert"}, "DEFAULT_LEVEL: 'expert' is not one of easy, medium, hard"),
        ({"DEFAULT_GAMES": "chess"}, "DEFAULT_GAMES: 'chess' is not a list of games from tres"),
        ({"DEFAULT_PVP": "maybe"}, "DEFAULT_PVP: 'maybe' is not on or off"),
        ({"DEFAULT_MAX_BOARD": "30x3"}, "DEFAULT_MAX_BOARD: '30x3' is not a board size"),
        ({"DEFAULT_COOLDOWN_SECONDS": "-1"}, "DEFAULT_COOLDOWN_SECONDS: '-1' is not a number of"),
        ({"DEFAULT_MAX_GAMES_PER_USER": "0"}, "DEFAULT_MAX_GAMES_PER_USER: '0' is not a whole"),
        ({"RATE_PER_MINUTE": "1e3"}, "RATE_PER_MINUTE: '1e3' is not a whole number from 1 to"),
        ({"BOARDS_PER_MINUTE": "6001"}, "BOARDS_PER_MINUTE: '6001' is not a whole number"),
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


def test_where_matrix_keeps_its_keys_is_no_reason_to_run_it() -> None:
    # An image or a service unit points it into its data folder for every install.
    settings = load_settings({"MATRIX_STORE_PATH": "/var/lib/chatbots/matrix"}, None)
    assert settings.matrix is None
    configured = load_settings({**MATRIX, "MATRIX_STORE_PATH": "/var/lib/chatbots/matrix"}, None)
    assert configured.matrix is not None
    assert str(configured.matrix.store_path) == "/var/lib/chatbots/matrix"


def test_bot_admins_alone_do_not_run_matrix_and_say_so() -> None:
    settings = load_settings({"BOT_ADMINS": "@ops:example.org"}, None)
    assert settings.matrix is None
    assert settings.warnings == (
        "BOT_ADMINS is ignored: Matrix is not configured (it lists Matrix users)",
    )
    assert load_settings({**MATRIX, "BOT_ADMINS": "@ops:example.org"}, None).warnings == ()


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
        f"DISCORD_TOKEN='{TOKEN}'\n"
        "AI_BUDGET_SECONDS=2.5\n",
        encoding="utf-8",
    )
    settings = load_settings({"DATABASE_PATH": "from-env.sqlite3"}, env_file)
    assert settings.database_path == Path("from-env.sqlite3")  # the environment wins
    assert settings.log_format is LogFormat.JSON  # the file fills the rest
    assert settings.ai_budget == 2.5
    assert settings.discord is not None and settings.discord.token.value == TOKEN
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
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nDISCORD_GUILD_IDS=12a\n", encoding="utf-8")
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
        {"DISCORD_TOKEN": TOKEN, **MATRIX, "MATRIX_ACCESS_TOKEN": "syt_abcdef"},
        None,
    )
    for text in (repr(settings), str(settings), f"{settings.discord}", repr(settings.matrix)):
        assert TOKEN not in text
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
        elif key.chat is not None:
            # Empty (the built-in default applies) or the built-in default itself.
            chat_key = BY_NAME[key.chat]
            shown = chat_key.show(chat_key.default)
            assert value in ("", shown), f"{name}: .env.example says {value!r}, not {shown!r}"
        else:
            assert value == key.default, f"{name}: .env.example says {value!r}"
    # Copying the example as it is gives a valid console setup.
    settings = load_settings({}, ROOT / ".env.example")
    assert settings.platforms == () and settings.warnings == ()


# --- bounds of numbers ----------------------------------------------------------------------

SECONDS = ["AI_BUDGET_SECONDS", "GAME_TTL_SECONDS", "CHALLENGE_TTL_SECONDS"]
FIELD = {"AI_BUDGET_SECONDS": "ai_budget", "AI_WORKERS": "ai_workers"}
FIELD |= {"GAME_TTL_SECONDS": "game_ttl", "CHALLENGE_TTL_SECONDS": "challenge_ttl"}


def value_of(settings: Settings, name: str) -> object:
    """The value of the number ``name`` sets: a field, or a chat setting's default."""
    if name in dict(CHAT_DEFAULTS):
        return settings.chat_defaults[FIELD[name]]
    return getattr(settings, FIELD[name])


def one_problem(environ: dict[str, str]) -> str:
    """The only problem of ``environ``, checked to be one line naming the key it is about."""
    with pytest.raises(SettingsError) as caught:
        load_settings(environ, None)
    (problem,) = caught.value.problems
    (name,) = environ
    assert problem.startswith(f"{name}: ")
    assert problem.isprintable(), problem  # one line, whatever was typed
    assert len(problem) < 300, problem
    return problem


@pytest.mark.parametrize("name", SECONDS)
@given(data=st.data())
def test_seconds_within_the_limits_are_taken(name: str, data: st.DataObject) -> None:
    low, high = LIMITS[name]
    value = data.draw(st.floats(low, high))
    settings = load_settings({name: repr(value)}, None)
    assert value_of(settings, name) == value


@pytest.mark.parametrize("name", SECONDS)
@given(data=st.data())
def test_seconds_beyond_the_limits_are_refused(name: str, data: st.DataObject) -> None:
    low, high = LIMITS[name]
    value = data.draw(
        st.floats(max_value=low, exclude_max=True) | st.floats(min_value=high, exclude_min=True)
    )
    assert f"to {high:.10g}" in one_problem({name: repr(value)})


@pytest.mark.parametrize("name", SECONDS)
@pytest.mark.parametrize(
    "text", ["nan", "inf", "-inf", "Infinity", "1e308", "1e999", "1_0", "٣", "0x10", "1,5", "5s"]
)
def test_seconds_that_are_not_a_plain_number_in_range_are_refused(name: str, text: str) -> None:
    one_problem({name: text})


@pytest.mark.parametrize("name", [*SECONDS, "AI_WORKERS"])
@given(text=st.text(min_size=1).filter(lambda t: t.strip() != ""))
def test_any_text_is_a_bounded_number_or_one_line_naming_the_key(name: str, text: str) -> None:
    low, high = LIMITS[name]
    try:
        settings = load_settings({name: text}, None)
    except SettingsError:
        one_problem({name: text})
    else:
        value = value_of(settings, name)
        assert isinstance(value, int | float) and low <= value <= high


@given(st.integers())
def test_workers_are_a_whole_number_within_the_limits(count: int) -> None:
    low, high = LIMITS["AI_WORKERS"]
    if low <= count <= high:
        assert load_settings({"AI_WORKERS": str(count)}, None).ai_workers == count
    else:
        assert f"from {low:g} to {high:g}" in one_problem({"AI_WORKERS": str(count)})


def test_env_example_states_every_limit() -> None:
    lines = (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
    for name, (low, high) in LIMITS.items():
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{name}="))
        comment = " ".join(line for line in lines[at - 3 : at] if line.startswith("#"))
        assert f"{low:.10g} to {high:.10g}" in comment, f"{name}: {comment!r}"


# --- shapes of tokens, ids and URLs ---------------------------------------------------------

PART = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1)


@given(st.tuples(PART, PART, PART))
def test_a_discord_token_of_three_parts_is_taken(parts: tuple[str, str, str]) -> None:
    token = ".".join(parts)
    settings = load_settings({"DISCORD_TOKEN": token}, None)
    assert settings.discord is not None and settings.discord.token == Secret(token)


@given(st.tuples(PART, PART, PART), st.sampled_from([" ", "\n", "\t", "\r\n", "\u00a0"]))
def test_a_discord_token_with_a_blank_inside_is_refused_unshown(
    parts: tuple[str, str, str], blank: str
) -> None:
    token = parts[0] + blank + ".".join(parts)
    problem = one_problem({"DISCORD_TOKEN": token})
    assert ".".join(parts) not in problem


@pytest.mark.parametrize(
    ("token", "says"),
    [
        (f"Bot {TOKEN}", "starts with 'Bot '"),
        (f'"{TOKEN}"', "is in quotes"),
        (f"{TOKEN[:10]} {TOKEN[10:]}", "contains a space or a line break"),
        (f"{TOKEN}\nDISCORD_GUILD_IDS=1", "contains a space or a line break"),
        ("MTA5.discord-token", "is not a bot token (three dot-separated parts"),
        ("MTA5.discord+token/x.value", "is not a bot token"),
        ("MTA5..value", "is not a bot token"),
    ],
)
def test_a_discord_token_of_the_wrong_shape_is_named_never_shown(token: str, says: str) -> None:
    problem = one_problem({"DISCORD_TOKEN": token})
    assert says in problem
    assert "discord-token" not in problem and "value" not in problem


@pytest.mark.parametrize(
    ("token", "says"),
    [
        ("Bearer syt_Ym90_secret_1", "starts with 'Bearer '"),
        ("'syt_Ym90_secret_1'", "is in quotes"),
        ("syt_Ym90 secret_1", "contains a space or a line break"),
        ("syt_Ym90\nsecret_1", "contains a space or a line break"),
        ("syt_Ym90_sécret_1", "not printable ASCII"),
    ],
)
def test_a_matrix_token_of_the_wrong_shape_is_named_never_shown(token: str, says: str) -> None:
    environ = {k: v for k, v in MATRIX.items() if k != "MATRIX_PASSWORD"}
    with pytest.raises(SettingsError) as caught:
        load_settings({**environ, "MATRIX_ACCESS_TOKEN": token}, None)
    (problem,) = caught.value.problems
    assert problem.startswith("MATRIX_ACCESS_TOKEN: ") and says in problem
    assert "secret" not in problem


@pytest.mark.parametrize(
    "user_id",
    [
        "@bot:example.org",
        "@bot:localhost:8448",
        "@g=a/m.e_b+o-t:x.org",
        "@b:[::1]:8008",
        "@b:1.2.3.4",
    ],
)
def test_matrix_user_ids_of_the_spec_are_taken(user_id: str) -> None:
    settings = load_settings({**MATRIX, "MATRIX_USER_ID": user_id}, None)
    assert settings.matrix is not None and settings.matrix.user_id == user_id


@pytest.mark.parametrize(
    "user_id", ["bot:example.org", "@bot", "@:example.org", "@bot:", "@bo t:x.org", "@bot:x_y.org"]
)
def test_matrix_user_ids_of_the_wrong_shape_are_refused(user_id: str) -> None:
    with pytest.raises(SettingsError, match=r"MATRIX_USER_ID: .* is not a Matrix user id"):
        load_settings({**MATRIX, "MATRIX_USER_ID": user_id}, None)


@pytest.mark.parametrize(
    "url",
    [
        "https://matrix.example.org",
        "http://127.0.0.1:8008",
        "https://x.org/prefix/",
        "HTTPS://x.org",
    ],
)
def test_homeserver_urls_with_a_host_are_taken(url: str) -> None:
    settings = load_settings({**MATRIX, "MATRIX_HOMESERVER": url}, None)
    assert settings.matrix is not None and settings.matrix.homeserver == url


@pytest.mark.parametrize(
    "url",
    ["https://", "https:///x", "ftp://x.org", "x.org", "https://x.org:port", "https://x .org"],
)
def test_homeserver_urls_without_a_host_are_refused(url: str) -> None:
    with pytest.raises(SettingsError, match=r"MATRIX_HOMESERVER: .* is not an http or https URL"):
        load_settings({**MATRIX, "MATRIX_HOMESERVER": url}, None)


# --- what an admin sees -----------------------------------------------------------------------


def test_check_prints_one_line_per_problem_and_no_secret(tmp_path: Path) -> None:
    bad = {
        "AI_BUDGET_SECONDS": "1e308",
        "AI_WORKERS": "100",
        "GAME_TTL_SECONDS": "inf",
        "DISCORD_TOKEN": f"{TOKEN}\nsecond-line",
        "MATRIX_HOMESERVER": "matrix.example.org",
        "MATRIX_USER_ID": "gamebot",
        "MATRIX_ACCESS_TOKEN": "syt_Ym90 secret_1",
    }
    env = {k: v for k, v in os.environ.items() if k not in KEY_NAMES}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    result = subprocess.run(
        [sys.executable, "-m", "chatbots", "check"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env | bad,
        timeout=60,
    )
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "chatbots: bad settings (see .env.example):"
    # One line per bad key, in the order of .env.example, each naming its key first.
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        key.name for key in KEYS if key.name in bad
    ]
    assert all(line.startswith("  ") and len(line) < 200 for line in lines[1:])
    assert TOKEN not in result.stderr and "secret_1" not in result.stderr
    assert result.stdout == ""


def service_defaults(environ: dict[str, str]) -> dict[str, object]:
    """Every chat setting's default as the service gets it from ``environ``."""
    from chatbots.app import service_settings
    from core.admin.effective import defaults

    service = service_settings(load_settings(environ, env_file=None))
    return dict(defaults(service.chat_defaults).values)


def test_the_limits_of_the_env_are_every_chats_defaults() -> None:
    environ = {"RATE_BURST": "200", "RATE_PER_MINUTE": "3000", "BOARDS_PER_MINUTE": "600"}
    chosen = service_defaults(environ)
    assert (chosen["rate_burst"], chosen["rate_per_minute"], chosen["boards_per_minute"]) == (
        200,
        3000,
        600,
    )


def test_the_default_level_and_language_of_the_env_are_every_chats_defaults() -> None:
    from core.ai import Level

    assert service_defaults({})["level"] is Level.MEDIUM
    assert service_defaults({"DEFAULT_LEVEL": "Hard"})["level"] is Level.HARD
    assert service_defaults({"DEFAULT_LOCALE": "pt-BR"})["language"] == "pt"
    settings = load_settings({"DEFAULT_LOCALE": "pt-BR"}, env_file=None)
    assert settings.default_locale == "pt"
    assert load_settings({}, env_file=None).default_locale == "en"


def test_every_chat_setting_default_of_the_env_is_parsed_by_the_settings_own_parser() -> None:
    for name, setting in CHAT_DEFAULTS:
        key = BY_NAME[setting]
        text = key.show(key.default)
        assert load_settings({name: text}, None).chat_defaults == {setting: key.default}
        problem = one_problem({name: "not-a-value"})
        assert problem.startswith(f"{name}: 'not-a-value' is not "), problem


def test_the_env_sets_the_defaults_of_the_other_chat_settings() -> None:
    from core.commands import GameKind

    built_in = service_defaults({})
    assert built_in == {key.name: key.default for key in BY_NAME.values()}
    # Empty values, as in a copy of .env.example, keep the built-in defaults.
    assert service_defaults(dict.fromkeys((name for name, _ in CHAT_DEFAULTS), "")) == built_in
    chosen = service_defaults(
        {
            "DEFAULT_GAMES": "tres, quatre",
            "DEFAULT_MAX_BOARD": "9x9",
            "DEFAULT_PVP": "off",
            "DEFAULT_BOT_VS_BOT": "no",
            "DEFAULT_COOLDOWN_SECONDS": "30",
            "DEFAULT_MAX_GAMES_PER_USER": "3",
            "DEFAULT_MAX_GAMES_PER_CHAT": "none",
        }
    )
    assert chosen == built_in | {
        "games": frozenset({GameKind.TRES, GameKind.QUATRE}),
        "max_board": (9, 9),
        "pvp": False,
        "bot_vs_bot": False,
        "cooldown": 30.0,
        "max_games_per_user": 3,
        "max_games_per_chat": None,
    }


def test_check_prints_every_chat_default_and_says_which_are_built_in() -> None:
    from chatbots.__main__ import describe

    environ = {"GAME_TTL_SECONDS": "3600", "DEFAULT_PVP": "no", "DEFAULT_LOCALE": "pt-BR"}
    lines = describe(load_settings(environ, None)).splitlines()
    for name, setting in CHAT_DEFAULTS:
        key = BY_NAME[setting]
        expected = f"{name} = {key.show(key.default)} (built in)"
        if name in environ:
            expected = f"{name} = {key.show(key.parse(environ[name]))}"
        assert expected in lines, name
    assert "GAME_TTL_SECONDS = 3600" in lines and "DEFAULT_PVP = off" in lines
    assert "DEFAULT_LOCALE = pt" in lines and "RATE_BURST = 10 (built in)" in lines
