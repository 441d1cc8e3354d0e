"""Whether the PostgreSQL database can be used: driver and network failures sorted into ours.

The server says what went wrong by SQLSTATE; the store turns the codes that mean "another
transaction holds what we need" into :class:`StoreBusy` and "the server, the connection or the
login is the problem" into :class:`StoreUnavailable`. Any other error of asyncpg's (a missing
table, a constraint, a bug in a statement) is a :class:`StoreFault`: not temporary, and logged
with asyncpg's error as its cause. Nothing here imports asyncpg: errors are recognised by their
SQLSTATE, class names and module.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from core.store.errors import StoreBusy, StoreError, StoreFault, StoreUnavailable

# SQLSTATE classes and codes (https://www.postgresql.org/docs/current/errcodes-appendix.html).
_BUSY = {
    "55P03": "a lock was held too long",
    "40001": "a concurrent transaction conflicted",
    "40P01": "a deadlock with a concurrent transaction",
    "57014": "a statement took too long",
    "53300": "the server has no free connection slot",
}
_UNAVAILABLE = {
    "25006": "the server is read-only",
    "08": "the connection failed",
    "57P01": "the server is shutting down",
    "57P02": "the server crashed",
    "57P03": "the server is starting up or shutting down",
    "53": "the server ran out of a resource (disk, memory)",
    "58": "the server had an I/O error",
    "XX": "the server reported an internal error or corruption",
    "28": "the server refused the login",
    "3D000": "the database does not exist",
    "42501": "permission denied",
}

_CLIENT_FAILURES = {"InterfaceError", "InternalClientError"}


def redact_url(url: str) -> str:
    """``url`` with its password replaced by ``***`` (for logs, messages and ``chatbots check``)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(an unparsable URL)"
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def translate(error: BaseException, where: str) -> StoreError | None:
    """Our error for a driver or network one: :class:`StoreBusy`, :class:`StoreUnavailable`,
    another of asyncpg's as :class:`StoreFault`; None when ``error`` is neither (the operation's
    own: re-raise it).

    Args:
        error: what asyncpg or the network raised.
        where: the redacted URL, for the message.
    """
    if isinstance(error, StoreError):
        return error
    state = getattr(error, "sqlstate", None)
    if isinstance(state, str):
        for key in (state, state[:2]):
            if key in _BUSY:
                return StoreBusy(f"{_BUSY[key]} ({error})", where)
            if key in _UNAVAILABLE:
                return StoreUnavailable(where, f"{_UNAVAILABLE[key]} ({error})")
    if isinstance(error, OSError | TimeoutError):
        cause = getattr(error, "strerror", None) or str(error) or type(error).__name__
        return StoreUnavailable(where, f"the server cannot be reached ({cause})")
    # The client's own view of a connection that broke under it (closed by the server,
    # a FATAL notice arriving mid-statement): no SQLSTATE, but the same meaning.
    names = {cls.__name__ for cls in type(error).__mro__}
    if not type(error).__module__.startswith("asyncpg"):
        return None
    if names & _CLIENT_FAILURES:
        return StoreUnavailable(where, f"the connection failed ({error})")
    return StoreFault(where, error)


def unavailable(error: BaseException, where: str) -> StoreUnavailable:
    """Any failure while opening, as one :class:`StoreUnavailable` line naming the cause."""
    if isinstance(error, StoreUnavailable):
        if not error.path:  # raised below the store, which alone knows the URL
            return type(error)(where, error.cause)
        return error
    translated = translate(error, where) or error
    if isinstance(translated, StoreUnavailable):
        return translated
    if isinstance(translated, StoreBusy):
        return StoreUnavailable(where, f"another connection holds a lock ({translated.cause})")
    if isinstance(translated, StoreFault):
        return StoreUnavailable(where, translated.cause)
    return StoreUnavailable(where, f"{type(error).__name__}: {error}")
