"""Procedural table surfaces: felt, cloth, wood, plastic, patterned tablecloths, Jass mats.

Everything is built from low-resolution noise scaled up plus a cached fine-noise tile,
so a 640x480 surface costs a few milliseconds.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

SURFACES = ("felt", "cloth", "wood", "plastic", "checked", "striped", "dotted", "mat_on_wood")


@lru_cache(maxsize=4)
def noise_tile(size: int = 1024) -> np.ndarray:
    """A fixed field of unit Gaussian noise (float32, size x size x 3); crops of it are cheap noise."""
    return np.random.default_rng(12345).standard_normal((size, size, 3), dtype=np.float32)


def fine_noise(rng: np.random.Generator, h: int, w: int, channels: int = 3) -> np.ndarray:
    """A random crop of the noise tile (float32, unit variance)."""
    size = 1024 if max(h, w) <= 1024 else 1 << int(np.ceil(np.log2(max(h, w))))
    tile = noise_tile(size)
    y = int(rng.integers(0, size - h + 1))
    x = int(rng.integers(0, size - w + 1))
    out = tile[y : y + h, x : x + w, :channels]
    if rng.random() < 0.5:
        out = out[::-1]
    return out if channels > 1 else out[..., 0]


def smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Low-frequency noise in about -1..1 with ``cells`` blobs across the larger side."""
    ch = max(2, round(cells * h / max(h, w)))
    cw = max(2, round(cells * w / max(h, w)))
    small = rng.standard_normal((ch, cw)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _colour(rng: np.random.Generator, palette: tuple[tuple[int, int, int], ...], jitter: int = 18) -> np.ndarray:
    c = np.array(palette[int(rng.integers(len(palette)))], np.float32)
    return np.clip(c + rng.uniform(-jitter, jitter, 3), 0, 255)


FELT = ((40, 110, 30), (35, 90, 25), (110, 60, 20), (40, 40, 120), (70, 70, 70), (30, 60, 90), (60, 30, 80))
WOOD = ((40, 90, 150), (30, 70, 120), (60, 120, 170), (25, 50, 90), (80, 140, 190), (50, 80, 110))
PLASTIC = ((230, 230, 230), (200, 200, 195), (170, 180, 190), (60, 60, 60), (120, 160, 200), (180, 200, 170))
CLOTH = ((220, 230, 235), (200, 190, 170), (90, 60, 150), (160, 120, 90), (140, 170, 200), (50, 50, 160))


def _wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = _colour(rng, WOOD)
    vertical = rng.random() < 0.5
    L, S = (h, w) if vertical else (w, h)  # grain runs along L
    plank = int(rng.uniform(0.15, 0.5) * S)
    across = np.arange(S, dtype=np.float32)
    warp = smooth_noise(rng, 1, L, 6)[0] * rng.uniform(3, 12)
    freq = rng.uniform(0.15, 0.45)
    grain = np.sin((across[:, None] + warp[None, :] * 3) * freq + smooth_noise(rng, S, L, 12) * 4)
    grain = 0.5 + 0.5 * grain
    rings = smooth_noise(rng, S, L, 8)
    tone = 1.0 + 0.12 * (grain - 0.5) + 0.08 * rings
    seams = (np.arange(S) % max(8, plank)) < 2
    tone[seams] *= 0.55
    if vertical:
        tone = tone.T
    plank_shift = np.ones_like(tone)
    return tone[..., None] * plank_shift[..., None] * base


def surface(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> np.ndarray:
    """A table surface, uint8 BGR (h, w, 3)."""
    kind = kind or SURFACES[int(rng.integers(len(SURFACES)))]
    if kind == "felt":
        base = _colour(rng, FELT)
        img = base * (1 + 0.07 * smooth_noise(rng, h, w, 6))[..., None]
        img = img + fine_noise(rng, h, w) * rng.uniform(4, 10)
    elif kind == "cloth":
        base = _colour(rng, CLOTH)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(2.0, 4.0)
        weave = np.sin(xx * np.pi / period) * np.sin(yy * np.pi / period)
        img = base * (1 + 0.05 * weave + 0.06 * smooth_noise(rng, h, w, 5))[..., None]
        img = img + fine_noise(rng, h, w) * 4
    elif kind == "wood":
        img = _wood(rng, h, w) + fine_noise(rng, h, w) * 3
    elif kind == "plastic":
        base = _colour(rng, PLASTIC)
        img = base * (1 + 0.03 * smooth_noise(rng, h, w, 3))[..., None] + fine_noise(rng, h, w) * 2.5
    elif kind in ("checked", "striped", "dotted"):
        a, b = _colour(rng, CLOTH), _colour(rng, CLOTH + FELT)
        period = rng.uniform(0.04, 0.15) * max(h, w)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        angle = rng.uniform(0, np.pi)
        u = xx * np.cos(angle) + yy * np.sin(angle)
        v = -xx * np.sin(angle) + yy * np.cos(angle)
        if kind == "checked":
            m = 0.5 * (((u // period) % 2) + ((v // period) % 2))
        elif kind == "striped":
            m = ((u // (period / 2)) % 2).astype(np.float32)
        else:
            du = (u % period) - period / 2
            dv = (v % period) - period / 2
            m = ((du * du + dv * dv) < (period * 0.25) ** 2).astype(np.float32)
        m = cv2.GaussianBlur(m.astype(np.float32), (0, 0), 0.8)
        img = a * (1 - m[..., None]) + b * m[..., None]
        img = img * (1 + 0.04 * smooth_noise(rng, h, w, 5))[..., None] + fine_noise(rng, h, w) * 4
    elif kind == "mat_on_wood":
        img = _wood(rng, h, w)
        felt = surface(rng, h, w, "felt").astype(np.float32)
        mx, my = rng.uniform(-0.3, 0.08) * w, rng.uniform(-0.3, 0.08) * h
        rect = np.zeros((h, w), np.float32)
        cv2.rectangle(rect, (round(mx), round(my)), (round(w - mx), round(h - my)), 1.0, -1)
        mask = np.asarray(cv2.GaussianBlur(rect, (0, 0), 1.0), np.float32)[..., None]
        img = img * (1 - mask) + felt * mask
    else:
        raise ValueError(f"unknown surface {kind!r}; expected one of {', '.join(SURFACES)}")
    return np.clip(img, 0, 255).astype(np.uint8)
