"""Each adapter's platform style: how its users' mentions become user ids."""

from __future__ import annotations

from adapters.matrix.adapter import STYLE as MATRIX
from core.replies import Actor


def test_matrix_mentions_default_to_the_speakers_server() -> None:
    ann = Actor("matrix", "!r:x.org", "@ann:x.org", "Ann")
    assert MATRIX.user_id(ann, "@bob:y.org") == "@bob:y.org"
    assert MATRIX.user_id(ann, "@bob") == "@bob:x.org"
    assert MATRIX.prefix == "!"
