"""The move clock of games between people: timeouts and reminders (``clock``), and the sweeper
that runs them and the expiry sweep under its lease (``sweeper``)."""
