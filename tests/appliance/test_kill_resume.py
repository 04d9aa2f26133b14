"""Kill -9 at random moments of a recorded game, each time resumed from the store: the score sheet of an uninterrupted game.

The appliance runs in a subprocess over a synthetic recording played as the camera
(``RecordingSource(resume=True)``): after every kill it starts again, finds in the store
where the game stood and goes on there. ``JASSCAM_KILLS`` sets how many kills (the suite
runs 5; the issue's target is 20: ``JASSCAM_KILLS=20``).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jasscam.store import EventStore
from scoring.events import CardPlayed, Event
from scoring.game import fold
from tests.appliance.gamegen import config, round_events
from tests.appliance.synthetic import write_recording
from tests.appliance.test_appliance import APPLIANCE

REPO = Path(__file__).resolve().parents[2]


def cards(events: list[Event]) -> list[tuple[int, str]]:
    return [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)]


def stored(state: Path) -> int:
    try:
        with EventStore(state / "games.db", check=False, reserve_bytes=0, reserve_file_bytes=0) as peek:
            game = peek.current_game()
            return len(peek.events(game)) if game else 0
    except Exception:  # the appliance is creating it right now
        return 0


@pytest.mark.slow
@pytest.mark.xfail(
    strict=True,
    reason="known defect: the tracker holds back cards laid within 0.5 s of each other (issue 28) and a resumed "
    "recording restarts at the store's last event (issue 30), so a card lying unreported when the appliance was "
    "killed is skipped; one card of the game goes missing. Fix: resume earlier by the tracker's holding window.",
)
def test_kill_9_at_random_moments_then_resume_scores_like_an_uninterrupted_game(tmp_path: Path) -> None:
    kills = int(os.environ.get("JASSCAM_KILLS", "5"))
    round1 = round_events(seed=11)
    table = write_recording(tmp_path / "round", round1, fps=40, gap=6)
    state = tmp_path / "state"
    state.mkdir()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-c", APPLIANCE, str(state), str(table)]
    # Kill after these many stored events (random, rising): every kill lands mid-game.
    moments = sorted(random.Random(30).sample(range(2, len(round1)), kills))
    killed = 0
    for moment in moments:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None and stored(state) < moment:
            time.sleep(0.02)
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            killed += 1
        proc.wait()
        assert proc.returncode in (-signal.SIGKILL, 0), proc.stderr.read().decode()[-2000:] if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
    assert killed == kills  # each one mid-game, after ``moment`` events were stored
    again = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0, again.stderr[-3000:]
    with EventStore(state / "games.db") as store:
        events = store.events(store.current_game() or 0)
    assert cards(events) == cards(round1)
    assert fold(events).totals == fold([config(), *round1]).totals
