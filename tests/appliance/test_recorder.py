"""Recording games at the table: readable recordings, bounded disk, failures never hurt the store."""

from __future__ import annotations

import logging
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from jasscam.pipeline import Pipeline
from jasscam.recorder import Recorder
from jasscam.sources.recording import RecordingSource
from jasscam.store import EventStore
from scoring.events import CardPlayed, Event, event_to_dict
from tests.appliance.gamegen import config, round_events
from tests.appliance.synthetic import SimpleTracker, detect, write_recording
from vision.recording import Recording

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def round1() -> list[Event]:
    return round_events(seed=21)


@pytest.fixture(scope="module")
def source_recording(tmp_path_factory: pytest.TempPathFactory, round1: list[Event]) -> Path:
    return write_recording(tmp_path_factory.mktemp("src") / "round", round1, fps=50)


@pytest.fixture(scope="module")
def grainy_recording(tmp_path_factory: pytest.TempPathFactory, round1: list[Event]) -> Path:
    """Frames with sensor noise: they compress like a camera's (about 18 KB each)."""
    return write_recording(tmp_path_factory.mktemp("grain") / "round", round1, fps=50, grain=12.0)


def play(store: EventStore, recorder: Recorder, source_recording: Path, round1: list[Event]) -> int:
    game = store.new_game(config())
    store.append(game, round1[0])
    recorder.start()
    Pipeline(
        RecordingSource(source_recording, realtime=False), detect, SimpleTracker(), store, on_frame=recorder.offer
    ).run(timeout=30)
    recorder.stop()
    return game


def test_a_game_is_recorded_and_replays_to_the_same_events(
    tmp_path: Path, source_recording: Path, round1: list[Event]
) -> None:
    store = EventStore(tmp_path / "g.db")
    # The synthetic game is fast (a card every 0.08 s), so record at its full 50 fps here.
    recorder = Recorder(tmp_path / "recordings", store, fps=50, width=160, lossless=True)
    game = play(store, recorder, source_recording, round1)
    assert recorder.problem is None and recorder.folder is not None
    rec = Recording.open(recorder.folder)
    assert rec.finished and (rec.width, rec.height) == (160, 120)
    assert rec.frame_count == recorder.frames_written == 200
    assert [event_to_dict(e)["type"] for e in rec.events] == [event_to_dict(e)["type"] for e in store.events(game)]
    assert rec.meta["game_id"] == game and rec.meta["origin"] == "appliance"
    first_card = next(e for e in rec.events if isinstance(e, CardPlayed))
    assert first_card.t is not None and 0.0 < first_card.t < 1.0  # video time, not source time
    # The recording is good enough to play the game again through the pipeline.
    again = EventStore(tmp_path / "again.db")
    replay_game = again.new_game(config())
    again.append(replay_game, round1[0])
    Pipeline(RecordingSource(recorder.folder, realtime=False), detect, SimpleTracker(), again).run(timeout=30)
    cards = [(e.seat, e.card) for e in again.events(replay_game) if isinstance(e, CardPlayed)]
    assert cards == [(e.seat, e.card) for e in round1 if isinstance(e, CardPlayed)]


def test_an_unwritable_recordings_directory_stops_recording_not_the_game(
    tmp_path: Path, source_recording: Path, round1: list[Event], caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "recordings"
    blocker.write_text("a file where the directory should be")  # root ignores permissions; this it cannot
    store = EventStore(tmp_path / "g.db")
    recorder = Recorder(blocker / "sub", store)
    with caplog.at_level(logging.WARNING):
        game = play(store, recorder, source_recording, round1)
    assert recorder.problem is not None and "cannot create the recordings directory" in recorder.problem
    assert sum("recording stopped" in r.message for r in caplog.records) == 1
    assert len(store.events(game)) == 2 + 45


def test_too_little_free_space_stops_recording_before_the_disk_fills(
    tmp_path: Path, source_recording: Path, round1: list[Event]
) -> None:
    store = EventStore(tmp_path / "g.db")
    recorder = Recorder(tmp_path / "recordings", store, min_free_mb=1 << 40)  # more than any disk has
    game = play(store, recorder, source_recording, round1)
    assert recorder.problem is not None and "recording.min_free_mb" in recorder.problem
    assert len(store.events(game)) == 47


def test_the_store_finding_the_disk_full_stops_recording_and_the_game_goes_on(
    tmp_path: Path, source_recording: Path, round1: list[Event]
) -> None:
    """The disk filled before the recorder's own free-space check tripped (min_free_mb 0):
    the store's word that it uses its reserve stops the recording too."""
    path = tmp_path / "g.db"
    with EventStore(path) as empty:
        empty.reserve_ready.wait(10)
    with sqlite3.connect(path) as db:
        pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    store = EventStore(path, max_pages=pages)  # not one page more: the disk is full
    store.reserve_ready.wait(10)
    recorder = Recorder(tmp_path / "recordings", store, min_free_mb=0)
    game = play(store, recorder, source_recording, round1)
    assert store.disk_full
    assert recorder.problem is not None and "event store" in recorder.problem and "full" in recorder.problem
    assert recorder.status()["recording"] is False
    assert len(store.events(game)) == 47  # every event of the round, from the reserve
    store.close()


def test_old_recordings_are_deleted_to_stay_within_the_budget(tmp_path: Path) -> None:
    directory = tmp_path / "recordings"
    for i, name in enumerate(["game-1-20260101T000000Z", "game-2-20260102T000000Z", "game-3-20260103T000000Z"]):
        (directory / name).mkdir(parents=True)
        (directory / name / "video.avi").write_bytes(b"\0" * (1 << 20))
        os.utime(directory / name, (1000 + i, 1000 + i))
    (directory / "keep-me").mkdir()  # not a recording: never touched
    store = EventStore(tmp_path / "g.db")
    store.new_game(config())
    recorder = Recorder(directory, store, max_total_mb=3)  # budget for old ones: 3/4 of 3 MB
    recorder._prune()
    left = sorted(p.name for p in directory.iterdir())
    assert left == ["game-2-20260102T000000Z", "game-3-20260103T000000Z", "keep-me"]


FULL_DISK = textwrap.dedent(
    """
    # The recorder hits a file size limit (as on a full disk) while the game goes on.
    import resource, signal, sys, logging
    logging.basicConfig(level=logging.WARNING, stream=sys.stdout)
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # writes beyond the limit fail with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (500_000, 500_000))
    from jasscam.pipeline import Pipeline
    from jasscam.recorder import Recorder
    from jasscam.sources.recording import RecordingSource
    from jasscam.store import EventStore
    from tests.appliance.gamegen import config, round_events
    from tests.appliance.synthetic import SimpleTracker, detect
    store = EventStore(sys.argv[1])
    game = store.new_game(config())
    store.append(game, round_events(seed=21)[0])
    recorder = Recorder(sys.argv[3], store, fps=50, width=320)
    recorder.start()
    Pipeline(RecordingSource(sys.argv[2], realtime=True), detect, SimpleTracker(), store,
             on_frame=recorder.offer).run(timeout=30)
    recorder.stop()
    print("PROBLEM", recorder.problem)
    print("EVENTS", len(store.events(game)))
    """
)


@pytest.mark.slow  # records and kills a recording
def test_a_full_disk_while_recording_does_not_corrupt_the_store(tmp_path: Path, grainy_recording: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(tmp_path / "g.db"), str(grainy_recording), str(tmp_path / "rec")],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "PROBLEM None" not in result.stdout, result.stdout
    assert "recording stopped" in result.stdout
    assert "EVENTS 47" in result.stdout
    db = sqlite3.connect(tmp_path / "g.db")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    with EventStore(tmp_path / "g.db") as store:
        assert len(store.events(store.current_game() or 0)) == 47
    (folder,) = (tmp_path / "rec").iterdir()
    assert Recording.open(folder).frame_count > 0  # what was written before the limit still plays


RECORD_AND_DIE = textwrap.dedent(
    """
    import sys, time
    from jasscam.pipeline import Pipeline
    from jasscam.recorder import Recorder
    from jasscam.sources.recording import RecordingSource
    from jasscam.store import EventStore
    from tests.appliance.gamegen import config, round_events
    from tests.appliance.synthetic import SimpleTracker, detect
    store = EventStore(sys.argv[1])
    game = store.new_game(config())
    store.append(game, round_events(seed=21)[0])
    recorder = Recorder(sys.argv[3], store, fps=25, width=320)
    recorder.start()
    p = Pipeline(RecordingSource(sys.argv[2], realtime=True), detect, SimpleTracker(), store, on_frame=recorder.offer)
    p.start()
    while recorder.frames_written < 60:
        time.sleep(0.01)
    print("recording", flush=True)
    time.sleep(60)
    """
)


@pytest.mark.slow  # records and kills a recording
def test_a_recording_cut_off_by_kill_9_still_opens_and_plays(tmp_path: Path, grainy_recording: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", RECORD_AND_DIE, str(tmp_path / "g.db"), str(grainy_recording), str(tmp_path / "rec")],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "recording"
    time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    (folder,) = (tmp_path / "rec").iterdir()
    rec = Recording.open(folder)
    assert not rec.finished
    frames = sum(1 for _ in rec.frames())
    assert frames >= 30
    assert rec.events and event_to_dict(rec.events[0])["type"] == "game_configured"


def test_a_game_whose_seat_0_sits_at_the_top_is_recorded_with_that_layout(
    tmp_path: Path, source_recording: Path, round1: list[Event]
) -> None:
    # A recording that said "seat 0 at the bottom" whatever the table set up would make a
    # replay read the camera's evidence (whose hand, who took the trick) against the wrong edges.
    store = EventStore(tmp_path / "g.db")
    recorder = Recorder(tmp_path / "recordings", store, fps=50, width=160, lossless=True)
    game = store.new_game(replace(config(), seat_edges=("top", "left", "bottom", "right")))
    store.append(game, round1[0])
    recorder.start()
    Pipeline(
        RecordingSource(source_recording, realtime=False), detect, SimpleTracker(), store, on_frame=recorder.offer
    ).run(timeout=30)
    recorder.stop()
    assert recorder.folder is not None
    rec = Recording.open(recorder.folder)
    assert rec.meta["seat_layout"] == {"0": "top", "1": "left", "2": "bottom", "3": "right"}
    assert rec.seat_edges == ("top", "left", "bottom", "right")
