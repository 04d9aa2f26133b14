"""Cutting enrolment images into card pictures: PNGs, scans, photos of one or several cards.

A player's image of a card can be a transparent-cornered PNG (cut at its opaque part), a
scan (the whole image is the card) or a photo of one or several cards on a table, a
cloth or a hand (the shipped detector and the edge finder of ``vision.enroll.cutout``
find them). Every card comes out as one upright PICTURE_W x PICTURE_H BGRA picture, and
where the image shows the card's own outline, with its proportions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from vision.enroll.crops import EnrollImageError, alpha_quad, flatten_alpha, full_quad, is_card_shaped
from vision.enroll.cutout import (
    ASPECT_RANGE,
    CARD_SHAPE,
    MIN_AREA,
    even_light,
    find_card_quads,
    holds,
    paper_margins,
    refine_to_edges,
    upright,
)
from vision.enroll.profile import PICTURE_H, PICTURE_W
from vision.recognizer.geometry import quad_area, quad_aspect, rectify, rotate_half

#: A card-shaped image is a photo, not a scan taken whole, when a card detected in it
#: covers at least this share of it and reaches at most one of its sides.
SCAN_MIN_AREA = 0.3
#: A card outline inside a card-shaped image, clear of its border by this share of its short side and
#: covering at least this share of it, makes the image a photo of the card on a background.
PHOTO_MARGIN = 0.02
PHOTO_MIN_AREA = 0.02


class Embedder(Protocol):
    """What enrolment needs of the recognizer (``vision.recognizer.Recognizer`` is one)."""

    def embed(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


class Detector(Embedder, Protocol):
    def detect_quads(
        self, frame: np.ndarray, card_length: float | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


@dataclass
class Sample:
    """One enrolment picture: its card label (canonical id or ``back``; None = not yet known)."""

    label: str | None
    picture: np.ndarray  # (PICTURE_H, PICTURE_W, 4) uint8, upright
    source: str
    #: Long over short side of the card, where the image showed its whole outline (a PNG's
    #: opaque part, a scan); None from a photo, whose outline the networks drew.
    aspect: float | None = None


def _bgra(img: np.ndarray) -> np.ndarray:
    return img if img.shape[2] == 4 else np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])


def rectify_picture(img: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` of ``img`` (BGR/BGRA) as an upright PICTURE_W x PICTURE_H BGRA picture."""
    img = _bgra(img)
    q = np.asarray(quad, np.float32).reshape(4, 2)
    side = max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2]))
    factor = side / (1.5 * PICTURE_H)
    if factor > 1.0:  # shrink first so the bilinear warp does not alias
        img = cv2.resize(
            img,
            (max(1, round(img.shape[1] / factor)), max(1, round(img.shape[0] / factor))),
            interpolation=cv2.INTER_AREA,
        )
        q = q / factor
    return rectify(img, q, PICTURE_W, PICTURE_H)


def pictures_in_image(img: np.ndarray, detector: Detector | None = None) -> list[np.ndarray]:
    """Every card in an enrolment image, as upright BGRA pictures (reading order).

    A transparent-cornered card picture is cut at its opaque part. Otherwise the
    detector looks for cards (a photo of one or several cards on a table); an image it
    finds no card in, or only small ones in, that has a card's shape is a scan of one
    card and is taken whole.
    """
    return [p for p, _ in cards_in_image(img, detector)]


def cards_in_image(
    img: np.ndarray, detector: Detector | None = None, expected: int | None = None
) -> list[tuple[np.ndarray, float | None]]:
    """``pictures_in_image`` with each card's long over short side where the image shows its own
    outline (a PNG's opaque part, a scan taken whole); None for cards found in a photo.
    ``expected``: how many cards the photo's name lists, where it is known."""
    quad = alpha_quad(img)
    if quad is not None:
        return [(rectify_picture(img, quad), _proportions(quad))]
    found = (
        pictures_from_frame(flatten_alpha(img), detector, photo=True, expected=expected) if detector is not None else []
    )
    scan = _scan(img, found)
    if scan is not None:
        return [scan]
    if not found and detector is None:
        raise EnrollImageError("the image is not card-shaped and no detector was given to find the card in it")
    return [(p, None) for p, _ in found]


def picture_from_image(img: np.ndarray, detector: Detector | None = None) -> np.ndarray:
    """The one card of an enrolment image (the largest, if the photo shows several) as an upright BGRA picture."""
    return card_in_image(img, detector)[0]


def card_in_image(img: np.ndarray, detector: Detector | None = None) -> tuple[np.ndarray, float | None]:
    """``picture_from_image`` and the card's long over short side where the image shows its own outline
    (a PNG's opaque part, a scan taken whole); None for a card found in a photo."""
    quad = alpha_quad(img)
    if quad is not None:
        return rectify_picture(img, quad), _proportions(quad)
    found = pictures_from_frame(flatten_alpha(img), detector, photo=True) if detector is not None else []
    scan = _scan(img, found)
    if scan is not None:
        return scan
    if not found:
        if detector is None:
            raise EnrollImageError("the image is not card-shaped and no detector was given to find the card in it")
        raise EnrollImageError(
            "no face-up card found in the image; photograph the card again from above, whole, on a plain"
            " background of another shade than its paper"
        )
    return max(found, key=lambda f: quad_area(f[1]))[0], None


def _scan(img: np.ndarray, found: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, float] | None:
    """The whole image as one card, when it has a card's shape and shows no card lying in it.

    A phone photo of one card is often card-shaped itself (3:2, or 4:3 on its side) with
    the card a third of it: a card found whole inside it, clear of its border, on a
    background (``_lies_inside``), makes it a photo however small the card.
    """
    if not is_card_shaped(img):
        return None
    area = img.shape[0] * img.shape[1]
    if any(quad_area(q) >= SCAN_MIN_AREA * area and _sides_touched(q, img.shape) <= 1 for _, q in found):
        return None
    if any(_lies_inside(q, img.shape) for _, q in found):
        return None
    whole = full_quad(img)
    return rectify_picture(img, whole), _proportions(whole)


def _sides_touched(quad: np.ndarray, shape: tuple[int, ...]) -> int:
    """How many of the image's sides ``quad`` (or any of its corners) reaches (within ``PHOTO_MARGIN``).

    A card found in a card-shaped image that reaches two sides or more is part of the card the
    image is (the detector, reading a scan at a photo's scale, outlined its lower half),
    not a card lying in a photo.
    """
    h, w = shape[:2]
    margin = PHOTO_MARGIN * min(h, w)
    q = np.asarray(quad, np.float32).reshape(-1, 2)
    return (
        int(q[:, 0].min() < margin)
        + int(q[:, 1].min() < margin)
        + int(q[:, 0].max() > w - margin)
        + int(q[:, 1].max() > h - margin)
    )


def _lies_inside(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """A card's outline of a card's proportions, at least ``PHOTO_MIN_AREA`` of the image, clear of its border."""
    h, w = shape[:2]
    q = np.asarray(quad, np.float32).reshape(4, 2)
    return bool(
        _sides_touched(q, shape) == 0
        and quad_area(q) >= PHOTO_MIN_AREA * h * w
        and ASPECT_RANGE[0] <= _proportions(q) <= ASPECT_RANGE[1]
    )


def _proportions(quad: np.ndarray) -> float:
    a = quad_aspect(quad)
    return max(a, 1.0 / a)


def deck_aspect(samples: Iterable[Sample]) -> float | None:
    """The median long over short side of the pictures that measured one (``Sample.aspect``), or None.

    A deck's cards share their proportions; the recogniser completes the outline of a
    half-covered card with them (``RecognizerSettings.aspect_tolerance``). Photos do not
    count: the networks drew their outlines, and they outline some decks short.
    """
    found = [s.aspect for s in samples if s.aspect is not None and 1.0 < s.aspect < 3.0]
    return float(np.median(found)) if found else None


def reading_order(quads: np.ndarray) -> list[int]:
    """Indices of ``quads`` row by row (top to bottom), left to right within a row."""
    if len(quads) == 0:
        return []
    centres = quads.mean(axis=1)
    heights = np.array([np.linalg.norm(q[0] - q[3]) for q in quads])
    row_gap = 0.5 * float(np.median(heights))
    order = list(np.argsort(centres[:, 1]))
    rows: list[list[int]] = []
    for i in order:
        if rows and centres[i, 1] - np.mean([centres[j, 1] for j in rows[-1]]) < row_gap:
            rows[-1].append(int(i))
        else:
            rows.append([int(i)])
    return [i for row in rows for i in sorted(row, key=lambda j: centres[j, 0])]


def pictures_from_frame(
    frame: np.ndarray, detector: Detector, photo: bool = False, expected: int | None = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every face-up card in a camera frame, in reading order: (upright BGRA picture, quad in frame pixels).

    ``photo``: the frame is a phone photo of cards laid out to be learnt: where the
    detector finds none, the cards are looked for by their outlines (``find_card_quads``),
    and every picture's light is evened out (``even_light``), since the photo's light is
    not the table's. A photo that shows fewer cards than ``expected`` (by default one) is
    read again (``_photo_quads_again``).
    """
    found, _scores, is_back = detector.detect_quads(frame)
    quads = found[~np.asarray(is_back, bool)]
    if photo:
        # a card laid out to be learnt is not a speck of the photo: those are its cloth's pattern or print
        quads = _large_enough(photo_quads(frame, list(quads)), frame.shape)
        if len(quads) < (expected or 1):
            quads = _photo_quads_again(frame, detector, list(found), quads, expected or 1)
    if len(quads) == 0:
        return []
    crops = np.stack([rectify(frame, q) for q in quads])
    _emb, flip = detector.embed(crops)
    out = []
    for i in reading_order(quads):
        q = rotate_half(quads[i]) if flip[i] >= 0.5 else quads[i]  # thumbnails stand upright
        picture = rectify_picture(frame, q)
        out.append((even_light(picture) if photo else picture, q))
    return out


#: Card lengths, as shares of a phone photo's short side, at which a photo that showed too few cards
#: is read again: from nine cards laid in rows to one card filling the picture.
PHOTO_LENGTHS = (0.2, 0.3, 0.45, 0.65)


def _photo_quads_again(
    photo: np.ndarray, detector: Detector, detected: list[np.ndarray], quads: np.ndarray, expected: int
) -> np.ndarray:
    """The cards of a phone photo that showed fewer than ``expected``: also the outlines the detector
    took for backs, and the detector's outlines at the card lengths a phone photo gives.

    Every card of a labelled enrolment photo is a card to learn, and the label says which: a face
    of large flat fills (a court card's panel) is a back to a detector that learnt backs from the
    training deck, and a cloth's dots or weave can set the card length the detector's search
    finds. Kept only when it finds more cards; then the ``expected`` best.
    """
    short = float(min(photo.shape[:2]))
    near: list[np.ndarray] = []
    off: list[np.ndarray] = []
    for share in PHOTO_LENGTHS:
        for q in detector.detect_quads(photo, share * short)[0]:
            (near if _near_length(q, share * short) else off).append(q)
    # An outline far off the card length searched for is the search drawn to its length (a card
    # with the shadow beside it, read at a length it does not have): where another search found
    # that card at about its own length, that outline is the card's.
    more = [*detected, *near, *(q for q in off if not any(_one_card(q, n) for n in near))]
    again = _large_enough(photo_quads(photo, more), photo.shape)
    if len(again) <= len(quads):
        return quads
    return again[:expected]


#: An outline found searching for cards of one length, and this many times longer or shorter, is kept;
#: further off, the search drew it to its length.
LENGTH_SLACK = 1.35


def _one_card(a: np.ndarray, b: np.ndarray) -> bool:
    """Do outlines ``a`` and ``b`` show one card (either's centre inside the other)?"""
    return holds(a, b.mean(axis=0)) or holds(b, a.mean(axis=0))


def _long_sides(u: np.ndarray) -> tuple[float, float]:
    """The two long sides' lengths of an ``upright`` outline."""
    return float(np.linalg.norm(u[3] - u[0])), float(np.linalg.norm(u[2] - u[1]))


def _near_length(quad: np.ndarray, length: float) -> bool:
    found = 0.5 * sum(_long_sides(upright(quad)))
    return length / LENGTH_SLACK <= found <= length * LENGTH_SLACK


def _large_enough(quads: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The outlines of at least ``cutout.MIN_AREA`` of a photo, the smallest card the edge finder takes."""
    least = MIN_AREA * shape[0] * shape[1]
    return quads[[quad_area(q) >= least for q in quads]] if len(quads) else quads


def photo_quads(photo: np.ndarray, detected: list[np.ndarray]) -> np.ndarray:
    """The cards of a phone photo: the detector's outlines and the edge finder's, each moved to the
    card's outer edge (``refine_to_edges``), one per card.

    Of two outlines of one card (one centre inside the other), one of a card's shape wins
    over one out of it, then one with paper along its long sides (``paper_margins``), then
    the larger.

    The detector outlines some decks short and misses some court cards on a busy cloth;
    the edge finder can take a court card's inner frame or miss a card on a pale cloth.
    Together, pushed to the paper's edge, they find and cut each card whole.
    """
    candidates = [_cut_back(refine_to_edges(photo, q), photo.shape) for q in [*detected, *find_card_quads(photo)]]
    # of two outlines of one card, one of a card's shape with paper at its margins is the card; one
    # that is not (the card with its shadow or the hand, the edges found no further) gives way to it
    candidates.sort(
        key=lambda q: (
            not CARD_SHAPE[0] <= _proportions(q) <= CARD_SHAPE[1],
            not paper_margins(photo, q),
            -quad_area(q),
        )
    )
    kept: list[np.ndarray] = []
    for q in candidates:
        inside = [n for n, k in enumerate(kept) if holds(k, q.mean(axis=0))]
        if not inside:
            kept.append(q)
        elif _runs_off(kept[inside[0]], q, photo.shape):
            kept[inside[0]] = q
    return np.array(kept, np.float32).reshape(-1, 4, 2)


#: A playing card's long over short side (Jass cards 58 x 90 mm; French decks 1.53-1.60).
CARD_ASPECT = 1.56
#: An outline this much longer than ``CARD_ASPECT`` (up to ``ASPECT_RANGE``'s longest) that runs off the
#: photo at one end is cut back there.
TOO_LONG = 1.05


def _cut_back(quad: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``quad`` shortened to a card's proportions at its end that runs off the photo, where it is too long.

    A white card on a pale background: the detector, unsure where the paper ends, runs the
    outline on to the photo's edge, and the edge finder finds no edge to move it back to.
    The other end and the long sides are the card's own; the card's proportions give its
    length from them. Left alone, the photo would be taken whole, as a scan of the card.
    """
    u = upright(quad).astype(np.float64)
    width = 0.5 * (np.linalg.norm(u[1] - u[0]) + np.linalg.norm(u[2] - u[3]))
    sides = _long_sides(u)
    if width <= 0 or not CARD_ASPECT * TOO_LONG * width < min(sides) <= max(sides) <= ASPECT_RANGE[1] * width:
        return quad  # of a card's length, or far too long to be one card run on (two cards, a hand)
    top, bottom = _sides_touched(u[:2], shape) > 0, _sides_touched(u[2:], shape) > 0
    if top == bottom:
        return quad
    length = CARD_ASPECT * width
    if bottom:  # keep the top end: each long side from its top corner, the card's length long
        u[3] = u[0] + (u[3] - u[0]) * length / sides[0]
        u[2] = u[1] + (u[2] - u[1]) * length / sides[1]
    else:
        u[0] = u[3] + (u[0] - u[3]) * length / sides[0]
        u[1] = u[2] + (u[1] - u[2]) * length / sides[1]
    return u.astype(np.float32)


#: Two outlines of one card whose areas differ by less than this factor are two takes of its whole outline.
SAME_SIZE = 1.25


def _runs_off(kept: np.ndarray, other: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Is ``kept`` an outline of the card run off to the photo's border, where ``other`` of about its size lies clear?

    A card laid out to be learnt lies in the photo; the detector, unsure of a card's
    faint end on a pale background, can stretch the outline to the photo's edge (the
    card's length is then kept, so both pass as card-shaped). The edge finder's outline of
    the same size, clear of every border, is the card's own edge. An outline much smaller
    than the kept one is a court card's inner frame and does not replace it.
    """
    ratio = quad_area(kept) / max(quad_area(other), 1.0)
    return _sides_touched(kept, shape) > 0 and _sides_touched(other, shape) == 0 and 1 / SAME_SIZE <= ratio <= SAME_SIZE
