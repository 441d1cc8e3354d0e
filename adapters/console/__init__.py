"""Terminal play on the same core as the chat platforms (the embedded default of the app)."""

from adapters.console.adapter import ConsoleAdapter, render_board, render_reply

__all__ = ["ConsoleAdapter", "render_board", "render_reply"]
