"""Outlines of a size no card on the table has: the part of the card that was guessed is put right."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import pytest

from vision.detection import BACK
from vision.recognizer import Recognizer, RecognizerSettings
from vision.recognizer.geometry import (
    UNIT_QUAD,
    canonical_corners,
    card_sized_outlines,
    from_outline_frame,
    in_outline_frame,
    mean_sides,
    quad_iou,
)
from vision.recognizer.outline import TableSize, sized_to_table, verified

CARD = np.array([[100.0, 100.0], [160.0, 100.0], [160.0, 200.0], [100.0, 200.0]], np.float32)  # 60 x 100


def test_card_sized_outlines_start_at_a_corner_and_run_along_a_side_into_the_outline() -> None:
    tries = card_sized_outlines(CARD, 30.0, 50.0)
    assert tries.shape == (16, 4, 2)
    for t in tries:
        assert sorted(mean_sides(t)) == pytest.approx([30.0, 50.0])
        assert any(np.allclose(t[0], c) for c in CARD)  # starts at one of the outline's corners
        assert np.all(t >= CARD.min(axis=0) - 1e-3) and np.all(t <= CARD.max(axis=0) + 1e-3)  # reaches into it
    # From corner 0 along the top edge, the edge as the card's short side: the card hangs down from it.
    assert np.allclose(tries[0], [[100, 100], [130, 100], [130, 150], [100, 150]])
    # ... and as its long side.
    assert np.allclose(tries[1], [[100, 100], [150, 100], [150, 130], [100, 130]])


def test_the_size_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="size_tolerance"):
        RecognizerSettings(size_tolerance=1.0)
    with pytest.raises(ValueError, match="size_least"):
        RecognizerSettings(size_least=1.5)
    with pytest.raises(ValueError, match="size_covered"):
        RecognizerSettings(size_covered=-0.1)


@functools.cache
def _table() -> tuple[np.ndarray, list[np.ndarray]]:
    """(frame, outlines) of a rendered scene with three face cards in full view, apart from each other."""
    from vision.synth.scene import render_scene

    for k in range(200):
        scene = render_scene(10_960_000 + k, style="mixed")
        whole = [
            canonical_corners(np.asarray(t.corners, np.float32))
            for t in scene.cards
            if t.visible > 0.99 and t.card != BACK
        ]
        h, w = scene.image.shape[:2]
        inside = [
            q
            for q in whole
            if q[:, 0].min() > 5 and q[:, 1].min() > 5 and q[:, 0].max() < w - 5 and q[:, 1].max() < h - 5
        ]
        apart = all(quad_iou(a, b) == 0.0 for i, a in enumerate(inside) for b in inside[i + 1 :])
        if len(inside) >= 3 and apart:
            return scene.image, inside
    raise AssertionError("no rendered scene with three cards in full view")


def _outlined_across(card: np.ndarray) -> np.ndarray:
    """``card``'s outline keeping its long side 1-2 and reaching 1.8 short sides across it (past its far side),
    as a detector outlines a card leaving the frame when it takes the seen long edge for a short one."""
    short = float(np.linalg.norm(card[1] - card[0]))
    inward = (card[0] - card[1]) / short
    return np.stack([card[1], card[2], card[2] + 1.8 * short * inward, card[1] + 1.8 * short * inward]).astype(
        np.float32
    )


def _corner_error(found: np.ndarray, true: np.ndarray) -> float:
    return min(float(np.linalg.norm(found - np.roll(true, s, axis=0), axis=1).max()) for s in range(4))


def test_an_outline_reaching_past_its_card_is_cut_to_the_size_of_the_tables_other_cards() -> None:
    frame, cards = _table()
    rec = Recognizer(settings=RecognizerSettings(threads=1))
    assert rec.verifier is not None  # the shipped models have a verifier
    drawn = np.stack([*cards[1:], _outlined_across(cards[0])])
    cover = verified(frame, drawn, rec.verifier.run)
    scores = np.full(len(drawn), 0.9, np.float32)
    quads, scores_out, _, cover_out = rec._sized_to_table(
        frame, drawn, scores, np.zeros(len(drawn), bool), cover, rec.settings.nms_iou
    )
    assert len(quads) == len(drawn)
    short = float(np.linalg.norm(cards[0][1] - cards[0][0]))
    moved = min(range(len(quads)), key=lambda i: _corner_error(quads[i], cards[0]))
    assert _corner_error(quads[moved], cards[0]) < 0.1 * short
    assert cover_out[moved] > cover[-1]
    for card in cards[1:]:  # the cards that said how large a card is stay as they were
        assert any(np.allclose(q, card) for q in quads)


def test_an_outline_is_left_alone_without_other_cards_to_compare_or_when_it_covers_no_card_or_one_well() -> None:
    frame, cards = _table()
    rec = Recognizer(settings=RecognizerSettings(threads=1))
    assert rec.verifier is not None  # the shipped models have a verifier
    across = _outlined_across(cards[0])[None]
    quads, _, _, _ = rec._sized_to_table(
        frame, across, np.array([0.9], np.float32), np.array([False]), np.array([0.5], np.float32), rec.settings.nms_iou
    )
    assert np.array_equal(quads, across)  # alone on the table: no size to compare with
    drawn = np.stack([*cards[1:], across[0]])
    cover = verified(frame, drawn, rec.verifier.run)
    for judged in (
        0.1,
        0.9,
    ):  # under reject_below: no card (a phone, a notepad); over size_covered: a card outlined right
        cover[-1] = judged
        quads, _, _, _ = rec._sized_to_table(
            frame, drawn, np.full(len(drawn), 0.9, np.float32), np.zeros(len(drawn), bool), cover, rec.settings.nms_iou
        )
        assert any(np.array_equal(q, across[0]) for q in quads)


def test_a_back_leaving_the_frame_is_found() -> None:
    """A rendered scene (held-out seed 10,000,224) with a back that leaves the frame: the detector read
    at 320 px outlined it with its seen long edge taken for a short one (IoU 0.44), which sizing to the
    table mended; read at the size it reads best, it outlines the back right itself."""
    from vision.synth.scene import render_scene

    scene = render_scene(10_000_224, style="mixed")
    back = next(t for t in scene.cards if t.card == BACK and 0.7 < t.visible < 0.8)
    true = np.asarray(back.corners, np.float32)
    for tolerance in (0.15, 0.0):  # with and without sizing to the table
        quads = Recognizer(settings=RecognizerSettings(threads=1, size_tolerance=tolerance)).detect_outlines(
            scene.image
        )[0]
        assert max(quad_iou(q, true) for q in quads) > 0.8


def test_a_back_outlined_across_is_sized_but_not_the_back_of_a_deck_whose_outlines_move() -> None:
    """The networks outline a deck whose outlines are moved (its faces short of their ends) with its
    backs whole, so its backs are not sized; the built-in deck's are."""
    frame, cards = _table()
    rec = Recognizer(settings=RecognizerSettings(threads=1))
    assert rec.verifier is not None  # the shipped models have a verifier
    drawn = np.stack([*cards[1:], _outlined_across(cards[0])])
    is_back = np.zeros(len(drawn), bool)
    is_back[-1] = True
    scores = np.full(len(drawn), 0.9, np.float32)
    cover = verified(frame, drawn, rec.verifier.run)
    sized, _, _, _ = rec._sized_to_table(frame, drawn, scores, is_back, cover.copy(), rec.settings.nms_iou)
    assert not any(np.array_equal(q, drawn[-1]) for q in sized)
    moved = UNIT_QUAD.copy()
    moved[:, 1] = [-0.13, -0.13, 1.13, 1.13]
    rec.prototypes = dataclasses.replace(rec.prototypes, outline=moved)
    assert not rec.prototypes.outlined_as_drawn
    kept, _, _, _ = rec._sized_to_table(frame, drawn, scores, is_back, cover.copy(), rec.settings.nms_iou)
    assert any(np.array_equal(q, drawn[-1]) for q in kept)


def test_a_deck_whose_outlines_move_is_sized_where_its_cards_are() -> None:
    """The networks outline this deck's cards 4 % short at each end (``Prototypes.outline`` moves them out
    again); a face outlined across, where the networks would draw it, is cut to the size of the other faces."""
    frame, cards = _table()
    moved = UNIT_QUAD.copy()
    moved[:, 1] = [-0.04, -0.04, 1.04, 1.04]  # the card, in the unit frame of the outline drawn around it
    drawn_frame = in_outline_frame(moved, UNIT_QUAD)  # the drawn outline, in the card's unit frame
    rec = Recognizer(settings=RecognizerSettings(threads=1))
    assert rec.verifier is not None  # the shipped models have a verifier
    rec.prototypes = dataclasses.replace(rec.prototypes, outline=moved)
    drawn = from_outline_frame(np.stack([*cards[1:], _outlined_across(cards[0])]), drawn_frame)
    cover = verified(frame, drawn, rec.verifier.run)
    size = TableSize(
        tolerance=0.15,
        aspect=rec.prototypes.card_aspect,
        aspect_tolerance=0.08,
        sure=0.5,
        gain=0.1,
        least=0.6,
        least_drawn=0.2,
        most_drawn=0.85,
    )
    # No refiner pass on the tries: it would put them on this (Swiss) card's own edges, which the
    # networks outline whole; a deck with coloured end bands is outlined at the bands by both.
    quads, _, moved_ones = sized_to_table(
        frame,
        drawn,
        np.full(len(drawn), 0.9, np.float32),
        cover,
        size,
        None,
        rec.verifier.run,
        moved,
        np.zeros(len(drawn), bool),
    )
    assert moved_ones.tolist() == [False] * (len(drawn) - 1) + [True]
    found = rec.prototypes.card_outlines(quads)
    short = float(np.linalg.norm(cards[0][1] - cards[0][0]))
    assert min(_corner_error(q, cards[0]) for q in found) < 0.1 * short
    for card in cards[1:]:
        assert min(_corner_error(q, card) for q in found) < 1.0
