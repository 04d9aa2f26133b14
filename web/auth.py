"""Who may write: the table PIN, the sessions it opens, and how guessing it is slowed down.

Why this shape (docs/appliance.md has the threat model):

- The PIN is never on a page that can be read without it. The table learns it from the
  first phone that sets the appliance up (an unclaimed appliance lets that one set-up
  choose the PIN) or from the console and journal of ``jasscam run``.
- At least 6 digits: a million PINs against the back-off below.
- A phone that gave the right PIN gets a session cookie (random, HttpOnly,
  SameSite=Strict) and never sends the PIN again. Only a hash of each token is kept, in
  the settings file, so a restarted appliance keeps its phones signed in.
- A valid session is checked first and is never slowed down: a stranger's guesses can
  cost the table nothing but the sign-in of a new phone.
- Wrong guesses back off per client (its address): a few are free, then each wait
  doubles up to ``MAX_BACKOFF_S``, and a right PIN clears it. Across all clients at
  most ``TABLE_FAILURES`` wrong guesses per ``TABLE_WINDOW_S`` are heard, so changing
  addresses does not multiply the guessing rate. A client in back-off is refused
  before its PIN is compared, otherwise the back-off would not limit guessing.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from pathlib import Path
from typing import Any

from web.errors import ApiError
from web.settings import SettingsFile

log = logging.getLogger("jasscam.web")

#: Digits a table PIN has at least and at most.
PIN_MIN, PIN_MAX = 6, 12
#: Wrong guesses a client may make before it has to wait.
FREE_FAILURES = 3
#: The longest a client waits between guesses.
MAX_BACKOFF_S = 60.0
#: Wrong guesses heard from all clients together per window.
TABLE_FAILURES, TABLE_WINDOW_S = 100, 3600.0
#: How long a session lasts, and how many the appliance keeps (oldest dropped first).
SESSION_MAX_AGE_S, MAX_SESSIONS = 30 * 24 * 3600, 256
#: Clients whose failures are remembered (oldest forgotten first), so memory stays bounded.
MAX_CLIENTS = 4096
COOKIE = "jasscam_session"
#: What a phone that is not signed in is told: where the table finds the PIN.
MISSING = (
    "this phone needs the table PIN once: the phone that set up the game chose it, "
    "and the appliance shows it on its console and in its journal (journalctl -u jasscam)"
)


def check_pin(pin: Any) -> str:
    """The PIN if it is 6 to 12 digits, else ApiError 400 saying so."""
    if not isinstance(pin, str) or not pin.isascii() or not pin.isdigit() or not PIN_MIN <= len(pin) <= PIN_MAX:
        raise ApiError(f"the table PIN must be {PIN_MIN} to {PIN_MAX} digits")
    return pin


def random_pin() -> str:
    return f"{secrets.randbelow(10**PIN_MIN):0{PIN_MIN}d}"


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class _Client:
    __slots__ = ("failures", "not_before")

    def __init__(self) -> None:
        self.failures = 0
        self.not_before = 0.0


class PinGuard:
    """The table PIN and its sessions, kept in the dashboard's settings file (web.settings).

    ``pin``: the PIN to use (tests, ``--pin``); else the saved one, else a random one,
    and the appliance is *unclaimed* until a set-up chooses its own.
    """

    def __init__(self, pin: str | None, file: SettingsFile, *, clock: Any = time.monotonic) -> None:
        self.file = file
        self._lock = file.lock
        self._clock = clock
        settings = file.data
        if pin is not None:
            settings["pin"] = check_pin(pin)
            settings["claimed"] = True
        saved = settings.get("pin")
        if not isinstance(saved, str) or len(saved) < PIN_MIN:
            if saved is not None:
                log.warning("the table PIN was shorter than %d digits; a new one was made", PIN_MIN)
            settings["pin"] = random_pin()
            settings["claimed"] = False
            settings["sessions"] = {}
        settings.setdefault("claimed", True)
        settings.setdefault("sessions", {})
        self._clients: dict[str, _Client] = {}
        self._table_failures: deque[float] = deque()
        file.save_quietly()  # a restarted dashboard keeps the table's PIN

    # -- settings -----------------------------------------------------------------------

    @property
    def settings(self) -> dict[str, Any]:
        """The settings file's contents (the PIN's keys and the table's, web.settings)."""
        return self.file.data

    @property
    def settings_path(self) -> Path | None:
        return self.file.path

    @property
    def pin(self) -> str:
        return str(self.settings["pin"])

    @property
    def claimed(self) -> bool:
        """False until a phone's set-up chose the PIN (or one was given): the first set-up may then choose it."""
        return bool(self.settings.get("claimed", True))

    def set_pin(self, pin: str) -> str:
        """Set a new PIN, end every other session, and return a session token for the caller."""
        with self._lock:
            self.settings["pin"] = check_pin(pin)
            self.settings["claimed"] = True
            self.settings["sessions"] = {}
            token = self._new_session()
            self.file.save_quietly()
            return token

    # -- sessions -----------------------------------------------------------------------

    def _new_session(self) -> str:
        token = secrets.token_urlsafe(32)
        sessions: dict[str, float] = self.settings.setdefault("sessions", {})
        sessions[_token_hash(token)] = time.time()
        while len(sessions) > MAX_SESSIONS:
            del sessions[min(sessions, key=sessions.__getitem__)]
        return token

    def session_valid(self, token: str | None) -> bool:
        if not token or len(token) > 100:
            return False
        created = self.settings.get("sessions", {}).get(_token_hash(token))
        return isinstance(created, (int, float)) and time.time() - created < SESSION_MAX_AGE_S

    # -- checking -----------------------------------------------------------------------

    def _client(self, client: str) -> _Client:
        state = self._clients.pop(client, None) or _Client()
        self._clients[client] = state  # most recent last, so the oldest is forgotten first
        while len(self._clients) > MAX_CLIENTS:
            del self._clients[next(iter(self._clients))]
        return state

    def check(self, given: str | None, *, session: str | None = None, client: str = "?") -> str | None:
        """Let a write through or raise ApiError 403 (wrong or missing PIN) or 429 (wait).

        Returns a new session token when the PIN was right (the caller sets the cookie),
        None when the session was already valid.
        """
        if self.session_valid(session):
            return None
        now = self._clock()
        with self._lock:
            state = self._client(client)
            if now < state.not_before:
                wait = int(state.not_before - now) + 1
                raise ApiError(f"too many wrong PINs from this phone; wait {wait} s", 429)
            while self._table_failures and now - self._table_failures[0] > TABLE_WINDOW_S:
                self._table_failures.popleft()
            if given is None or not given.strip():
                raise ApiError(MISSING, 403)
            if len(self._table_failures) >= TABLE_FAILURES:
                raise ApiError("too many wrong PINs at this table lately; signed-in phones still work", 429)
            if hmac.compare_digest(given.strip().encode(), self.pin.encode()):
                state.failures, state.not_before = 0, 0.0
                token = self._new_session()
                self.file.save_quietly()
                return token
            state.failures += 1
            self._table_failures.append(now)
            if state.failures >= FREE_FAILURES:
                state.not_before = now + min(MAX_BACKOFF_S, 2.0 ** (state.failures - FREE_FAILURES))
        raise ApiError("wrong table PIN", 403)


def current_guard() -> PinGuard:
    """The guard of the app handling the current request (web.app puts it in ``app.extensions``)."""
    from flask import current_app

    guard: PinGuard = current_app.extensions["jasscam_pins"]
    return guard


def authorize() -> None:
    """Check the current request's session cookie or PIN against the app's guard (ApiError if refused).

    A right PIN opens a session; ``set_session_cookie`` (an ``after_request`` hook, web.hooks)
    hands it to the phone.
    """
    from flask import g, request

    token = current_guard().check(
        request.headers.get("X-Table-Pin"),
        session=request.cookies.get(COOKIE),
        client=request.remote_addr or "?",
    )
    if token is not None:
        g.jasscam_session = token


def signed_in() -> bool:
    """Whether the current request carries a valid session cookie."""
    from flask import request

    return current_guard().session_valid(request.cookies.get(COOKIE))
