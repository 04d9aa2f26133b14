"""The pipeline runner on real video, a real OpenCV detector and a real SQLite store."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from jasscam.pipeline import DropQueue, Pipeline
from jasscam.sources.base import Frame, SourceLost, SourceUnavailable
from jasscam.sources.recording import RecordingSource
from jasscam.sources.resilient import ResilientSource, SourceStatus
from jasscam.store import EventStore
from scoring.events import CardCorrected, CardPlayed, Event, TrickCollected, event_to_dict
from scoring.game import fold
from tests.appliance.gamegen import config, round_events
from tests.appliance.synthetic import SimpleTracker, detect, write_recording
from vision.detection import FrameDetections
from vision.tracker.reread import CardReread

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def round1() -> list[Event]:
    return round_events(seed=11)


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory, round1: list[Event]) -> Path:
    """A recording folder of one round at 50 fps (200 frames, 4 s)."""
    return write_recording(tmp_path_factory.mktemp("rec") / "round", round1, fps=50)


def plays(events: list[Event]) -> list[tuple[str, int | None, str | None]]:
    """What the camera must get right: who laid which card, and each collection."""
    out: list[tuple[str, int | None, str | None]] = []
    for e in events:
        if isinstance(e, CardPlayed):
            out.append(("card", e.seat, e.card))
        elif isinstance(e, TrickCollected):
            out.append(("collected", None, None))
    return out


def start_game(store: EventStore, round1: list[Event]) -> int:
    game = store.new_game(config())
    store.append(game, round1[0])  # round_started: entered at the dashboard in real life
    return game


def test_a_replayed_round_lands_in_the_store_as_played(tmp_path: Path, video: Path, round1: list[Event]) -> None:
    store = EventStore(tmp_path / "g.db")
    game = start_game(store, round1)
    pipeline = Pipeline(RecordingSource(video, realtime=False), detect, SimpleTracker(), store)
    stats = pipeline.run(timeout=20)
    events = store.events(game)
    assert plays(events) == plays(round1)
    assert fold(events).totals == fold([config(), *round1]).totals
    assert stats.captured == stats.recognized == stats.tracked == 200
    assert stats.dropped_before_recognition == 0 and stats.events_rejected == 0
    assert pipeline.status()["source"]["state"] == "closed"


@pytest.mark.slow  # waits out a slow recogniser
def test_a_slow_recogniser_on_a_live_source_drops_stale_frames_and_counts_them(
    tmp_path: Path, video: Path, round1: list[Event]
) -> None:
    store = EventStore(tmp_path / "g.db")
    start_game(store, round1)
    seen: list[int] = []

    def slow_detect(image: np.ndarray) -> list:
        time.sleep(0.05)  # 20 fps of recognition against a 50 fps source
        return detect(image)

    pipeline = Pipeline(
        RecordingSource(video, realtime=True),
        slow_detect,
        SimpleTracker(stable=1),
        store,
        lossless=False,
        on_frame=lambda f: seen.append(f.index),
    )
    stats = pipeline.run(timeout=20)
    assert stats.captured == 200 and seen == list(range(200))
    assert stats.dropped_before_recognition > 50
    assert stats.recognized + stats.dropped_before_recognition == stats.captured


def test_drop_queue_keeps_the_newest_items() -> None:
    q: DropQueue[int] = DropQueue(2)
    for i in range(5):
        q.put(i)
    assert (q.get(0.1), q.get(0.1), q.dropped) == (3, 4, 3)
    q.close()
    assert q.get(0.1) is not None and len(q) == 0


class UnpluggedCamera(RecordingSource):
    """A recording that 'loses its cable' after ``fail_after`` frames and refuses ``refusals`` reopens.

    Like a camera, it goes on at the present moment when it comes back (the frames of the
    outage are lost; here the outage is shorter than a frame, so none are).
    """

    finite = False

    def __init__(self, path: Path, fail_after: int, refusals: int) -> None:
        super().__init__(path, realtime=False)
        self.fail_after, self.refusals, self.opens = fail_after, refusals, 0
        self.resume_t = 0.0

    def open(self) -> None:
        self.opens += 1
        if self.opens > 1 and self.refusals > 0:
            self.refusals -= 1
            raise SourceUnavailable("no camera at /dev/video0 (unplugged)")
        self.start_at = self.resume_t
        super().open()

    def read(self, timeout: float) -> Frame:
        if self.opens == 1 and self._index >= self.fail_after:
            self.resume_t = self._index / 50
            raise SourceLost("VIDIOC_DQBUF: No such device")
        return super().read(timeout)


def test_a_source_that_fails_is_reopened_with_backoff_and_reported_lost(
    tmp_path: Path, video: Path, round1: list[Event]
) -> None:
    store = EventStore(tmp_path / "g.db")
    game = start_game(store, round1)
    states: list[SourceStatus] = []
    source = ResilientSource(
        UnpluggedCamera(video, fail_after=60, refusals=2), backoff_s=0.05, backoff_max_s=0.2, on_state=states.append
    )
    pipeline = Pipeline(source, detect, SimpleTracker(), store, lossless=True)
    pipeline.start()
    deadline = time.monotonic() + 15
    # Wait until the last frame was tracked, not just captured: stopping drops what is
    # still queued, and the last trick's collection comes from the very last frames.
    while pipeline.stats.tracked < 200 and time.monotonic() < deadline:
        time.sleep(0.02)
    pipeline.stop()
    pipeline.join(5)
    names = [s.state for i, s in enumerate(states) if i == 0 or states[i - 1].state != s.state]
    assert names[:3] == ["live", "lost", "live"], names
    assert source.status().reopens == 3  # two refused, the third worked
    assert [s.error for s in states if s.state == "lost"][0] == "VIDIOC_DQBUF: No such device"
    assert plays(store.events(game)) == plays(round1)  # nothing of the game was lost


def test_stop_ends_a_live_pipeline_promptly(tmp_path: Path, video: Path, round1: list[Event]) -> None:
    store = EventStore(tmp_path / "g.db")
    start_game(store, round1)
    pipeline = Pipeline(RecordingSource(video, realtime=True), detect, SimpleTracker(), store)
    pipeline.start()
    time.sleep(0.3)
    started = time.monotonic()
    pipeline.stop()
    assert pipeline.join(5)
    assert time.monotonic() - started < 2.0


def test_events_without_a_configured_game_are_counted_not_stored(tmp_path: Path, video: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    stats = Pipeline(RecordingSource(video, realtime=False), detect, SimpleTracker(), store).run(timeout=20)
    assert stats.events_without_game == 45 and store.current_game() is None


def test_events_the_rules_reject_are_counted_and_the_game_stays_valid(tmp_path: Path, video: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(config())  # no round_started: every card_played is a RuleError
    stats = Pipeline(RecordingSource(video, realtime=False), detect, SimpleTracker(), store).run(timeout=20)
    assert stats.events_rejected == 45 and stats.events_appended == 0
    assert len(store.events(game)) == 1


def test_a_recogniser_crash_stops_the_pipeline_and_is_raised(tmp_path: Path, video: Path) -> None:
    store = EventStore(tmp_path / "g.db")

    def broken(image: np.ndarray) -> list:
        raise RuntimeError("onnxruntime: bad input")

    pipeline = Pipeline(RecordingSource(video, realtime=False), broken, SimpleTracker(), store)
    with pytest.raises(RuntimeError, match="bad input"):
        pipeline.run(timeout=10)
    assert not any(t.is_alive() for t in threading.enumerate() if t.name.startswith("jasscam-"))


APPLIANCE = textwrap.dedent(
    """
    # A minimal appliance: resumes the store's current game after a restart.
    import sys
    from jasscam.pipeline import Pipeline
    from jasscam.sources.recording import RecordingSource
    from jasscam.store import EventStore
    from tests.appliance.gamegen import config, round_events
    from tests.appliance.synthetic import SimpleTracker, detect

    store = EventStore(sys.argv[1])
    game = store.current_game()
    if game is None:
        game = store.new_game(config())
        store.append(game, round_events(seed=11)[0])
    events = store.events(game)
    resume_t = max((e.t or 0.0) for e in events)
    print("resume", resume_t, len(events), flush=True)
    source = RecordingSource(sys.argv[2], realtime=True, start_at=resume_t)
    Pipeline(source, detect, SimpleTracker(resume=events), store, lossless=True).run()
    print("done", flush=True)
    """
)


@pytest.mark.slow  # two pipeline processes, one killed
def test_kill_9_mid_game_and_restart_gives_the_score_of_an_uninterrupted_run(
    tmp_path: Path, video: Path, round1: list[Event]
) -> None:
    db = tmp_path / "g.db"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-c", APPLIANCE, str(db), str(video)]
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    # Watch the store from outside, as the dashboard would, and kill mid-trick.
    deadline = time.monotonic() + 20
    count = 0
    while time.monotonic() < deadline:
        time.sleep(0.02)
        if db.exists():
            try:
                with EventStore(db) as peek:
                    game = peek.current_game()
                    count = len(peek.events(game)) if game else 0
            except Exception:
                continue
            if count >= 20:
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 20 <= count < 47, "the kill must land mid-game"
    with EventStore(db) as store:
        survived = len(store.events(store.current_game() or 0))
    assert survived >= count
    again = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=30)
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith("resume")
    with EventStore(db) as store:
        events = store.events(store.current_game() or 0)
    assert plays(events) == plays(round1)
    uninterrupted = fold([config(), *round1])
    assert fold(events).totals == uninterrupted.totals
    assert [event_to_dict(e)["type"] for e in events].count("card_played") == 36


class _MisreadThenReread:
    """SimpleTracker, but the fifth card is first reported as the first one (a misread),
    and one event later the tracker says so (``CardReread``), as the trick tracker does."""

    def __init__(self) -> None:
        self.inner = SimpleTracker()
        self.cards = 0
        self.pending: CardReread | None = None

    def __call__(self, fd: FrameDetections) -> list[Event | CardReread]:
        out: list[Event | CardReread] = []
        for ev in self.inner(fd):
            if self.pending is not None:
                out.append(self.pending)
                self.pending = None
            if isinstance(ev, CardPlayed):
                self.cards += 1
                if self.cards == 1:
                    self.first = ev.card
                elif self.cards == 5:
                    self.pending = CardReread(was=self.first, card=ev.card, t=ev.t)
                    ev = replace(ev, card=self.first, confidence=0.4)
            out.append(ev)
        return out


def test_a_tracker_reread_is_stored_as_a_correction_of_that_card(
    tmp_path: Path, video: Path, round1: list[Event]
) -> None:
    store = EventStore(tmp_path / "g.db")
    game = start_game(store, round1)
    stats = Pipeline(RecordingSource(video, realtime=False), detect, _MisreadThenReread(), store).run(timeout=20)
    events = store.events(game)
    (fix,) = [e for e in events if isinstance(e, CardCorrected)]
    target = events[fix.ref]
    assert isinstance(target, CardPlayed) and target.confidence == 0.4  # the misread fifth card, not the first
    state = fold(events)
    assert fold([config(), *round1]).totals == state.totals
    assert not [f for f in state.flags if f.code == "card_already_played"]
    assert stats.events_rejected == 0
