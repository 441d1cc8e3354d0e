"""Incoming Matrix events as plain values (sans I/O: raw event dicts in, values out).

Only what the bot acts on survives :func:`parse_event`: text messages from others (not notices,
not edits) and reactions. :func:`command_text` then turns a message into the text the service
parses, noting whether the bot was addressed (a mention, a reply to it) and stripping that
mention.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from core.replies import Actor

# The platform name the service knows Matrix by (actors, stored games, settings).
PLATFORM = "matrix"

# A pill: <a href="https://matrix.to/#/@bob:example.org">Bob</a>. Bounded, non-nested
# character classes only, so matching stays linear; long bodies are not scanned at all.
_PILL = re.compile(
    r"""<a\s[^>]{0,300}?href=["']https://matrix\.to/#/((?:@|%40)[^"'?/\s]{1,255})[^"']{0,200}["'][^>]{0,200}>"""
    r"""([^<]{0,300})</a>""",
    re.IGNORECASE,
)
_MAX_SCANNED_HTML = 8000
_MENTION_SEPARATORS = ":,;> \t\n"


@dataclass(frozen=True, slots=True)
class Message:
    """A text message from someone else.

    Attributes:
        mentions: user ids from the event's ``m.mentions`` (clients set it for pills and for
            the sender of a message replied to).
        reply_to: the event this message replies to, if any.
        sender_level: the sender's power level in the room when they sent it, from the room
            state as synced (set by the adapter; 0 until then).
    """

    room_id: str
    event_id: str
    sender: str
    body: str
    formatted_body: str | None = None
    mentions: tuple[str, ...] = ()
    reply_to: str | None = None
    sender_level: int = 0


@dataclass(frozen=True, slots=True)
class Reaction:
    """An annotation (``m.reaction``) with ``key`` on the event ``target``; ``sender_level`` as
    for :class:`Message`."""

    room_id: str
    event_id: str
    sender: str
    target: str
    key: str
    sender_level: int = 0


@dataclass(frozen=True, slots=True)
class Tombstone:
    """The room was upgraded (``m.room.tombstone``): its life goes on in ``replacement``."""

    room_id: str
    event_id: str
    sender: str
    replacement: str
    sender_level: int = 0


Incoming = Message | Reaction | Tombstone


def parse_event(room_id: str, source: Mapping[str, Any], own_user_id: str) -> Incoming | None:
    """The message or reaction in a raw timeline event, or None when the bot ignores it.

    A room upgrade (``m.room.tombstone``) comes as a :class:`Tombstone`. Ignored: the bot's own
    events, other state events, notices (bots answer bots forever otherwise),
    emotes and media, edits (editing ``5`` into ``6`` must not play twice), anything malformed.
    """
    sender = source.get("sender")
    event_id = source.get("event_id")
    content = source.get("content")
    if (
        not isinstance(sender, str)
        or not isinstance(event_id, str)
        or not isinstance(content, dict)
    ):
        return None
    if source.get("type") == "m.room.tombstone" and source.get("state_key") == "":
        replacement = content.get("replacement_room")
        if isinstance(replacement, str) and replacement.startswith("!"):
            return Tombstone(room_id, event_id, sender, replacement)
        return None
    if sender == own_user_id or "state_key" in source:
        return None
    relates = content.get("m.relates_to")
    relates = relates if isinstance(relates, dict) else {}
    kind = source.get("type")
    if kind == "m.room.message":
        body = content.get("body")
        if content.get("msgtype") != "m.text" or not isinstance(body, str):
            return None
        if relates.get("rel_type") == "m.replace":
            return None
        formatted = content.get("formatted_body")
        if content.get("format") != "org.matrix.custom.html" or not isinstance(formatted, str):
            formatted = None
        in_reply = relates.get("m.in_reply_to")
        reply_to = in_reply.get("event_id") if isinstance(in_reply, dict) else None
        return Message(
            room_id=room_id,
            event_id=event_id,
            sender=sender,
            body=body,
            formatted_body=formatted,
            mentions=_mentions(content),
            reply_to=reply_to if isinstance(reply_to, str) else None,
        )
    if kind == "m.reaction":
        target = relates.get("event_id")
        key = relates.get("key")
        if relates.get("rel_type") != "m.annotation":
            return None
        if not isinstance(target, str) or not isinstance(key, str):
            return None
        return Reaction(room_id=room_id, event_id=event_id, sender=sender, target=target, key=key)
    return None


def _mentions(content: Mapping[str, Any]) -> tuple[str, ...]:
    mentions = content.get("m.mentions")
    users = mentions.get("user_ids") if isinstance(mentions, dict) else None
    if not isinstance(users, list):
        return ()
    return tuple(user for user in users if isinstance(user, str))


def events_after_own_join(
    events: Sequence[Mapping[str, Any]], own_user_id: str
) -> Sequence[Mapping[str, Any]]:
    """The events after the bot's latest join in this timeline slice (all if it has none).

    When the bot joins a room, the next sync hands it the room's recent history as well; what
    people said before the bot was there is not addressed to it.
    """
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if (
            event.get("type") == "m.room.member"
            and event.get("state_key") == own_user_id
            and _membership(event.get("content")) == "join"
            and _membership(_dict(event.get("unsigned")).get("prev_content")) != "join"
        ):
            return events[index + 1 :]
    return events


def _dict(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _membership(content: object) -> object:
    return _dict(content).get("membership")


def pills(formatted_body: str | None) -> list[tuple[str, str]]:
    """The user pills in an HTML body as ``(user id, link text)``, in order."""
    if not formatted_body or len(formatted_body) > _MAX_SCANNED_HTML:
        return []
    return [
        (unquote(match.group(1)), html.unescape(match.group(2)).strip())
        for match in _PILL.finditer(formatted_body)
    ]


def strip_reply_fallback(body: str) -> str:
    """The body without the quoted ``> <@user> ...`` lines a reply may start with."""
    lines = body.split("\n")
    if not lines or not lines[0].startswith("> "):
        return body
    index = 0
    while index < len(lines) and lines[index].startswith(">"):
        index += 1
    if index < len(lines) and not lines[index].strip():
        index += 1
    return "\n".join(lines[index:])


def command_text(
    message: Message, own_user_id: str, own_names: Iterable[str] = ()
) -> tuple[str, bool]:
    """The text for the service, and whether the bot was addressed.

    A leading mention of the bot (its id, ``@localpart``, its display name, or a pill to it,
    followed by ``:``, ``,`` or a space) is removed and counts as addressing it, as does the bot
    in ``m.mentions`` (pills anywhere, replies to its messages). Pills of other users become
    their Matrix ids, so ``!tres Bob`` written with a pill challenges ``@bob:server``.

    Args:
        message: the parsed message.
        own_user_id: the bot's user id.
        own_names: other names people may call the bot by (display names).

    Returns:
        ``(text, addressed)``.
    """
    text = strip_reply_fallback(message.body) if message.reply_to else message.body
    found = pills(message.formatted_body)
    own_pill_texts = [label for user, label in found if user == own_user_id and label]
    addressed = own_user_id in message.mentions
    text, leading = _strip_leading(
        text, [own_user_id, *own_pill_texts, *_names(own_user_id, own_names)]
    )
    addressed = addressed or leading
    for label in own_pill_texts:
        # A pill of the bot elsewhere in the text: the text without it still makes sense.
        if label in text:
            text = _collapse(text.replace(label, " ", 1))
    for user, label in found:
        if user != own_user_id and label and label != user and label in text:
            text = text.replace(label, user, 1)
    return text.strip(), addressed


def _names(own_user_id: str, own_names: Iterable[str]) -> list[str]:
    localpart = own_user_id.removeprefix("@").partition(":")[0]
    names = [f"@{localpart}", localpart, *own_names]
    return [name for name in names if name]


def _strip_leading(text: str, names: Collection[str]) -> tuple[str, bool]:
    stripped = text.lstrip()
    lowered = stripped.lower()
    for name in sorted(set(names), key=len, reverse=True):
        if not lowered.startswith(name.lower()):
            continue
        rest = stripped[len(name) :]
        if not rest or rest[0] in _MENTION_SEPARATORS:
            return rest.lstrip(_MENTION_SEPARATORS), True
    return text, False


def _collapse(text: str) -> str:
    return " ".join(text.split())


def mentioned_user(actor: Actor, written: str) -> str:
    """The user id a Matrix mention stands for: ``@bob`` is ``@bob`` on the actor's server,
    a full ``@bob:example.org`` is itself."""
    text = written.strip()
    if text.startswith("@") and ":" not in text and ":" in actor.user_id:
        return f"{text}:{actor.user_id.split(':', 1)[1]}"
    return text
