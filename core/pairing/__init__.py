"""Who plays whom, as pure rules (no I/O): the matchmaking queue's seeks (``seeks``). The store's
pairing transaction and the service's ``/seek`` both apply them."""
