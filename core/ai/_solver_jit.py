"""The compiled copy of :mod:`core.ai._solver_kernel` (numba), built on first use.

Compiling rebinds the kernel's globals, those of its companions :mod:`core.ai._book_kernel`,
:mod:`core.ai._heuristic_kernel`, :mod:`core.ai._gomoku_kernel` and :mod:`core.ai._gomoku_search`
(five in a row) too: each function is re-created from its own code object with a namespace where
its callees are compiled dispatchers and the integer constants are those of 64-bit words, then
handed to ``numba.njit``.
The algorithm thus exists once, in the kernel.

numba keeps a compiled function on disk until the file that defines it changes, but these
functions read each other's constants: ``_gomoku_search`` reads ``_gomoku_kernel``'s widths and
the offsets of the parts of its arrays. A change to one file alone would leave the other's
cached code on the old values: wrong moves, or reads past the end of an array. So a stamp beside
the cache names the sources it was compiled from (:func:`drop_stale`), and the cache is emptied
when any of them changed.
"""

from __future__ import annotations

import hashlib
import os
import time
import types
from collections.abc import Iterable
from pathlib import Path
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

# Beside each numba cache: the digest of the sources its functions were compiled from.
STAMP_NAME = "chatbots-kernel-sources.sha256"

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
    compiled_functions = [clock, *(namespace[name] for name in plain_functions())]
    drop_stale(compiled_functions, sources_digest(kernel_sources()))
    return namespace


def kernel_sources() -> list[Path]:
    """The files whose text the compiled functions depend on: the kernels and this module."""
    return [Path(str(module.__file__)) for module, _ in MODULES] + [Path(__file__)]


def sources_digest(paths: Iterable[Path]) -> str:
    """One digest of the files' contents, in the order given."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale(dispatchers: Iterable[Any], digest: str) -> None:
    """Empties the on-disk caches of the numba ``dispatchers`` (made with ``cache=True``, not
    yet called) unless the stamp beside them says they were compiled from ``digest``'s sources,
    then stamps them. Two processes starting together may both empty a cache: each then compiles
    once more, none runs stale code."""
    caches: dict[str, list[Any]] = {}
    for dispatcher in dispatchers:
        cache = dispatcher._cache  # numba has no public accessor for a dispatcher's cache
        if cache.cache_path is not None:  # None: caching is off (NullCache)
            caches.setdefault(cache.cache_path, []).append(cache)
    for path, in_path in caches.items():
        stamp = Path(path) / STAMP_NAME
        try:
            if stamp.read_text() == digest:
                continue
        except OSError:
            pass  # no stamp yet: a cache from before stamps, or none
        for cache in in_path:
            cache.flush()
        fresh = stamp.with_name(f"{STAMP_NAME}.{os.getpid()}")
        fresh.write_text(digest)
        # Readers see the old stamp or the new one, never half of one.
        fresh.replace(stamp)
