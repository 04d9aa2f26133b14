"""Outlines out of the deck's proportions: a half-covered card's guessed side is put where the card ends."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detection import BACK, Detection
from vision.recognizer import Recognizer, RecognizerSettings
from vision.recognizer.geometry import UNIT_QUAD, canonical_corners, completed_outlines, quad_aspect
from vision.recognizer.prototypes import DEFAULT_ASPECT, PrototypeError, Prototypes

CARD = np.array([[100.0, 100.0], [160.0, 100.0], [160.0, 200.0], [100.0, 200.0]], np.float32)  # 60 x 100


def test_each_completed_outline_keeps_one_side_and_gives_the_card_its_proportions() -> None:
    assert quad_aspect(CARD) == pytest.approx(100 / 60)
    short_end = CARD.copy()
    short_end[2:, 1] = 170.0  # the end 2-3 guessed 30 px short (another card lies on it)
    tries = completed_outlines(short_end, 100 / 60)
    assert np.allclose(tries[0], CARD, atol=1e-3)  # keeps side 0-1: the whole card again
    assert np.allclose(tries[1][2:], short_end[2:]) and tries[1][0, 1] == pytest.approx(70.0)
    narrow = CARD.copy()
    narrow[1:3, 0] = 140.0  # the long side 1-2 guessed 20 px in (a hand over that edge)
    tries = completed_outlines(narrow, 100 / 60)
    assert np.allclose(tries[3], CARD, atol=1e-3)  # keeps side 3-0
    for q in completed_outlines(narrow, 100 / 60):
        assert quad_aspect(q) == pytest.approx(100 / 60, rel=1e-3)


def test_the_tolerance_is_checked() -> None:
    with pytest.raises(ValueError, match="aspect_tolerance"):
        RecognizerSettings(aspect_tolerance=1.0)


def test_prototypes_keep_their_deck_proportions_through_save_and_load(tmp_path: Path) -> None:
    vectors = np.eye(2, 8, dtype=np.float32)
    plain = Prototypes(("eicheln-6", BACK), vectors)
    assert plain.aspect is None and plain.card_aspect == pytest.approx(492 / 316) == DEFAULT_ASPECT
    french = dataclasses.replace(plain, aspect=89 / 58)
    french.save(tmp_path / "p.npz")
    assert Prototypes.load(tmp_path / "p.npz").card_aspect == pytest.approx(89 / 58)
    with pytest.raises(PrototypeError, match="aspect"):
        dataclasses.replace(plain, aspect=0.6)  # short over long: the other way round


@functools.cache
def _whole_card() -> tuple[np.ndarray, np.ndarray, str]:
    """(frame, corners, card) of a rendered face card in full view, corners 0-1 a short side."""
    from vision.synth.scene import render_scene

    scene = next(
        s
        for s in (render_scene(10_950_000 + k, style="mixed") for k in range(20))
        if any(t.visible > 0.99 and t.card != BACK for t in s.cards)
    )
    card = next(t for t in scene.cards if t.visible > 0.99 and t.card != BACK)
    return scene.image, canonical_corners(np.asarray(card.corners, np.float32)), card.card


def _end_moved(true: np.ndarray, length: float) -> np.ndarray:
    """``true`` with its short side 2-3 moved along the long sides to ``length`` of them."""
    out = true.copy()
    out[2] = true[1] + length * (true[2] - true[1])
    out[3] = true[0] + length * (true[3] - true[0])
    return out


def _given_outline(outline: np.ndarray, image: np.ndarray, **settings: float) -> list[Detection]:
    """What the recogniser reports when the detector and refiner give ``outline``: the rest of the
    step runs for real (identifier, prototypes), with the built-in deck's prototypes as an enrolled deck's."""
    rec = Recognizer(settings=RecognizerSettings(threads=1, **settings))  # type: ignore[arg-type]
    assert not rec.prototypes.completes_outlines  # the built-in deck: the networks learnt it through such outlines
    rec.prototypes = dataclasses.replace(rec.prototypes, outline=UNIT_QUAD)
    rec.detect_outlines = lambda frame, card_length=None, photo=False, final_iou=None: (  # type: ignore[method-assign,misc]
        outline[None],
        np.array([0.9], np.float32),
        np.array([False]),
        None,
    )
    return rec.recognize(image)


def _corner_error(found: np.ndarray, true: np.ndarray) -> float:
    return min(float(np.linalg.norm(found - np.roll(true, s, axis=0), axis=1).max()) for s in range(4))


def test_a_card_outlined_short_of_its_covered_end_is_cut_and_named_whole() -> None:
    image, true, card = _whole_card()
    short = _end_moved(true, 0.75)  # a quarter of the card under another card
    dets = _given_outline(short, image)
    assert len(dets) == 1 and dets[0].card == card
    side = float(np.linalg.norm(true[1] - true[0]))
    assert _corner_error(np.array(dets[0].corners), true) < 0.1 * side
    # Without the completion the outline stays where it was guessed, a quarter of the card short.
    dets = _given_outline(short, image, aspect_tolerance=0.0)
    assert _corner_error(np.array(dets[0].corners), true) > 0.3 * side


def test_an_outline_far_too_long_is_not_cut_down_to_part_of_a_card() -> None:
    image, true, _ = _whole_card()
    longer = _end_moved(true, 1.4)  # 40 % past its end, as across a card it lies on
    dets = _given_outline(longer, image)
    # Cut to the card's proportions it would lose 29 % of its area: more than aspect_cut (25 %)
    # allows (it may be widened instead, or kept). With a cut of 50 % allowed, it is cut.
    assert len(dets) == 1
    assert abs(cv2.contourArea(np.array(dets[0].corners, np.float32))) >= 0.75 * abs(cv2.contourArea(longer))
    cut = _given_outline(longer, image, aspect_cut=0.5)
    assert abs(cv2.contourArea(np.array(cut[0].corners, np.float32))) < 0.75 * abs(cv2.contourArea(longer))
