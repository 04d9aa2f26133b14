"""Pure geometry shared by inference and training: letterboxing, corner order, crops, NMS.

Training imports these same functions, so the pixels the networks learn from are made
exactly as the pixels they see at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Detector input side (square, letterboxed) and output stride.
DETECTOR_SIZE: int = 320
DETECTOR_STRIDE: int = 8
#: Corner offsets are regressed in units of this many input pixels.
CORNER_SCALE: float = 32.0
#: Identifier crop: width x height of the upright card, in pixels.
CROP_W: int = 64
CROP_H: int = 96
#: Letterbox padding value (mid grey, so padding looks like neither table nor card).
PAD_VALUE: int = 114


@dataclass(frozen=True)
class Letterbox:
    """How a frame was mapped into the square detector input: ``input = frame * scale + (dx, dy)``."""

    scale: float
    dx: float
    dy: float

    def to_frame(self, pts: np.ndarray) -> np.ndarray:
        """Map input-pixel points (..., 2) back to frame pixels."""
        out = np.asarray(pts, dtype=np.float32).copy()
        out[..., 0] = (out[..., 0] - self.dx) / self.scale
        out[..., 1] = (out[..., 1] - self.dy) / self.scale
        return out

    def to_input(self, pts: np.ndarray) -> np.ndarray:
        """Map frame-pixel points (..., 2) into input pixels."""
        out = np.asarray(pts, dtype=np.float32).copy()
        out[..., 0] = out[..., 0] * self.scale + self.dx
        out[..., 1] = out[..., 1] * self.scale + self.dy
        return out


def resized(frame: np.ndarray, width: int, height: int) -> np.ndarray:
    """``frame`` resized to ``width`` x ``height``: halved by averaging, then interpolated.

    Why not one ``INTER_AREA`` resize: OpenCV averages fast only by a whole factor; at
    any other factor (0.53 or 0.73, what a 1280 x 960 frame at the guide's mounting
    needs) it took 20-40 times as long as the detector's whole preprocessing should. So
    the frame is first averaged by the largest whole factor that does not shrink it more
    than about 10 % past the target (the pixels are cut to a multiple of it at the right
    and bottom, under a pixel of the result), and the rest is bilinear, a factor of 0.5-1.1
    that aliases little.
    """
    h, w = frame.shape[:2]
    if width <= 0 or height <= 0:
        raise ValueError(f"size must be positive, got {width} x {height}")
    if width == w and height == h:
        return frame.copy()
    while min(frame.shape[1] / width, frame.shape[0] / height) * 1.1 >= 2.0 and min(frame.shape[:2]) >= 2:
        fh, fw = frame.shape[:2]
        frame = cv2.resize(frame[: fh // 2 * 2, : fw // 2 * 2], (fw // 2, fh // 2), interpolation=cv2.INTER_AREA)
    if frame.shape[1] == width and frame.shape[0] == height:
        return frame
    return cv2.resize(frame, (width, height), interpolation=cv2.INTER_LINEAR)


def letterbox(frame: np.ndarray, size: int = DETECTOR_SIZE) -> tuple[np.ndarray, Letterbox]:
    """Resize ``frame`` to fit a ``size`` x ``size`` square keeping its aspect, centred on grey."""
    h, w = frame.shape[:2]
    scale = min(size / w, size / h)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    dx, dy = (size - nw) // 2, (size - nh) // 2
    out = np.full((size, size, 3), PAD_VALUE, dtype=np.uint8)
    out[dy : dy + nh, dx : dx + nw] = resized(frame, nw, nh)
    # Exact scale per axis differs by rounding; use the mean so the mapping stays one number.
    return out, Letterbox(scale=(nw / w + nh / h) / 2, dx=float(dx), dy=float(dy))


def scaled_input(frame: np.ndarray, scale: float, multiple: int = 32) -> tuple[np.ndarray, Letterbox]:
    """Resize ``frame`` by ``scale`` and pad it right and bottom to a multiple of ``multiple`` px.

    For a detector that reads any input size: the input keeps the frame's shape (no square
    letterbox wasting a 16:9 frame's top and bottom), and ``scale`` brings the cards to the
    size the detector reads best whatever the mounting.
    """
    h, w = frame.shape[:2]
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    pw, ph = -(-nw // multiple) * multiple, -(-nh // multiple) * multiple
    out = np.full((ph, pw, 3), PAD_VALUE, dtype=np.uint8)
    out[:nh, :nw] = resized(frame, nw, nh)
    return out, Letterbox(scale=(nw / w + nh / h) / 2, dx=0.0, dy=0.0)


#: Corner orders: each corner's next one, and a quad turned by one and by two corners.
#: (Index arrays, not ``np.roll``: these run dozens of times a frame, in every NMS pair,
#: and ``np.roll`` cost the recogniser about a tenth of its time.)
_NEXT = np.array([1, 2, 3, 0])
_HALF = np.array([2, 3, 0, 1])
_REVERSED = np.array([0, 3, 2, 1])


def clockwise(quad: np.ndarray) -> np.ndarray:
    """Return the quad's 4 points in clockwise order (image coordinates, y down), same start."""
    q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    # Shoelace sign: positive area in image coordinates (y down) means clockwise.
    x, y = q[:, 0], q[:, 1]
    area = float(np.dot(x, y[_NEXT]) - np.dot(x[_NEXT], y))
    if area < 0:
        q = q[_REVERSED]
    return q


def canonical_corners(quad: np.ndarray) -> np.ndarray:
    """Order a card quad clockwise with corners 0->1 along a short edge (the card's top or bottom).

    Of the two such orders (a card outline is symmetric under a half turn) the one whose
    first edge points more to the right is chosen, i.e. the card read as closer to upright;
    the identifier then says whether the artwork is really upside down.
    """
    q = clockwise(quad)
    d = q[_NEXT] - q
    sides = np.sqrt((d * d).sum(axis=1))  # 0-1, 1-2, 2-3, 3-0
    e01, e12 = sides[0] + sides[2], sides[1] + sides[3]
    if e01 > e12:
        q = q[_NEXT]
    d = q[1] - q[0]
    if d[0] < 0 or (d[0] == 0 and d[1] < 0):
        q = q[_HALF]
    return q


def rotate_half(quad: np.ndarray) -> np.ndarray:
    """The same quad read upside down: corner 2 becomes corner 0."""
    return np.asarray(quad, dtype=np.float32).reshape(4, 2)[_HALF]


#: An outline's own frame: its corners (clockwise from corner 0) at the unit square's.
UNIT_QUAD = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], np.float32)


def in_outline_frame(outline: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad``'s corners (4, 2) in the unit frame of ``outline`` (which maps to ``UNIT_QUAD``), taken in the
    corner order that lies closest to the outline's own (a card's corners have no order of their own)."""
    m = cv2.getPerspectiveTransform(np.asarray(outline, np.float32).reshape(4, 2), UNIT_QUAD)
    pts = cv2.perspectiveTransform(np.asarray(quad, np.float32).reshape(1, 4, 2), m)[0]
    best = min(range(4), key=lambda k: float(np.abs(np.roll(pts, -k, axis=0) - UNIT_QUAD).sum()))
    return np.roll(pts, -best, axis=0).astype(np.float32)


def from_outline_frame(outlines: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The points ``corners`` (4, 2), given in each outline's unit frame, in frame pixels: (K, 4, 2)."""
    outlines = np.asarray(outlines, np.float32).reshape(-1, 4, 2)
    pts = np.asarray(corners, np.float32).reshape(1, 4, 2)
    out = [cv2.perspectiveTransform(pts, cv2.getPerspectiveTransform(UNIT_QUAD, q))[0] for q in outlines]
    return np.stack(out).astype(np.float32) if out else np.zeros((0, 4, 2), np.float32)


def half_turn_mean(corners: np.ndarray) -> np.ndarray:
    """``corners`` (4, 2) in a unit frame averaged with their half turn: a card's two ends look alike
    to a detector, which gives corner 0 at either end."""
    c = np.asarray(corners, np.float32).reshape(4, 2)
    return ((c + (1.0 - np.roll(c, -2, axis=0))) / 2.0).astype(np.float32)


def mean_sides(q: np.ndarray) -> tuple[float, float]:
    """(mean of sides 0-1 and 2-3, mean of sides 1-2 and 3-0) of a card outline."""
    return (
        float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2,
        float(np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[3] - q[0])) / 2,
    )


def quad_aspect(quad: np.ndarray) -> float:
    """Long over short side of a card outline (corners 0->1 a short side, as ``canonical_corners`` orders them)."""
    short, long = mean_sides(np.asarray(quad, np.float32).reshape(4, 2))
    return long / max(short, 1e-6)


def quad_area(quad: np.ndarray) -> float:
    """Area of a quad in pixels, whichever way round its corners go."""
    return abs(float(cv2.contourArea(np.asarray(quad, np.float32).reshape(4, 2))))


def completed_outlines(quad: np.ndarray, aspect: float) -> np.ndarray:
    """The four outlines (4, 4, 2) of a card of ``aspect`` (long / short side) that keep one side of ``quad``.

    Each keeps one side where it is and moves the opposite side along the two sides that
    meet it, to the distance the card's proportions give: keep the short side 0-1, the
    short side 2-3, the long side 1-2, the long side 3-0. Why: a card partly under
    another card or a hand shows three of its sides, and an outline network guesses the
    hidden one, often at the edge of what covers it; the crop of such an outline is the
    card squeezed or stretched, and the card's own proportions say where the side is.
    Two of the four grow ``quad`` and two shrink it; the recogniser limits how much a
    shrinking one may cut (``RecognizerSettings.aspect_cut``).
    """
    q = np.asarray(quad, np.float64).reshape(4, 2)

    def toward(a: np.ndarray, b: np.ndarray, length: float) -> np.ndarray:
        d = b - a
        return a + d * (length / max(float(np.linalg.norm(d)), 1e-6))

    short, long = mean_sides(q)
    to_long, to_short = aspect * short, long / aspect
    out = np.repeat(q[None], 4, axis=0)
    out[0, 2], out[0, 3] = toward(q[1], q[2], to_long), toward(q[0], q[3], to_long)
    out[1, 1], out[1, 0] = toward(q[2], q[1], to_long), toward(q[3], q[0], to_long)
    out[2, 0], out[2, 3] = toward(q[1], q[0], to_short), toward(q[2], q[3], to_short)
    out[3, 1], out[3, 2] = toward(q[0], q[1], to_short), toward(q[3], q[2], to_short)
    return out.astype(np.float32)


def card_sized_outlines(quad: np.ndarray, short: float, long: float) -> np.ndarray:
    """The 16 outlines (16, 4, 2) of a ``short`` x ``long`` card that start at a corner of ``quad``
    and run along one of its sides.

    For each side of ``quad`` and each of its two ends: the card laid from that end along
    the side, with the side as its short or its long edge, reaching into ``quad`` (towards
    its centre). Why: where a card leaves the frame, or lies under a hand or a glass, an
    outline network guesses the hidden part, and sometimes takes the visible part's long
    edge for a short one; the other cards on the table say how large a card is, and of
    the outlines that keep one seen corner and edge, one is the card's.
    """
    q = np.asarray(quad, np.float64).reshape(4, 2)
    centre = q.mean(axis=0)
    out = []
    for k in range(4):
        for start, end in ((q[k], q[(k + 1) % 4]), (q[(k + 1) % 4], q[k])):
            along = (end - start) / max(float(np.linalg.norm(end - start)), 1e-6)
            inward = np.array([-along[1], along[0]])
            if float(np.dot(centre - start, inward)) < 0:
                inward = -inward
            for edge, depth in ((short, long), (long, short)):
                out.append([start, start + edge * along, start + edge * along + depth * inward, start + depth * inward])
    return np.asarray(out, np.float32)


def rectify(
    frame: np.ndarray,
    quad: np.ndarray,
    w: int = CROP_W,
    h: int = CROP_H,
    *,
    labels: bool = False,
) -> np.ndarray:
    """Warp the card ``quad`` (clockwise, corner 0 = top-left of the artwork) to an upright w x h crop.

    ``labels``: ``frame`` is a label map, not a picture: nearest pixels, 0 outside the frame
    (the crop's pixels then say exactly what lies under each of them).
    """
    # Corners go to the outer pixel edges (-0.5 .. n - 0.5), so a half turn of the quad gives
    # exactly the crop turned by 180 degrees: the flip augmentation in training matches this.
    dst = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(quad, dtype=np.float32).reshape(4, 2), dst)
    if labels:
        return cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
    return cv2.warpPerspective(frame, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def quad_box(quad: np.ndarray) -> tuple[float, float, float, float]:
    """Axis-aligned box (x0, y0, x1, y1) around a quad."""
    q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))


def quad_lengths(quads: np.ndarray) -> np.ndarray:
    """Each quad's long side, the mean of its two longer opposite sides, for (K, 4, 2) quads."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    sides = np.linalg.norm(q - q[:, [1, 2, 3, 0]], axis=2)
    return np.maximum(sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]) / 2


def quad_areas(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """(area of a, area of b, area of their intersection) of two convex quads, in pixels."""
    pa = clockwise(a).astype(np.float32)
    pb = clockwise(b).astype(np.float32)
    area_a = abs(cv2.contourArea(pa))
    area_b = abs(cv2.contourArea(pb))
    if area_a <= 0 or area_b <= 0:
        return area_a, area_b, 0.0
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    return area_a, area_b, max(float(inter), 0.0)


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (polygon areas, not boxes)."""
    pa, pb = np.asarray(a).reshape(4, 2), np.asarray(b).reshape(4, 2)
    lo_a, hi_a, lo_b, hi_b = pa.min(axis=0), pa.max(axis=0), pb.min(axis=0), pb.max(axis=0)
    if (hi_a < lo_b).any() or (hi_b < lo_a).any():
        return 0.0  # boxes apart: most pairs NMS compares, answered without the polygons
    area_a, area_b, inter = quad_areas(a, b)
    union = area_a + area_b - inter
    return inter / union if union > 0 and area_a > 0 and area_b > 0 else 0.0


def nms_quads(quads: np.ndarray, scores: np.ndarray, iou_threshold: float) -> list[int]:
    """Greedy non-maximum suppression on quads by polygon IoU; returns kept indices, best first."""
    order = list(np.argsort(-np.asarray(scores), kind="stable"))
    keep: list[int] = []
    for i in order:
        if all(quad_iou(quads[i], quads[j]) <= iou_threshold for j in keep):
            keep.append(int(i))
    return keep
