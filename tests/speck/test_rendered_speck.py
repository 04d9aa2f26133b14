"""A rendered Speck game replayed end to end gives the right Punkteblatt.

The game renderer (``vision.synth.game``) animates a simulated Speck game: the dealer
turns up the Bodentrumpf at his edge, hands lay the cards, tricks are gathered. Each
frame is recognised by the shipped ONNX recogniser (``models/``), skipping frames where
nothing changed as the appliance does. Then the
appliance's path runs for real: the Bodentrumpf watcher proposes the face-up card, the
table confirms it through the Speck API (which writes ``round_started`` with the
forehand after the dealer), the trick tracker turns the frames into ``card_played`` /
``trick_collected`` events in the SQLite store, and the Punkteblatt made from the store
must equal the one made from the renderer's ground truth. Should the camera get a card
wrong, the test first checks that it is not silent: exactly those games carry a flag
(a card seen twice, a game that does not add up to 157, a misplay that was none).

Rendering costs about 30 s of CPU per game, so the suite renders one game (marked slow);
``JASSCAM_SPECK_RENDERED_GAMES=12`` renders the whole 12-game sheet.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from jasscam.store import EventStore
from jasscam.tracking import reread_correction
from scoring.events import CardPlayed, Event, GameConfigured, RoundStarted
from scoring.game import fold, resolve
from scoring.speck import punkteblatt
from tests.speck.conftest import PIN, PLAYERS
from vision.bodentrumpf import BodentrumpfWatcher, awaiting_bodentrumpf
from vision.detection import Detection, FrameDetections
from vision.tracker.reread import CardReread, CardWithdrawn
from vision.tracker.tracker import TrackerEvent
from web.app import create_app
from web.speck import register_speck

GAMES = int(os.environ.get("JASSCAM_SPECK_RENDERED_GAMES", "1"))


def render_speck(seed: int, games: int, fps: float = 10.0) -> tuple[list[FrameDetections], list[Event]]:
    """Frames (the shipped ONNX recogniser's detections) and timed ground truth of a
    rendered Speck game; frames where nothing changed reuse the last detections, as the
    appliance's gated recogniser does."""
    from vision.recognizer import Recognizer
    from vision.synth.game import Director, make_table, simulate_game
    from vision.tracker.gate import FrameGate

    events = simulate_game(seed, rounds=games, variant="speck")
    width, height = 640, 480
    rng = np.random.default_rng(seed)
    table = make_table(rng, width, height, "swiss-xvii", "clean")
    director = Director(table, fps, rng)
    recognizer = Recognizer()
    gate = FrameGate()
    frames: list[FrameDetections] = []
    dets: tuple[Detection, ...] = ()
    for index, (image, _labels) in enumerate(director.run(events)):
        if gate.changed(image):
            dets = tuple(recognizer.recognize(image))
        frames.append(FrameDetections(round(index / fps, 6), dets, width, height))
    return frames, list(director.timed)


@pytest.mark.slow
@pytest.mark.timeout(max(300, 120 * GAMES))
def test_rendered_speck_game_replayed_end_to_end_gives_the_right_punkteblatt(tmp_path: Path) -> None:
    from vision.tracker import TrickTracker

    frames, truth = render_speck(seed=2026, games=GAMES)
    first = next(e for e in truth if isinstance(e, RoundStarted))
    config = truth[0]
    assert isinstance(config, GameConfigured) and config.speck_games == GAMES

    with EventStore(tmp_path / "table.sqlite") as store:
        watcher = BodentrumpfWatcher(frames=5)
        app = create_app(store, pin=PIN, settings_path=tmp_path / "dashboard.json")
        register_speck(app, bodentrumpf=watcher.proposal)
        client = app.test_client()
        # the set-up (as the Speck set-up page writes it; the API offers 12 or 8 games only):
        # the renderer's first dealer sits before its first forehand
        game = store.new_game(
            GameConfigured(
                players=PLAYERS, variant="speck", speck_games=GAMES, scorer=0, dealer=(first.forehand + 3) % 4
            )
        )
        tracker = TrickTracker()
        seen = -1
        awaiting = True
        confirmed: list[str] = []
        for frame in frames:
            count = store.count(game)
            if count != seen:
                seen, awaiting = count, awaiting_bodentrumpf(store.events(game))
            if awaiting:
                if watcher.update(game, frame.detections, awaiting=True) is not None:
                    view = client.get(f"/speck/api/games/{game}").get_json()  # the phone shows the proposal
                    assert view["proposal"] is not None
                    # the table taps «Bestätigen»
                    card = view["proposal"]["card"]
                    r = client.post(
                        f"/speck/api/games/{game}/bodentrumpf", json={"card": card}, headers={"X-Table-Pin": PIN}
                    )
                    assert r.status_code == 200, r.get_json()
                    confirmed.append(card)
                    started = store.events(game)[-1]
                    assert isinstance(started, RoundStarted)
                    tracker.start_round(started)
                    watcher.update(game, (), awaiting=False)
                continue
            for ev in tracker.update(frame):
                store_camera_event(store, game, ev)
        for ev in tracker.finish():
            store_camera_event(store, game, ev)
        camera = store.events(game)

    # What the camera got wrong, card by card against the ground truth, is never silent:
    # exactly the games with a wrong card carry a flag (a card seen twice, a game that does
    # not add up to 157, a misplay that was none), so the table knows where to look.
    cam_games, true_games = plays_by_game(camera), plays_by_game(truth)
    assert len(cam_games) == len(true_games) == GAMES
    wrong_games = sorted(
        {
            n
            for n, (cg, tg) in enumerate(zip(cam_games, true_games, strict=True))
            if [c[1:] for c in cg] != [t[1:] for t in tg]
        }
    )
    state = fold(camera)
    flagged = sorted({f.round for f in state.flags if f.round is not None})
    print(
        f"\nrendered Speck: {GAMES} games, Bodentrumpf read {len(confirmed)}/{GAMES}, "
        f"games with a wrong card: {[n + 1 for n in wrong_games]}, flagged: {[n + 1 for n in flagged]}"
    )
    assert flagged == wrong_games, [(f.code, f.round, f.message) for f in state.flags]
    assert confirmed == [e.bodentrumpf for e in truth if isinstance(e, RoundStarted)]
    assert wrong_games == [], [(f.code, f.round, f.message) for f in state.flags]

    # The Punkteblatt from the camera's events is the ground truth's.
    want = punkteblatt(fold(truth))
    got = punkteblatt(state)
    assert [g["points"] for g in got["games"]] == [g["points"] for g in want["games"]]
    assert [(g["dealer"], g["forehand"], g["bodentrumpf"]) for g in got["games"]] == [
        (g["dealer"], g["forehand"], g["bodentrumpf"]) for g in want["games"]
    ]
    assert got["totals"] == want["totals"] and got["best"] == want["best"]
    assert got["check"]["ok"] and got["check"]["actual"] == GAMES * 157
    assert [r["index"] for r in got["ranking"]] == [r["index"] for r in want["ranking"]]
    assert got["complete"]


def store_camera_event(store: EventStore, game: int, ev: TrackerEvent) -> None:
    """Store what the tracker said, as the pipeline does (a reread becomes a correction)."""
    fix = reread_correction(store, game, ev) if isinstance(ev, (CardReread, CardWithdrawn)) else ev
    if fix is not None:
        store.append(game, fix)


def plays_by_game(events: list[Event]) -> list[list[tuple[int, int, str]]]:
    """``(position, seat, card)`` of every card_played (after corrections), grouped by game."""
    games: list[list[tuple[int, int, str]]] = []
    for pos, ev in resolve(events).events:
        if isinstance(ev, RoundStarted):
            games.append([])
        elif isinstance(ev, CardPlayed):
            games[-1].append((pos, ev.seat, ev.card))
    return games
