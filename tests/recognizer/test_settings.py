"""The recogniser's settings refuse what no stage could run with, naming the setting and its range."""

from __future__ import annotations

import math
from dataclasses import fields

import pytest

from vision.recognizer import RecognizerSettings


def test_every_setting_declares_its_range_or_is_a_flag() -> None:
    for f in fields(RecognizerSettings):
        valid = f.metadata.get("range")
        assert valid is not None or isinstance(getattr(RecognizerSettings(), f.name), bool), f.name


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_number_that_is_not_finite_is_refused(value: float) -> None:
    with pytest.raises(ValueError, match=r"score_threshold must be a number in \(0, 1\)"):
        RecognizerSettings(score_threshold=value)


def test_an_integer_setting_refuses_fractions_and_booleans() -> None:
    with pytest.raises(ValueError, match="refiner_passes must be an integer in"):
        RecognizerSettings(refiner_passes=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        RecognizerSettings(threads=True)


def test_a_flag_must_be_true_or_false() -> None:
    with pytest.raises(ValueError, match="verify must be true or false"):
        RecognizerSettings(verify="yes")  # type: ignore[arg-type]


def test_the_input_sides_must_be_in_order() -> None:
    with pytest.raises(ValueError, match="min_input_side <= max_input_side"):
        RecognizerSettings(min_input_side=800, max_input_side=640)
    assert RecognizerSettings(min_input_side=640, max_input_side=640).max_input_side == 640


def test_overlaps_are_settled_by_the_reads_only_above_nms_iou() -> None:
    with pytest.raises(ValueError, match="nms_iou <= distinct_iou"):
        RecognizerSettings(nms_iou=0.5, distinct_iou=0.4)
    assert RecognizerSettings(nms_iou=0.5, distinct_iou=0.5).distinct_iou == 0.5


def test_the_defaults_and_the_ends_of_each_range_are_accepted() -> None:
    RecognizerSettings()
    RecognizerSettings(second_look_below=0.0, reject_below=0.0, rank_weight=1.0, refiner_passes=4, card_input_px=16.0)
