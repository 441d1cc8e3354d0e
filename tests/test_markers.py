"""The places tests/conftest.py marks exist: a renamed file or test would otherwise lose its
marker without a word and slow the fast run down."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import BY_PLACE, SLOW

ROOT = Path(__file__).resolve().parents[1]


def test_every_marked_place_names_a_folder_a_file_or_a_test_that_exists() -> None:
    for place in (*SLOW, *BY_PLACE):
        path, _, test = place.partition("::")
        assert (ROOT / path).exists(), place
        if test:
            tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
            names = [
                node.name
                for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
            assert any(name.startswith(test) for name in names), place
