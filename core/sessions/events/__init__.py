"""Tournaments: the director of each event (``director``), its notices (``notices``) and the
``/tournament`` command (``command``)."""
