"""The dashboard's enrolment screens through Flask's test client: real store, real models, real files."""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from jasscam.store import EventStore
from tests.enroll.conftest import PARIS, table_photo
from tests.web.bombs import png_bomb
from vision.enroll import DeckLibrary, EnrollImageError, decode_image
from vision.recognizer import Recognizer
from web.app import create_app
from web.enroll import register_enroll

PIN = "471108"
AUTH = {"X-Table-Pin": PIN}


@pytest.fixture
def app(tmp_path: Path, recognizer: Recognizer) -> Iterator[Flask]:
    with EventStore(tmp_path / "games.db") as store:
        app = create_app(store, pin=PIN, settings_path=tmp_path / "dashboard.json", heartbeat=1.0)
        app.testing = True
        frame: dict[str, np.ndarray | None] = {"now": None}
        app.config["camera"] = frame
        register_enroll(app, frames=lambda: frame["now"], recognizer=recognizer, views=4)
        yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def png(path: Path) -> io.BytesIO:
    return io.BytesIO(path.read_bytes())


def wait_built(client: FlaskClient) -> dict[str, Any]:
    for _ in range(200):
        view = client.get("/enroll/api/session").get_json()
        if view["build"] and view["build"]["done"]:
            return dict(view)
        time.sleep(0.05)
    raise AssertionError("the build did not finish")


def test_writes_need_the_table_pin(client: FlaskClient) -> None:
    assert client.post("/enroll/api/session", json={"name": "Paris", "suits": "french"}).status_code == 403
    r = client.post("/enroll/api/session", json={"name": "Paris", "suits": "french"}, headers={"X-Table-Pin": "0000"})
    assert r.status_code == 403 and "PIN" in r.get_json()["error"]
    assert client.post("/enroll/api/decks/active", json={"deck": "builtin"}).status_code == 403
    assert client.get("/enroll/api/decks").status_code == 200  # reading never needs it


def test_guided_enrolment_from_the_camera_labels_the_row_asked_for(app: Flask, client: FlaskClient) -> None:
    view = client.post("/enroll/api/session", json={"name": "Paris", "suits": "french"}, headers=AUTH).get_json()
    assert [c["own_id"] for c in view["next"]] == ["kreuz-6", "kreuz-7", "kreuz-8", "kreuz-9", "kreuz-10"]
    assert client.post("/enroll/api/session/capture", headers=AUTH).status_code == 503  # no camera picture yet
    app.config["camera"]["now"] = table_photo(["kreuz-6", "kreuz-7", "kreuz-8", "kreuz-9", "kreuz-10"])
    r = client.post("/enroll/api/session/capture", headers=AUTH)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["found"] == 5 and body["labelled"]
    labels = [s["label"] for s in body["session"]["samples"]]
    assert labels == ["eicheln-6", "eicheln-7", "eicheln-8", "eicheln-9", "eicheln-10"]
    assert body["session"]["cards_done"] == 5
    assert [c["own_id"] for c in body["session"]["next"]] == ["kreuz-under", "kreuz-ober", "kreuz-koenig", "kreuz-ass"]
    picture = client.get(f"/enroll/api/session/samples/{body['added'][0]}.png")
    assert picture.status_code == 200 and picture.data[:4] == b"\x89PNG"


def test_an_uploaded_card_can_be_relabelled_and_the_deck_stored_and_selected(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    client.post("/enroll/api/session", json={"name": "Paris", "suits": "french"}, headers=AUTH)
    ids = []
    for stem in ("herz-ass", "kreuz-7", "schaufel-ober"):
        r = client.post(
            "/enroll/api/session/capture", data={"image": (png(PARIS / f"{stem}.png"), f"{stem}.png")}, headers=AUTH
        )
        assert r.status_code == 200, r.get_json()
        assert (
            r.get_json()["found"] == 1 and not r.get_json()["labelled"]
        )  # one card where five were asked: user labels it
        ids.append(r.get_json()["added"][0])
    for sample_id, label in zip(ids, ("herz-ass", "kreuz-8", "schaufel-dame"), strict=True):
        r = client.post(f"/enroll/api/session/samples/{sample_id}", json={"label": label}, headers=AUTH)
        assert r.status_code == 200
    bad = client.post(f"/enroll/api/session/samples/{ids[0]}", json={"label": "joker"}, headers=AUTH)
    assert bad.status_code == 400 and "joker" in bad.get_json()["error"]
    fixed = client.post(f"/enroll/api/session/samples/{ids[1]}", json={"label": "kreuz-7"}, headers=AUTH).get_json()
    assert sorted(s["label"] for s in fixed["samples"]) == ["eicheln-7", "rosen-ass", "schilten-ober"]
    assert "Kreuz 7" in [s["name"] for s in fixed["samples"]]

    r = client.post("/enroll/api/session/finish", json={"activate": True}, headers=AUTH)
    assert r.status_code == 202
    done = wait_built(client)["build"]
    assert done["error"] is None and done["stored"] is None  # 33 cards missing: reported, not stored
    assert any("missing: no picture of kreuz-6" in i["message"] for i in done["report"]["issues"])

    client.post("/enroll/api/session/finish", json={"activate": True, "force": True}, headers=AUTH)
    done = wait_built(client)["build"]
    assert done["stored"] == "paris"
    # the uploaded PNGs showed the cards' own outline: the deck keeps their proportions
    assert DeckLibrary(tmp_path / "decks").load("paris").prototypes.aspect == pytest.approx(492 / 316, rel=1e-3)
    decks = client.get("/enroll/api/decks").get_json()
    assert decks["active"] == "paris" and decks["decks"][0]["suits"] == "french"
    # The dashboard's card pictures and names now come from the table's deck.
    active = client.get("/enroll/api/active").get_json()
    assert active["suit_names"]["eicheln"] == "Kreuz" and active["cards"]["rosen-ass"]["name"] == "Herz Ass"
    img = client.get("/enroll/cards/rosen-ass.png")
    assert img.status_code == 200 and img.mimetype == "image/png"
    decoded = cv2.imdecode(np.frombuffer(img.data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert decoded is not None
    assert decoded.shape[:2] == (187, 120)
    builtin_card = Path(app.static_folder or "") / "cards" / "eicheln-6.png"
    assert client.get("/enroll/cards/eicheln-6.png").data == builtin_card.read_bytes()  # not enrolled: the built-in one
    assert client.get("/enroll/cards/joker.png").status_code == 404
    # Stored where the appliance looks (the state directory), and back to the built-in deck.
    assert DeckLibrary(tmp_path / "decks").active() == "paris"
    assert (
        client.post("/enroll/api/decks/active", json={"deck": "builtin"}, headers=AUTH).get_json()["active"]
        == "builtin"
    )
    assert client.get("/enroll/api/active").get_json()["cards"]["rosen-ass"]["name"] == "Rosen Ass"
    assert client.get("/enroll/cards/rosen-ass.png").data == (builtin_card.parent / "rosen-ass.png").read_bytes()
    assert client.delete("/enroll/api/decks/paris", headers=AUTH).status_code == 200
    assert client.get("/enroll/api/decks").get_json()["decks"] == []


def test_the_enrolment_page_renders(client: FlaskClient) -> None:
    r = client.get("/enroll/")
    assert r.status_code == 200 and b"enroll.js" in r.data
    assert client.get("/enroll/static/enroll.js").status_code == 200


def test_without_a_state_directory_enrolment_says_why(tmp_path: Path) -> None:
    with EventStore(tmp_path / "games.db") as store:
        app = create_app(store, pin=PIN)
        client = app.test_client()
        r = client.post("/enroll/api/session", json={"name": "X"}, headers=AUTH)
        assert r.status_code == 503 and "state directory" in r.get_json()["error"]
        assert client.get("/enroll/api/active").get_json()["deck"] == "builtin"


def test_a_decompression_bomb_is_refused_from_its_header_before_decoding(client: FlaskClient) -> None:
    """The issue's probe: a 1.1 MB PNG of 20000 x 20000 px cost 10.9 s and 2.55 GB before a 422."""
    client.post("/enroll/api/session", json={"name": "Paris", "suits": "french"}, headers=AUTH)
    bomb = png_bomb(8000, 8000)  # 64 megapixels in 0.1 MB
    r = client.post("/enroll/api/session/capture", data={"image": (io.BytesIO(bomb), "bomb.png")}, headers=AUTH)
    assert r.status_code == 400 and "8000x8000 px" in r.get_json()["error"]
    assert client.get("/enroll/api/session").get_json()["samples"] == []
    with pytest.raises(EnrollImageError, match="megapixels"):
        decode_image(png_bomb(20000, 2600), "bomb.png")


def test_after_every_card_once_the_dashboard_asks_for_a_second_round_and_the_back_only_once() -> None:
    from web.enroll.session import PLAN, EnrollSession

    session = EnrollSession("Paris", "french")
    picture = np.full((40, 26, 3), 200, np.uint8)
    rows = [group for group in PLAN if group != ("back",)]
    for group in rows:
        assert session.next_group() == group
        session.add([picture] * len(group), session.next_group(), "camera")
    view = session.view("en")
    assert view["cards_done"] == 36 and view["round"] == 2 and view["cards_twice"] == 0
    # the same rows again; the back, which the camera cannot find face-up, holds no round up
    assert [c["own_id"] for c in view["next"]] == ["kreuz-6", "kreuz-7", "kreuz-8", "kreuz-9", "kreuz-10"]
    for group in rows:
        assert session.next_group() == group
        session.add([picture] * len(group), group, "camera")
    view = session.view("en")
    assert view["cards_twice"] == 36 and view["round"] == 2
    assert session.next_group() == ("back",)  # asked for last, once
    session.add([picture], ("back",), "photo")
    assert session.next_group() == () and session.view("en")["next"] == []
    # a picture of the second round removed is asked for again
    second = max(c.id for c in session.samples.values() if c.sample.label == "rosen-ober")
    session.remove(second)
    assert session.next_group() == ("rosen-ober",)
