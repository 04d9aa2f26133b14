"""The enrolment page on a phone-sized headless Chromium: start, capture a row, fix a label, save."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from flask import Flask

from jasscam.store import EventStore
from tests.enroll.conftest import table_photo
from vision.recognizer import Recognizer
from web.app import create_app
from web.enroll import register_enroll
from web.server import ServerHandle, serve

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
PIN = "471108"
SHOT = Path("/tmp/enroll-work/enroll-page.png")


@pytest.fixture
def live(tmp_path: Path, recognizer: Recognizer) -> Iterator[tuple[ServerHandle, dict[str, np.ndarray | None]]]:
    with EventStore(tmp_path / "games.db") as store:
        app: Flask = create_app(store, pin=PIN, settings_path=tmp_path / "dashboard.json", heartbeat=1.0)
        camera: dict[str, np.ndarray | None] = {"now": None}
        register_enroll(app, frames=lambda: camera["now"], recognizer=recognizer, views=4)
        handle = serve(app, "127.0.0.1", 0)
        try:
            yield handle, camera
        finally:
            handle.stop()


def test_a_row_captured_from_the_camera_is_labelled_fixed_and_saved(
    phone: Page, live: tuple[ServerHandle, dict[str, np.ndarray | None]], tmp_path: Path
) -> None:
    handle, camera = live
    assert phone.request.post(f"{handle.url}/api/pin", headers={"X-Table-Pin": PIN}).ok  # signs this phone in
    phone.goto(f"{handle.url}/enroll/")
    phone.fill("#start-form input[name=name]", "Paris")
    phone.select_option("#start-form select[name=suits]", "french")
    phone.click("#start-form button")
    phone.wait_for_selector("#next-cards li")
    assert phone.inner_text("#next-cards").split("\n")[:2] == ["Kreuz 6", "Kreuz 7"]
    camera["now"] = table_photo(["kreuz-6", "kreuz-7", "kreuz-8", "kreuz-9", "kreuz-10"])
    phone.click("#capture")
    phone.wait_for_selector("#samples figure:nth-child(5)")
    assert phone.inner_text("#cards-count") == "5 / 36"
    phone.select_option("#samples figure:nth-child(2) select", "rosen-7")  # a wrong label, set and fixed
    phone.wait_for_function("() => document.querySelector('#missing')?.textContent.includes('Kreuz 7')")
    phone.select_option("#samples figure:nth-child(2) select", "eicheln-7")
    phone.wait_for_function("() => document.querySelector('#missing')?.textContent.includes('Kreuz 7') === false")
    phone.screenshot(path=str(SHOT), full_page=True)
    phone.click("#finish")
    phone.wait_for_selector("#report li")
    assert "Kreuz Bube" in phone.inner_text("#report")  # not stored: the missing cards are named


def test_once_every_card_is_captured_the_page_offers_a_second_round_of_the_same_rows(
    phone: Page, live: tuple[ServerHandle, dict[str, np.ndarray | None]]
) -> None:
    from web.enroll.i18n import ENROLL_STRINGS

    handle, camera = live
    assert phone.request.post(f"{handle.url}/api/pin", headers={"X-Table-Pin": PIN}).ok
    phone.goto(f"{handle.url}/enroll/")
    lang = phone.evaluate("document.documentElement.lang") or "de"
    words = ENROLL_STRINGS[lang]
    phone.fill("#start-form input[name=name]", "Paris")
    phone.select_option("#start-form select[name=suits]", "french")
    phone.click("#start-form button")
    phone.wait_for_selector("#next-cards li")
    assert phone.inner_text("#next-hint") == words["enroll_lay"]
    for _ in range(8):  # the rows of faces
        row = phone.request.get(f"{handle.url}/enroll/api/session").json()["next"]
        camera["now"] = table_photo([c["own_id"] for c in row])
        r = phone.request.post(f"{handle.url}/enroll/api/session/capture", headers={"X-Table-Pin": PIN})
        assert r.ok and r.json()["labelled"], r.json()
    phone.reload()
    phone.wait_for_function("() => document.querySelector('#cards-count')?.textContent.startsWith('36 / 36')")
    assert phone.inner_text("#next-hint") == words["enroll_lay_again"]
    assert phone.inner_text("#next-cards").split("\n")[:2] == ["Kreuz 6", "Kreuz 7"]
    assert phone.is_visible("#all-done") and phone.inner_text("#all-done") == words["enroll_all_done"]
    assert "2×: 0 / 36" in phone.inner_text("#cards-count")
