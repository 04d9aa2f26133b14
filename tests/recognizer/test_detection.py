"""A detection with a field out of range is refused where it is made, with the field named."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest

from vision.detection import BACK, Detection, DetectionError, FrameDetections

BOX = (10.0, 20.0, 70.0, 110.0)
CORNERS = ((10.0, 20.0), (70.0, 20.0), (70.0, 110.0), (10.0, 110.0))


def made(**fields: Any) -> Detection:
    base: dict[str, Any] = {"card": "rosen-6", "confidence": 0.9, "box": BOX, "corners": CORNERS}
    return Detection(**(base | fields))


def test_a_well_formed_detection_and_its_back_are_accepted_with_numpy_numbers() -> None:
    det = made(confidence=np.float32(0.75), alternatives=(("rosen-7", 0.1), ("schellen-6", 0.0)))
    assert det.face_up and det.center == (40.0, 65.0)
    assert not made(card=BACK, confidence=1.0).face_up
    # corners may lie outside the frame: the recogniser guesses the hidden ones
    assert made(corners=((-5.0, 20.0), (70.0, -3.0), (70.0, 110.0), (-5.0, 110.0))).card == "rosen-6"
    frame = FrameDetections(1.5, (det,), np.int64(640), 480)  # type: ignore[arg-type]  # a numpy size, on purpose
    assert frame.detections == (det,)


@pytest.mark.parametrize(
    ("fields", "names"),
    [
        ({"card": "joker"}, "card"),
        ({"card": "Rosen-6"}, "card"),
        ({"card": None}, "card"),
        ({"confidence": math.nan}, "confidence of rosen-6"),
        ({"confidence": 1.5}, "confidence of rosen-6"),
        ({"confidence": -0.1}, "confidence of rosen-6"),
        ({"confidence": True}, "confidence of rosen-6"),
        ({"box": (70.0, 20.0, 10.0, 110.0)}, "negative size"),
        ({"box": (10.0, 110.0, 70.0, 20.0)}, "negative size"),
        ({"box": (10.0, 20.0, 70.0)}, "box of rosen-6"),
        ({"box": (10.0, 20.0, math.inf, 110.0)}, "box of rosen-6"),
        ({"corners": CORNERS[:3]}, "corners of rosen-6"),
        ({"corners": (*CORNERS[:3], (math.nan, 1.0))}, "corners of rosen-6"),
        ({"corners": (*CORNERS[:3], (1.0,))}, "corners of rosen-6"),
        ({"alternatives": (("rosen-7",),)}, "alternative of rosen-6"),
        ({"alternatives": (("kreuz-7", 0.1),)}, "alternative of rosen-6"),
        ({"alternatives": (("rosen-7", math.nan),)}, "alternative rosen-7 of rosen-6"),
    ],
)
def test_a_field_out_of_range_is_refused_naming_the_field(fields: dict[str, Any], names: str) -> None:
    with pytest.raises(DetectionError, match=names):
        made(**fields)


def test_a_replaced_field_is_checked_again() -> None:
    with pytest.raises(DetectionError, match="confidence"):
        dataclasses.replace(made(), confidence=math.nan)


@pytest.mark.parametrize(
    ("t", "width", "height", "detections", "names"),
    [
        (math.nan, 640, 480, (), "time"),
        (0.0, 0, 480, (), "size"),
        (0.0, 640.0, 480, (), "size"),
        (0.0, 640, 480, ("rosen-6",), "Detection"),
    ],
)
def test_a_frame_with_a_bad_time_size_or_member_is_refused(
    t: float, width: Any, height: Any, detections: Any, names: str
) -> None:
    with pytest.raises(DetectionError, match=names):
        FrameDetections(t, detections, width, height)


def test_the_error_is_a_value_error_so_callers_that_catch_bad_input_catch_it() -> None:
    with pytest.raises(ValueError):
        made(card="joker")
