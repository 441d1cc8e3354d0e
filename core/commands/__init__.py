"""Text -> Command: the parser, the command table and the /help text.

One table, :data:`COMMANDS`, drives everything a player can type: parsing (names, aliases, the
builder of each command), the ``/help`` text and the names and descriptions adapters register as
slash commands (maubot generates ``!help`` from its registry the same way). Text is checked once,
here; a :class:`Command` that leaves this module is valid, and the rest of ``core`` trusts it.

The parser is linear in the length of its input: it splits on whitespace and compares whole
tokens against small sets; there are no regular expressions, so no backtracking to exploit.

CONTRACT (used by core.sessions and the adapters): the names and fields of the value types
``GameKind`` .. ``Command`` are stable.
"""

from core.commands.ratings import top_from_options
from core.commands.settings import settings_from_options
from core.commands.table import (
    COMMANDS,
    CommandSpec,
    Option,
    OptionType,
    find_command,
    start_from_options,
)
from core.commands.text import format_command, help_text, parse, resolve_move
from core.commands.values import (
    DEFAULT_LEVEL,
    MAX_LENGTH,
    PREFIXES,
    RESET,
    Accept,
    Block,
    BotVsBot,
    Command,
    CommandError,
    Decline,
    Final,
    First,
    GameKind,
    Help,
    Hide,
    Ladder,
    Link,
    MoveText,
    NotACommand,
    Opponent,
    PersonalTheme,
    Puzzle,
    PuzzleAsk,
    Rematch,
    Review,
    Seek,
    SeekAction,
    Settings,
    SettingsScope,
    Start,
    Stats,
    Top,
    Tournament,
    TournamentAction,
    Unblock,
    Unlink,
    VsBot,
    VsUser,
)

__all__ = [
    "COMMANDS",
    "DEFAULT_LEVEL",
    "MAX_LENGTH",
    "PREFIXES",
    "RESET",
    "Accept",
    "Block",
    "BotVsBot",
    "Command",
    "CommandError",
    "CommandSpec",
    "Decline",
    "Final",
    "First",
    "GameKind",
    "Help",
    "Hide",
    "Ladder",
    "Link",
    "MoveText",
    "NotACommand",
    "Opponent",
    "Option",
    "OptionType",
    "PersonalTheme",
    "Puzzle",
    "PuzzleAsk",
    "Rematch",
    "Review",
    "Seek",
    "SeekAction",
    "Settings",
    "SettingsScope",
    "Start",
    "Stats",
    "Top",
    "Tournament",
    "TournamentAction",
    "Unblock",
    "Unlink",
    "VsBot",
    "VsUser",
    "find_command",
    "format_command",
    "help_text",
    "parse",
    "resolve_move",
    "settings_from_options",
    "start_from_options",
    "top_from_options",
]
