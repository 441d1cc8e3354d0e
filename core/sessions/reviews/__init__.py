"""``/review`` and the Review button, and the Connect Four reviews kept while a game goes on
(``review``)."""
