"""The index corners: cut from the identifier's crop, and weighed against its reading."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.recognizer.corners import CLASSES, CORNER_H, CORNER_W, NONE, corner_likelihood, corner_patches, fuse
from vision.recognizer.geometry import CROP_H, CROP_W
from vision.recognizer.runtime import CORNERS_FILE, MODELS_DIR, Recognizer, RecognizerSettings


def _reading(*corners: dict[str, float]) -> np.ndarray:
    """One card's (2, 37) corner probabilities: each dict names cards' shares, the rest "none"."""
    out = np.zeros((2, NONE + 1))
    for k, shares in enumerate(corners):
        for card, share in shares.items():
            out[k, CLASSES.index(card)] = share
        out[k, NONE] = 1.0 - sum(shares.values())
    return out[None]


def _faces(**shares: float) -> np.ndarray:
    """One card's identifier probabilities over the 36 faces (the rest of its mass a back's)."""
    out = np.zeros((1, NONE))
    for card, share in shares.items():
        out[0, CLASSES.index(card.replace("_", "-"))] = share
    return out


def test_the_second_corner_is_the_bottom_right_turned_upright() -> None:
    crops = np.random.default_rng(0).integers(0, 255, (3, CROP_H, CROP_W, 3), dtype=np.uint8)
    patches = corner_patches(crops)
    assert patches.shape == (6, CORNER_H, CORNER_W, 3)
    for i, crop in enumerate(crops):
        assert np.array_equal(patches[i], crop[:CORNER_H, :CORNER_W])
        turned = np.rot90(crop, 2)
        assert np.array_equal(patches[3 + i], turned[:CORNER_H, :CORNER_W])


def test_crops_smaller_than_a_corner_are_refused() -> None:
    with pytest.raises(ValueError, match="crops must be"):
        corner_patches(np.zeros((2, 10, 10, 3), np.uint8))


def test_two_hidden_corners_leave_the_identifier_reading_as_it_was() -> None:
    faces = _faces(schellen_6=0.55, schellen_7=0.4)
    fused = fuse(faces, _reading({}, {}), weight=1.0, floor=0.01)
    assert np.allclose(fused, faces)


def test_a_clear_index_settles_a_card_the_pips_left_open() -> None:
    # A 6 with a row of pips under the next card reads almost as well as a 7; its
    # top-left index still shows a 6.
    faces = _faces(schellen_6=0.4, schellen_7=0.55)
    fused = fuse(faces, _reading({"schellen-6": 0.95}, {}), weight=1.0, floor=0.01)
    assert CLASSES[int(fused.argmax())] == "schellen-6"
    assert fused.sum() == pytest.approx(faces.sum())


def test_one_misread_corner_does_not_overrule_a_card_the_identifier_is_all_but_certain_of() -> None:
    s = RecognizerSettings()
    reading = _reading({"rosen-ober": 0.9}, {})
    certain = fuse(_faces(rosen_koenig=0.99995, rosen_ober=0.00004), reading, s.corner_weight, s.corner_floor)
    assert CLASSES[int(certain.argmax())] == "rosen-koenig"
    # A card the identifier names at 0.9, as it names half-covered ones, the corner decides.
    open_read = fuse(_faces(rosen_koenig=0.9, rosen_ober=0.1), reading, s.corner_weight, s.corner_floor)
    assert CLASSES[int(open_read.argmax())] == "rosen-ober"


def test_both_corners_agreeing_weigh_more_than_one() -> None:
    one = corner_likelihood(_reading({"eicheln-9": 0.9}, {}))[0]
    both = corner_likelihood(_reading({"eicheln-9": 0.9}, {"eicheln-9": 0.9}))[0]
    nine = CLASSES.index("eicheln-9")
    assert both[nine] > one[nine]
    assert np.argmax(one) == np.argmax(both) == nine


@pytest.mark.skipif(not (MODELS_DIR / CORNERS_FILE).is_file(), reason="no corner network shipped")
def test_the_shipped_corner_network_reads_the_built_in_deck_only() -> None:
    from vision.enroll.head import DeckPrototypes

    rec = Recognizer()
    assert rec.corners is not None and rec.prototypes.reads_corners
    assert Recognizer(settings=RecognizerSettings(corner_weight=0.0)).corners is None
    deck = DeckPrototypes(labels=rec.prototypes.labels, vectors=rec.prototypes.vectors)
    assert not deck.reads_corners


def test_a_models_folder_without_the_corner_network_reads_as_before(tmp_path: Path) -> None:
    for f in MODELS_DIR.iterdir():
        if f.name != CORNERS_FILE:
            (tmp_path / f.name).symlink_to(f)
    rec = Recognizer(tmp_path)
    assert rec.corners is None
    frame = np.full((480, 640, 3), 90, np.uint8)
    assert rec.recognize(frame, 60.0) == []
