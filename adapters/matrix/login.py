"""Logging in, and logging in again when the token expires.

Homeservers expire tokens: Synapse's ``session_lifetime``, and Matrix Authentication Service's
compatibility tokens after hours. With a password the bot logs in again on the same device and
the request that was refused is made again, so no answer is lost. With a token alone nothing can
renew it: the Matrix adapter stops (the rest of the process goes on) and says, once, what to do.

Refresh tokens (MSC2918) are not used: Synapse gives one only to a client that asks, and its
access token then dies every ``refreshable_access_token_lifetime`` (5 minutes by default); a
password login renews as well, and the tokens admins hand out come without one (docs/matrix.md).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from adapters.matrix.backoff import with_backoff
from adapters.matrix.config import MatrixConfig
from adapters.matrix.sender import TokenDead
from adapters.matrix.state import Credentials, MatrixState
from adapters.matrix.transport import Login, MatrixError, Transport

log = logging.getLogger(__name__)

FIX = (
    "set MATRIX_PASSWORD so that the bot logs in again by itself, or issue a new token and set "
    "MATRIX_ACCESS_TOKEN (on a server with Matrix Authentication Service: "
    "mas-cli manage issue-compatibility-token <user>)"
)


def token_gone(error: MatrixError) -> str:
    """How the server ended the token, in the words of the log."""
    return "expired" if error.soft_logout else "was revoked"


class Logins:
    """The adapter's logins for one term of syncing.

    Args:
        config: the credentials.
        state: where a password login's token and device are kept.
        client: the running transport.
        sleep: how back-offs wait.
        on_dead: called once the token is gone for good (token only).
    """

    def __init__(
        self,
        config: MatrixConfig,
        state: MatrixState,
        client: Callable[[], Transport],
        *,
        sleep: Callable[[float], Awaitable[None]],
        on_dead: Callable[[], None],
    ) -> None:
        self._config = config
        self._state = state
        self._client = client
        self._sleep = sleep
        self._on_dead = on_dead
        self._lock = asyncio.Lock()
        self._logged_in_at = 0.0
        self.device_id: str | None = None
        self.dead = False

    @property
    def can_renew(self) -> bool:
        return bool(self._config.password) and not self._config.access_token

    async def first(self) -> Login:
        """The login of a term: the token given, the saved one, or the password."""
        config = self._config
        transport = self._client()
        if config.access_token:
            try:
                login = await with_backoff(
                    lambda: transport.restore(
                        config.user_id, config.device_id, config.access_token or ""
                    ),
                    what="matrix login (token)",
                    attempts=1_000_000,
                    sleep=self._sleep,
                )
            except MatrixError as error:
                if error.unknown_token:
                    self._dead(error)
                    raise TokenDead(str(error)) from error
                raise
            return self._done(login)
        saved = await self._state.credentials()
        if saved is not None:
            try:
                login = await with_backoff(
                    lambda: transport.restore(config.user_id, saved.device_id, saved.access_token),
                    what="matrix login (saved token)",
                    attempts=1_000_000,
                    sleep=self._sleep,
                )
                return self._done(login)
            except MatrixError as error:
                if not error.unknown_token:
                    raise
                log.warning(
                    "matrix: the saved access token %s; logging in again", token_gone(error)
                )
                await self._state.forget_credentials()
        device = saved.device_id if saved is not None else config.device_id
        return await self._password(device)

    async def again(self, error: MatrixError, started: float) -> None:
        """Log in again after ``error`` refused a request made at ``started`` (monotonic);
        once for all the requests the same expiry refused.

        Raises:
            TokenDead: there is no password to log in with.
        """
        async with self._lock:
            if self.dead or not self.can_renew:
                self._dead(error)
                raise TokenDead(str(error))
            if self._logged_in_at > started:
                return  # another request's refusal logged in already
            log.warning(
                "matrix: the access token %s; logging in again on device %s",
                token_gone(error),
                self.device_id,
            )
            await self._password(self.device_id)

    async def _password(self, device_id: str | None) -> Login:
        config = self._config
        transport = self._client()
        login = await with_backoff(
            lambda: transport.login(config.user_id, config.password or "", device_id),
            what="matrix login (password)",
            attempts=1_000_000,
            sleep=self._sleep,
        )
        # Kept so that a restart reuses the device (and its encryption keys).
        await self._state.set_credentials(Credentials(login.access_token, login.device_id))
        return self._done(login)

    def _done(self, login: Login) -> Login:
        self._logged_in_at = time.monotonic()
        self.device_id = login.device_id
        return login

    def _dead(self, error: MatrixError) -> None:
        if self.dead:
            return
        self.dead = True
        log.error(
            "matrix: the access token %s (%s) and there is no password to log in again with; "
            "the Matrix adapter stops, the rest of the bot goes on. To fix it, %s.",
            token_gone(error),
            error.status,
            FIX,
        )
        self._on_dead()
