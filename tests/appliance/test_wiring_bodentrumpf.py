"""The appliance feeds the camera's Bodentrumpf reading to the Speck screens.

Real store, real pipeline threads, real trick tracker, real dashboard app (Flask test
client); the synthetic table's OpenCV detector stands in for the ONNX recogniser so the
frames say exactly which card lies face up.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from flask.testing import FlaskClient

from jasscam.appliance import Appliance, wait_until
from jasscam.config import Config, validate
from jasscam.sources.base import Frame, FrameSource, SourceLost
from tests.appliance.gamegen import config
from tests.appliance.synthetic import detect, draw
from tests.speck.conftest import SETUP
from vision.tracker import TrickTracker


class LoopSource(FrameSource):
    """A live camera over fixed pictures: ``images`` in turn, then the last one for ever, at ``fps``."""

    name = "loop"

    def __init__(self, images: Sequence[np.ndarray], fps: float = 20.0) -> None:
        self.images = list(images)
        self.period = 1.0 / fps
        self.index = 0
        self.opened = False

    def open(self) -> None:
        self.opened = True

    def read(self, timeout: float) -> Frame:
        if not self.opened:
            raise SourceLost("not open")
        time.sleep(self.period)
        image = self.images[min(self.index, len(self.images) - 1)]
        self.index += 1
        return Frame(image=image, t=self.index * self.period, index=self.index)

    def close(self) -> None:
        self.opened = False


def settings(tmp_path: Path) -> Config:
    return validate(
        {
            "store": {"state_dir": str(tmp_path / "state")},
            "dashboard": {"host": "127.0.0.1", "port": 0},
            "recording": {"enabled": False},
        }
    )


def speck_view(client: FlaskClient, game: int) -> dict[str, Any]:
    response = client.get(f"/speck/api/games/{game}")
    assert response.status_code == 200
    return dict(response.get_json())


def test_the_speck_screen_shows_the_bodentrumpf_the_camera_reads_until_the_table_confirms(tmp_path: Path) -> None:
    # The table first, then the cut's bottom card laid face up at the dealer's edge.
    source = LoopSource([draw([])] * 10 + [draw([(0, "schellen-koenig")])])
    appliance = Appliance(settings(tmp_path), source=source, recognize=detect, make_tracker=lambda game: TrickTracker())
    appliance.start()
    try:
        assert appliance.app is not None and appliance.bodentrumpf is not None
        watcher = appliance.bodentrumpf
        client = appliance.app.test_client()
        auth = {"X-Table-Pin": appliance.pin}
        created = client.post("/speck/api/games", json=SETUP, headers=auth)
        assert created.status_code == 200, created.json
        game = int(created.json["game"])
        assert speck_view(client, game)["phase"] == "bodentrumpf"
        assert wait_until(lambda: speck_view(client, game)["proposal"] is not None, 10.0)
        proposal = speck_view(client, game)["proposal"]
        assert proposal["card"] == "schellen-koenig" and proposal["confidence"] >= 0.9
        confirmed = client.post(f"/speck/api/games/{game}/bodentrumpf", json={"card": proposal["card"]}, headers=auth)
        assert confirmed.status_code == 200, confirmed.json
        # The game runs: the watcher learns it from the store's new event and drops its proposal.
        assert wait_until(lambda: watcher.proposal(game) is None, 10.0)
        assert speck_view(client, game)["phase"] == "playing"
        assert appliance.pipeline is not None and appliance.pipeline.error is None
    finally:
        appliance.stop()


def test_a_jass_that_is_not_speck_gets_no_bodentrumpf_proposal(tmp_path: Path) -> None:
    source = LoopSource([draw([(0, "rosen-9")])])
    appliance = Appliance(settings(tmp_path), source=source, recognize=detect, make_tracker=lambda game: TrickTracker())
    games: list[int] = []
    appliance.start(lambda store: games.append(store.new_game(config())))
    try:
        assert appliance.pipeline is not None and appliance.bodentrumpf is not None
        tracked = appliance.pipeline.stats.tracked
        assert wait_until(
            lambda: appliance.pipeline is not None and appliance.pipeline.stats.tracked >= tracked + 10, 10.0
        )
        assert appliance.bodentrumpf.proposal(games[0]) is None
    finally:
        appliance.stop()
