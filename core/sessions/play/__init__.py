"""Playing a game: a session's status transitions (``model``), new games, challenges, rematch and
``/final`` (``challenges``), a player's move and the bot's answer (``moves``), bots' games people
watch (``watch``), games whose chat lost a player or the bot (``left``) and chats that moved
(``moved``)."""
