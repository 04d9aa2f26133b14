"""The appliance reads the table's enrolled deck and lends its camera to ``/enroll``.

Real ONNX recogniser from the shipped models, real deck library on disk, real pipeline
threads and the real dashboard app (Flask test client); the camera is a fixed photo of
paris cards on a cloth.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jasscam.appliance import Appliance, wait_until
from jasscam.config import validate
from jasscam.decks import DeckAwareRecognizer, decks_dir, open_library
from tests.appliance.test_wiring_bodentrumpf import LoopSource
from tests.enroll.conftest import table_photo
from vision.enroll import BUILTIN, DeckProfile
from vision.recognizer import Recognizer

PHOTO_CARDS = ["schaufel-6", "schaufel-7", "schaufel-8", "schaufel-9", "schaufel-10"]  # paris file stems (French names)
SWISS_IDS = {"schilten-6", "schilten-7", "schilten-8", "schilten-9", "schilten-10"}  # the same cards' canonical ids


@pytest.mark.slow  # the whole appliance enrols and selects a deck
def test_the_appliance_reads_the_deck_the_table_enrols_and_selects_on_the_dashboard(
    tmp_path: Path, paris_profile: DeckProfile
) -> None:
    photo = table_photo(PHOTO_CARDS)
    config = validate(
        {
            "store": {"state_dir": str(tmp_path / "state")},
            "dashboard": {"host": "127.0.0.1", "port": 0},
            "recording": {"enabled": False},
            "recognizer": {"threads": 1},
            "camera": {"analysis_width": photo.shape[1], "width": photo.shape[1]},
        }
    )
    # The gate would skip a still picture after its first frame; the deck is checked per recognition.
    appliance = Appliance(config, source=LoopSource([photo], fps=4), gate=False)
    appliance.start()
    try:
        decks = appliance.decks
        assert isinstance(decks, DeckAwareRecognizer) and appliance.app is not None
        assert decks.deck == BUILTIN and decks.library.root == decks_dir(tmp_path / "state")
        assert appliance.status()["deck"] == {
            "deck": BUILTIN,
            "rebuilding": None,
            "name": None,
            "progress": None,
            "error": None,
        }
        client = appliance.app.test_client()
        auth = {"X-Table-Pin": appliance.pin}
        assert client.get("/enroll/").status_code == 200
        assert client.get("/enroll/api/active").json["deck"] == BUILTIN
        builtin_read = {d.card for d in decks.recognize(photo) if d.face_up}
        assert builtin_read != SWISS_IDS  # the shipped Swiss prototypes take these French spades for clubs

        # /enroll captures from the appliance's camera: the very frame the pipeline got, not a copy.
        assert appliance.wait_first_frame(10.0) and appliance.latest_frame() is photo
        assert (
            client.post("/enroll/api/session", json={"name": "Paris", "suits": "french"}, headers=auth).status_code
            == 200
        )
        captured = client.post("/enroll/api/session/capture", headers=auth)
        assert captured.status_code == 200, captured.json
        assert len(captured.json["added"]) == len(PHOTO_CARDS)

        # A deck enrolled into the appliance's library and selected on the dashboard is read.
        open_library(tmp_path / "state").save(paris_profile)
        chosen = client.post("/enroll/api/decks/active", json={"deck": "paris"}, headers=auth)
        assert chosen.status_code == 200 and chosen.json["active"] == "paris"
        assert wait_until(lambda: decks.deck == "paris", 15.0), decks.error
        assert decks.recognizer.prototypes is not decks.builtin
        read = {d.card for d in decks.recognize(photo) if d.face_up}
        assert read == SWISS_IDS

        # Back to the shipped deck.
        client.post("/enroll/api/decks/active", json={"deck": BUILTIN}, headers=auth)
        assert wait_until(lambda: decks.deck == BUILTIN, 15.0)
        assert decks.recognizer.prototypes is decks.builtin
        # Read as the shipped deck reads it, at the card length the appliance has learnt
        # by now (French cards read as Swiss ones may change name with the scale).
        length = decks.scale.length
        shipped = Recognizer(settings=decks.recognizer.settings)
        expected = {d.card for d in shipped.recognize(photo, length) if d.face_up}
        assert {d.card for d in decks.recognizer.recognize(photo, length) if d.face_up} == expected
        assert appliance.pipeline is not None and appliance.pipeline.error is None
    finally:
        appliance.stop()
