"""Puzzles in the chat: ``/puzzle`` and its answers (``solving``), the boards and lines they show
(``board``), and the daily post."""
