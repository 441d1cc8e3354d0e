"""What the pages keep in memory: at most ``size`` values, the least recently asked for or
kept leaving first."""

from __future__ import annotations

import pytest

from core.pages.kept import Kept


def test_the_least_recently_asked_for_leaves_first() -> None:
    kept: Kept[str, bytes] = Kept(2)
    assert kept.keep("a", b"A") == b"A"
    kept.keep("b", b"B")
    assert kept.get("a") == b"A"  # a is now the most recently asked for
    kept.keep("c", b"C")
    assert len(kept) == 2 and "b" not in kept and kept.get("b") is None
    assert kept.get("a") == b"A" and kept.get("c") == b"C"
    kept.keep("a", b"A2")  # kept again: the new value, and the most recent
    kept.keep("d", b"D")
    assert "c" not in kept and kept.get("a") == b"A2" and kept.get("d") == b"D"


def test_the_bound_holds_however_many_keys_are_kept() -> None:
    kept: Kept[tuple[str, int], bytes] = Kept(256)
    for version in range(266):
        kept.keep(("g", version), b"x")
    assert len(kept) == 256 and ("g", 9) not in kept and ("g", 10) in kept


def test_a_bound_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="size must be >= 1"):
        Kept(0)
