"""mypy checks every call of an operation: its arguments against the generator's signature,
and its result as the type ``store.run`` returns (the operation's ``Op[T]``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[3]

CALLS = """\
from core.store import kv, sessions
from core.store.models import Session
from core.store.port import Store


async def good(store: Store) -> None:
    value: str | None = await store.run(kv.kv_get("ns", "key"))
    session: Session | None = await store.run(sessions.get("abc123"))
    applied: bool = await store.run(sessions.delete("abc123", expected_version=2))
    print(value, session, applied)


async def bad(store: Store) -> None:
    await store.run(kv.kv_get("ns", 1))
    count: int = await store.run(kv.kv_get("ns", "key"))
    await store.run(sessions.delete("abc123", 2))
    print(count, (await store.run(kv.kv_get("ns", "key"))).upper())
"""

STEP = "Query | Atomic | AskEnv"
EXPECTED = [
    # A wrong argument, a positional one where the operation takes a keyword:
    'bad.py:14: error: Argument 2 to "kv_get" has incompatible type "int"; expected "str"'
    "  [arg-type]",
    # a result used as the wrong type (an int where it is a str or None), or its None forgotten.
    f'bad.py:15: error: Argument 1 to "run" of "Store" has incompatible type "Generator[{STEP},'
    f' Any, str | None]"; expected "Generator[{STEP}, Any, int]"  [arg-type]',
    'bad.py:16: error: Too many positional arguments for "delete"  [call-arg]',
    'bad.py:17: error: Item "None" of "str | None" has no attribute "upper"  [union-attr]',
]


def mypy(path: Path) -> subprocess.CompletedProcess[str]:
    """mypy with the project's settings (strict) on one file, from the checkout."""
    config = ROOT / "pyproject.toml"
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(config),
            "--cache-dir",  # the project's: core is checked already
            str(ROOT / ".mypy_cache"),
            path.name,
        ],
        cwd=path.parent,
        env={"MYPYPATH": str(ROOT), "PATH": ""},
        capture_output=True,
        text=True,
        check=False,
    )


def test_mypy_rejects_a_wrong_argument_and_a_wrong_result_and_passes_the_right_calls(
    tmp_path: Path,
) -> None:
    (tmp_path / "bad.py").write_text(CALLS)
    done = mypy(tmp_path / "bad.py")
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 1, done.stdout + done.stderr
    assert errors == EXPECTED, done.stdout
    # The right calls alone pass.
    (tmp_path / "good.py").write_text(CALLS.split("\n\n\nasync def bad")[0] + "\n")
    done = mypy(tmp_path / "good.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in 1 source file" in done.stdout
