"""Incoming events: what the bot acts on, and the text it hands to the service (pure)."""

from __future__ import annotations

from typing import Any

from adapters.matrix.events import (
    Message,
    Reaction,
    command_text,
    events_after_own_join,
    parse_event,
    pills,
    strip_reply_fallback,
)

BOT = "@gamebot:example.org"
ROOM = "!room:example.org"


def _message(body: str, **content: Any) -> dict[str, Any]:
    return {
        "type": "m.room.message",
        "event_id": "$m",
        "sender": "@alice:example.org",
        "content": {"msgtype": "m.text", "body": body, **content},
    }


def test_text_messages_and_reactions_are_parsed() -> None:
    message = parse_event(ROOM, _message("5"), BOT)
    assert message == Message(ROOM, "$m", "@alice:example.org", "5")
    reaction = {
        "type": "m.reaction",
        "event_id": "$r",
        "sender": "@alice:example.org",
        "content": {"m.relates_to": {"rel_type": "m.annotation", "event_id": "$b", "key": "5"}},
    }
    assert parse_event(ROOM, reaction, BOT) == Reaction(ROOM, "$r", "@alice:example.org", "$b", "5")


def test_own_events_notices_edits_state_and_garbage_are_ignored() -> None:
    own = {**_message("5"), "sender": BOT}
    notice = _message("5", msgtype="m.notice")
    edit = _message("* 6", **{"m.relates_to": {"rel_type": "m.replace", "event_id": "$x"}})
    state = {**_message("5"), "state_key": ""}
    emote = _message("waves", msgtype="m.emote")
    broken = {"type": "m.room.message", "sender": "@a:b", "content": "nope", "event_id": "$e"}
    other_relation = {
        "type": "m.reaction",
        "event_id": "$r",
        "sender": "@alice:example.org",
        "content": {"m.relates_to": {"rel_type": "m.reference", "event_id": "$b", "key": "5"}},
    }
    for source in (own, notice, edit, state, emote, broken, other_relation):
        assert parse_event(ROOM, source, BOT) is None


def test_replies_and_mentions_are_read() -> None:
    source = _message(
        "> <@gamebot:example.org> board\n\n5",
        **{
            "m.relates_to": {"m.in_reply_to": {"event_id": "$board"}},
            "m.mentions": {"user_ids": [BOT]},
        },
    )
    message = parse_event(ROOM, source, BOT)
    assert isinstance(message, Message)
    assert message.reply_to == "$board" and message.mentions == (BOT,)
    assert command_text(message, BOT) == ("5", True)


def test_reply_fallback_is_stripped() -> None:
    assert strip_reply_fallback("> <@a:b> hi\n> there\n\n!5") == "!5"
    assert strip_reply_fallback("5") == "5"
    assert strip_reply_fallback(">not a quote") == ">not a quote"


def _text(body: str, formatted: str | None = None, mentions: tuple[str, ...] = ()) -> Message:
    return Message(ROOM, "$m", "@alice:example.org", body, formatted, mentions)


def test_a_leading_mention_is_stripped_and_addresses_the_bot() -> None:
    assert command_text(_text("gamebot: 5"), BOT) == ("5", True)
    assert command_text(_text("@gamebot:example.org !help"), BOT) == ("!help", True)
    assert command_text(_text("@gamebot, b2"), BOT) == ("b2", True)
    assert command_text(_text("Game Bot: !tres"), BOT, ("Game Bot",)) == ("!tres", True)
    assert command_text(_text("gamebots are fun"), BOT) == ("gamebots are fun", False)
    assert command_text(_text("5"), BOT) == ("5", False)


def test_pills_become_user_ids_and_a_pill_of_the_bot_is_removed() -> None:
    formatted = (
        '<a href="https://matrix.to/#/@gamebot:example.org">Robo</a>: !tres '
        '<a href="https://matrix.to/#/%40bob%3Aexample.org">Bob &amp; co</a> hard'
    )
    message = _text("Robo: !tres Bob & co hard", formatted, (BOT, "@bob:example.org"))
    assert pills(formatted) == [(BOT, "Robo"), ("@bob:example.org", "Bob & co")]
    assert command_text(message, BOT) == ("!tres @bob:example.org hard", True)


def test_pills_in_huge_html_are_not_scanned() -> None:
    assert pills("<a href='https://matrix.to/#/@x:y'>x</a>" + " " * 10_000) == []


def test_history_before_the_bots_join_is_dropped() -> None:
    join = {
        "type": "m.room.member",
        "state_key": BOT,
        "sender": BOT,
        "content": {"membership": "join"},
    }
    rename = {**join, "unsigned": {"prev_content": {"membership": "join"}}}
    before, after = _message("!help"), _message("5")
    assert events_after_own_join([before, join, after], BOT) == [after]
    assert events_after_own_join([before, after], BOT) == [before, after]
    assert events_after_own_join([before, join, after, rename], BOT) == [after, rename]
