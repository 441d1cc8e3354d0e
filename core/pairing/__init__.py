"""Who plays whom, as pure rules (no I/O): the matchmaking queue's seeks (``seeks``; the store's
pairing transaction and the service's ``/seek`` both apply them), and tournaments' pairings: an
arena's wave (``arena``), a Swiss round (``swiss``), a round robin's Berger tables
(``roundrobin``)."""
