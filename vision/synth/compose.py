"""Placing one card on the table: its pose, its warp into the ideal image, its shadow.

A card is warped only into the small region of the frame it covers (not the whole
frame), which is what keeps a scene with a dozen cards fast.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.camera import Camera


@dataclass(frozen=True)
class Pose:
    """A card on the table: centre and height in table pixels, rotation in degrees.

    ``angle`` 0 is upright (artwork top toward the top of the image, as seat 0 at the
    bottom edge sees it); positive angles turn the card clockwise on screen.
    """

    x: float
    y: float
    height: float
    angle: float
    aspect: float = 316 / 492  # width / height of the card

    def affine(self, src_w: int, src_h: int) -> np.ndarray:
        """3x3 matrix from source art pixels to table coordinates."""
        s = self.height / src_h
        a = np.deg2rad(self.angle)
        c, si = np.cos(a) * s, np.sin(a) * s
        tx = self.x - (c * src_w / 2 - si * src_h / 2)
        ty = self.y - (si * src_w / 2 + c * src_h / 2)
        return np.array([[c, -si, tx], [si, c, ty], [0, 0, 1]], np.float64)

    def corners(self) -> np.ndarray:
        """The four card corners in table coordinates: TL, TR, BR, BL of the upright artwork."""
        w, h = self.height * self.aspect, self.height
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        a = np.deg2rad(self.angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        return local @ rot.T + [self.x, self.y]

    def outline(self, per_edge: int = 8) -> np.ndarray:
        """Points along the card's edges in table coordinates (for boxes under distortion)."""
        c = self.corners()
        t = np.linspace(0, 1, per_edge, endpoint=False)[:, None]
        return np.concatenate([c[i] + (c[(i + 1) % 4] - c[i]) * t for i in range(4)])


def inset_quad(quad: np.ndarray, d: float = 0.5) -> np.ndarray:
    """Move each edge of a convex quad ``d`` pixels inward (miter offset).

    OpenCV fills a polygon together with its outline, about half a pixel too far all
    round; filling the half-pixel inset makes the filled pixel count match the true
    area, which the visible fraction divides by.
    """
    q = np.asarray(quad, np.float64)
    e = np.roll(q, -1, axis=0) - q
    e /= np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-9)
    sign = 1.0 if (e[:, 0] * np.roll(e, -1, axis=0)[:, 1] - e[:, 1] * np.roll(e, -1, axis=0)[:, 0]).sum() > 0 else -1.0
    n = sign * np.stack([-e[:, 1], e[:, 0]], axis=1)  # inward normals of edge i (from vertex i to i+1)
    n_prev = np.roll(n, 1, axis=0)
    denom = np.maximum(1.0 + (n * n_prev).sum(axis=1, keepdims=True), 1e-3)
    return q + d * (n + n_prev) / denom


def fill_quad(labels: np.ndarray, quad: np.ndarray, label: int) -> None:
    """Mark the pixels whose centres lie inside ``quad`` with ``label``."""
    pts = np.round(inset_quad(quad) * 16).astype(np.int32)
    cv2.fillConvexPoly(labels, pts, int(label), lineType=cv2.LINE_8, shift=4)


def paste_card(
    canvas: np.ndarray,
    labels: np.ndarray,
    art: np.ndarray,
    pose: Pose,
    camera: Camera,
    label: int,
    *,
    shadow: float = 0.3,
    shadow_offset: tuple[float, float] = (2.0, 3.0),
    lift: float = 0.0,
) -> None:
    """Warp BGRA ``art`` onto ``canvas`` (ideal image) at ``pose`` and mark its quad in ``labels``.

    ``lift`` > 0 makes the card look raised (being laid down): larger, softer shadow.
    """
    sh, sw = art.shape[:2]
    # the art's pixel centres span -0.5..w-0.5; map its outer edge onto the pose's edge
    A = pose.affine(sw, sh) @ np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]], np.float64)
    M = camera.H @ A
    quad = camera.to_ideal(pose.corners())
    h, w = canvas.shape[:2]
    off = np.array(shadow_offset) * (1 + 3 * lift)
    margin = int(np.ceil(max(abs(off[0]), abs(off[1])) + 6 + 8 * lift))
    x0 = max(int(np.floor(quad[:, 0].min())) - margin, 0)
    y0 = max(int(np.floor(quad[:, 1].min())) - margin, 0)
    x1 = min(int(np.ceil(quad[:, 0].max())) + margin + 1, w)
    y1 = min(int(np.ceil(quad[:, 1].max())) + margin + 1, h)
    if x1 <= x0 or y1 <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ M
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(art, T, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    alpha = warped[..., 3].astype(np.float32) * (1.0 / 255.0)
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        shift = np.array([[1, 0, off[0]], [0, 1, off[1]]], np.float32)
        sm = cv2.warpAffine(alpha, shift, (alpha.shape[1], alpha.shape[0]))
        sm = cv2.GaussianBlur(sm, (0, 0), 1.5 + 4 * lift)
        roi *= (1.0 - shadow * (1 - 0.5 * lift) * sm)[..., None]
    a3 = alpha[..., None]
    roi = roi * (1 - a3) + warped[..., :3].astype(np.float32) * a3
    canvas[y0:y1, x0:x1] = roi.astype(np.uint8)
    fill_quad(labels, quad, label)
