"""The learned outline refiner: its crop geometry, the training targets, and the shipped network."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.recognizer.geometry import canonical_corners, quad_iou
from vision.recognizer.outline import GROW, REFINE_H, REFINE_W, outline_crop, refined, to_crop, to_frame
from vision.recognizer.runtime import MODELS_DIR, REFINER_FILE, Recognizer, RecognizerSettings

TRUE = np.array([[300.0, 200.0], [352.0, 212.0], [334.0, 290.0], [282.0, 278.0]], np.float32)


def _card_on_table(quad: np.ndarray) -> np.ndarray:
    frame = np.full((480, 640, 3), (40, 90, 30), np.uint8)
    cv2.fillConvexPoly(frame, np.round(quad * 16).astype(np.int32), (235, 235, 230), lineType=cv2.LINE_AA, shift=4)
    return frame


def test_the_outline_lies_inside_its_crop_with_the_margin_it_was_grown_by() -> None:
    crop, m = outline_crop(_card_on_table(TRUE), TRUE)
    assert crop.shape == (REFINE_H, REFINE_W, 3)
    inner = to_crop(m, TRUE)
    margin_x = (REFINE_W / 2) * (1 - 1 / GROW)
    assert np.all(inner[:, 0] > margin_x - 2) and np.all(inner[:, 0] < REFINE_W - margin_x + 2)
    assert np.allclose(to_frame(m, inner), TRUE, atol=1e-3)
    # The card is in the middle of the crop, the cloth around it.
    assert crop[REFINE_H // 2, REFINE_W // 2].mean() > 200 and crop[1, 1].mean() < 100


def test_outside_the_frame_is_grey_padding_not_a_smeared_edge() -> None:
    near_edge = TRUE - np.array([300.0, 0.0], np.float32)  # partly off the frame's left side
    crop, _ = outline_crop(_card_on_table(near_edge), near_edge)
    assert np.all(crop[REFINE_H // 2, 0] == 114)


def test_training_targets_move_a_jittered_outline_back_onto_the_card() -> None:
    from vision.train.outlines import aligned, samples

    frame = _card_on_table(TRUE)
    off = canonical_corners(TRUE * 1.0 + np.array([[4.0, -3.0], [-2.0, 5.0], [3.0, 3.0], [-4.0, 1.0]], np.float32))
    crop, nom, tgt = samples(frame, off, TRUE[[2, 3, 0, 1]])  # the truth in another corner order
    _, m = outline_crop(frame, off)
    assert np.allclose(to_frame(m, tgt), aligned(TRUE, off), atol=1e-2)
    assert np.allclose(to_frame(m, nom), off, atol=1e-2)
    # Each target corner is the true corner nearest its outline corner.
    assert np.linalg.norm(to_frame(m, tgt) - off, axis=1).max() < 8.0


@pytest.mark.parametrize(("across", "down"), [(True, False), (False, True), (True, True)])
def test_a_mirrored_training_crop_keeps_its_corners_on_the_card(across: bool, down: bool) -> None:
    from vision.train.outlines import mirrored, samples

    off = TRUE + np.array([3.0, -2.0], np.float32)
    crop, nom, tgt = samples(_card_on_table(TRUE), off, TRUE)
    c2, n2, t2 = mirrored(crop[None], nom[None], tgt[None], np.array([across]), np.array([down]))
    card = (c2[0].mean(axis=2) > 160).astype(np.uint8)
    drawn = np.zeros_like(card)
    cv2.fillConvexPoly(drawn, np.round(t2[0] * 16).astype(np.int32), 1, shift=4)
    assert (card & drawn).sum() / (card | drawn).sum() > 0.9
    # Still clockwise from the top-left corner, and the outline's corners moved with it.
    assert t2[0, 0].sum() < t2[0, 2].sum() and t2[0, 1, 0] > t2[0, 0, 0]
    assert np.linalg.norm(t2[0] - n2[0], axis=1).max() < 8.0


def test_a_refiner_that_answers_junk_leaves_the_outline_as_it_was() -> None:
    frame = _card_on_table(TRUE)

    def crossed(crops: np.ndarray) -> np.ndarray:
        return np.tile(np.array([[[60.0, 0], [-60.0, 0], [60.0, 0], [-60.0, 0]]], np.float32), (len(crops), 1, 1))

    assert np.array_equal(refined(frame, TRUE[None], crossed)[0], TRUE)
    far = lambda crops: np.full((len(crops), 4, 2), 40.0, np.float32)  # noqa: E731
    assert np.array_equal(refined(frame, TRUE[None], far)[0], TRUE)
    none = lambda crops: np.zeros((len(crops), 4, 2), np.float32)  # noqa: E731
    assert np.allclose(refined(frame, TRUE[None], none)[0], TRUE, atol=1e-3)


@pytest.mark.skipif(not (MODELS_DIR / REFINER_FILE).is_file(), reason="no refiner shipped")
def test_the_shipped_refiner_moves_an_outline_that_is_off_onto_the_card() -> None:
    frame = _card_on_table(TRUE)
    rec = Recognizer(settings=RecognizerSettings(refine_corners=False))
    assert rec.refiner is not None  # the shipped models have a refiner
    off = canonical_corners((TRUE - TRUE.mean(0)) * 1.08 + TRUE.mean(0) + np.array([4.0, -3.0], np.float32))
    out = off
    for _ in range(2):
        out = refined(frame, out[None], rec.refiner.run)[0]
    truth = canonical_corners(TRUE)
    before = np.linalg.norm(off - truth, axis=1).mean()
    after = np.linalg.norm(out - truth, axis=1).mean()
    assert before > 4.0 and after < before / 2, (before, after)


@pytest.mark.skipif(not (MODELS_DIR / REFINER_FILE).is_file(), reason="no refiner shipped")
def test_refined_outlines_lie_closer_to_the_cards_than_the_detectors(tmp_path: Path) -> None:
    from vision.synth.scene import render_scene

    with_refiner = Recognizer(settings=RecognizerSettings(refine_corners=False))
    detector_only = Recognizer(settings=RecognizerSettings(refine_corners=False, refiner_passes=0))
    errors: dict[str, list[float]] = {"refined": [], "detector": []}
    for k in range(20):
        scene = render_scene(20_100_000 + k, style="mixed")
        for name, rec in (("refined", with_refiner), ("detector", detector_only)):
            quads, _, _ = rec.detect_quads(scene.image)
            for card in scene.cards:
                if card.visible < 0.7 or not len(quads):
                    continue
                t = np.asarray(card.corners, np.float32)
                best = max(quads, key=lambda q: quad_iou(q, t))
                if quad_iou(best, t) > 0.5:
                    errors[name].append(
                        min(float(np.linalg.norm(best - np.roll(t, s, 0), axis=1).mean()) for s in range(4))
                    )
    assert len(errors["refined"]) >= 25
    assert np.median(errors["refined"]) < 0.75 * np.median(errors["detector"]), {
        k: np.median(v) for k, v in errors.items()
    }


def test_a_models_folder_without_the_refiner_runs_the_detector_alone(tmp_path: Path) -> None:
    import shutil

    for name in ("card-detector.onnx", "card-identifier.onnx", "swiss-xvii.prototypes.npz"):
        shutil.copy(MODELS_DIR / name, tmp_path / name)
    from vision.synth.scene import render_scene

    frame = render_scene(20_100_000, style="clean").image
    plain = Recognizer(tmp_path, settings=RecognizerSettings(refine_corners=False))
    off = Recognizer(settings=RecognizerSettings(refine_corners=False, refiner_passes=0, verify=False))
    a, b = plain.detect_quads(frame), off.detect_quads(frame)
    assert len(a[0]) == len(b[0]) >= 3 and np.array_equal(a[0], b[0])
