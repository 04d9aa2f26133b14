"""The Verlauf opens the camera's picture of each trick, from the recording, cards outlined and named."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import pytest

from jasscam.pictures import GamePictures, serialized
from jasscam.store import EventStore
from scoring.events import CardPlayed, GameConfigured, TrickCollected
from tests.pages import text_of
from tests.web.conftest import PIN, NewGame
from vision.recognizer import Recognizer
from vision.recording import Recording
from web.app import create_app
from web.server import ServerHandle, serve
from web.trickshot import TRICK_BGR

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser
DEMO = Path(__file__).resolve().parents[2] / "jasscam" / "data" / "demo-recording"


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


@pytest.fixture
def replayed(store: EventStore, tmp_path: Path, recognizer: Recognizer) -> Iterator[tuple[ServerHandle, int, int]]:
    """The demo recording's first round as the camera saw it, with the recording as the picture source."""
    events = Recording.open(DEMO).events
    assert isinstance(events[0], GameConfigured)
    game = store.new_game(events[0])
    first_collect = next(i for i, e in enumerate(events) if isinstance(e, TrickCollected))
    for e in events[1 : first_collect + 1]:
        store.append(game, e)
    app = create_app(
        store,
        pin=PIN,
        settings_path=tmp_path / "dashboard.json",
        frame_at=GamePictures(store, replayed=DEMO),
        recognize=serialized(recognizer.recognize),
    )
    handle = serve(app, "127.0.0.1", 0)
    try:
        yield handle, game, first_collect
    finally:
        handle.stop()


def test_a_trick_in_the_history_opens_the_recorded_picture_with_the_cards_outlined(
    replayed: tuple[ServerHandle, int, int], phone: Page, browser: Browser
) -> None:
    handle, game, collect = replayed
    store: EventStore = handle.app.extensions["jasscam_store"]
    last_card = max(i for i, e in enumerate(store.events(game)) if isinstance(e, CardPlayed))
    phone.goto(f"{handle.url}/game/{game}")
    assert phone.request.post(
        f"{handle.url}/api/pin", headers={"X-Table-Pin": PIN}
    ).ok  # the picture shows the table: sign in
    phone.wait_for_selector(f"body[data-count='{collect + 1}']")
    phone.click(".tabs button[data-tab='history']")
    phone.click(f"#events li[data-pos='{collect}'] .shot")
    phone.wait_for_function("() => document.querySelector('#shot')?.naturalWidth > 0", timeout=30_000)
    assert phone.get_attribute("#shot", "data-pos") == str(last_card)  # the moment the trick's last card lay
    assert text_of(phone, "#shot-error") == ""
    # the picture is the recorded frame with the trick's four cards drawn on it; it needs the PIN
    client = handle.app.test_client()
    assert client.get(f"/api/games/{game}/frame/{last_card}.jpg").status_code == 403
    body = client.get(f"/api/games/{game}/frame/{last_card}.jpg", headers={"X-Table-Pin": PIN}).data
    picture = cv2.imdecode(np.frombuffer(body, np.uint8), cv2.IMREAD_COLOR)
    assert picture is not None
    outline = np.all(np.abs(picture.astype(int) - np.array(TRICK_BGR)) < 40, axis=2)
    assert outline.sum() > 4 * 200  # four outlines of a card's perimeter, at least
    assert client.get(f"/api/games/{game}/frame/9999.jpg", headers={"X-Table-Pin": PIN}).status_code == 404


def test_without_a_recording_the_history_offers_no_picture(phone: Page, live: ServerHandle, new_game: NewGame) -> None:
    game = new_game()
    phone.goto(f"{live.url}/game/{game}")
    phone.wait_for_selector("body[data-count='1']")
    assert phone.evaluate("window.PICTURES") is False
    assert live.app.test_client().get(f"/api/games/{game}/frame/0.jpg", headers={"X-Table-Pin": PIN}).status_code == 404
