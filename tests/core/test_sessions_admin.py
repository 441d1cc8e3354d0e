"""``/settings`` and what it changes, through the service on a real SQLite file: who may, what is
shown, the refusals of new games, the defaults new games get, the limits (rate, cooldown, live
games, boards per minute) and that none of it touches a game already running."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from core.admin.keys import SETTING_NAMES
from core.ai import Level
from core.commands import GameKind
from core.i18n import Text
from core.ports import NullObserver, PlatformStyle
from core.replies import ActionKind, Actor, Reply
from core.sessions import GameService, ServiceSettings
from core.store import Status, sessions
from core.store import settings as store_settings
from tests.backends import AnyStore, Backend

NOW = 1_700_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


class Counting(NullObserver):
    def __init__(self) -> None:
        self.limited = 0

    def request_limited(self, platform: str) -> None:
        self.limited += 1


def member(user: str, channel: str = "games", *, admin: bool = False) -> Actor:
    """Someone on a Discord server (guild ``g1``)."""
    return Actor("discord", channel, user, user.title(), server_id="g1", is_admin=admin)


ADMIN = member("ada", admin=True)
ALICE, BOB, CAROL = member("alice"), member("bob"), member("carol")
ROOM_ADMIN = Actor("matrix", "!r:x", "@mod:x", "Mod", is_admin=True)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[AnyStore]:
    # Settings and the limits' kv rows on both stores (tests/backends.py).
    async with backend.open() as opened:
        yield opened


def make(store: AnyStore, clock: Clock, observer: Counting | None = None) -> GameService:
    return GameService(
        store,
        settings=ServiceSettings(ai_workers=0, ai_budget=0.05),
        clock=clock,
        rng=random.Random(5),
        observer=observer,
    )


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def svc(store: AnyStore, clock: Clock) -> GameService:
    return make(store, clock)


def only(replies: list[Reply]) -> Reply:
    assert len(replies) == 1, replies
    return replies[0]


def error(replies: list[Reply]) -> Text:
    reply = next(r for r in replies if r.error)
    assert reply.text is not None
    return reply.text


def said(replies: list[Reply]) -> str:
    return "\n".join(r.text.render("en") for r in replies if r.text is not None)


async def settings(svc: GameService, actor: Actor, text: str) -> str:
    reply = only(await svc.handle_text(actor, f"/settings {text}".rstrip()))
    assert reply.private
    assert not reply.error, said([reply])
    return said([reply])


# --- who may ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["/settings", "/settings level", "/settings level hard"])
async def test_a_member_who_is_not_an_admin_is_refused_and_nothing_changes(
    svc: GameService, store: AnyStore, text: str
) -> None:
    replies = await svc.handle_text(ALICE, text)
    assert error(replies).key == "settings.not_admin"
    assert only(replies).private
    assert "Nothing was changed" in said(replies)
    assert "Nada foi alterado" in only(replies).text.render("pt")  # type: ignore[union-attr]
    assert (
        await store.run(store_settings.settings_rows("discord", ["server:g1", "channel:games"]))
        == []
    )


# --- show, set, reset --------------------------------------------------------------------------


async def test_show_all_gives_every_key_its_value_and_source(svc: GameService) -> None:
    shown = await settings(svc, ADMIN, "")
    assert shown.startswith("Settings for this channel:")
    assert "level = medium (default): the bot's level" in shown
    assert "game_ttl = 86400 (default)" in shown
    assert "allowed_chats = none (default)" in shown
    assert shown.count("(default)") == len(SETTING_NAMES)


async def test_set_show_and_reset_on_the_server_and_a_channel(svc: GameService) -> None:
    assert await settings(svc, ADMIN, "level hard") == "level is now hard for this server."
    assert await settings(svc, ADMIN, "level") == (
        "level = hard (set for the server): the bot's level when a game names none"
        " (easy, medium, hard)"
    )
    assert await settings(svc, ADMIN, "channel level easy") == "level is now easy for this channel."
    assert "level = easy (set for this channel)" in await settings(svc, ADMIN, "channel level")
    # Shown without a scope: what applies here. The server's own view ignores the channel's
    # override; another channel gets the server's.
    assert "level = easy (set for this channel)" in await settings(svc, ADMIN, "level")
    assert "level = hard (set for the server)" in await settings(svc, ADMIN, "server level")
    assert (await settings(svc, ADMIN, "server")).startswith("Settings for this server:")
    other = member("ada", "lobby", admin=True)
    assert "level = hard (set for the server)" in await settings(svc, other, "level")
    assert await settings(svc, ADMIN, "channel level reset") == (
        "level is no longer set for this channel: it is hard (set for the server)."
    )
    assert await settings(svc, ADMIN, "level reset") == (
        "level is no longer set for this server: it is medium (default)."
    )


async def test_a_matrix_room_is_its_own_scope(svc: GameService, store: AnyStore) -> None:
    assert await settings(svc, ROOM_ADMIN, "channel games tres") == (
        "games is now tres for this room."
    )
    rows = await store.run(store_settings.settings_rows("matrix", ["chat:!r:x"]))
    assert [(r.key, r.value, r.updated_by) for r in rows] == [("games", "tres", "@mod:x")]
    assert rows[0].updated_at == NOW


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("game_ttl -5", "game_ttl: '-5' is not a number of seconds from 60 to 2592000."),
        ("games chess", "games: 'chess' is not a list of games from tres, quatre, ratlla"),
        ("level expert", "level: 'expert' is not one of easy, medium, hard."),
        ("pvp maybe", "pvp: 'maybe' is not on or off."),
        ("max_board 30x30", "max_board: '30x30' is not a board size ROWSxCOLS from 3x3 to 25x25"),
    ],
)
async def test_a_bad_value_names_the_key_and_changes_nothing(
    svc: GameService, store: AnyStore, text: str, message: str
) -> None:
    replies = await svc.handle_text(ADMIN, f"/settings {text}")
    assert error(replies).key == "settings.bad_value"
    assert message in said(replies)
    assert "Nothing was changed" in said(replies)
    assert await store.run(store_settings.settings_rows("discord", ["server:g1"])) == []


async def test_an_unknown_key_is_a_parse_error_listing_the_keys(svc: GameService) -> None:
    replies = await svc.handle_text(ADMIN, "/settings colour red")
    assert error(replies).key == "parse.bad_setting"
    assert "There is no setting 'colour'" in said(replies)
    assert "allowed_chats" in said(replies)


# --- new games ---------------------------------------------------------------------------------


async def test_the_default_level_applies_to_the_next_game_and_a_named_level_wins(
    svc: GameService,
) -> None:
    await settings(svc, ADMIN, "level hard")
    board = only(await svc.handle_text(ALICE, "/tres")).board
    assert board is not None
    assert [p.level for p in board.players] == [None, "hard"]
    await svc.handle_text(ALICE, "/final")
    board = only(await svc.handle_text(ALICE, "/tres easy")).board
    assert board is not None and board.players[1].level == "easy"
    await svc.handle_text(ALICE, "/final")
    replies = await svc.handle_text(ALICE, "/tres bot")
    assert replies[0].board is not None
    assert [p.level for p in replies[0].board.players] == ["hard", "hard"]


async def test_game_and_challenge_ttls_apply_to_new_games(
    svc: GameService, store: AnyStore
) -> None:
    await settings(svc, ADMIN, "game_ttl 600")
    await settings(svc, ADMIN, "challenge_ttl 30")
    await svc.handle_text(ALICE, "/tres")
    game = await store.run(sessions.live_game("discord", "games", "alice"))
    assert game is not None and game.expires_at == NOW + 600
    await svc.handle_text(BOB, "/tres @carol")
    challenge = await store.run(sessions.live_game("discord", "games", "bob"))
    assert challenge is not None and challenge.expires_at == NOW + 30


@pytest.mark.parametrize(
    ("setting", "command", "key"),
    [
        ("games tres,ratlla", "/quatre", "limits.game_disabled"),
        ("max_board 6x7", "/ratlla 8x8 4", "limits.board_too_big"),
        ("pvp off", "/tres @bob", "limits.pvp_off"),
        ("bot_vs_bot off", "/quatre bot", "limits.bot_vs_bot_off"),
        ("allowed_chats lobby", "/tres", "limits.chat_not_allowed"),
        ("max_games_per_chat 0", "/tres", None),  # 0 is no valid cap: refused at /settings
    ],
)
async def test_settings_refuse_new_games_with_a_clear_message(
    svc: GameService, store: AnyStore, setting: str, command: str, key: str | None
) -> None:
    if key is None:
        replies = await svc.handle_text(ADMIN, f"/settings {setting}")
        assert error(replies).key == "settings.bad_value"
        return
    await settings(svc, ADMIN, setting)
    replies = await svc.handle_text(ALICE, command)
    assert error(replies).key == key
    assert only(replies).private
    assert await store.run(sessions.live_game("discord", "games", "alice")) is None


async def test_defaults_from_the_env_apply_where_admins_set_nothing(
    store: AnyStore, clock: Clock
) -> None:
    svc = GameService(
        store,
        settings=ServiceSettings(
            ai_workers=0,
            ai_budget=0.05,
            chat_defaults={"pvp": False, "games": frozenset({GameKind.QUATRE})},
        ),
        clock=clock,
        rng=random.Random(5),
    )
    assert "pvp = off (default)" in await settings(svc, ADMIN, "pvp")
    assert error(await svc.handle_text(ALICE, "/quatre @bob")).key == "limits.pvp_off"
    assert error(await svc.handle_text(ALICE, "/tres")).key == "limits.game_disabled"
    # An admin's value wins over the .env's.
    await settings(svc, ADMIN, "games tres")
    assert only(await svc.handle_text(ALICE, "/tres")).board is not None


async def test_allowed_chats_take_here_and_channel_mentions(svc: GameService) -> None:
    await settings(svc, ADMIN, "allowed_chats here lobby")
    assert "allowed_chats = games lobby (set for the server)" in await settings(
        svc, ADMIN, "allowed_chats"
    )
    assert only(await svc.handle_text(ALICE, "/tres")).board is not None
    elsewhere = member("bob", "general")
    assert error(await svc.handle_text(elsewhere, "/tres")).key == "limits.chat_not_allowed"


async def test_buttons_in_a_chat_that_is_not_allowed_are_refused(
    svc: GameService, store: AnyStore
) -> None:
    challenge = only(await svc.handle_text(ALICE, "/tres @bob"))
    assert challenge.session_id is not None
    await settings(svc, ADMIN, "allowed_chats lobby")
    replies = await svc.handle_action(BOB, challenge.session_id, ActionKind.ACCEPT)
    assert error(replies).key == "limits.chat_not_allowed"
    stored = await store.run(sessions.get(challenge.session_id))
    assert stored is not None and stored.status is Status.CHALLENGE


async def test_rematch_button_in_a_chat_that_is_not_allowed_is_refused(
    svc: GameService, store: AnyStore
) -> None:
    board = only(await svc.handle_text(ALICE, "/tres easy first")).board
    while board is not None and board.playable:  # Alice plays anything until the game ends
        board = (await svc.handle_move(ALICE, board.session_id, board.playable[0]))[0].board
    assert board is not None and board.finished
    await settings(svc, ADMIN, "allowed_chats lobby")
    replies = await svc.handle_action(ALICE, board.session_id, ActionKind.REMATCH)
    assert error(replies).key == "limits.chat_not_allowed"
    assert await store.run(sessions.get(board.session_id)) is not None  # kept: no rematch happened


async def test_settings_never_break_a_running_game(
    svc: GameService, store: AnyStore, clock: Clock
) -> None:
    await settings(svc, ADMIN, "clock off")  # the hour below is the game's lifetime only
    board = only(await svc.handle_text(ALICE, "/tres @bob")).session_id
    assert board is not None
    await svc.handle_action(BOB, board, ActionKind.ACCEPT)
    for setting in ("games none", "pvp off", "allowed_chats lobby", "game_ttl 60", "clock 10s"):
        await settings(svc, ADMIN, setting)
    session = await store.run(sessions.get(board))
    assert session is not None
    first = ALICE if session.seats[0].user_id == "alice" else BOB
    second = BOB if first is ALICE else ALICE
    clock.now += 3600  # longer than the new game_ttl, shorter than the one the game started with
    for player, cell in ((first, 0), (second, 3), (first, 1), (second, 4), (first, 2)):
        replies = await svc.handle_move(player, board, cell)
        assert not any(r.error for r in replies), said(replies)
    finished = await store.run(sessions.get(board))
    assert finished is not None and finished.status is Status.FINISHED
    assert finished.expires_at == clock.now + 86400


async def test_a_challenge_to_the_bot_gets_the_default_level(store: AnyStore, clock: Clock) -> None:
    from core.ports import PlatformStyle

    svc = make(store, clock)
    svc.register_platform(PlatformStyle("discord", bot_user_id="bot"))
    await settings(svc, ADMIN, "level easy")
    board = only(await svc.handle_text(ALICE, "/tres @bot")).board
    assert board is not None and board.players[1].level == Level.EASY.value


# --- limits -------------------------------------------------------------------------------------


async def test_cooldown_between_new_games_holds_across_a_restart(
    store: AnyStore, clock: Clock
) -> None:
    svc = make(store, clock)
    await settings(svc, ADMIN, "cooldown 30")
    assert only(await svc.handle_text(ALICE, "/tres")).board is not None
    await svc.handle_text(ALICE, "/final")
    replies = await svc.handle_text(ALICE, "/tres")
    assert error(replies).key == "limits.cooldown"
    assert said(replies) == "You can start a new game in 30 seconds."
    restarted = make(store, clock)
    clock.now += 20
    assert "10 seconds" in said(await restarted.handle_text(ALICE, "/tres"))
    assert only(await restarted.handle_text(BOB, "/tres")).board is not None  # per user
    clock.now += 10
    assert only(await restarted.handle_text(ALICE, "/tres")).board is not None


async def test_live_game_caps_per_user_and_per_chat(svc: GameService) -> None:
    await settings(svc, ADMIN, "max_games_per_user 1")
    await settings(svc, ADMIN, "max_games_per_chat 2")
    assert only(await svc.handle_text(ALICE, "/tres")).board is not None
    lobby = member("alice", "lobby")
    replies = await svc.handle_text(lobby, "/tres")
    assert error(replies).key == "limits.user_games"
    assert only(await svc.handle_text(BOB, "/tres")).board is not None
    replies = await svc.handle_text(CAROL, "/tres")
    assert error(replies).key == "limits.chat_games"
    assert "(2)" in said(replies)


async def test_boards_per_minute_per_chat(store: AnyStore, clock: Clock) -> None:
    observer = Counting()
    svc = make(store, clock, observer)
    await settings(svc, ADMIN, "boards_per_minute 2")
    assert only(await svc.handle_text(ALICE, "/tres")).board is not None
    clock.now += 10
    assert only(await svc.handle_text(BOB, "/tres")).board is not None
    replies = await svc.handle_text(CAROL, "/tres")
    assert error(replies).key == "limits.boards"
    assert said(replies) == "Too many new boards here this minute: try again in 50 seconds."
    # Another channel has its own minute; a restart keeps this one's block.
    assert only(await svc.handle_text(member("carol", "lobby"), "/tres")).board is not None
    restarted = make(store, clock, observer)
    assert error(await restarted.handle_text(CAROL, "/tres")).key == "limits.boards"
    clock.now += 50
    assert only(await restarted.handle_text(CAROL, "/tres")).board is not None
    assert observer.limited == 2


async def test_a_flood_gets_exactly_one_notice_then_silence(store: AnyStore, clock: Clock) -> None:
    observer = Counting()
    svc = make(store, clock, observer)
    answers = []
    for i in range(50):
        clock.now += 0.1  # 50 commands in 5 seconds
        answers.append(await svc.handle_text(ALICE, "/help" if i % 2 else "/stats"))
    notices = [a for a in answers if any(r.error for r in a)]
    assert all(error(a).key == "error.rate_limited" for a in notices)
    answered = [a for a in answers if a and not any(r.error for r in a)]
    silent = [a for a in answers if a == []]
    assert len(notices) == 1
    assert said(notices[0]) == "Slow down: try again in 20 seconds."
    assert len(answered) == 10  # the default burst
    assert len(silent) == 39
    assert observer.limited == 40
    # Someone else is not affected; the flooder is answered again once the bucket is full.
    assert await svc.handle_text(BOB, "/help")
    restarted = make(store, clock)  # the silence holds across a restart
    assert await restarted.handle_text(ALICE, "/help") == []
    clock.now += 20
    assert not any(r.error for r in await restarted.handle_text(ALICE, "/help"))


async def test_a_platform_s_own_limit_without_silence_says_why_every_time(
    store: AnyStore, clock: Clock
) -> None:
    # The console: its own bucket for the one person at the keyboard, whatever the chat's
    # settings, and a refused request is always answered with the wait until the next token.
    svc = make(store, clock)
    svc.register_platform(PlatformStyle("discord", rate_limit=(3, 60), silence_limited=False))
    await settings(svc, ADMIN, "rate_burst 1")
    answers = [await svc.handle_text(ALICE, "/help") for _ in range(6)]
    assert [bool(a) and not any(r.error for r in a) for a in answers] == [True] * 3 + [False] * 3
    assert [said(a) for a in answers[3:]] == ["Slow down: try again in 1 second."] * 3
    clock.now += 1  # a token a second: the next request goes ahead
    assert not any(r.error for r in await svc.handle_text(ALICE, "/help"))
    assert error(await svc.handle_text(ALICE, "/help")).key == "error.rate_limited"


async def test_a_legal_move_on_your_turn_is_never_limited(svc: GameService) -> None:
    await settings(svc, ADMIN, "rate_burst 2")
    board = only(await svc.handle_text(ALICE, "/tres easy first")).board
    assert board is not None
    await svc.handle_text(ALICE, "/help")
    assert error(await svc.handle_text(ALICE, "/help")).key == "error.rate_limited"
    assert await svc.handle_text(ALICE, "/help") == []
    # Silenced, yet every legal move on her turn is played (clicked or typed).
    replies = await svc.handle_move(ALICE, board.session_id, 4)
    assert replies and replies[0].board is not None and not any(r.error for r in replies)
    free = replies[0].board.playable[0]
    typed = await svc.handle_text(ALICE, str(free + 1))
    assert typed and not any(r.error for r in typed), said(typed)
    # A click that is not a legal move on her turn (an occupied cell) stays silent.
    assert await svc.handle_move(ALICE, board.session_id, 4) == []


async def test_an_admin_s_language_marks_every_reply(svc: GameService) -> None:
    assert only(await svc.handle_text(ALICE, "/help")).locale is None
    await settings(svc, ADMIN, "language pt-BR")
    assert "language = pt (set for the server)" in await settings(svc, ADMIN, "language")
    assert only(await svc.handle_text(ALICE, "/help")).locale == "pt"
