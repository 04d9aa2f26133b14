"""End to end: the bundled recorded game through the real recogniser and the tracker.

This is ``jasscam replay jasscam/data/demo-recording --compare`` as a test: video decode,
frame gate, ONNX recogniser, tracker, and the comparison with the recording's ground truth
through the rules engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from jasscam.replay import replay_recording
from vision.recording import Recording
from vision.tracker.evaluate import compare

DEMO = Path(__file__).resolve().parents[2] / "jasscam" / "data" / "demo-recording"
MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.mark.slow  # the bundled game replayed through the real recogniser
def test_demo_recording_replays_to_its_ground_truth() -> None:
    if not (MODELS / "card-detector.onnx").is_file():
        pytest.skip("recogniser models not built yet (models/card-detector.onnx)")
    from vision.recognizer import Recognizer
    from vision.recognizer.scale import LearningRecognizer

    recording = Recording.open(DEMO)
    assert recording.events, "the demo recording has no ground-truth events"
    # As the appliance reads it: at the card length learnt on the first sure cards.
    result = replay_recording(recording, LearningRecognizer(Recognizer()))
    comparison = compare(recording.events, result.camera_events)
    wrong = [t for t in comparison.tricks if not t.ok]
    assert len(comparison.tricks) >= 9
    assert not wrong, wrong
    assert comparison.rounds_exact == len(comparison.rounds) >= 1
    median, p95 = comparison.latency(0.5), comparison.latency(0.95)
    assert median is not None and median <= 0.5
    assert p95 is not None and p95 <= 1.0
