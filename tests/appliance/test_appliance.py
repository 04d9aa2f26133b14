"""The whole appliance: real store, real tracker, real dashboard, real sd_notify socket.

Only the ONNX recogniser is replaced, by the synthetic table's OpenCV detector (the
models are trained separately); everything else is the code that runs on the Pi.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from jasscam.appliance import Appliance, wait_until
from jasscam.config import Config, validate
from jasscam.sources.base import Frame
from jasscam.sources.recording import RecordingSource
from jasscam.store import EventStore
from jasscam.table_script import TableScript
from scoring.events import CardPlayed, Event, RoundStarted, StoeckCalled, TrickCollected
from scoring.game import fold
from tests.appliance.gamegen import config, round_events
from tests.appliance.synthetic import detect, write_recording
from vision.detection import Detection
from vision.recording import Recording
from vision.tracker import TrickTracker

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def round1() -> list[Event]:
    return round_events(seed=11)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory, round1: list[Event]) -> Path:
    """One round at 40 fps with the pauses a real tracker needs (about 7 s)."""
    return write_recording(tmp_path_factory.mktemp("table") / "round", round1, fps=40, gap=6)


def cards(events: list[Event]) -> list[tuple[int, str]]:
    return [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)]


def settings(tmp_path: Path, **sections: dict) -> Config:
    base = {"store": {"state_dir": str(tmp_path / "state")}, "dashboard": {"host": "127.0.0.1", "port": 0}}
    base.update(sections)
    return validate(base)


@pytest.mark.slow  # the whole appliance runs a game
def test_the_appliance_follows_a_game_serves_the_dashboard_and_pings_the_watchdog(
    tmp_path: Path, table: Path, round1: list[Event], monkeypatch: pytest.MonkeyPatch
) -> None:
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(tmp_path / "notify"))
    notify.settimeout(0.2)
    messages: list[bytes] = []
    listening = threading.Event()
    listening.set()

    def listen() -> None:  # as systemd does, all the time
        while listening.is_set():
            try:
                messages.append(notify.recv(4096))
            except (TimeoutError, OSError):
                continue

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "notify"))
    monkeypatch.setenv("WATCHDOG_USEC", "400000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    appliance = Appliance(
        settings(tmp_path, recording={"fps": 10}),
        source=RecordingSource(table, realtime=True),
        recognize=detect,
        make_tracker=lambda game: TrickTracker(),
    )
    games: list[int] = []
    ready = appliance.start(lambda store: games.append(store.new_game(config())))
    try:
        assert appliance.store is not None and ready.url is not None
        # The contract comes from a phone after the camera is already running.
        appliance.store.append(games[0], round1[0])
        with urllib.request.urlopen(ready.url + "api/games", timeout=5) as response:
            listed = json.loads(response.read())
        assert games[0] in [g["id"] for g in (listed["games"] if isinstance(listed, dict) else listed)]
        appliance.watch(threading.Event())  # returns when the recording has ended
        events = appliance.store.events(games[0])
        status = appliance.status()
    finally:
        appliance.stop()
        listening.clear()
        listener.join(2)
        notify.close()
    assert cards(events) == cards(round1)
    assert fold(events).totals == fold([config(), *round1]).totals
    assert messages.count(b"WATCHDOG=1") >= 10
    assert b"STATUS=camera live" in messages
    assert status["source"]["state"] == "ended" and status["recorder"]["problem"] is None
    (folder,) = (tmp_path / "state" / "recordings").iterdir()
    assert cards(Recording.open(folder).events) == cards(round1)


def test_the_watchdog_is_not_pinged_while_frames_do_not_advance(
    tmp_path: Path, table: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "400000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    hang = threading.Event()

    def hangs_after_20_frames(image: np.ndarray, seen: list[int] = []) -> list[Detection]:  # noqa: B006
        seen.append(1)
        if len(seen) > 20:
            hang.wait()  # a recogniser stuck in a driver call
        return detect(image)

    appliance = Appliance(
        settings(tmp_path, recording={"enabled": False}),
        source=RecordingSource(table, realtime=True),
        recognize=hangs_after_20_frames,
        make_tracker=lambda game: TrickTracker(),
        dashboard=False,
        gate=False,
    )
    pings: list[float] = []
    stop = threading.Event()
    appliance.start()
    watcher = threading.Thread(
        target=appliance.watch, args=(stop,), kwargs={"ping": lambda: pings.append(time.monotonic())}
    )
    watcher.start()
    try:
        assert wait_until(lambda: appliance.pipeline is not None and appliance.pipeline.stats.tracked >= 20, 10)
        time.sleep(0.3)
        hung_at = time.monotonic()
        time.sleep(1.5)
        assert not [p for p in pings if p > hung_at], "no pings while the pipeline is stuck"
        assert len(pings) >= 2
    finally:
        stop.set()
        hang.set()
        watcher.join(5)
        appliance.stop()


def test_the_table_script_enters_stoeck_only_after_the_camera_saw_the_cards(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(config())
    truth: list[Event] = [
        config(),
        RoundStarted(forehand=0, contract="rosen", t=1.0),
        CardPlayed(seat=0, card="rosen-ober", t=2.0),
        CardPlayed(seat=1, card="rosen-6", t=3.0),
        CardPlayed(seat=2, card="rosen-7", t=4.0),
        CardPlayed(seat=3, card="rosen-8", t=5.0),
        TrickCollected(seat=0, t=6.0),
        CardPlayed(seat=0, card="rosen-koenig", t=7.0),
        StoeckCalled(seat=0, t=7.5),
    ]
    script = TableScript(store, game, truth, grace_s=5.0)
    blank = np.zeros((4, 4, 3), np.uint8)
    script.on_frame(Frame(blank, 1.0, 0))
    assert [type(e) for e in store.events(game)][1:] == [RoundStarted]
    for e in truth[2:8]:  # the camera, a little late
        store.append(game, e)
    script.on_frame(Frame(blank, 7.4, 1))
    assert len(store.events(game)) == 8  # not yet due
    script.on_frame(Frame(blank, 7.6, 2))
    assert isinstance(store.events(game)[-1], StoeckCalled) and not script.refused


def test_the_table_script_takes_a_trick_swept_with_a_card_never_read_for_that_card(tmp_path: Path) -> None:
    # The camera never read seat 3's card of the first trick: its collection says so
    # (``unseen``), and the Stöck called with the next trick's second card must go in
    # after that card, not wait for one more camera card and come in late.
    store = EventStore(tmp_path / "g.db")
    game = store.new_game(config())
    truth: list[Event] = [
        config(),
        RoundStarted(forehand=0, contract="rosen", t=1.0),
        CardPlayed(seat=0, card="rosen-6", t=2.0),
        CardPlayed(seat=1, card="rosen-7", t=3.0),
        CardPlayed(seat=2, card="rosen-8", t=4.0),
        CardPlayed(seat=3, card="rosen-ass", t=5.0),
        TrickCollected(seat=3, t=6.0),
        CardPlayed(seat=3, card="schellen-6", t=7.0),
        CardPlayed(seat=0, card="rosen-ober", t=8.0),
        StoeckCalled(seat=0, t=8.5),
        CardPlayed(seat=1, card="schellen-7", t=9.0),
    ]
    camera: list[Event] = [
        *truth[2:5],
        TrickCollected(t=7.2, unseen=(3,)),
        CardPlayed(seat=3, card="schellen-6", t=7.2),
        CardPlayed(seat=0, card="rosen-ober", t=8.2),
    ]
    script = TableScript(store, game, truth, grace_s=5.0)
    blank = np.zeros((4, 4, 3), np.uint8)
    script.on_frame(Frame(blank, 1.0, 0))
    for e in camera:
        store.append(game, e)
    script.on_frame(Frame(blank, 8.6, 1))
    assert isinstance(store.events(game)[-1], StoeckCalled) and not script.refused


APPLIANCE = textwrap.dedent(
    """
    # The appliance as systemd would restart it: the store decides where the game stands.
    import sys
    from jasscam.appliance import Appliance
    from jasscam.config import validate
    from jasscam.sources.recording import RecordingSource
    from jasscam.store import EventStore
    from tests.appliance.gamegen import config, round_events
    from tests.appliance.synthetic import detect
    from vision.tracker import TrickTracker

    state = sys.argv[1]
    with EventStore(state + "/games.db") as store:
        game = store.current_game()
        if game is None:
            game = store.new_game(config())
            store.append(game, round_events(seed=11)[0])
    # A live camera goes on at the present moment; the recording goes on where the store
    # says the game stood when the appliance died (the appliance finds that itself).
    source = RecordingSource(sys.argv[2], realtime=True, resume=True)
    appliance = Appliance(
        validate({"store": {"state_dir": state}, "recording": {"enabled": False}}),
        source=source,
        recognize=detect,
        make_tracker=lambda game: TrickTracker(),
        dashboard=False,
    )
    appliance.start()
    print("started", source.start_at, flush=True)
    import threading
    appliance.watch(threading.Event())
    print("dropped", appliance.status()["resumed_duplicates_dropped"], flush=True)
    appliance.stop()
    """
)


@pytest.mark.slow  # two appliance processes, one killed
def test_kill_9_mid_game_then_restart_scores_like_an_uninterrupted_game(
    tmp_path: Path, table: Path, round1: list[Event]
) -> None:
    state = tmp_path / "state"
    state.mkdir()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-c", APPLIANCE, str(state), str(table)]
    proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    count = 0
    deadline = time.monotonic() + 25
    while time.monotonic() < deadline and count < 19:  # kill in trick 4, between cards
        time.sleep(0.02)
        try:
            with EventStore(state / "games.db") as peek:
                game = peek.current_game()
                count = len(peek.events(game)) if game else 0
        except Exception:
            continue
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert 19 <= count < 47
    again = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=40)
    assert again.returncode == 0, again.stderr[-3000:]
    with EventStore(state / "games.db") as store:
        events = store.events(store.current_game() or 0)
    assert cards(events) == cards(round1)
    assert fold(events).totals == fold([config(), *round1]).totals
