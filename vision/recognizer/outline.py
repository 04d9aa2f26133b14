"""Learned outline refinement: a second look at each detected card, at full resolution.

Why: the detector finds cards on a 320-pixel letterboxed frame and regresses their
corners from a grid; where cards overlap (a trick, a pile) it places outlines a few
pixels off or across two cards, and a crop a few pixels off is where an unfamiliar
(enrolled) deck is misread. The refiner network sees a crop around one detected outline,
grown by ``GROW`` so the card's true edges are inside, and says where the four corners
really are. Training (``vision.train.refiner``) cuts its crops with these same functions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognizer.geometry import (
    PAD_VALUE,
    UNIT_QUAD,
    canonical_corners,
    card_sized_outlines,
    from_outline_frame,
    in_outline_frame,
    mean_sides,
)

#: Refiner crop: width x height in pixels, and how much larger than the outline it is cut.
REFINE_W: int = 80
REFINE_H: int = 120
GROW: float = 1.3

_DST = np.array(
    [[-0.5, -0.5], [REFINE_W - 0.5, -0.5], [REFINE_W - 0.5, REFINE_H - 0.5], [-0.5, REFINE_H - 0.5]], np.float32
)


def outline_crop(frame: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(crop REFINE_H x REFINE_W x 3, homography frame -> crop) around ``quad`` grown by GROW.

    Outside the frame is mid grey (the detector's padding), so a card cut by the frame's
    edge is not mistaken for one whose border is smeared out.
    """
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    m = cv2.getPerspectiveTransform((c + GROW * (q - c)).astype(np.float32), _DST)
    crop = cv2.warpPerspective(
        frame,
        m,
        (REFINE_W, REFINE_H),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(PAD_VALUE, PAD_VALUE, PAD_VALUE),
    )
    return crop, m


def to_crop(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Frame points (..., 2) into the crop's pixels."""
    p = np.asarray(pts, np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(p, m.astype(np.float64)).reshape(np.shape(pts)).astype(np.float32)


def to_frame(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Crop points (..., 2) back into frame pixels."""
    return to_crop(np.linalg.inv(m), pts)


def refined(frame: np.ndarray, quads: np.ndarray, run: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``quads`` (K, 4, 2) moved to where the refiner puts each card's corners.

    ``run`` is the network: crops (K, REFINE_H, REFINE_W, 3) uint8 -> offsets (K, 4, 2) in
    crop pixels from where each outline's corners lie in its crop.

    A corner order is kept (corner k stays the corner nearest where it was); an outline the
    network turns into something that is not a convex card shape, or moves by more than
    half its short side, is left as it was: the refiner was trained on outlines of real
    cards, and junk in gives junk out.
    """
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    if len(q) == 0:
        return q
    cut = [outline_crop(frame, k) for k in q]
    offsets = run(np.stack([c for c, _ in cut]))
    out = q.copy()
    for i, (k, (_, m)) in enumerate(zip(q, cut, strict=True)):
        new = to_frame(m, to_crop(m, k) + offsets[i])
        side = min(float(np.linalg.norm(k[1] - k[0])), float(np.linalg.norm(k[2] - k[1])))
        if _is_card_shape(new) and float(np.max(np.linalg.norm(new - k, axis=1))) <= 0.5 * side:
            out[i] = new
    return out


def verified(frame: np.ndarray, quads: np.ndarray, run: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """How well each outline covers one card (K,), in [0, 1], as the verifier network ``run`` judges
    its crop (the refiner's crop, cut around the final outline).

    Why: the detector scores cards at a quarter of the camera's pixels, where a back in
    shadow and an outline across two overlapping cards look alike; around the refined
    outline, at full resolution, they do not.
    """
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    if len(q) == 0:
        return np.zeros(0, np.float32)
    return np.asarray(run(np.stack([outline_crop(frame, k)[0] for k in q])), np.float32).reshape(-1)


#: An outline is a reference for the table's card size when the verifier covers it at least
#: this well (and its proportions are the deck's, and the detector was sure of it).
SIZE_REFERENCE_COVER = 0.7


@dataclass(frozen=True)
class TableSize:
    """How ``sized_to_table`` judges outlines against the other cards on the table (see ``RecognizerSettings``)."""

    tolerance: float  # a side more than this (a fraction) off the table's cards' is off
    aspect: float  # the deck's long / short side
    aspect_tolerance: float  # a reference's proportions may be this far off the deck's
    sure: float  # the detector score of a reference
    gain: float  # a card-sized outline must cover a card this much better than the drawn one ...
    least: float  # ... and at least this well
    least_drawn: float  # the drawn outline must cover something at least this well to be tried ...
    most_drawn: float  # ... and a card less well than this


def sized_to_table(
    frame: np.ndarray,
    quads: np.ndarray,
    scores: np.ndarray,
    cover: np.ndarray,
    size: TableSize,
    refine: Callable[[np.ndarray], np.ndarray] | None,
    verify: Callable[[np.ndarray], np.ndarray],
    outline: np.ndarray | None = None,
    is_back: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(quads, cover, moved (K,) bool): outlines of a size no card on this table has, replaced by
    card-sized ones that cover a card better.

    All cards of a deck are one size, and the camera looks straight down, so the outlines
    the detector was sure of, with the deck's proportions and well covered, say how large a
    card is in this frame (the median of their sides). An outline more than
    ``size.tolerance`` off that, on either side, has part of its card guessed: a card
    leaving the frame outlined with its long edge taken for a short one, a card under a
    glass outlined across, half a card under a hand outlined askew. Each is tried as the
    16 card-sized outlines that keep one of its corners and sides
    (``geometry.card_sized_outlines``), refined once, and the verifier's best replaces it
    when it covers a card ``size.gain`` better and at least ``size.least``. An outline the
    verifier covers under ``size.least_drawn`` is left alone: it is no card, and where no
    card lies a card-sized outline can still cover one (a back, on the held-out hard
    scenes). So is one it covers ``size.most_drawn`` or better: that card is outlined
    right, and lies nearer the camera or is cut by the lens; trying it again only costs
    time (models/README.md, "Measurements behind the runtime's choices").

    A deck whose cards the networks outline somewhere else than where they end
    (``outline``: ``Prototypes.outline``, the card's corners in the drawn outline's unit
    frame; None for a deck outlined as drawn) is sized where its cards are: sides are
    measured on the moved outlines, and the card-sized ones are moved back to be refined and
    judged. Its backs (``is_back``) neither say nor get the size: the networks outline its
    faces short of coloured end bands and its backs whole, and the move is the faces'.
    """
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    moved = np.zeros(len(q), bool)
    if len(q) < 2:
        return q, cover, moved
    cards = q if outline is None else from_outline_frame(q, outline)
    eligible = np.ones(len(q), bool) if outline is None or is_back is None else ~np.asarray(is_back, bool)
    sides = np.array([mean_sides(k) for k in cards])
    aspect = sides[:, 1] / np.maximum(sides[:, 0], 1e-6)
    ref = (
        eligible
        & (scores >= size.sure)
        & (cover >= SIZE_REFERENCE_COVER)
        & (np.abs(aspect / size.aspect - 1.0) <= size.aspect_tolerance)
    )
    if not ref.any():
        return q, cover, moved
    short, long = float(np.median(sides[ref, 0])), float(np.median(sides[ref, 1]))
    off = (np.abs(sides[:, 0] / short - 1.0) > size.tolerance) | (np.abs(sides[:, 1] / long - 1.0) > size.tolerance)
    tried = np.nonzero(eligible & off & (cover >= size.least_drawn) & (cover < size.most_drawn))[0]
    if not len(tried):
        return q, cover, moved
    tries = np.concatenate([card_sized_outlines(cards[i], short, long) for i in tried])
    if outline is not None:  # back to where the networks outline such a card
        tries = from_outline_frame(tries, in_outline_frame(outline, UNIT_QUAD))
    if refine is not None:
        tries = refined(frame, tries, refine)
    covers = verified(frame, tries, verify).reshape(len(tried), -1)
    per = covers.shape[1]
    q, cover = q.copy(), np.asarray(cover, np.float32).copy()
    for n, i in enumerate(tried):
        best = int(np.argmax(covers[n]))
        if covers[n, best] >= max(size.least, cover[i] + size.gain):
            q[i] = canonical_corners(tries[n * per + best])
            cover[i] = covers[n, best]
            moved[i] = True
    return q, cover, moved


def _is_card_shape(quad: np.ndarray) -> bool:
    contour = quad.reshape(-1, 1, 2).astype(np.float32)
    return bool(cv2.isContourConvex(contour)) and abs(float(cv2.contourArea(contour))) > 16.0
