"""render_scene: ground truth matches the pixels, determinism, deck separation, bad input."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scoring.cards import ALL_CARD_IDS
from vision.synth.assets import DeckError
from vision.synth.deck import COURT_RANKS, card_image, random_style
from vision.synth.scene import Scene, render_scene

W, H = 320, 240
SEEDS = range(12)


def _upright(img: np.ndarray, corners: np.ndarray, size: tuple[int, int] = (64, 100)) -> np.ndarray:
    dst = np.array([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]], np.float32)
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    return cv2.warpPerspective(img, m, size)


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    x = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY).astype(np.float32)
    y = cv2.cvtColor(b, cv2.COLOR_BGR2GRAY).astype(np.float32)
    x -= x.mean()
    y -= y.mean()
    return float((x * y).sum() / np.sqrt((x * x).sum() * (y * y).sum() + 1e-6))


def _reference(scene: Scene, card: str) -> np.ndarray:
    assert scene.deck_style is not None
    art = card_image(card, scene.deck_style, 2)
    a = art[..., 3:].astype(np.float32) / 255
    flat = (art[..., :3] * a + 255 * (1 - a)).astype(np.uint8)
    return cv2.resize(flat, (64, 100), interpolation=cv2.INTER_AREA)


@pytest.fixture(scope="module")
def clean_scenes() -> list[Scene]:
    return [render_scene(s, width=W, height=H, style="clean") for s in SEEDS]


def test_same_seed_renders_identical_pixels_and_truth() -> None:
    a = render_scene(5, width=W, height=H)
    b = render_scene(5, width=W, height=H)
    assert np.array_equal(a.image, b.image)
    assert [c.to_json() for c in a.cards] == [c.to_json() for c in b.cards]
    c = render_scene(6, width=W, height=H)
    assert not np.array_equal(a.image, c.image)


def test_scene_has_requested_size_and_types() -> None:
    s = render_scene(1, width=200, height=150, style="hard")
    assert s.image.shape == (150, 200, 3) and s.image.dtype == np.uint8
    for c in s.cards:
        assert c.card == "back" or c.card in ALL_CARD_IDS
        assert c.corners.shape == (4, 2) and c.corners.dtype == np.float32
        assert 0 < c.visible <= 1


def test_face_up_cards_show_their_art_upright_at_the_given_corners(clean_scenes: list[Scene]) -> None:
    checked = courts = 0
    for scene in clean_scenes:
        for c in scene.cards:
            if not c.face_up or c.visible < 0.97:
                continue
            crop = _upright(scene.image, c.corners)
            ref = _reference(scene, c.card)
            upright, turned = _ncc(crop, ref), _ncc(crop, ref[::-1, ::-1])
            assert upright > 0.55, f"seed {scene.seed} {c.card}: the pixels at its corners do not show it"
            assert upright >= turned - 0.03, f"seed {scene.seed} {c.card}: corner order looks turned by 180 degrees"
            if c.card.split("-")[1] in COURT_RANKS and not c.symmetric:
                assert upright > turned + 0.3, f"seed {scene.seed} {c.card}: 180-degree turn not recoverable"
                courts += 1
            checked += 1
    assert checked >= 15 and courts >= 2


def test_visible_fraction_counts_the_cards_own_pixels(clean_scenes: list[Scene]) -> None:
    for scene in clean_scenes:
        for i, c in enumerate(scene.cards):
            label = scene.label_of(i)
            x, y = c.corners[:, 0].astype(np.float64), c.corners[:, 1].astype(np.float64)
            area = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
            own = int((scene.mask == label).sum())
            assert c.visible == pytest.approx(min(1.0, own / area), abs=0.03)
            ys, xs = np.nonzero(scene.mask == label)
            assert len(xs) > 0
            # every pixel the card owns lies inside (or on the edge of) its quad
            quad = c.corners.reshape(-1, 1, 2)
            for px, py in zip(xs[:: max(1, len(xs) // 25)], ys[:: max(1, len(ys) // 25)], strict=True):
                assert cv2.pointPolygonTest(quad, (float(px), float(py)), True) > -2.0


def test_boxes_lie_in_the_frame_and_cut_off_cards_count_only_their_part_in_view(clean_scenes: list[Scene]) -> None:
    frame = np.array([[0, 0], [W, 0], [W, H], [0, H]], np.float32)
    cut = 0
    for scene in clean_scenes:
        for c in scene.cards:
            x0, y0, x1, y1 = c.box
            assert 0 <= x0 < x1 <= W and 0 <= y0 < y1 <= H
            quad = c.corners.astype(np.float32)
            area = abs(cv2.contourArea(quad))  # straight edges: lens bending makes this approximate
            in_view, _ = cv2.intersectConvexConvex(quad, frame)
            share = in_view / area
            assert c.visible <= share + 0.03, f"seed {scene.seed} {c.card}: more visible than its part in view"
            if share < 0.9:
                assert c.visible < 0.92
                cut += 1
    assert cut >= 1


def test_a_card_laid_on_another_hides_part_of_it(clean_scenes: list[Scene]) -> None:
    partly_hidden = [
        c
        for s in clean_scenes
        for c in s.cards
        if c.role == "trick"
        and c.visible < 0.95
        and (c.corners >= 0).all()
        and (c.corners[:, 0] <= W).all()
        and (c.corners[:, 1] <= H).all()
    ]
    assert partly_hidden, "trick cards never overlap in a dozen scenes"


def test_hard_scenes_hide_more_than_clean_ones() -> None:
    def mean_visible(style: str) -> float:
        vals = [
            c.visible
            for s in range(16)
            for c in render_scene(s, width=128, height=96, style=style).cards
            if c.role == "trick"
        ]
        return float(np.mean(vals))

    assert mean_visible("hard") < mean_visible("clean")


def test_paris_is_drawn_only_when_asked_and_never_varied() -> None:
    default = render_scene(3, width=W, height=H)
    assert default.deck == "swiss-xvii" and default.deck_style is not None
    assert default.deck_style.deck == "swiss-xvii"
    paris = render_scene(3, width=W, height=H, deck="paris")
    assert paris.deck_style is not None and paris.deck_style.deck == "paris"
    assert random_style(np.random.default_rng(0), "paris") == random_style(np.random.default_rng(1), "paris")
    assert not paris.deck_style.double_headed and not paris.deck_style.redrawn_pips


def test_bad_arguments_are_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match="style must be one of"):
        render_scene(0, style="blurry")
    with pytest.raises(DeckError, match="unknown deck 'tarot'"):
        render_scene(0, deck="tarot")
    with pytest.raises(ValueError, match="out of range"):
        render_scene(0, width=10, height=10)


def test_scene_json_carries_the_truth() -> None:
    s = render_scene(2, width=W, height=H)
    data = s.to_json()
    assert data["width"] == W and len(data["cards"]) == len(s.cards)
    for c, j in zip(s.cards, data["cards"], strict=True):
        assert j["card"] == c.card and len(j["corners"]) == 4 and j["visible"] == pytest.approx(c.visible, abs=1e-4)
