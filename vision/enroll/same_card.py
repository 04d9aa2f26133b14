"""Do two enrolment pictures show the same card? Judged by the ink, where a 7 and an 8 differ.

Why: the duplicate check first asks the identifier's embedding, which sums up a card's
overall look; a 7 and an 8 of one suit look alike overall (a real deck's Schaufel 7 and
8 came out at cosine 0.88 and were reported as one card labelled twice). What tells them
apart is a pip more or less, laid elsewhere, and the index. So two pictures the
embedding calls alike are compared ink against ink: each picture's ink (how much darker
or more coloured than its paper each point is) at a coarse size, aligned over small
shifts and either way up; ink in one that the other has nowhere near, in a blob the size
of a pip or an index numeral, makes them two cards. The same card photographed twice
differs only in thin slivers (a cut a pixel off, blur) and in what light does: a glare
spot can hide ink, which makes a true duplicate look different, never two cards alike,
so the check errs towards not crying wolf.
"""

from __future__ import annotations

import cv2
import numpy as np

#: The size pictures are compared at (columns, rows): a pip is about 8 x 8 of it.
SIZE = (80, 120)
#: Ink: at least this much darker or more coloured than the paper, as a share of the paper.
INK = 0.3
#: Shifts tried in each direction, in pixels at ``SIZE``.
SHIFT = 4
#: Ink one picture has and the other lacks within ``NEAR`` pixels, in one blob at least this
#: large (pixels at ``SIZE``), is a difference of print: a pip is about 100 of them, and
#: light and blur leave the same number card photographed twice well below (measured in
#: vision/enroll/README.md, "The duplicate check").
BLOB = 70
NEAR = 2
#: A blob longer than this many times its width is no print.
ELONGATED = 3
#: The rim of the card (its cut edge, rounded corners, a neighbour's edge) is not compared.
RIM = 0.05


def ink_map(picture: np.ndarray) -> np.ndarray:
    """(rows, columns) bool: where the card is printed, against its own paper, at ``SIZE``."""
    bgr = cv2.resize(picture[..., :3], SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    # the paper near each point: the brightest the card is around it, per channel
    paper = cv2.dilate(bgr, np.ones((15, 15), np.uint8))
    paper = cv2.GaussianBlur(paper, (0, 0), 4.0)
    darker = ((paper - bgr) / (paper + 8.0)).max(axis=2)
    ink = darker >= INK
    h, w = ink.shape
    ry, rx = int(RIM * h), int(RIM * w)
    ink[:ry], ink[-ry:], ink[:, :rx], ink[:, -rx:] = False, False, False, False
    return np.asarray(ink)


def _largest_lack(a: np.ndarray, b_near: np.ndarray) -> int:
    """Pixels of the largest blob of ink in ``a`` that ``b_near`` (the other's ink, grown) does not cover."""
    lack = (a & ~b_near).astype(np.uint8)
    lack = cv2.morphologyEx(lack, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(lack, connectivity=8)
    if n <= 1:
        return 0
    w, h = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
    # a pip or a numeral is compact; a long thin blob is a strip of hand or table along a cut edge
    compact = np.maximum(w, h) <= ELONGATED * np.minimum(w, h)
    areas = stats[1:, cv2.CC_STAT_AREA][compact]
    return int(areas.max()) if len(areas) else 0


def print_difference(first: np.ndarray, second: np.ndarray) -> int:
    """The largest blob of print one picture has and the other lacks, at the best alignment (pixels at ``SIZE``)."""
    a = ink_map(first)
    best = None
    kernel = np.ones((2 * NEAR + 1, 2 * NEAR + 1), np.uint8)
    for b in (ink_map(second), ink_map(second[::-1, ::-1])):
        for dy in range(-SHIFT, SHIFT + 1, 2):
            for dx in range(-SHIFT, SHIFT + 1, 2):
                moved = np.roll(b, (dy, dx), axis=(0, 1))
                a_near = cv2.dilate(a.astype(np.uint8), kernel).astype(bool)
                b_near = cv2.dilate(moved.astype(np.uint8), kernel).astype(bool)
                worst = max(_largest_lack(a, b_near), _largest_lack(moved, a_near))
                best = worst if best is None else min(best, worst)
    return int(best or 0)


def same_print(first: np.ndarray, second: np.ndarray) -> bool:
    """Could the two pictures (upright BGR/BGRA, any size) show one card? False when their print differs
    by a blob the size of a pip or an index numeral (``BLOB``) at every alignment tried."""
    return print_difference(first, second) < BLOB
