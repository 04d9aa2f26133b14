"""Real headless Chromium: the page survives a server restart and shows a lost camera."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from flask import Flask

from jasscam.store import EventStore
from tests.web.conftest import PIN, NewGame, game_events
from web.app import create_app
from web.server import serve

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


@pytest.mark.slow  # a browser waits out a restart
def test_the_page_recovers_after_the_server_restarts(
    phone: Page, store: EventStore, new_game: NewGame, tmp_path: Path
) -> None:
    events = game_events(seed=3)
    game = new_game()
    for e in events[1:10]:
        store.append(game, e)
    settings = tmp_path / "dash.json"
    first: Flask = create_app(store, pin=PIN, settings_path=settings, heartbeat=1.0)
    handle = serve(first, "127.0.0.1", 0)
    port = handle.port
    phone.goto(f"{handle.url}/game/{game}")
    phone.wait_for_selector("body[data-count='10'][data-live='on']")
    handle.stop()
    phone.wait_for_selector("body[data-live='off']")
    for e in events[10:20]:  # the camera keeps writing while the dashboard is down
        store.append(game, e)
    second = serve(create_app(store, settings_path=settings, heartbeat=1.0), "127.0.0.1", port)
    try:
        phone.wait_for_selector("body[data-count='20'][data-live='on']", timeout=15_000)
        store.append(game, events[20])
        phone.wait_for_selector("body[data-count='21']")
        assert second.app.extensions["jasscam_pins"].pin == PIN  # kept in the settings file
    finally:
        second.stop()


@pytest.mark.slow  # a browser waits out a restart
def test_the_page_shows_when_the_camera_is_lost(phone: Page, store: EventStore, new_game: NewGame) -> None:
    game = new_game()
    source = {"name": "picamera2", "state": "live", "error": None}
    app = create_app(store, pin=PIN, heartbeat=1.0, status=lambda: {"source": dict(source)})
    with serve(app, "127.0.0.1", 0) as handle:
        phone.goto(f"{handle.url}/game/{game}")
        phone.wait_for_selector("body[data-live='on']")
        assert phone.is_hidden("#camera")
        source.update(state="lost", error="no frames for 5 s")
        phone.wait_for_selector("#camera:has-text('no frames for 5 s')")
        source.update(state="live", error=None)
        phone.wait_for_selector("#camera", state="hidden")


def test_the_page_shows_while_the_tables_deck_is_relearnt(phone: Page, store: EventStore, new_game: NewGame) -> None:
    game = new_game()
    deck = {"deck": "builtin", "rebuilding": "paris", "name": "Paris", "progress": 0.3, "error": None}
    app = create_app(store, pin=PIN, heartbeat=1.0, status=lambda: {"source": {"state": "live"}, "deck": dict(deck)})
    with serve(app, "127.0.0.1", 0) as handle:
        phone.goto(f"{handle.url}/game/{game}")
        phone.wait_for_selector("#deck:has-text('Paris')")
        text = phone.inner_text("#deck")
        assert "30 %" in text and phone.is_hidden("#camera")
        deck.update(progress=0.6)
        phone.wait_for_selector("#deck:has-text('60 %')")
        deck.update(deck="paris", rebuilding=None, name=None, progress=None)  # done: the deck is read
        phone.wait_for_selector("#deck", state="hidden")
