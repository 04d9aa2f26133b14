"""Camera-like views of one flat card picture, made in milliseconds with OpenCV.

One flat picture per card would give one point per card in embedding space; a card on
the table is seen smaller, tilted, blurred, under coloured light, on cloth, with the
detector's corners a pixel or two off. Enrolment embeds many such views of each picture
and averages them, so the prototype sits where the camera's reads of that card fall
rather than where the scanner's does. Nothing here knows any deck: the same jitter is
applied to whatever the user enrols.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.recognizer.geometry import CROP_H, CROP_W, rectify

#: Table cloths and wood, BGR.
TABLE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (40, 90, 30),
    (30, 60, 20),
    (60, 80, 110),
    (40, 60, 90),
    (90, 90, 90),
    (50, 50, 50),
    (110, 60, 30),
    (180, 180, 175),
)


#: Corner error of the detector, as a fraction of the card's height, and how often each size occurs.
CORNER_ERRORS = (0.012, 0.03, 0.06)
CORNER_ERROR_P = (0.4, 0.4, 0.2)

#: Exposure of a view: overall gain, per-channel tint and gamma ranges.
GAIN = (0.6, 1.25)
TINT = (0.85, 1.15)
GAMMA = (0.8, 1.25)


def _rounded_mask(h: int, w: int, radius: int) -> np.ndarray:
    mask = np.full((h, w), 255, np.uint8)
    if radius <= 0:
        return mask
    mask[:radius, :radius] = mask[:radius, -radius:] = mask[-radius:, :radius] = mask[-radius:, -radius:] = 0
    for cx, cy in (
        (radius, radius),
        (w - 1 - radius, radius),
        (radius, h - 1 - radius),
        (w - 1 - radius, h - 1 - radius),
    ):
        cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return mask


def _occlude(canvas: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """Cover part of the card near one edge: a finger, another card's corner, a coin."""
    k = int(rng.integers(4))
    a, b = quad[k], quad[(k + 1) % 4]
    centre = quad.mean(axis=0)
    p = a + (b - a) * rng.uniform(0.2, 0.8)
    p = p + (centre - p) * rng.uniform(0.0, 0.35)
    size = float(np.linalg.norm(b - a)) * rng.uniform(0.12, 0.3)
    kind = rng.random()
    if kind < 0.4:  # skin
        colour = np.array([rng.uniform(90, 170), rng.uniform(120, 190), rng.uniform(170, 235)], np.float32)
    elif kind < 0.7:  # another card's paper
        colour = np.full(3, rng.uniform(200, 250), np.float32)
    else:  # anything
        colour = rng.uniform(20, 230, 3).astype(np.float32)
    axes = (max(1, int(size)), max(1, int(size * rng.uniform(0.4, 1.0))))
    cv2.ellipse(
        canvas, (int(p[0]), int(p[1])), axes, float(rng.uniform(0, 180)), 0, 360, colour.tolist(), -1, cv2.LINE_AA
    )


def card_sheet(crop_source: np.ndarray, size: tuple[int, int] = (2 * CROP_W, 2 * CROP_H)) -> np.ndarray:
    """A BGRA upright card picture at ``size`` (w, h): the source's alpha, or rounded corners if it has none."""
    w, h = size
    src = cv2.resize(crop_source, (w, h), interpolation=cv2.INTER_AREA)
    if src.shape[2] == 4:
        return src
    return np.dstack([src, _rounded_mask(h, w, max(1, w // 16))])


def _place(
    sheet: np.ndarray, canvas: np.ndarray, centre: tuple[float, float], card_h: float, rng: np.random.Generator
) -> np.ndarray:
    """Paste ``sheet`` (BGRA) onto ``canvas`` (float32 BGR, in place) at any angle; returns its corners."""
    sh, sw = sheet.shape[:2]
    card_w = card_h * sw / sh
    angle = rng.uniform(-np.pi, np.pi)
    c, s = np.cos(angle), np.sin(angle)
    base = np.array(
        [[-card_w / 2, -card_h / 2], [card_w / 2, -card_h / 2], [card_w / 2, card_h / 2], [-card_w / 2, card_h / 2]]
    )
    base *= 1.0 + rng.normal(0, 0.03, (4, 1)) + rng.normal(0, 0.03, (1, 2)) * np.array([[1, 0]])
    target = (base @ np.array([[c, s], [-s, c]]) + np.array(centre)).astype(np.float32)
    src = np.array([[-0.5, -0.5], [sw - 0.5, -0.5], [sw - 0.5, sh - 0.5], [-0.5, sh - 0.5]], np.float32)
    # Work in the card's neighbourhood only (a table photo is mostly table).
    pad = int(card_h * 0.15) + 2
    x0, y0 = (np.floor(target.min(axis=0)).astype(int) - pad).clip(0)
    x1, y1 = np.ceil(target.max(axis=0)).astype(int) + pad
    x1, y1 = min(int(x1), canvas.shape[1]), min(int(y1), canvas.shape[0])
    roi = canvas[y0:y1, x0:x1]
    rh, rw = roi.shape[:2]
    m = cv2.getPerspectiveTransform(src, target - np.array([x0, y0], np.float32))
    warped = cv2.warpPerspective(sheet, m, (rw, rh), flags=cv2.INTER_AREA if card_h < sh else cv2.INTER_LINEAR)
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    if rng.random() < 0.7:  # a soft shadow below and to one side
        d = int(card_h * 0.03)
        shadow = cv2.GaussianBlur(alpha, (0, 0), card_h * 0.04).reshape(rh, rw, 1)
        roi *= 1.0 - 0.3 * np.roll(shadow, (d, d), axis=(0, 1))
    roi *= 1.0 - alpha
    roi += warped[..., :3].astype(np.float32) * alpha
    if rng.random() < 0.35:
        _occlude(canvas, target, rng)
    return target


def _photograph(canvas: np.ndarray, rng: np.random.Generator, card_h: float) -> np.ndarray:
    """Light, lens and sensor: gain, colour cast, gradient, glare, gamma, blur, motion, noise, JPEG."""
    h, w = canvas.shape[:2]
    gain = (rng.uniform(*GAIN) * rng.uniform(*TINT, 3)).astype(np.float32)
    g = rng.normal(0, 0.25, 2).astype(np.float32)
    canvas *= (
        1.0
        + g[0] * np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
        + g[1] * np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    )[..., None] * gain
    if rng.random() < 0.2:  # glare: a soft bright patch
        cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
        r = card_h * rng.uniform(0.1, 0.3)
        gx = np.exp(-((np.arange(w, dtype=np.float32) - cx) ** 2) / (2 * r * r))
        gy = np.exp(-((np.arange(h, dtype=np.float32) - cy) ** 2) / (2 * r * r))
        canvas += (float(rng.uniform(40, 120)) * gy[:, None] * gx[None, :])[..., None]
    img: np.ndarray = np.clip(canvas, 0, 255).astype(np.uint8)
    gamma = rng.uniform(*GAMMA)
    img = cv2.LUT(img, (255.0 * (np.arange(256) / 255.0) ** gamma).astype(np.uint8))
    sigma = rng.uniform(0.0, 1.3)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < 0.3:  # motion blur: a hand moved the card or the camera shook
        length = int(rng.integers(3, 9))
        kernel: np.ndarray = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        img = cv2.filter2D(img, -1, (kernel / max(float(kernel.sum()), 1e-6)).astype(np.float32))
    noise = rng.standard_normal((h, w, 3), dtype=np.float32) * np.float32(rng.uniform(0, 6))
    img = np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 95))])
        decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else None
        img = decoded if decoded is not None else img
    return img


def _table(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    canvas = np.empty((h, w, 3), np.float32)
    canvas[:] = np.array(TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))], np.float32) * rng.uniform(0.7, 1.3)
    return canvas


def camera_view(sheet: np.ndarray, rng: np.random.Generator, upside_down: bool = False) -> np.ndarray:
    """One upright identifier crop of ``sheet`` (BGRA) as the camera and detector would give it."""
    card_h = float(rng.uniform(70, 150))  # card height on a 640x480 analysis frame
    side = int(card_h * 1.4) + 8  # the card's diagonal at any angle, plus the corners' jitter
    canvas = _table(rng, side, side)
    target = _place(sheet, canvas, (side / 2, side / 2), card_h, rng)
    img = _photograph(canvas, rng, card_h)
    # The detector's corners are off by a pixel or two, sometimes by several (blur, a finger on the card).
    sigma = card_h * float(rng.choice(CORNER_ERRORS, p=CORNER_ERROR_P))
    quad = (
        target + rng.normal(0, sigma, (4, 2)).astype(np.float32) + rng.normal(0, sigma / 2, (1, 2)).astype(np.float32)
    )
    if upside_down:
        quad = np.roll(quad, -2, axis=0)
    return rectify(img, quad, CROP_W, CROP_H)


def table_photo(
    sheets: list[np.ndarray], rng: np.random.Generator, size: tuple[int, int] = (640, 480)
) -> tuple[np.ndarray, np.ndarray]:
    """Up to six cards laid apart on a table, photographed: (BGR image, their true corners (N, 4, 2))."""
    w, h = size
    if not 1 <= len(sheets) <= 6:
        raise ValueError("a table photo holds 1 to 6 cards")
    card_h = float(rng.uniform(85, 140))
    canvas = _table(rng, h, w)
    cells = [(w * (0.2 + 0.3 * (k % 3)), h * (0.28 + 0.44 * (k // 3))) for k in range(6)]
    order = rng.permutation(6)[: len(sheets)]
    quads = []
    for sheet, k in zip(sheets, order, strict=True):
        cx, cy = cells[int(k)]
        jitter = rng.normal(0, 0.08 * card_h, 2)
        quads.append(_place(sheet, canvas, (cx + jitter[0], cy + jitter[1]), card_h, rng))
    return _photograph(canvas, rng, card_h), np.stack(quads)


def camera_views(picture: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    """``n`` camera-like crops (n, CROP_H, CROP_W, 3) of an upright card picture (BGR or BGRA), half upside down."""
    rng = np.random.default_rng(seed)
    sheet = card_sheet(picture)
    return np.stack([camera_view(sheet, rng, upside_down=bool(k % 2)) for k in range(n)])
