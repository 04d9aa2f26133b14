"""A camera's steady input shape runs on a detector session planned for it, and reads the same.

The appliance reads every frame of one mounting at one scale, so the detector's input has
one shape; onnxruntime runs a session planned for that shape faster. These tests pin that
such a session is made only for shapes read steadily, that it answers bit for bit as the
session for any size does, and that a shape that moves every frame gets none.
"""

from __future__ import annotations

import numpy as np

from vision.recognizer import Recognizer, RecognizerSettings
from vision.recognizer.stages import DetectorStage
from vision.synth.geometry import GUIDE
from vision.synth.scene import render_scene


def _frame(seed: int) -> np.ndarray:
    return render_scene(seed, style="clean", geometry=GUIDE).image


def test_a_shape_read_steadily_gets_a_planned_session_that_reads_it_to_the_bit() -> None:
    rec = Recognizer(settings=RecognizerSettings(threads=1))
    det = rec.detector
    img, _ = rec.detector_input(_frame(20_300_000), 92.0)
    shape = (img.shape[0], img.shape[1])
    reference = [out.copy() for out in det.run(img)]  # not steady: a probe of the length search
    assert det._planned is None
    for _ in range(DetectorStage.PLAN_WINDOW):
        peak, corners = det.run(img, steady=True)
        np.testing.assert_array_equal(peak, reference[0])
        np.testing.assert_array_equal(corners, reference[1])
    assert det._planned is not None and det._planned[0] == shape
    # The planned session answers what the session for any size answers, frame after frame.
    for seed in (20_300_001, 20_300_002):
        other, _ = rec.detector_input(_frame(seed), 92.0)
        assert other.shape == img.shape
        planned = det.run(other, steady=True)
        anysize = det.session.run(None, {"image": np.ascontiguousarray(other[None].transpose(0, 3, 1, 2), np.float32)})
        np.testing.assert_array_equal(planned[0], anysize[0][0])
        np.testing.assert_array_equal(planned[1], anysize[1][0])


def test_shapes_that_move_every_frame_get_no_planned_session() -> None:
    det = Recognizer(settings=RecognizerSettings(threads=1)).detector
    for i in range(3 * DetectorStage.PLAN_WINDOW):
        det.run(np.full((320 + 32 * (i % 3), 416, 3), 90, np.uint8), steady=True)
    assert det._planned is None


def test_probes_of_the_length_search_plan_nothing() -> None:
    rec = Recognizer(settings=RecognizerSettings(threads=1))
    frame = _frame(20_300_003)
    for _ in range(DetectorStage.PLAN_WINDOW):
        assert rec.find_card_length(frame) is not None
    assert rec.detector._planned is None


def test_a_new_camera_shape_replaces_the_plan_and_two_read_by_turns_get_none() -> None:
    det = Recognizer(settings=RecognizerSettings(threads=1)).detector
    first, second = (320, 416), (352, 416)
    for _ in range(DetectorStage.PLAN_WINDOW):
        det.run(np.full((*first, 3), 90, np.uint8), steady=True)
    assert det._planned is not None and det._planned[0] == first
    for _ in range(DetectorStage.PLAN_WINDOW):
        det.run(np.full((*second, 3), 90, np.uint8), steady=True)
    assert det._planned is not None and det._planned[0] == second
    fresh = Recognizer(settings=RecognizerSettings(threads=1)).detector
    for i in range(3 * DetectorStage.PLAN_WINDOW):
        fresh.run(np.full((*(first, second)[i % 2], 3), 90, np.uint8), steady=True)
    assert fresh._planned is None
