"""Snapping a detected outline onto the card's edges."""

from __future__ import annotations

import cv2
import numpy as np

from vision.recognizer.edges import edge_image, refine_quad, refine_quads


def _card_on_table(quad: np.ndarray) -> np.ndarray:
    frame = np.full((480, 640, 3), (40, 90, 30), np.uint8)  # green cloth
    cv2.fillConvexPoly(frame, np.round(quad * 16).astype(np.int32), (235, 235, 230), lineType=cv2.LINE_AA, shift=4)
    return frame


TRUE = np.array([[300.0, 200.0], [352.0, 212.0], [334.0, 290.0], [282.0, 278.0]], np.float32)


def test_an_outline_a_few_pixels_off_snaps_onto_the_card_edges() -> None:
    frame = _card_on_table(TRUE)
    off = (TRUE - TRUE.mean(0)) * 1.06 + TRUE.mean(0) + np.array([3.0, -2.5], np.float32)
    refined = refine_quad(edge_image(frame), off)
    before = np.linalg.norm(off - TRUE, axis=1).max()
    after = np.linalg.norm(refined - TRUE, axis=1).max()
    assert before > 4.0 and after < 1.5, (before, after)


def test_an_outline_without_edges_around_it_is_left_alone() -> None:
    frame = np.full((480, 640, 3), 128, np.uint8)
    assert np.array_equal(refine_quad(edge_image(frame), TRUE), TRUE)


def test_refining_in_the_cards_region_gives_the_whole_frames_corners() -> None:
    second = TRUE + np.array([-230.0, 150.0], np.float32)  # a card near the frame's left edge
    frame = _card_on_table(TRUE)
    cv2.fillConvexPoly(frame, np.round(second * 16).astype(np.int32), (235, 235, 230), lineType=cv2.LINE_AA, shift=4)
    off = np.stack([q + np.array([2.5, -2.0], np.float32) for q in (TRUE, second)])
    grey = edge_image(frame)
    whole = np.stack([refine_quad(grey, q) for q in off])
    assert np.abs(whole - off).max() > 1.0  # the sides did move
    np.testing.assert_allclose(refine_quads(frame, off), whole, atol=0.05)


def test_an_outline_off_the_frame_is_left_alone() -> None:
    frame = _card_on_table(TRUE)
    outside = TRUE + np.array([900.0, 0.0], np.float32)
    assert np.array_equal(refine_quads(frame, outside[None]), outside[None])
