"""Tournaments as pure values (no I/O, no store): an arena player's sheet (``arena``), the
standings of an event in any format with its tie-breaks (``standings``). Who plays whom in each
format is ``core.pairing``'s."""
