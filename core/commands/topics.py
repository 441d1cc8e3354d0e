"""The topics of ``/help``: each group of the command table, so that the overview and every
topic fit one Discord message (2,000 characters) in every language.

The overview lists the topics with their commands; ``/help TOPIC`` shows a topic's commands
with their syntax and description, then its notes (how options, levels and moves are written).
A command name works as a topic too (``/help seek``): people ask about what they just typed.
"""

from __future__ import annotations

from core.games.kinds import WORDS

__all__ = ["HELP_TOPICS", "TOPIC_NOTES"]

HELP_TOPICS: dict[str, tuple[str, ...]] = {
    "play": WORDS,
    "game": ("accept", "decline", "rematch", "final", "review"),
    "seek": ("seek", "block", "unblock", "tournament"),
    "puzzles": ("puzzle",),
    "ratings": ("stats", "top", "link", "unlink", "hide"),
    "settings": ("settings", "theme", "help"),
}
"""Topic name -> the names (not aliases) of its commands, in the order shown. The names are
what players type, so they stay English like command names; every command is in one topic
(tests/core/test_help.py checks it against the table)."""

TOPIC_NOTES: dict[str, tuple[str, ...]] = {
    "play": ("help.options", "help.levels"),
    "game": ("help.moves",),
}
"""Topic name -> message keys shown after its commands (they take ``{prefix}``)."""
