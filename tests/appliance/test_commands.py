"""``jasscam run`` and ``jasscam demo`` as a user meets them: exit codes and messages."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from vision.recognizer import MODELS_DIR

REPO = Path(__file__).resolve().parents[2]


def jasscam(*args: str, timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jasscam", *args],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_help_of_run_and_demo() -> None:
    for command in ("run", "demo"):
        result = jasscam(command, "--help")
        assert result.returncode == 0 and "usage: jasscam " + command in result.stdout


def test_check_config_accepts_the_shipped_example_and_reports_a_bad_key(tmp_path: Path) -> None:
    ok = jasscam("run", "--check-config", "--config", str(REPO / "systemd" / "jasscam.toml"))
    assert ok.returncode == 0 and "configuration OK" in ok.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text("[dashboard]\nprot = 8080\n")
    result = jasscam("run", "--check-config", "--config", str(bad))
    assert result.returncode == 2
    assert "unknown key dashboard.prot" in result.stderr and str(bad) in result.stderr


def test_run_without_a_camera_says_what_to_connect(tmp_path: Path) -> None:
    config = tmp_path / "jasscam.toml"
    config.write_text(f'[camera]\nsource = "opencv"\ndevice = "/dev/video-none"\n[store]\nstate_dir = "{tmp_path}"\n')
    result = jasscam("run", "--config", str(config), "--port", "0")
    assert result.returncode == 1
    assert "no camera at /dev/video-none: connect a USB camera" in result.stderr
    assert (tmp_path / "games.db").exists()  # the store was opened first, and closed cleanly


def test_demo_of_a_corrupt_recording_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "recording.json").write_text("{not json")
    result = jasscam("demo", "--recording", str(tmp_path), "--no-dashboard")
    assert result.returncode == 2 and "recording.json is not valid JSON" in result.stderr


@pytest.mark.slow  # the bundled game replayed through the real recogniser
@pytest.mark.skipif(not (MODELS_DIR / "card-detector.onnx").exists(), reason="recogniser models not trained yet")
def test_demo_replays_the_bundled_game_with_the_dashboard_and_prints_the_sheet() -> None:
    result = jasscam("demo", "--fast", "--port", "0", "--host", "127.0.0.1", timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert re.search(r"Dashboard: http://127\.0\.0\.1:\d+/", result.stdout)
    assert "Table PIN:" in result.stdout and "Score sheet" in result.stdout
    # The shipped models read the bundled game right: a model that does not must not ship.
    assert "The camera's score equals the recorded game's (101 : 116)" in result.stdout, result.stdout[-2000:]


@pytest.mark.skipif(not (MODELS_DIR / "card-detector.onnx").exists(), reason="recogniser models not trained yet")
def test_demo_stopped_early_says_so_instead_of_comparing_with_the_whole_games_score(tmp_path: Path) -> None:
    demo = subprocess.Popen(
        [sys.executable, "-m", "jasscam", "demo", "--no-dashboard", "--state-dir", str(tmp_path)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert demo.stdout is not None
    first = demo.stdout.readline()  # printed once the replay runs (in real time: 115 s of play)
    assert first.startswith("Replaying"), first
    demo.send_signal(signal.SIGINT)
    demo.send_signal(signal.SIGINT)  # twice, as an impatient user would
    out, err = demo.communicate(timeout=60)
    assert demo.returncode == 0, err[-2000:]
    assert "Stopped before the end of the recording; the recorded game's score is 101 : 116." in out
    assert "differs from" not in out
