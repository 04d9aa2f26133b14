"""Corner refinement: snap a detected card outline to the card's own edges in the image.

Why: the detector regresses corners on a 320-pixel letterboxed frame, a few pixels off at
full resolution; a crop a few pixels off cuts away or adds a strip of the edge where the
index and the pips are, which is where an unfamiliar (enrolled) deck is most often
misread. A card's border against the table is the strongest edge near each side of the
outline, so each side is moved onto it: a robust line fit through the strongest gradient
across the side at a few points, and the corners are the sides' intersections. Where a
side does not show a clear edge (a hand, another card on it, a table of the card's
colour) the outline is left as the detector gave it.
"""

from __future__ import annotations

import cv2
import numpy as np

#: How far across a side (fraction of the card's short side) its edge is looked for.
SEARCH = 0.12
#: Points sampled along each side (its middle 60 %, away from corners and rounding).
SAMPLES = 16
#: Gradient (grey levels per pixel) an edge point must reach to count.
MIN_GRADIENT = 8.0


def edge_image(frame: np.ndarray) -> np.ndarray:
    """The float32 grey image the sides are searched in (slightly smoothed)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return cv2.GaussianBlur(grey, (3, 3), 0)


def refine_quads(frame: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """Every quad (K, 4, 2) of ``frame`` refined by ``refine_quad``.

    The grey image is made only for the part of the frame the sides are searched in (the
    quads' bounding box, widened by the search reach and a few pixels for the blur and
    the interpolation), not the whole frame, which is on the per-frame path (the saving
    is in models/README.md, "Measurements behind the runtime's choices"). The shifted
    coordinates' float rounding can tip an edge point's strongest-gradient pick, so a
    corner may land a pixel away from where the whole-frame search puts it.
    """
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    if len(q) == 0:
        return q
    h, w = frame.shape[:2]
    longest = float(np.linalg.norm(np.diff(q, axis=1, append=q[:, :1]), axis=2).max())
    margin = int(np.ceil(max(3.0, SEARCH * longest))) + 3
    lo, hi = q.reshape(-1, 2).min(axis=0), q.reshape(-1, 2).max(axis=0)
    x0, y0 = max(0, int(np.floor(lo[0])) - margin), max(0, int(np.floor(lo[1])) - margin)
    x1, y1 = min(w, int(np.ceil(hi[0])) + margin + 1), min(h, int(np.ceil(hi[1])) + margin + 1)
    if x1 <= x0 or y1 <= y0:  # every quad lies outside the frame: nothing to snap to
        return q
    grey = edge_image(frame[y0:y1, x0:x1])
    offset = np.array([x0, y0], np.float32)
    return np.stack([refine_quad(grey, k - offset) + offset for k in q])


def refine_quad(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (4, 2) with each side moved onto the card edge found near it, corner order
    kept; unchanged when a side shows no clear edge or a corner would move too far."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    centre = q.mean(axis=0)
    side = min(float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[2] - q[1])))
    reach = max(3.0, SEARCH * side)
    offsets = np.arange(-reach, reach + 1.0, 1.0, dtype=np.float32)
    lines = []
    for k in range(4):
        a, b = q[k], q[(k + 1) % 4]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 4.0:
            return q
        normal = np.array([-d[1], d[0]], np.float32) / length
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal
        base = a[None] + np.linspace(0.2, 0.8, SAMPLES, dtype=np.float32)[:, None] * d[None]
        pts = base[:, None, :] + offsets[None, :, None] * normal[None, None, :]
        profile = cv2.remap(
            grey,
            np.ascontiguousarray(pts[..., 0]),
            np.ascontiguousarray(pts[..., 1]),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        grad = np.abs(np.diff(profile, axis=1))
        best = grad.argmax(axis=1)
        strength = grad[np.arange(SAMPLES), best]
        found = base + (offsets[best] + 0.5)[:, None] * normal[None]
        keep = strength > max(MIN_GRADIENT, 0.5 * float(np.median(strength)))
        if keep.sum() < SAMPLES // 3:
            return q
        vx, vy, x0, y0 = cv2.fitLine(found[keep], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    out = np.empty((4, 2), np.float32)
    for k in range(4):
        (p1, d1), (p2, d2) = lines[(k - 1) % 4], lines[k]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return q
        t = np.linalg.solve(m, p2 - p1)
        out[k] = p1 + t[0] * d1
    if float(np.max(np.linalg.norm(out - q, axis=1))) > reach:
        return q
    return out
