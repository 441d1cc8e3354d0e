"""One module per area (``game``, ``parse``, ``discord``, ...), each with ``MESSAGES``."""
