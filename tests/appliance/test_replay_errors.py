"""Replay and resume of damaged or mismatched recordings: one clear line and exit 2, never a traceback."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from jasscam.appliance import Appliance
from jasscam.cli import main
from jasscam.config import validate
from jasscam.sources import RecordingSource, SourceUnavailable
from jasscam.sources.recording import RESUME_BEFORE_COLLECTED_S
from jasscam.store import EventStore
from scoring.events import TrickCollected
from tests.appliance.gamegen import config, round_events
from tests.appliance.synthetic import detect, write_recording
from vision.recording import RecordingWriter
from vision.tracker import TrickTracker


def small_video(path: Path, codec: str, frames: int = 6) -> Path:
    """A short, small video of noise (every frame differs, so every frame is recognised) with a round's events."""
    rng = np.random.default_rng(7)
    with RecordingWriter(path, fps=25, width=96, height=72, codec=codec, deck="synthetic") as writer:
        for _ in range(frames):
            writer.write_frame(rng.integers(0, 255, (72, 96, 3), dtype=np.uint8))
        for event in [config(), *round_events(seed=4)[:5]]:
            writer.add_event(event)
    return path


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("rec")
    return {
        "avi": write_recording(root / "avi", round_events(seed=4), fps=25),  # the synthetic table, for resuming
        "small-avi": small_video(root / "small-avi", "MJPG"),
        "small-mp4": small_video(root / "small-mp4", "mp4v"),
    }


def copy(src: Path, tmp_path: Path) -> Path:
    dst = tmp_path / src.name
    shutil.copytree(src, dst)
    return dst


def video_of(folder: Path) -> Path:
    return folder / json.loads((folder / "recording.json").read_text())["video"]


def replay_fails_with_one_line(folder: Path, capfd: pytest.CaptureFixture[str], expect: str) -> None:
    assert main(["replay", str(folder)]) == 2
    ours = [line for line in capfd.readouterr().err.splitlines() if line.startswith("jasscam replay:")]
    assert len(ours) == 1 and expect in ours[0], ours


def test_corrupt_bytes_in_the_middle_of_an_mp4_give_one_line_and_exit_2(
    recordings: dict[str, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = copy(recordings["small-mp4"], tmp_path)
    video = video_of(folder)
    data = bytearray(video.read_bytes())
    n = len(data)
    data[n // 2 : n // 2 + n // 10] = random.Random(1).randbytes(n // 10)
    video.write_bytes(bytes(data))
    replay_fails_with_one_line(folder, capfd, "damaged")


def test_a_truncated_avi_with_a_declared_frame_count_gives_one_line_and_exit_2(
    recordings: dict[str, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = copy(recordings["small-avi"], tmp_path)
    video = video_of(folder)
    video.write_bytes(video.read_bytes()[: video.stat().st_size // 2])
    replay_fails_with_one_line(folder, capfd, "truncated")


def test_events_out_of_time_order_are_refused_with_the_line_number(
    recordings: dict[str, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The issue's probe: a shuffled events.jsonl gave exit 0, a 0:0 sheet and 45 "refused" lines."""
    folder = copy(recordings["avi"], tmp_path)
    lines = (folder / "events.jsonl").read_text().splitlines()
    late = next(i for i, line in enumerate(lines) if (json.loads(line).get("t") or 0) > 20)
    lines.insert(2, lines.pop(late))  # a card from late in the round moved near the top
    (folder / "events.jsonl").write_text("\n".join(lines) + "\n")
    replay_fails_with_one_line(folder, capfd, "events.jsonl line 4: ")
    with pytest.raises(SourceUnavailable, match="out of time order"):
        RecordingSource(folder).open()


def test_binary_garbage_in_events_jsonl_gives_one_line(
    recordings: dict[str, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = copy(recordings["avi"], tmp_path)
    (folder / "events.jsonl").write_bytes(b"\xff\xfe\x00garbage\n")
    replay_fails_with_one_line(folder, capfd, "events.jsonl")


def appliance_for(state: Path, source: RecordingSource, times: list[float] | None = None) -> Appliance:
    return Appliance(
        validate({"store": {"state_dir": str(state)}, "recording": {"enabled": False}}),
        source=source,
        recognize=detect,
        make_tracker=lambda game: TrickTracker(),
        dashboard=False,
        on_frame=(lambda frame: times.append(frame.t)) if times is not None else None,
    )


def test_a_recording_source_resumes_where_the_store_says_the_trick_in_progress_began(
    recordings: dict[str, Path], tmp_path: Path
) -> None:
    """The issue's probe: the video restarted at 0 and the tracker re-read old tricks into the resumed game.

    It goes on just before the last trick was collected, not at the latest event: the
    card of the next trick stored since is laid again in front of the tracker."""
    state = tmp_path / "state"
    events = round_events(seed=4)
    with EventStore(state / "games.db") as store:
        game = store.new_game(config())
        for event in events[:7]:  # a trick collected at 5 s, the next one led at 6 s
            store.append(game, event)
    collected = events[5]
    assert isinstance(collected, TrickCollected) and collected.t == 5.0
    stood = collected.t - RESUME_BEFORE_COLLECTED_S
    source = RecordingSource(recordings["avi"], realtime=False, resume=True)
    times: list[float] = []
    appliance = appliance_for(state, source, times)
    try:
        appliance.start()
        assert appliance.wait_first_frame(10)
        assert source.start_at == stood
        assert times[0] == pytest.approx(stood, abs=1 / 25)  # not 0: the tricks stored before are not shown again
    finally:
        appliance.stop()


def test_a_recording_shorter_than_where_the_game_stood_is_refused(recordings: dict[str, Path], tmp_path: Path) -> None:
    state = tmp_path / "state"
    with EventStore(state / "games.db") as store:
        game = store.new_game(config())
        for event in round_events(seed=4, t0=500.0)[:5]:
            store.append(game, event)
    appliance = appliance_for(state, RecordingSource(recordings["avi"], realtime=False, resume=True))
    try:
        with pytest.raises(SourceUnavailable, match="cannot resume .* not the one this game was played from"):
            appliance.start()
    finally:
        appliance.stop()
