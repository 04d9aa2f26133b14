"""The camera over the table: geometry (perspective, lens distortion) and image defects.

Geometry: scene objects are placed in table coordinates (a canvas the size of the
image, seat 0 at the bottom edge); ``Camera.H`` maps them to an ideal pinhole image and a
radial barrel distortion bends that into the final frame. The distortion is applied as
a remap whose source never leaves the ideal image (the frame corners map to themselves),
so nothing outside the rendered canvas is ever sampled. ``Camera.project`` applies the
same two steps to points, which is how ground-truth corners stay exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.synth.textures import fine_noise, smooth_noise

K_STEP = 0.01


@lru_cache(maxsize=64)
def _distortion_maps(w: int, h: int, k_steps: int) -> tuple[np.ndarray, np.ndarray]:
    k = k_steps * K_STEP
    cx, cy, radius = (w - 1) / 2.0, (h - 1) / 2.0, np.hypot(w - 1, h - 1) / 2.0
    s = 1.0 / (1.0 + k)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ux, uy = (xx - cx) / radius, (yy - cy) / radius
    f = s * (1.0 + k * (ux * ux + uy * uy))
    return (cx + ux * f * radius).astype(np.float32), (cy + uy * f * radius).astype(np.float32)


@dataclass(frozen=True)
class Camera:
    width: int
    height: int
    H: np.ndarray  # 3x3, table -> ideal image
    k_steps: int = 0  # barrel distortion in units of K_STEP

    @classmethod
    def random(
        cls,
        rng: np.random.Generator,
        width: int,
        height: int,
        strength: float = 1.0,
        k_steps: int | None = None,
    ) -> Camera:
        """Mild perspective (a slightly tilted camera), a little rotation and zoom, barrel distortion
        (``k_steps``: as given, e.g. by a ``Geometry``'s lens, else drawn mild)."""
        w, h = width, height
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        angle = np.deg2rad(rng.uniform(-4, 4) * strength)
        zoom = 1.0 + rng.uniform(-0.08, 0.06) * strength
        c = np.array([w / 2, h / 2], np.float32)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]], np.float32)
        dst = (src - c) @ rot.T * zoom + c
        dst += rng.uniform(-0.04, 0.04, (4, 2)).astype(np.float32) * np.array([w, h], np.float32) * strength
        H = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        drawn = int(rng.integers(0, 13)) if strength > 0 else 0
        return cls(w, h, H, drawn if k_steps is None else k_steps)

    @classmethod
    def ideal(cls, width: int, height: int) -> Camera:
        return cls(width, height, np.eye(3), 0)

    def distort(self, img: np.ndarray, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
        """Apply lens distortion to an ideal-camera image (or label map, with INTER_NEAREST)."""
        if self.k_steps == 0:
            return img
        mx, my = _distortion_maps(self.width, self.height, self.k_steps)
        return cv2.remap(img, mx, my, interpolation, borderMode=cv2.BORDER_REPLICATE)

    def to_ideal(self, pts: np.ndarray) -> np.ndarray:
        """Table coordinates -> ideal image (perspective only)."""
        p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(p, self.H).reshape(-1, 2)

    def ideal_to_frame(self, pts: np.ndarray) -> np.ndarray:
        """Ideal image -> distorted frame: invert the remap's radial polynomial by Newton steps."""
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        if self.k_steps == 0:
            return p.copy()
        k = self.k_steps * K_STEP
        s = 1.0 / (1.0 + k)
        cx, cy = (self.width - 1) / 2.0, (self.height - 1) / 2.0
        radius = np.hypot(self.width - 1, self.height - 1) / 2.0
        d = (p - [cx, cy]) / radius
        rp = np.hypot(d[:, 0], d[:, 1])
        r = rp.copy()
        for _ in range(20):
            f = s * r * (1 + k * r * r) - rp
            r = r - f / (s * (1 + 3 * k * r * r))
        scale = np.divide(r, rp, out=np.ones_like(rp), where=rp > 1e-12)
        return d * scale[:, None] * radius + [cx, cy]

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Table coordinates -> final frame pixels."""
        return self.ideal_to_frame(self.to_ideal(pts))


# ---------------------------------------------------------------- photometric defects


@dataclass(frozen=True)
class Light:
    """One lighting situation: a per-pixel, per-channel gain (uneven, tinted light and
    soft shadows) plus additive glare; fixed for a video, drawn anew for each scene."""

    gain: np.ndarray  # H x W x 3 float32
    glare: np.ndarray | None  # H x W float32, added in grey levels

    def apply(self, img: np.ndarray) -> np.ndarray:
        out = img.astype(np.float32) * self.gain
        if self.glare is not None:
            out += self.glare[..., None]
        return np.clip(out, 0, 255).astype(np.uint8)


def random_light(rng: np.random.Generator, h: int, w: int, d: float) -> Light:
    """Uneven light, warm or cold, darker when hard, with glare spots (more when hard)."""
    yy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    xx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    gx, gy = rng.uniform(-1, 1, 2) * (0.1 + 0.35 * d)
    gain = 1.0 + gx * xx + gy * yy + smooth_noise(rng, h, w, 3) * (0.04 + 0.12 * d)
    vignette = rng.uniform(0.0, 0.35) * (0.3 + d)
    gain = gain - vignette * (xx * xx + yy * yy) / 2
    level = rng.uniform(0.85, 1.15) if d < 0.5 else rng.uniform(0.35, 1.1)  # low light when hard
    # lamp colour: warm (incandescent) .. cold (daylight / LED)
    temp = rng.uniform(-1, 1)
    tint = np.array([1.0 - 0.12 * temp * (0.5 + d), 1.0, 1.0 + 0.12 * temp * (0.5 + d)], np.float32)  # B, G, R
    gain3 = (gain * level)[..., None] * tint
    glare_total: np.ndarray | None = None
    # specular glare: small, bright patches (a lamp mirrored in glossy card or table)
    for _ in range(int(rng.poisson(0.2 + 1.0 * d))):
        spot = np.zeros((h // 4, w // 4), np.float32)
        c = (int(rng.integers(0, w // 4)), int(rng.integers(0, h // 4)))
        axes = (int(rng.integers(2, 7 + round(10 * d))), int(rng.integers(1, 5 + round(6 * d))))
        cv2.ellipse(spot, c, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        glare = np.asarray(cv2.resize(cv2.GaussianBlur(spot, (0, 0), 1.5 + 2.5 * rng.random()), (w, h)), np.float32)
        glare *= rng.uniform(50, 110 + 120 * d)
        glare_total = glare if glare_total is None else glare_total + glare
    return Light(gain3.astype(np.float32), glare_total)


def lighting(rng: np.random.Generator, img: np.ndarray, d: float) -> np.ndarray:
    """Light one scene; returns uint8."""
    return random_light(rng, img.shape[0], img.shape[1], d).apply(img)


def blur(rng: np.random.Generator, img: np.ndarray, d: float) -> np.ndarray:
    """Defocus or motion blur; strong only on hard samples."""
    r = rng.random()
    sigma = rng.uniform(0.0, 0.6) + d * d * rng.uniform(0.0, 2.2)
    if r < 0.25 * (0.3 + d):
        length = int(rng.integers(3, 4 + round(10 * d)))
        line = np.zeros((length, length), np.float32)
        line[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = np.asarray(cv2.warpAffine(line, rot, (length, length)), np.float32)
        kernel /= max(kernel.sum(), 1e-6)
        return cv2.filter2D(img, -1, kernel)
    if sigma < 0.3:
        return img
    return cv2.GaussianBlur(img, (0, 0), sigma)


def sensor(rng: np.random.Generator, img: np.ndarray, d: float) -> np.ndarray:
    """Exposure drift (gain, gamma), sensor noise and JPEG compression."""
    h, w = img.shape[:2]
    gain = rng.uniform(0.9, 1.1) if d < 0.5 else rng.uniform(0.7, 1.35)
    gamma = rng.uniform(0.85, 1.15) if d < 0.5 else rng.uniform(0.7, 1.4)
    lut = np.clip(((np.arange(256) / 255.0) ** gamma) * 255 * gain, 0, 255).astype(np.uint8)
    img = cv2.LUT(img, lut)
    sigma = rng.uniform(0.5, 3.0) + d * rng.uniform(0, 9)
    noisy = img.astype(np.float32) + fine_noise(rng, h, w) * sigma
    if rng.random() < 0.3 + 0.5 * d:  # chroma blotches of a small sensor
        blot = cv2.resize(rng.standard_normal((h // 8, w // 8, 3)).astype(np.float32), (w, h))
        noisy += blot * sigma * 0.6
    img = np.clip(noisy, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        q = int(rng.integers(40 if d > 0.5 else 60, 96))
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            img = np.asarray(decoded)
    return img
