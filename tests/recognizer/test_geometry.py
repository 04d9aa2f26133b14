"""Letterboxing, corner order, rectification and NMS: the geometry both training and inference share."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.recognizer.geometry import (
    CROP_H,
    CROP_W,
    DETECTOR_SIZE,
    PAD_VALUE,
    canonical_corners,
    clockwise,
    letterbox,
    nms_quads,
    quad_box,
    quad_iou,
    rectify,
    rotate_half,
)


def card_quad(cx: float, cy: float, w: float, h: float, angle_deg: float) -> np.ndarray:
    """Clockwise corners of a w x h card centred at (cx, cy), turned by angle (image coords, y down)."""
    a = np.deg2rad(angle_deg)
    r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return (local @ r.T + [cx, cy]).astype(np.float32)


@pytest.mark.parametrize("shape", [(480, 640), (720, 1280), (640, 480), (100, 100)])
def test_letterbox_maps_frame_points_into_the_square_and_back(shape: tuple[int, int]) -> None:
    frame = np.zeros((*shape, 3), np.uint8)
    img, lb = letterbox(frame)
    assert img.shape == (DETECTOR_SIZE, DETECTOR_SIZE, 3)
    pts = np.array([[0, 0], [shape[1], shape[0]], [shape[1] / 3, shape[0] / 2]], np.float32)
    inp = lb.to_input(pts)
    assert inp.min() >= -0.5 and inp.max() <= DETECTOR_SIZE + 0.5
    np.testing.assert_allclose(lb.to_frame(inp), pts, atol=1e-3)


def test_letterbox_pads_with_grey_and_keeps_content_centred() -> None:
    frame = np.full((480, 640, 3), 255, np.uint8)
    img, lb = letterbox(frame)
    assert lb.dx == 0 and lb.dy == 40  # 640x480 -> 320x240, centred vertically
    assert (img[:40] == PAD_VALUE).all() and (img[-40:] == PAD_VALUE).all()
    assert (img[40:280] == 255).all()


def test_clockwise_reverses_a_counter_clockwise_quad() -> None:
    q = card_quad(100, 100, 40, 60, 0)
    np.testing.assert_array_equal(clockwise(q), q)
    np.testing.assert_array_equal(clockwise(q[::-1]), np.roll(q, 1, axis=0))  # same start point, clockwise


@pytest.mark.parametrize("angle", [0, 30, 89, 91, 150, 180, 210, 270, 330])
@pytest.mark.parametrize("shift", [0, 1, 2, 3])
def test_canonical_corners_start_on_a_short_edge_whatever_the_input_order(angle: float, shift: int) -> None:
    q = card_quad(200, 150, 60, 94, angle)
    c = canonical_corners(np.roll(q, shift, axis=0))
    assert np.linalg.norm(c[1] - c[0]) == pytest.approx(60, abs=1e-3)  # short edge first
    assert np.linalg.norm(c[2] - c[1]) == pytest.approx(94, abs=1e-3)
    # same answer for every cyclic order and for the reversed (counter-clockwise) order
    np.testing.assert_allclose(c, canonical_corners(q), atol=1e-4)
    np.testing.assert_allclose(c, canonical_corners(q[::-1]), atol=1e-4)
    # it is one of the two upright readings of the card: the original or its half turn
    assert min(np.abs(c - q).max(), np.abs(c - rotate_half(q)).max()) < 1e-3


def test_rectify_turns_a_rotated_card_upright() -> None:
    # An asymmetric "card": red top band, blue dot bottom-left, drawn upright then rotated 120 degrees.
    card = np.full((CROP_H * 2, CROP_W * 2, 3), 255, np.uint8)
    card[: CROP_H // 2] = (0, 0, 255)
    cv2.circle(card, (30, CROP_H * 2 - 30), 18, (255, 0, 0), -1)
    src = np.array([[0, 0], [CROP_W * 2, 0], [CROP_W * 2, CROP_H * 2], [0, CROP_H * 2]], np.float32)
    quad = card_quad(320, 240, CROP_W * 2, CROP_H * 2, 120)
    frame = cv2.warpPerspective(card, cv2.getPerspectiveTransform(src, quad), (640, 480), borderValue=(0, 128, 0))
    crop = rectify(frame, quad)
    assert crop.shape == (CROP_H, CROP_W, 3)
    assert crop[5:20, 10:-10, 2].mean() > 200 and crop[5:20, 10:-10, 0].mean() < 60  # red band on top
    assert crop[-15, 15, 0] > 200 and crop[-15, 15, 2] < 60  # blue dot bottom-left
    upside = rectify(frame, rotate_half(quad))
    np.testing.assert_allclose(upside.astype(int), crop[::-1, ::-1].astype(int), atol=40)


def test_quad_iou_of_known_overlaps() -> None:
    a = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], np.float32)
    assert quad_iou(a, a) == pytest.approx(1.0)
    assert quad_iou(a, a + [20, 0]) == 0.0
    assert quad_iou(a, a + [5, 0]) == pytest.approx(50 / 150)
    assert quad_iou(a, a[::-1]) == pytest.approx(1.0)  # order does not matter


def test_nms_keeps_the_best_of_overlapping_quads_and_all_separate_ones() -> None:
    base = card_quad(100, 100, 40, 60, 10)
    quads = np.stack([base, base + [2, 1], card_quad(300, 100, 40, 60, 80), base + [3, -2]])
    keep = nms_quads(quads, np.array([0.6, 0.9, 0.5, 0.7]), 0.4)
    assert keep == [1, 2]


def test_quad_box_bounds_the_corners() -> None:
    q = card_quad(100, 80, 40, 60, 45)
    x0, y0, x1, y1 = quad_box(q)
    assert (x0, y0, x1, y1) == pytest.approx((q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()))


def test_a_label_map_is_rectified_with_its_own_labels_only_and_nothing_outside_the_frame() -> None:
    from vision.recognizer.geometry import rectify

    labels = np.zeros((100, 100), np.uint8)
    labels[:, 50:] = 7
    quad = np.array([[30, -20], [70, -20], [70, 60], [30, 60]], np.float32)  # its top is off the frame
    crop = rectify(labels, quad, labels=True)
    assert set(np.unique(crop)) == {0, 7}  # no blend of 0 and 7
    assert (crop[:10] == 0).all()  # above the frame: nothing there, not the edge row repeated
    assert (crop[-10:, -10:] == 7).all() and (crop[-10:, :10] == 0).all()
