"""A rendered Coiffeur round and a rendered Differenzler round, replayed through the
camera pipeline, give the right sheet.

As in the rendered Speck test (tests/speck/test_rendered_speck.py): the game renderer
animates a simulated round, the shipped ONNX recogniser reads every changed frame, the
trick tracker turns the frames into events in the SQLite store. The phones do what the
table does: the Coiffeur team taps its row (``POST /row``), the Differenzler players
enter their secret forecasts (``POST /forecast``). The sheet folded from the store must
be the one folded from the renderer's ground truth. The Coiffeur round is Slalom, so the
tracker has to follow the winner of Obenabe and Undenufe tricks in turn.

Rendering and recognising one round costs about half a minute of CPU: one round each, slow.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from jasscam.store import EventStore
from jasscam.tracking import reread_correction
from scoring.coiffeur import tafel
from scoring.differenzler import sheet
from scoring.events import Event, ForecastMade, GameConfigured, RoundStarted, event_to_dict
from scoring.game import fold
from vision.detection import Detection, FrameDetections
from vision.tracker.reread import CardReread
from web.app import create_app

PIN = "471108"
PLAYERS = ("Anna", "Beat", "Claudia", "Dario")


def render(seed: int, variant: str, contract: str | None) -> tuple[list[FrameDetections], list[Event]]:
    """Frames (the shipped recogniser's detections, reused while nothing changes, as the
    appliance's gated recogniser does) and the timed ground truth of one rendered round."""
    from vision.recognizer import Recognizer
    from vision.synth.game import Director, make_table, simulate_game
    from vision.tracker.gate import FrameGate

    events = simulate_game(seed, rounds=1, variant=variant, contract=contract)
    width, height, fps = 640, 480, 10.0
    rng = np.random.default_rng(seed)
    director = Director(make_table(rng, width, height, "swiss-xvii", "clean"), fps, rng)
    recognizer, gate = Recognizer(), FrameGate()
    frames: list[FrameDetections] = []
    dets: tuple[Detection, ...] = ()
    for index, (image, _labels) in enumerate(director.run(events)):
        if gate.changed(image):
            dets = tuple(recognizer.recognize(image))
        frames.append(FrameDetections(round(index / fps, 6), dets, width, height))
    return frames, list(director.timed)


def replay(tmp_path: Path, variant: str, frames: list[FrameDetections], truth: list[Event]) -> list[Event]:
    """The table's phones start the round as the truth did, the camera does the rest."""
    from vision.tracker import TrickTracker

    start = next(e for e in truth if isinstance(e, RoundStarted))
    with EventStore(tmp_path / "table.sqlite") as store:
        client = create_app(store, pin=PIN, settings_path=tmp_path / "dashboard.json").test_client()
        headers = {"X-Table-Pin": PIN}
        config = truth[0]
        assert isinstance(config, GameConfigured)
        game = store.new_game(
            GameConfigured(players=PLAYERS, variant=variant, differenzler_rounds=config.differenzler_rounds)
        )
        if variant == "coiffeur":
            r = client.post(
                f"/api/games/{game}/row", json={"row": start.row, "forehand": start.forehand}, headers=headers
            )
        else:
            r = client.post(f"/api/games/{game}/events", json=event_to_dict(start), headers=headers)
        assert r.status_code == 200, r.get_json()
        for forecast in (e for e in truth if isinstance(e, ForecastMade)):
            r = client.post(
                f"/api/games/{game}/forecast", json={"seat": forecast.seat, "points": forecast.points}, headers=headers
            )
            assert r.status_code == 200, r.get_json()
        started = store.events(game)[1]
        assert isinstance(started, RoundStarted) and started.contract == start.contract
        tracker = TrickTracker()
        tracker.start_round(started)
        for frame in frames:
            for ev in tracker.update(frame):
                store_camera_event(store, game, ev)
        for ev in tracker.finish():
            store_camera_event(store, game, ev)
        return store.events(game)


def store_camera_event(store: EventStore, game: int, ev: object) -> None:
    """Store what the tracker said, as the pipeline does (a reread becomes a correction)."""
    fix = reread_correction(store, game, ev) if isinstance(ev, CardReread) else ev
    if fix is not None:
        store.append(game, fix)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_rendered_coiffeur_slalom_round_replays_to_the_right_tafel(tmp_path: Path) -> None:
    frames, truth = render(seed=3303, variant="coiffeur", contract="slalom")
    camera = replay(tmp_path, "coiffeur", frames, truth)
    state, want = fold(camera), fold(truth)
    assert state.round is not None and state.round.complete, [f.message for f in state.flags]
    assert [f.code for f in state.flags] == [], [(f.code, f.message) for f in state.flags]
    got_grid, want_grid = tafel(state).to_dict(), tafel(want).to_dict()
    assert got_grid["totals"] == want_grid["totals"] and got_grid["open"] == want_grid["open"]
    assert [[c and c["written"] for c in r["cells"]] for r in got_grid["rows"]] == [
        [c and c["written"] for c in r["cells"]] for r in want_grid["rows"]
    ]
    assert state.round.played == want.round.played  # type: ignore[union-attr]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_rendered_differenzler_round_replays_to_the_right_penalties(tmp_path: Path) -> None:
    frames, truth = render(seed=3304, variant="differenzler", contract=None)
    camera = replay(tmp_path, "differenzler", frames, truth)
    state, want = fold(camera), fold(truth)
    assert state.round is not None and state.round.complete, [f.message for f in state.flags]
    assert [f.code for f in state.flags] == [], [(f.code, f.message) for f in state.flags]
    got, expected = sheet(state), sheet(want)
    assert got.rounds[0].points == expected.rounds[0].points and sum(got.rounds[0].points) == 157
    assert got.rounds[0].forecasts == expected.rounds[0].forecasts
    assert got.penalty_totals == expected.penalty_totals and got.ranking == expected.ranking
    assert state.game_over is not None and state.game_over.ranking == want.game_over.ranking  # type: ignore[union-attr]
