"""Discord's rules for Components V2 messages and uploads, as the double holds the bot to them.

From Discord's documentation (Message Components, "Using Components V2"; Uploading Files):

- the IS_COMPONENTS_V2 flag (``1 << 15``) makes ``components`` the whole message: ``content``
  and ``embeds`` are refused, and the flag can never be removed from a message once set;
- at most 40 components in a message, every nested one counted;
- at most 4,000 characters in all its text displays together;
- a select menu has 1 to 25 options; a ``custom_id`` is at most 100 characters;
- a file is uploaded as a multipart part ``files[N]``; ``attachment://NAME`` in a media gallery
  must name a file of the message;
- a button (Message Components, "Button"): a link button (style 5) has a ``url`` (at most 512
  characters, http, https or discord) and no ``custom_id``; a button of styles 1 to 4 has a
  ``custom_id`` and no ``url``; a label is at most 80 characters;
- an action row holds at most 5 buttons; a message without the flag, at most 5 action rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Json = dict[str, Any]

IS_COMPONENTS_V2 = 1 << 15
MAX_COMPONENTS = 40
MAX_TEXT_DISPLAY = 4000
MAX_OPTIONS = 25
MAX_CUSTOM_ID = 100
TEXT_DISPLAY = 10
SELECT = 3
MEDIA_GALLERY = 12
BUTTON = 2
ACTION_ROW = 1
LINK = 5
MAX_URL = 512
MAX_LABEL = 80
MAX_ROW_ITEMS = 5
MAX_ROWS = 5


def walk(components: list[Json]) -> Iterator[Json]:
    """Every component, nested ones included, depth first."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])


def problem(data: Json, flags: int, attachments: list[Json]) -> str | None:
    """Why Discord would refuse to show ``data`` in a message with ``flags`` and
    ``attachments``, or None."""
    components = data.get("components") or []
    everything = list(walk(components))
    for component in everything:
        if len(str(component.get("custom_id", ""))) > MAX_CUSTOM_ID:
            return "custom_id longer than 100"
        if component.get("type") == SELECT and not 1 <= len(component.get("options") or []) <= 25:
            return "a select menu needs 1 to 25 options"
        if component.get("type") == BUTTON and (why := _button_problem(component)):
            return why
        if component.get("type") == ACTION_ROW and len(component.get("components") or []) > 5:
            return "an action row holds at most 5 components"
    if not flags & IS_COMPONENTS_V2:
        if len(components) > MAX_ROWS:
            return f"{len(components)} action rows, more than {MAX_ROWS}"
        return None
    if data.get("content") or data.get("embeds"):
        return "content and embeds cannot be used with IS_COMPONENTS_V2"
    if len(everything) > MAX_COMPONENTS:
        return f"{len(everything)} components, more than {MAX_COMPONENTS}"
    text = sum(len(c.get("content", "")) for c in everything if c.get("type") == TEXT_DISPLAY)
    if text > MAX_TEXT_DISPLAY:
        return f"{text} characters of text displays, more than {MAX_TEXT_DISPLAY}"
    names = {a["filename"] for a in attachments}
    for gallery in (c for c in everything if c.get("type") == MEDIA_GALLERY):
        for item in gallery.get("items") or []:
            url = str((item.get("media") or {}).get("url", ""))
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                return f"{url} names no attachment of the message"
    return None


def _button_problem(button: Json) -> str | None:
    """Why Discord would refuse ``button``, or None."""
    url, custom_id = button.get("url"), button.get("custom_id")
    if len(str(button.get("label") or "")) > MAX_LABEL:
        return "a button's label is longer than 80"
    if button.get("style") == LINK:
        if custom_id is not None:
            return "a link button cannot have a custom_id"
        if not isinstance(url, str) or not url.startswith(("http://", "https://", "discord://")):
            return f"a link button needs an http(s) or discord url, got {url!r}"
        if len(url) > MAX_URL:
            return "a link button's url is longer than 512"
        return None
    if url is not None:
        return "only a link button can have a url"
    if not custom_id:
        return "a button needs a custom_id"
    return None


def resolve(components: list[Json], attachments: list[Json]) -> None:
    """Replace ``attachment://NAME`` by the attachment's URL, as Discord shows it."""
    urls = {a["filename"]: a["url"] for a in attachments}
    galleries = [c for c in walk(components) if c.get("type") == MEDIA_GALLERY]
    for item in (item for gallery in galleries for item in gallery.get("items") or []):
        media = item.get("media")
        if isinstance(media, dict):
            url = str(media.get("url", ""))
            if url.startswith("attachment://"):
                name = url.removeprefix("attachment://")
                media["url"] = urls.get(name, url)
                media.setdefault("proxy_url", media["url"])
                media.setdefault("content_type", "image/png")
                media.setdefault("loading_state", 2)


def numbered(components: list[Json]) -> list[Json]:
    """Copies of ``components`` with an ``id`` on each, nested ones included, as Discord
    numbers them (discord.py reads them back)."""
    counter = iter(range(1, 1_000_000))

    def number(component: Json) -> Json:
        copy = dict(component)
        copy["id"] = next(counter)
        if isinstance(copy.get("components"), list):
            copy["components"] = [number(child) for child in copy["components"]]
        if "accessory" in copy and isinstance(copy["accessory"], dict):
            copy["accessory"] = number(copy["accessory"])
        return copy

    return [number(component) for component in components]
