"""Fixtures shared by every test folder: the stores, SQLite and PostgreSQL, behind one interface;
and the markers that let a developer run the fast tests alone.

``backend`` runs a test once per store kind (ids ``[sqlite]`` and ``[postgres]``): a fresh
database each time. The PostgreSQL server is started once per test session, on the first test
that needs it, and stopped at the end; when it cannot start, those tests fail and say why.

Markers (registered in pyproject.toml) are given here by where a test is, so that a new test in
a slow place is marked without anyone remembering to: ``e2e`` (tests/e2e: a real Synapse, the
Discord double, bot processes), ``deploy`` (tests/deploy: the wheel, the container, the service
unit), ``postgres`` (runs on the real PostgreSQL server), ``slow`` (:data:`SLOW`: processes,
process pools, exhaustive searches). Every test with one of the last three is also ``e2e``, so
``pytest -m "not e2e"`` runs the fast offline tests alone and plain ``pytest`` runs everything.

That fast run spreads over the machine's cores when pytest-xdist is installed (the ``test``
extra): :func:`pytest_cmdline_main`. Every other run keeps one process.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.backends import KINDS, Backend, Backends

# No example has a time limit: speed is measured by the benchmarks, and Hypothesis's default
# 200 ms deadline fails correct code on a busy machine (seen in CI-like runs at load 15).
settings.register_profile("chatbots", deadline=None)
settings.load_profile("chatbots")

SLOW: tuple[str, ...] = (
    # Whole files that start processes, process pools or servers, or search exhaustively (a
    # second or more a test on a quiet machine).
    "tests/benchmarks/",
    "tests/chatbots/test_app.py",
    "tests/chatbots/test_broken_database.py",
    "tests/core/test_notices_killed.py",
    "tests/core/ai/test_book.py",
    "tests/core/workers/test_orphans.py",
    "tests/core/ai/test_review.py",
    "tests/core/workers/test_runner.py",
    "tests/core/workers/test_server.py",
    "tests/core/store/test_concurrency.py",
    "tests/core/store/test_typing.py",
    "tests/core/store/test_ratings_races.py",
    "tests/core/store/test_leases.py",
    "tests/core/test_leases.py",
    "tests/core/test_sweeper_lease.py",
    "tests/adapters/discord/test_identify.py",
    "tests/adapters/discord/test_takeover.py",
    "tests/adapters/matrix/test_lease.py",
    "tests/core/puzzles/test_shipped.py",
    "tests/core/ai/test_jit_cache.py",
    # Single tests of otherwise fast files.
    "tests/core/games/test_position.py::test_tictactoe_perft",
    "tests/core/games/test_position.py::test_tictactoe_outcomes_by_kind",
    "tests/core/games/test_position.py::test_random_games_agree_with_brute_force",
    "tests/core/test_sessions_fuzz.py::test_anything_from_anyone_never_breaks_the_service",
    "tests/core/test_sessions_identity_machine.py::test_one_person_is_one_player_through_many_more_steps",
    "tests/core/test_sessions.py::test_hard_in_a_thread_and_in_the_process_pool",
    "tests/core/test_sessions.py::test_200_concurrent_moves",
    "tests/core/test_sessions_clock.py::test_processes_sweeping_together_end_a_timed_out_game_once",
    "tests/core/test_commands.py::test_near_misses_parse_or_are_user_errors",
    "tests/core/ai/test_solver.py::test_solve_agrees_with_brute_force",
    "tests/core/ai/test_solver.py::test_plain_and_compiled_agree_on_random_positions",
    "tests/chatbots/test_operator.py::test_backup_while_games_are_played",
    "tests/chatbots/test_ratings_cli.py::test_the_command_line_runs_it",
    "tests/chatbots/test_health.py::test_healthz_is_503_when_the_store_fails_or_hangs",
    "tests/core/store/test_receipts.py::test_receipts_follow_their_writes",
    "tests/core/store/test_seeks.py::test_processes_pair_200_seeks_exactly_once",
    "tests/core/store/test_seeks.py::test_a_process_killed_mid_pairing",
    "tests/core/ai/test_solver.py::test_solve_matches_brute_force_on_random_positions",
    "tests/core/ai/test_solver.py::test_solve_from_the_empty_board",
    "tests/core/store/test_limit_races.py::test_the_users_cap_holds_across_processes",
    "tests/core/pictures/test_picture.py::test_every_board_from_3x3_to_25x25_renders_in_every_theme",
    "tests/core/test_sessions_kept_reviews.py::test_a_store_that_cannot_keep_costs_nobody_their_review",
    "tests/core/ai/test_solver.py::test_best_move_exact_on_small_boards",
    "tests/core/ai/test_players.py::test_every_level_plays_a_legal_move",
    "tests/core/puzzles/test_puzzles.py::test_the_generator_is_deterministic_and_its_puzzles_are_facts",
    "tests/core/puzzles/test_puzzles.py::test_a_hold_accepts_only_the_move_that_does_not_lose",
    "tests/core/puzzles/test_vcf.py::test_the_vcf_generator_is_deterministic_and_its_puzzles_are_proven",
    "tests/core/pictures/test_picture.py::test_a_caption_adds_the_players_and_the_line_under_the_board",
    "tests/chatbots/test_web_settings.py::test_run_",
    "tests/chatbots/test_web_settings.py::test_check_prints_the_three_and_refuses_a_bad_one",
    "tests/chatbots/test_listen_errors.py::test_run_on_a_port_in_use_says_so_in_one_line_and_exits_2",
    "tests/chatbots/test_operator.py::test_settings_read_write_and_reset_a_scope",
    "tests/chatbots/test_operator.py::test_settings_refuse_bad_input_clearly_and_change_nothing",
    "tests/core/store/test_ratings_store.py::test_rebuild_equals_the_live_ratings_after_1000_random",
    "tests/core/store/test_limit_races.py::test_100_new_users_with_20_commands_each_get_their_bursts",
    "tests/core/puzzles/test_lines.py::test_a_wide_sample_of_trees_is_what_the_solver_makes",
    "tests/core/puzzles/test_refutations.py::test_a_wide_sample_of_tables_is_what_the_solver_makes",
    "tests/core/puzzles/test_refutations.py::test_a_wide_sample_of_wrong_moves_is_answered_as",
    # A second or more of CPU each on a quiet machine (measured with time.process_time around
    # each test of the fast run; the subprocess's own for the command lines).
    "tests/core/pages/test_threats.py::test_each_proof_holds_by_brute_force",
    "tests/core/test_sessions_tournament.py::test_an_arena_of_100_players",
    "tests/core/ai/test_vct.py::test_the_set_is_what_it_says",
    "tests/chatbots/test_puzzles_cli.py::test_generate_from_the_archive_finds_the_mistakes",
    "tests/chatbots/test_puzzles_cli.py::test_generate_from_seeded_play_writes_new_facts",
    "tests/chatbots/test_puzzles_cli.py::test_the_command_line_refuses_a_count_of_nothing",
    "tests/adapters/console/test_puzzles.py::test_todays_puzzle_is_printed_and_answered",
    "tests/core/ai/test_patterns.py::test_every_k_has_its_tables",
)
"""Where the slow tests are: a file or folder (ending in ``.py`` or ``/``) or the start of a
test's id."""
BY_PLACE: dict[str, str] = {
    "tests/e2e/": "e2e",
    "tests/deploy/": "deploy",
    "tests/chatbots/test_database_url.py": "postgres",
    "tests/core/store/test_postgres.py": "postgres",
}
"""Places whose every test has a marker (as :data:`SLOW`); the PostgreSQL halves of the tests
run on both stores are found by their parameter."""


FAST = "not e2e"
"""The fast run's selection (``pytest -m "not e2e"``), which :func:`pytest_cmdline_main` spreads
over the cores."""
MOST_WORKERS = 4
"""Beyond this, a worker's own start (collecting every test) costs more than it brings."""


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The fast run in a process per core (up to :data:`MOST_WORKERS`) where pytest-xdist is
    installed and nothing else was asked for (``-n``, ``--pdb``, a single core): its tests are
    independent, each on its own files and ports. Every other run stays in one process,
    whose order and whose servers (Synapse, PostgreSQL, one per session) the e2e tests
    expect."""
    option = config.option
    if (
        hasattr(config, "workerinput")  # a worker itself: its run is the controller's
        or not config.pluginmanager.hasplugin("xdist")
        or (option.markexpr or "").strip() != FAST
        or option.numprocesses is not None
        or option.usepdb
        or option.collectonly
    ):
        return
    cores = len(os.sched_getaffinity(0))
    if cores > 1:
        option.numprocesses = min(cores, MOST_WORKERS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by where it is (see the module docstring)."""
    for item in items:
        found = {mark for prefix, mark in BY_PLACE.items() if item.nodeid.startswith(prefix)}
        if any(item.nodeid.startswith(prefix) for prefix in SLOW):
            found.add("slow")
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgres" in callspec.params.values():
            found.add("postgres")
        if found:
            found.add("e2e")
        for mark in sorted(found):
            item.add_marker(mark)


@pytest.fixture(scope="session")
def backends(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Backends]:
    """Fresh databases of either kind for the whole session (one PostgreSQL server)."""
    made = Backends(tmp_path_factory.mktemp("backends"))
    try:
        yield made
    finally:
        made.close()


@pytest.fixture(params=KINDS)
async def backend(
    request: pytest.FixtureRequest, backends: Backends, tmp_path: Path
) -> AsyncIterator[Backend]:
    """A fresh database of each kind in turn."""
    async with backends.fresh(request.param, tmp_path) as fresh:
        yield fresh
