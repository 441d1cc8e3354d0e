"""A player's own things: ``/stats`` (``stats``), ratings as players see them, ``/top``, ``/link``
and ``/unlink`` (``ratings``), and ``/theme`` (``themes``)."""
