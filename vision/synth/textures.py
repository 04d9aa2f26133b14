"""Procedural table surfaces: felt, cloth, wood, plastic, patterned tablecloths, Jass mats.

Everything is built from low-resolution noise scaled up plus a cached fine-noise tile,
so a 640x480 surface costs a few milliseconds.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

SURFACES = ("felt", "cloth", "wood", "plastic", "checked", "striped", "dotted", "mat_on_wood")
#: ... and with the printed felt mat, for scenes drawn at a camera mounting (the older
#: framing keeps ``SURFACES`` so its seeds draw the same tables).
TABLE_SURFACES = (*SURFACES, "printed_mat")


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
    # cubic to a quarter of the size (smooth), then cheap linear the rest of the way
    mid = cv2.resize(small, (max(2, w // 4), max(2, h // 4)), interpolation=cv2.INTER_CUBIC)
    return np.asarray(cv2.resize(mid, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def tinted(gain: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """``gain`` (H x W) times a BGR colour, as H x W x 3 float32 (faster than broadcasting)."""
    return cv2.merge([gain * float(c) for c in colour])


def _colour(rng: np.random.Generator, palette: tuple[tuple[int, int, int], ...], jitter: int = 18) -> np.ndarray:
    c = np.array(palette[int(rng.integers(len(palette)))], np.float32)
    return np.clip(c + rng.uniform(-jitter, jitter, 3), 0, 255).astype(np.float32)


FELT = ((40, 110, 30), (35, 90, 25), (110, 60, 20), (40, 40, 120), (70, 70, 70), (30, 60, 90), (60, 30, 80))
WOOD = ((40, 90, 150), (30, 70, 120), (60, 120, 170), (25, 50, 95), (80, 140, 200), (45, 80, 125))
PLASTIC = ((230, 230, 230), (200, 200, 195), (170, 180, 190), (60, 60, 60), (120, 160, 200), (180, 200, 170))
CLOTH = ((220, 230, 235), (200, 190, 170), (90, 60, 150), (160, 120, 90), (140, 170, 200), (50, 50, 160))


def _wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Planks with their own tone, long grain streaks, gently bent growth rings, dark seams."""
    base = _colour(rng, WOOD, 10)
    vertical = rng.random() < 0.5
    L, S = (h, w) if vertical else (w, h)  # grain runs along L, planks stack across S
    streak = cv2.resize(
        rng.standard_normal((S, max(2, L // 40))).astype(np.float32), (L, S), interpolation=cv2.INTER_CUBIC
    )
    fine = cv2.resize(
        rng.standard_normal((S, max(2, L // 6))).astype(np.float32), (L, S), interpolation=cv2.INTER_LINEAR
    )
    across = np.arange(S, dtype=np.float32)[:, None]
    warp = smooth_noise(rng, S, L, 4) * float(rng.uniform(3, 10))
    rings = np.sin((across + warp) * float(rng.uniform(0.08, 0.25)))
    plank = float(rng.uniform(0.12, 0.4)) * max(h, w)
    plank_id = (across // plank).astype(np.int64)
    tones = rng.uniform(0.85, 1.12, int(plank_id.max()) + 2).astype(np.float32)
    tone = tones[plank_id] * (1 + 0.06 * streak + 0.03 * fine + 0.04 * rings)
    seam = ((across % plank) < 1.5)[:, 0]
    tone[seam] *= 0.6
    if vertical:
        tone = tone.T
    return tinted(np.ascontiguousarray(tone, np.float32), base)


def surface(rng: np.random.Generator, h: int, w: int, kind: str | None = None) -> np.ndarray:
    """A table surface, uint8 BGR (h, w, 3)."""
    kind = kind or SURFACES[int(rng.integers(len(SURFACES)))]
    if kind == "felt":
        base = _colour(rng, FELT)
        img = tinted(1 + 0.07 * smooth_noise(rng, h, w, 6), base)
        img = img + fine_noise(rng, h, w) * rng.uniform(4, 10)
    elif kind == "cloth":
        base = _colour(rng, CLOTH)
        period = rng.uniform(2.0, 4.0)
        weave = np.sin(np.arange(h, dtype=np.float32)[:, None] * np.float32(np.pi / period)) * np.sin(
            np.arange(w, dtype=np.float32)[None, :] * np.float32(np.pi / period)
        )
        img = tinted(1 + 0.05 * weave + 0.06 * smooth_noise(rng, h, w, 5), base)
        img = img + fine_noise(rng, h, w) * 4
    elif kind == "wood":
        img = _wood(rng, h, w) + fine_noise(rng, h, w) * 3
    elif kind == "plastic":
        base = _colour(rng, PLASTIC)
        img = tinted(1 + 0.03 * smooth_noise(rng, h, w, 3), base) + fine_noise(rng, h, w) * 2.5
    elif kind in ("checked", "striped", "dotted"):
        a, b = _colour(rng, CLOTH), _colour(rng, CLOTH + FELT)
        period = rng.uniform(0.04, 0.15) * max(h, w)
        yy = np.arange(h, dtype=np.float32)[:, None]
        xx = np.arange(w, dtype=np.float32)[None, :]
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
        g = 1 + 0.04 * smooth_noise(rng, h, w, 5)
        img = tinted(g * (1 - m), a) + tinted(g * m, b) + fine_noise(rng, h, w) * 4
    elif kind == "printed_mat":
        # A felt Jass mat with a printed border and lines (a "Jassteppich"): straight edges
        # and corners on the table that are no card's.
        img = surface(rng, h, w, "felt").astype(np.float32)
        ink = _colour(rng, ((235, 235, 235), (40, 160, 220), (30, 30, 30)))
        lines = np.zeros((h, w), np.float32)
        inset = rng.uniform(0.03, 0.12) * min(h, w)
        thick = max(1, round(rng.uniform(0.003, 0.01) * min(h, w)))
        for k in range(int(rng.integers(1, 3))):
            d = round(inset + k * 2.5 * thick)
            cv2.rectangle(lines, (d, d), (w - 1 - d, h - 1 - d), 1.0, thick)
        if rng.random() < 0.6:  # the diagonals or a centre circle some mats have
            cv2.circle(lines, (w // 2, h // 2), round(rng.uniform(0.12, 0.3) * min(h, w)), 1.0, thick)
        m = cv2.merge([np.asarray(cv2.GaussianBlur(lines, (0, 0), 0.7), np.float32)] * 3)
        img = img * (1 - m) + np.asarray(ink, np.float32) * m
    elif kind == "mat_on_wood":
        img = _wood(rng, h, w)
        felt = surface(rng, h, w, "felt").astype(np.float32)
        mx, my = rng.uniform(-0.3, 0.08) * w, rng.uniform(-0.3, 0.08) * h
        rect = np.zeros((h, w), np.float32)
        cv2.rectangle(rect, (round(mx), round(my)), (round(w - mx), round(h - my)), 1.0, -1)
        mask = cv2.merge([np.asarray(cv2.GaussianBlur(rect, (0, 0), 1.0), np.float32)] * 3)
        img = img * (1 - mask) + felt * mask
    else:
        raise ValueError(f"unknown surface {kind!r}; expected one of {', '.join(TABLE_SURFACES)}")
    return np.clip(img, 0, 255).astype(np.uint8)
