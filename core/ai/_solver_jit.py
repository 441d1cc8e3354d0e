"""The compiled copy of :mod:`core.ai._solver_kernel` (numba), built on first use.

Compiling rebinds the kernel's globals, those of its companions :mod:`core.ai._book_kernel`,
:mod:`core.ai._heuristic_kernel`, :mod:`core.ai._gomoku_kernel` and :mod:`core.ai._gomoku_search`
(five in a row) too: each function is re-created from its own code object with a namespace where
its callees are compiled dispatchers and the integer constants are those of 64-bit words, then
handed to ``numba.njit``.
The algorithm thus exists once, in the kernel.
"""

from __future__ import annotations

import os
import time
import types
from typing import Any

from core.ai import _book_kernel as book_kernel
from core.ai import _gomoku_kernel as gomoku_kernel
from core.ai import _gomoku_search as gomoku_search
from core.ai import _heuristic_kernel as heuristic_kernel
from core.ai import _solver_kernel as kernel

JIT_ENV = "CHATBOTS_JIT"

# the kernel's modules and the functions each contributes, callees first
MODULES = (
    (book_kernel, book_kernel.BOOK_FUNCTIONS),
    (kernel, kernel.KERNEL_FUNCTIONS),
    (heuristic_kernel, heuristic_kernel.HEURISTIC_FUNCTIONS),
    (gomoku_kernel, gomoku_kernel.GOMOKU_FUNCTIONS),
    (gomoku_search, gomoku_search.SEARCH_FUNCTIONS),
)

_namespace: dict[str, Any] | None = None
_failed = False


def plain_functions() -> dict[str, Any]:
    """Every kernel function by name, as written (plain Python)."""
    return {name: getattr(module, name) for module, names in MODULES for name in names}


def enabled() -> bool:
    """Whether compiling is allowed: numba importable and ``CHATBOTS_JIT`` is not ``0``."""
    if os.environ.get(JIT_ENV, "1").strip() == "0" or _failed:
        return False
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def compiled() -> dict[str, Any] | None:
    """The compiled kernel functions by name, or None when compiling is not enabled."""
    global _namespace, _failed
    if _namespace is not None or not enabled():
        return _namespace
    try:
        _namespace = _build()
    except Exception:  # pragma: no cover - a broken numba install: run plain, stay correct
        _failed = True
        return None
    return _namespace


def _build() -> dict[str, Any]:
    import numba

    @numba.njit(cache=True)
    def clock() -> float:
        with numba.objmode(t="float64"):
            t = time.perf_counter()
        return t

    # one namespace for the modules: each function finds the others' names there
    namespace = {
        **vars(gomoku_kernel),
        **vars(gomoku_search),
        **vars(book_kernel),
        **vars(heuristic_kernel),
        **vars(kernel),
    }
    namespace.update(kernel.COMPILED_CONSTANTS, now=clock)
    namespace.update(gomoku_kernel.COMPILED_CONSTANTS, gk_now=clock)
    for name, plain in plain_functions().items():
        copy = types.FunctionType(plain.__code__, namespace, name, plain.__defaults__)
        copy.__module__ = plain.__module__
        copy.__qualname__ = plain.__qualname__
        copy.__doc__ = plain.__doc__
        # numba resolves globals when it compiles, by then every callee is in the namespace
        namespace[name] = numba.njit(cache=True)(copy)
    return namespace
