"""``jasscam replay``'s loop on a real video file: decode, frame gate, tracker, comparison."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from jasscam.replay import ReplayResult, format_comparison, format_sheet, format_tricks, replay_frames
from scoring.events import CardPlayed
from tests.tracker.oracle import oracle_game
from vision.detection import Detection, FrameDetections
from vision.recording import Recording
from vision.tracker.evaluate import compare, fold_accepting, merge, never_read


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[Detection, ...]]]:
    folder = tmp_path_factory.mktemp("rec") / "game"
    game = oracle_game(303, tricks=2, record_to=folder)
    return folder, [f.detections for f in game.frames]


def run_replay(
    folder: Path,
    per_frame: list[tuple[Detection, ...]],
    gate: bool,
    record: list[FrameDetections] | None = None,
) -> tuple[ReplayResult, int]:
    """The recording at ``folder`` replayed with ``per_frame`` as the recogniser's reads;
    ``record`` gets each frame's reads as the tracker got them. Returns the result and how
    many frames the recogniser was asked about."""
    recording = Recording.open(folder)
    index = {"i": -1}
    calls = {"n": 0}

    def frames() -> Iterator[tuple[float, np.ndarray]]:
        for i, (t, frame) in enumerate(recording.frames()):
            index["i"] = i
            yield t, frame

    def recognize(_frame: np.ndarray) -> list[Detection]:
        # Stand-in for the ONNX model (tests/tracker/oracle.py): the detections a good
        # recogniser gives for this frame of the rendered game.
        calls["n"] += 1
        return list(per_frame[index["i"]])

    result = replay_frames(frames(), recording.events, recognize, gate=gate, fps=recording.fps, record=record)
    return result, calls["n"]


def test_replay_of_a_recorded_video_finds_the_tricks(recorded: tuple[Path, list[tuple[Detection, ...]]]) -> None:
    folder, per_frame = recorded
    recording = Recording.open(folder)
    result, _ = run_replay(folder, per_frame, gate=False)
    comparison = compare(recording.events, result.camera_events)
    assert comparison.tricks_right == len(comparison.tricks) == 2
    assert result.frames == recording.frame_count


def test_frame_gate_skips_still_frames_without_changing_the_result(
    recorded: tuple[Path, list[tuple[Detection, ...]]],
) -> None:
    folder, per_frame = recorded
    recording = Recording.open(folder)
    gated, calls = run_replay(folder, per_frame, gate=True)
    comparison = compare(recording.events, gated.camera_events)
    assert comparison.tricks_right == 2
    assert calls < 0.8 * recording.frame_count  # the table is still much of the time
    assert calls == gated.recognised


def test_printed_report_names_tricks_sheet_and_comparison(recorded: tuple[Path, list[tuple[Detection, ...]]]) -> None:
    folder, per_frame = recorded
    recording = Recording.open(folder)
    result, _ = run_replay(folder, per_frame, gate=True)
    state, rejected, _ = fold_accepting(merge(recording.events, result.camera_events))
    assert rejected == []
    text = format_tricks(state)
    assert "trick 1:" in text and "trick 2:" in text
    assert "total" in format_sheet(state)
    assert "Tricks right (cards, seats, winner): 2 / 2" in format_comparison(
        compare(recording.events, result.camera_events)
    )


def test_replay_command_refuses_a_missing_recording(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from jasscam.cli import main

    assert main(["replay", str(tmp_path / "nowhere")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_replay_command_says_when_the_models_are_missing(
    recorded: tuple[Path, list[tuple[Detection, ...]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from jasscam.cli import main

    folder, _ = recorded
    assert main(["replay", str(folder), "--models", str(tmp_path)]) == 2
    assert "cannot load the recogniser" in capsys.readouterr().err


def test_realtime_replay_keeps_the_recordings_pace() -> None:
    still = np.full((120, 160, 3), 90, np.uint8)
    frames = ((i / 10.0, still) for i in range(6))
    result = replay_frames(frames, [], lambda _f: [], realtime=True, fps=10.0)
    assert result.frames == 6
    assert result.wall_s >= 0.5
    assert result.recognised == 1  # the still table is recognised once


def test_replay_hands_back_each_frames_detections_as_the_tracker_got_them(
    recorded: tuple[Path, list[tuple[Detection, ...]]],
) -> None:
    folder, per_frame = recorded
    recording = Recording.open(folder)
    record: list[FrameDetections] = []
    run_replay(folder, per_frame, gate=False, record=record)
    assert len(record) == recording.frame_count
    assert [r.detections for r in record] == [tuple(d) for d in per_frame]
    assert all(r.width == recording.width and r.height == recording.height for r in record)


def test_the_printed_comparison_marks_a_trick_lost_to_a_card_no_frame_read(
    recorded: tuple[Path, list[tuple[Detection, ...]]],
) -> None:
    folder, per_frame = recorded
    recording = Recording.open(folder)
    first = next(e.card for e in recording.events if isinstance(e, CardPlayed))
    # The first card is never read as itself: always read as a card of the other trick.
    blind = [tuple(replace(d, card="rosen-ass") if d.card == first else d for d in dets) for dets in per_frame]
    record: list[FrameDetections] = []
    result, _ = run_replay(folder, blind, gate=False, record=record)
    unread = never_read(recording.events, record)
    assert unread == {(0, 0)}
    text = format_comparison(compare(recording.events, result.camera_events), unread)
    assert "Tricks lost with a card no frame read as itself: 1 of 1" in text
    assert "round 1 trick 1:" in text and "(a card never read as itself)" in text
    assert "round 1 trick 2:" not in text
