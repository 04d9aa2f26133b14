"""The set-up page's mounting check: the measured card length, its verdict, and the live
picture behind the table PIN (the real app, a real rendered frame, and Debian's chromium)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np
import pytest
from flask import Flask

from tests.web.conftest import PIN
from vision.detection import Detection
from vision.recognizer.scale import CardScale
from vision.synth.geometry import GUIDE
from vision.synth.scene import render_scene
from web.mounting import register_mounting
from web.server import serve

if TYPE_CHECKING:
    from playwright.sync_api import Page


def _card(length: float) -> Detection:
    w = 0.64 * length
    return Detection(
        "rosen-6",
        0.97,
        (100, 100, 100 + w, 100 + length),
        ((100, 100), (100 + w, 100), (100 + w, 100 + length), (100, 100 + length)),
    )


@pytest.fixture
def frame() -> np.ndarray:
    return render_scene(11, style="clean", geometry=GUIDE).image


def test_the_mounting_is_unknown_until_sure_cards_were_seen_then_judged(app: Flask, frame: np.ndarray) -> None:
    scale = CardScale(least=3)
    register_mounting(app, frames=lambda: frame, scale=scale)
    client = app.test_client()
    m = client.get("/api/mounting").get_json()
    assert m["available"] and m["state"] == "unknown" and m["card_length_px"] is None
    assert m["frame"] == {"width": 1280, "height": 960}
    scale.observe([_card(90.0)] * 3)
    m = client.get("/api/mounting").get_json()
    assert m["state"] == "good" and m["card_length_px"] == 90.0
    scale.reset()
    scale.observe([_card(38.0)] * 3)
    assert client.get("/api/mounting").get_json()["state"] == "too-small"


def test_without_a_recogniser_the_check_is_not_offered(app: Flask) -> None:
    register_mounting(app, frames=lambda: None, scale=None)
    assert app.test_client().get("/api/mounting").get_json() == {"available": False}


def test_the_live_picture_needs_the_table_pin_and_shows_the_frame(app: Flask, frame: np.ndarray) -> None:
    register_mounting(app, frames=lambda: frame, scale=CardScale(fixed=91.0), detections=lambda: [_card(91.0)])
    client = app.test_client()
    assert client.get("/api/mounting/view.jpg").status_code == 403
    assert client.get("/api/mounting/view.jpg", headers={"X-Table-Pin": "0000"}).status_code in (403, 429)
    r = client.get("/api/mounting/view.jpg", headers={"X-Table-Pin": PIN})
    assert r.status_code == 200 and r.mimetype == "image/jpeg"
    img = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert img is not None
    assert img.shape == (480, 640, 3)
    # The card's outline is drawn green where the detection lies.
    x, y = int(100 * 0.5), int((100 + 45) * 0.5)
    b, g, r_ = img[y, x - 1 : x + 2].astype(int).mean(axis=0)
    assert g > 120 and g > r_ + 40 and g > b + 40


def test_no_picture_yet_is_a_clear_refusal(app: Flask) -> None:
    register_mounting(app, frames=lambda: None, scale=CardScale())
    r = app.test_client().get("/api/mounting/view.jpg", headers={"X-Table-Pin": PIN})
    assert r.status_code == 503 and b"no camera picture" in r.data


@pytest.mark.slow  # a browser and the live picture
@pytest.mark.browser
def test_the_setup_page_says_whether_the_mounting_is_good_and_shows_the_live_picture(
    app: Flask, frame: np.ndarray, phone: Page
) -> None:
    scale = CardScale(least=2)
    register_mounting(app, frames=lambda: frame, scale=scale, detections=lambda: [_card(91.0)])
    handle = serve(app, "127.0.0.1", 0)
    try:
        phone.goto(f"{handle.url}/setup")
        verdict = phone.locator("#mounting-verdict")
        phone.wait_for_function("document.querySelector('#mounting-verdict')?.dataset.state === 'unknown'")
        scale.observe([_card(91.0)] * 2)
        phone.wait_for_function("document.querySelector('#mounting-verdict')?.dataset.state === 'good'")
        assert "91" in verdict.inner_text()
        assert phone.request.post(f"{handle.url}/api/pin", headers={"X-Table-Pin": PIN}).ok  # signs this phone in
        phone.click("#mounting-show")
        phone.wait_for_function("document.querySelector('#mounting-view')?.naturalWidth === 640")
    finally:
        handle.stop()
