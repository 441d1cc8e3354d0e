"""Terminal play: lines from stdin go to the service, replies are printed as a chat shows them.

The console is one chat (``console``) on the platform ``console``. Several people can share the
keyboard: a line ``bob: /accept`` is said by bob, and ``/as bob`` makes bob the speaker of the
lines that follow (``/as`` alone goes back to the first player). ``/picture [THEME] [FILE]``
writes the last board shown as a PNG (``core.pictures``), handy for checking the themes by eye.
Everything else, commands and moves alike, goes to the service as said by the speaker; the
adapter decides no game logic.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import inspect
import logging
import os
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, TextIO, cast

from adapters.console.names import NAME, local_name
from core.commands import find_command
from core.commands.topics import HELP_TOPICS
from core.i18n import Text, normalize_locale, render
from core.pictures import THEMES, board_png
from core.ports import GameServicePort, PlatformStyle
from core.render import board_text, link_lines, status_line
from core.replies import Actor, BoardView, Reply

log = logging.getLogger(__name__)

PLATFORM = "console"
CHAT_ID = "console"
_SAID_BY = re.compile(rf"({NAME.pattern}):\s*(.*)", re.DOTALL)
_END = object()  # the reader's "end of input"
PICTURE_FILE = "board.png"  # where /picture writes when no file is named
RATE_LIMIT = (100, 600)
"""The console's own rate limit, per speaker: a person types a line in a second or two, a script
pasted or piped in is answered at once up to 100 lines, and only a runaway loop is held to ten
lines a second; every refused line says why (the chat's limit guards a room of many people)."""


class LineReader(Protocol):
    """An ``asyncio.StreamReader`` or anything with the same ``readline``."""

    async def readline(self) -> bytes:
        """The next line, with its newline; ``b""`` at the end of input."""
        ...


class ConsoleAdapter:
    """Plays on a terminal (or any text stream) against the service.

    Args:
        service: the game service.
        stdin: where lines come from: a text file object (``sys.stdin``, a pipe) read by a
            background thread so the event loop never blocks, or an ``asyncio.StreamReader``.
        stdout: where replies are printed.
        user_id, display_name: the first player at the keyboard (``CONSOLE_NAME``); None: named
            after the OS user (:func:`~adapters.console.names.local_name`).
        locale: the language of the replies (``en``, ``ca``, ``es``, ``pt``, ``ru``).
        welcome: print how to play when the run starts.
    """

    name = PLATFORM
    connected = True  # the terminal is always there

    def __init__(
        self,
        service: GameServicePort,
        *,
        stdin: TextIO | LineReader,
        stdout: TextIO,
        user_id: str | None = None,
        display_name: str | None = None,
        locale: str = "en",
        welcome: bool = True,
    ) -> None:
        self._service = service
        service.register_platform(
            PlatformStyle(
                PLATFORM,
                publish=self._publish,
                private_replies=True,
                rate_limit=RATE_LIMIT,
                silence_limited=False,
            )
        )
        self._stdin = stdin
        self._stdout = stdout
        self._locale = normalize_locale(locale)
        user_id = user_id or local_name()
        # Whoever types at this terminal runs the bot: every console player may use /settings.
        self._player = Actor(
            PLATFORM, CHAT_ID, user_id, display_name or user_id, self._locale, is_admin=True
        )
        self._speaker = self._player
        self._welcome = welcome
        self._board: BoardView | None = None  # the last board shown, for /picture
        self._board_locale = self._locale
        self._board_theme: str | None = None
        self._status_shown: Text | None = None  # the status line of the board printed last
        self._interactive = _isatty(stdin) and _isatty(stdout)

    async def run(self, stop: asyncio.Event) -> None:
        """Read and answer lines until the end of input, ``/exit`` or ``stop``.

        A line being answered when ``stop`` is set is answered in full first.
        """
        if self._welcome:
            topics = ", ".join(HELP_TOPICS)  # as /help lists them
            self._write(render("console.welcome", self._locale, topics=topics) + "\n\n")
        lines = _lines(self._stdin)
        stopped = asyncio.create_task(stop.wait())
        try:
            while not stop.is_set():
                self._prompt()
                line_task = asyncio.create_task(lines.next())
                await asyncio.wait({line_task, stopped}, return_when=asyncio.FIRST_COMPLETED)
                if not line_task.done():  # stopped while waiting for a line
                    line_task.cancel()
                    break
                line = line_task.result()
                if line is None or not await self._handle(line):
                    break
            if self._interactive:
                self._write("\n")  # the shell's prompt goes on a line of its own
        finally:
            stopped.cancel()

    def actor(self, name: str | None = None) -> Actor:
        """The local player called ``name`` (the first player when None or their own name).

        The name is the user id as typed, so ``/tres @bob`` challenges the one who writes
        ``bob:`` (the service reads a console mention ``@bob`` as the user ``bob``).
        """
        first = self._player
        if name is None or name in (first.user_id, first.display_name):
            return first
        # Anyone can type "mallory:": only the one who started the console (the operator, who
        # could change the settings from the shell anyway) is the chat's admin.
        return Actor(PLATFORM, CHAT_ID, name, name, self._locale)

    async def _handle(self, line: str) -> bool:
        """Answers one line; False when the player asked to leave."""
        text = line.strip()
        if not text:
            return True
        speaker = self._speaker
        said_by = _SAID_BY.fullmatch(text)
        if said_by:
            speaker, text = self.actor(said_by.group(1)), said_by.group(2).strip()
            if not text:
                return True
        word, _, rest = text.partition(" ")
        local = word[:1] in "/!" and find_command(word[1:]) is None  # core commands win
        if local and word[1:].lower() == "exit":
            return False
        if local and word[1:].lower() == "as":
            self._switch(rest.strip())
            return True
        if local and word[1:].lower() == "picture":
            self._write(self._picture(rest.strip()) + "\n")
            return True
        try:
            replies = await self._service.handle_text(speaker, text, addressed=True)
        except Exception:
            log.exception(
                "console line failed", extra={"platform": PLATFORM, "user": speaker.user_id}
            )
            self._write(render("error.internal", speaker.locale) + "\n")
            return True
        for reply in replies:
            # The language an admin set for this chat (/settings language) wins over ours.
            self._show(reply, reply.locale or speaker.locale)
        return True

    async def _publish(self, actor: Actor, replies: Sequence[Reply]) -> None:
        # The moves of a bots' game, as they are played. A notice of the outbox shown again
        # after a crash (core.ports.Posting) is printed again: a terminal cannot edit a line
        # printed before, and the one reader sees both, the second after a restart.
        for reply in replies:
            self._show(reply, reply.locale or actor.locale)

    def _show(self, reply: Reply, locale: str) -> None:
        if reply.board is None and reply.text is not None and reply.text == self._status_shown:
            # A result told again in a message of its own, for chats where the board's edit
            # notifies nobody (a timeout): here it was printed under the board just now.
            self._status_shown = None
            return
        self._status_shown = None if reply.board is None else reply.board.status
        if reply.board is not None:
            self._board, self._board_locale = reply.board, locale
            self._board_theme = reply.theme  # the chat's theme setting, if any
        self._write(render_reply(reply, locale))

    def _picture(self, args: str) -> str:
        """``/picture [THEME] [FILE]``: the last board shown, as a PNG written to ``FILE``
        (default ``board.png``), in ``THEME`` (default: the chat's ``theme`` setting, else the
        board's own); the answer to print."""
        locale = self._board_locale
        if self._board is None:
            return render("console.picture.no_board", self._locale)
        theme_name, _, path_text = args.partition(" ")
        theme = THEMES.get(theme_name.lower())
        if theme is None:  # no theme named: the whole argument is the file
            path_text = args
            theme = THEMES.get(self._board_theme or "")
        path = Path(path_text.strip() or PICTURE_FILE).expanduser().absolute()
        caption = self._board.status.render(locale)
        try:
            path.write_bytes(board_png(self._board, theme, caption=caption))
        except OSError as error:
            reason = error.strerror or str(error)
            return render("console.picture.failed", self._locale, path=str(path), reason=reason)
        return render("console.picture.saved", self._locale, path=str(path))

    def _switch(self, name: str) -> None:
        if name and not NAME.fullmatch(name):
            self._write(render("console.bad_name", self._locale, name=name) + "\n")
            return
        self._speaker = self.actor(name or None)
        self._write(
            render("console.speaking_as", self._locale, name=self._speaker.display_name) + "\n"
        )

    def _prompt(self) -> None:
        if self._interactive:
            self._write(f"{self._speaker.display_name}> ")

    def _write(self, text: str) -> None:
        self._stdout.write(text)
        self._stdout.flush()


class _StreamLines:
    """Lines of an ``asyncio.StreamReader`` (or anything with a coroutine ``readline``)."""

    def __init__(self, reader: LineReader) -> None:
        self._reader = reader

    async def next(self) -> str | None:
        data = await self._reader.readline()
        return data.decode("utf-8", "replace").rstrip("\r\n") if data else None


class _ThreadedLines:
    """Lines of a text stream, read by a daemon thread and handed to the event loop.

    A real file descriptor is read with ``os.read`` rather than through ``sys.stdin``: a daemon
    thread left blocked in a buffered read holds the buffer's lock and makes interpreter shutdown
    abort; a blocked ``os.read`` holds nothing. ``loop.connect_read_pipe`` is no alternative: it
    fails on regular files and puts a shared terminal into non-blocking mode, under stdout too.
    """

    def __init__(self, stdin: TextIO) -> None:
        self._stdin = stdin
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._ended = False
        fd = _fileno(stdin)
        target = self._read_fd if fd is not None else self._read_lines
        args = (fd,) if fd is not None else ()
        threading.Thread(target=target, args=args, name="console-stdin", daemon=True).start()

    async def next(self) -> str | None:
        if self._ended:
            return None
        item = await self._queue.get()
        if item is _END:
            self._ended = True
            return None
        assert isinstance(item, str)
        return item

    def _put(self, item: object) -> bool:
        try:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, item)
        except RuntimeError:  # the loop is closed: nobody is listening any more
            return False
        return True

    def _read_fd(self, fd: int) -> None:
        decoder = codecs.getincrementaldecoder(getattr(self._stdin, "encoding", None) or "utf-8")(
            "replace"
        )
        pending = ""
        try:
            while chunk := os.read(fd, 65536):
                pending += decoder.decode(chunk)
                *lines, pending = pending.split("\n")
                for line in lines:
                    if not self._put(line.rstrip("\r")):
                        return
        except OSError as error:
            log.warning("console input failed", extra={"error": str(error)})
        pending += decoder.decode(b"", final=True)
        if pending:
            self._put(pending)
        self._put(_END)

    def _read_lines(self) -> None:
        try:
            while line := self._stdin.readline():
                if not self._put(line.rstrip("\r\n")):
                    return
        except (OSError, ValueError) as error:
            log.warning("console input failed", extra={"error": str(error)})
        self._put(_END)


def _lines(stdin: TextIO | LineReader) -> _StreamLines | _ThreadedLines:
    if inspect.iscoroutinefunction(getattr(stdin, "readline", None)):
        return _StreamLines(cast(LineReader, stdin))
    return _ThreadedLines(cast(TextIO, stdin))


def _fileno(stream: TextIO) -> int | None:
    """The stream's file descriptor; None for in-memory streams (``io.StringIO``)."""
    try:
        return stream.fileno()
    except (OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    with contextlib.suppress(OSError, ValueError):
        return callable(isatty) and bool(isatty())
    return False


def render_reply(reply: Reply, locale: str) -> str:
    """A reply as the console prints it: the board with its players and status line, the
    message, and the actions as commands to type; a blank line after it, as between two chat
    messages (nothing at all for an empty reply)."""
    parts: list[str] = []
    if reply.board is not None:
        parts.append(render_board(reply.board, locale))
    if reply.text is not None and (reply.board is None or reply.text != reply.board.status):
        parts.append(reply.text.render(locale))  # a result is often the status line as well
    if reply.actions:
        # Every action is also a command of the same name.
        parts.append("  ".join(f"[/{action.value}]" for action in reply.actions))
    parts.extend(link_lines(reply.links, locale))
    return "\n".join(parts) + "\n\n" if parts else ""


def render_board(board: BoardView, locale: str) -> str:
    """Who plays which mark, the board (``core.render.board_text``) and its status line.

    Gravity boards of up to 9 columns get the column numbers to type under the board.
    """
    x, o = board.players
    lines = [f"X {x.name}  ·  O {o.name}", board_text(board)]
    rules = board.rules
    if rules.gravity and rules.cols <= 9:
        indent = " " * (len(str(rules.rows)) + 1)
        lines.append(indent + " ".join(str(c + 1) for c in range(rules.cols)))
    lines.append(status_line(board, locale))
    return "\n".join(lines)
