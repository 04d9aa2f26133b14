"""Fixtures for the dashboard: the real SQLite event store, the app, a live server."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from jasscam.store import EventStore
from scoring.events import Event, GameConfigured
from scoring.simulate import random_game_events
from web.app import create_app
from web.server import ServerHandle, serve

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PIN = "471108"
PLAYERS = ("Anna", "Beat", "Claudia", "Dario")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    with EventStore(tmp_path / "events.sqlite") as s:
        yield s


@pytest.fixture
def app(store: EventStore, tmp_path: Path) -> Flask:
    app = create_app(store, pin=PIN, settings_path=tmp_path / "dashboard.json", heartbeat=1.0)
    app.testing = True
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def game_events(seed: int = 3, **config: object) -> list[Event]:
    """A whole random legal game (Weis, Stöck on time, every trick collected) from the engine's simulator."""
    config.setdefault("players", PLAYERS)
    return random_game_events(random.Random(seed), **config)  # type: ignore[arg-type]


class NewGame(Protocol):
    """The ``new_game`` fixture: configures a game (``GameConfigured``'s fields) and returns its id."""

    def __call__(self, **config: object) -> int: ...


@pytest.fixture
def new_game(store: EventStore) -> NewGame:
    """Create a game in the store; returns its id."""

    def make(**config: object) -> int:
        config.setdefault("players", PLAYERS)
        return store.new_game(GameConfigured(**config))  # type: ignore[arg-type]

    return make


@pytest.fixture
def live(app: Flask) -> Iterator[ServerHandle]:
    handle = serve(app, "127.0.0.1", 0)
    try:
        yield handle
    finally:
        handle.stop()


def post_event(client: FlaskClient, game_id: int, event: dict[str, object], pin: str | None = PIN) -> TestResponse:
    headers = {"X-Table-Pin": pin} if pin is not None else {}
    return client.post(f"/api/games/{game_id}/events", json=event, headers=headers)


#: A round in Eicheln where seat 0 lays trump König, wins the trick, then leads trump Ober:
#: after the last event the Stöck window of seat 0 is open.
STOECK_ROUND: list[dict[str, object]] = [
    {"type": "round_started", "forehand": 0, "contract": "eicheln"},
    {"type": "card_played", "seat": 0, "card": "eicheln-koenig"},
    {"type": "card_played", "seat": 1, "card": "rosen-6"},
    {"type": "card_played", "seat": 2, "card": "rosen-7"},
    {"type": "card_played", "seat": 3, "card": "rosen-8"},
    {"type": "trick_collected", "seat": 0},
    {"type": "card_played", "seat": 0, "card": "eicheln-ober"},
]


class SSEClient:
    """A minimal Server-Sent Events reader over http.client (no browser), for the live tests."""

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        import http.client
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
        self.conn.request("GET", parts.path, headers={"Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.buffer = b""

    def next(self, within: float | None = None) -> dict[str, object]:
        """The next message as {event, id, data}; comments (heartbeats) are skipped.

        ``within``: raise TimeoutError if no message (heartbeats do not count) comes in time.
        """
        import json as _json
        import time as _time

        deadline = None if within is None else _time.monotonic() + within
        while True:
            if deadline is not None and _time.monotonic() > deadline:
                raise TimeoutError(f"no message within {within} s")
            while b"\n\n" not in self.buffer:
                chunk = self.response.read1(65536)
                if not chunk:
                    raise EOFError("stream ended")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\n\n", 1)
            msg: dict[str, object] = {}
            for line in raw.decode().split("\n"):
                if line.startswith(":") or not line:
                    continue
                key, _, value = line.partition(": ")
                msg[key] = value
            if "data" in msg:
                msg["data"] = _json.loads(str(msg["data"]))
                return msg

    def close(self) -> None:
        self.conn.close()


CHROMIUM = "/usr/bin/chromium"


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    """A phone-sized page (390x844, touch) that fails the test on any JavaScript error."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())  # the undo confirmation
    page.set_default_timeout(10_000)
    yield page
    context.close()
    assert not errors, errors
