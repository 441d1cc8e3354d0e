"""Open play, games between chats and platforms: ``/seek`` and the matchmaking pass (``seeking``,
whose pure rules are :mod:`core.pairing.seeks`), ``/block`` (``blocking``), what a process shows
in a chat with nobody's request to answer, directly or through the store's outbox (``relay``),
and an open game's board in its other chat (``open_games``, ``other_chats``)."""
