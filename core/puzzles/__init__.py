"""Puzzles from the perfect solver: Connect Four positions whose best move is a proven fact.

Pure: no I/O and no store. :mod:`core.puzzles.puzzle` holds the value and its compact text
form, :mod:`core.puzzles.facts` the solver's checks that make a puzzle true,
:mod:`core.puzzles.answer` the checking of a player's move, :mod:`core.puzzles.generate` the
seeded generator, and :mod:`core.puzzles.shipped` the set that ships in ``data/``.
"""
