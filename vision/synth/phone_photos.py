"""Phone photographs of a deck, as a player takes them to teach the appliance a deck.

Why: enrolment must work from what a player actually makes with a phone, not from clean
card art. A real photo has the card somewhere in the picture (a third of it, or nine
cards laid in rows), a background around it (a table, a cloth, a hand holding it), a few
degrees of perspective, light brighter on one side, a shadow of the phone or the hand,
sometimes a glare spot on the glossy print, paper grain, a slightly soft print and JPEG
compression. This module renders such photos of any deck the synth knows (the paris
deck, the procedural ``other_decks``, the built-in swiss-xvii) with exact corners, so
enrolment can be measured on decks it was never shown, photo by photo.

Only benchmarks and tests use it (``vision.synth`` is never imported at run time).

``write_photo_deck(deck, folder, seed)`` writes one photo per card named by card id
(``kreuz-7.jpg``), as ``jasscam enroll`` reads a folder; ``per_photo`` > 1 lays that many
cards per photo in rows and names the file by its cards in reading order, joined by
``+`` (``kreuz-6+kreuz-7+kreuz-8.jpg``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from scoring.cards import ALL_CARD_IDS
from vision.synth.assets import BACK, available_decks, load_deck
from vision.synth.textures import fine_noise, smooth_noise, surface

#: Photo sizes a phone's "small" setting gives (landscape; portrait is drawn as often).
SIZES: tuple[tuple[int, int], ...] = ((1296, 864), (1600, 1200), (1440, 1080))
#: Plain backgrounds beside the textured tables: grey card, a white sheet, a dark desk.
PLAIN = ((128, 128, 128), (150, 150, 145), (225, 228, 230), (40, 40, 45), (90, 110, 130))
SKIN = ((120, 150, 205), (100, 130, 190), (80, 110, 170), (150, 180, 225), (60, 85, 130))


@dataclass(frozen=True)
class PhotoTruth:
    """Where each card lies in a rendered photo: ids in reading order and their corners (N, 4, 2)."""

    cards: tuple[str, ...]
    corners: np.ndarray

    def to_json(self) -> dict[str, object]:
        return {"cards": list(self.cards), "corners": np.round(self.corners, 2).tolist()}


def deck_art(deck: str) -> dict[str, np.ndarray]:
    """The full-size BGRA art of every card of ``deck``: a folder deck, a procedural one, or one of the
    drawn training decks as ``french-train-<index>`` (more correctly labelled decks for the duplicate check)."""
    from vision.synth.other_decks import OTHER_DECKS, other_deck
    from vision.synth.train_decks import DECKS, FAMILY, french_deck

    if deck in OTHER_DECKS:
        return {c: levels[0] for c, levels in other_deck(deck).items()}
    index = deck.removeprefix(f"{FAMILY}-")
    if index != deck and index.isdigit() and int(index) < DECKS:
        return {c: levels[0] for c, levels in french_deck(int(index)).items()}
    if deck not in available_decks():
        raise ValueError(f"unknown deck {deck!r}")
    return {c: levels[0] for c, levels in load_deck(deck).items()}


def _background(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, str]:
    kind = rng.random()
    if kind < 0.45:
        return surface(rng, h, w).astype(np.float32), "table"
    if kind < 0.75:
        base = np.array(PLAIN[int(rng.integers(len(PLAIN)))], np.float32) * rng.uniform(0.85, 1.1)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img *= (1 + 0.04 * smooth_noise(rng, h, w, 4))[..., None]
        return img + fine_noise(rng, h, w) * rng.uniform(1.5, 4.0), "plain"
    img = surface(rng, h, w, "cloth" if rng.random() < 0.5 else "felt").astype(np.float32)
    return img, "hand"


def _hand(canvas: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """A palm behind the card and a thumb over one long edge's margin, as a card held up to be photographed."""
    skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32) + rng.uniform(-12, 12, 3)
    centre = quad.mean(axis=0)
    long_side = float(np.linalg.norm(quad[0] - quad[3]))
    mask = np.zeros(canvas.shape[:2], np.float32)
    below = centre + (quad[3] - quad[0]) * rng.uniform(0.25, 0.45)
    cv2.ellipse(
        mask,
        (int(below[0]), int(below[1])),
        (int(long_side * 0.55), int(long_side * 0.45)),
        float(rng.uniform(0, 180)),
        0,
        360,
        1.0,
        -1,
        cv2.LINE_AA,
    )
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), long_side * 0.02), np.float32)[..., None]
    h, w = canvas.shape[:2]
    shade = (1 + 0.12 * smooth_noise(rng, h, w, 3))[..., None]
    canvas[:] = canvas * (1 - soft) + skin * shade * soft


def _thumb(canvas: np.ndarray, quad: np.ndarray, rng: np.random.Generator) -> None:
    """The holding thumb over the card's margin at one long edge (the pips stay free)."""
    skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32)
    k = 1 if rng.random() < 0.5 else 3
    a, b = quad[k], quad[(k + 1) % 4]
    p = a + (b - a) * rng.uniform(0.4, 0.6)
    inward = quad.mean(axis=0) - p
    inward /= np.linalg.norm(inward) + 1e-6
    short_side = float(np.linalg.norm(quad[1] - quad[0]))
    tip = p + inward * short_side * 0.06
    axes = (int(short_side * 0.16), int(short_side * 0.09))
    angle = float(np.degrees(np.arctan2(inward[1], inward[0])))
    out = p - inward * short_side * 0.12
    mask = np.zeros(canvas.shape[:2], np.float32)
    cv2.ellipse(
        mask, (int((tip[0] + out[0]) / 2), int((tip[1] + out[1]) / 2)), axes, angle, 0, 360, 1.0, -1, cv2.LINE_AA
    )
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), 1.5), np.float32)[..., None]
    canvas[:] = canvas * (1 - soft) + skin * soft


def _print(art: np.ndarray, rng: np.random.Generator, height: int) -> np.ndarray:
    """The card as printed and photographed close: soft print, paper grain and tint, at ``height`` px (BGRA float)."""
    w = max(8, round(art.shape[1] * height / art.shape[0]))
    img = cv2.resize(
        art, (w, height), interpolation=cv2.INTER_AREA if height < art.shape[0] else cv2.INTER_LINEAR
    ).astype(np.float32)
    bgr = img[..., :3]
    bgr[:] = cv2.GaussianBlur(bgr, (0, 0), rng.uniform(0.4, 1.2))
    grey = bgr.mean(axis=2, keepdims=True)
    bgr[:] = grey + (bgr - grey) * rng.uniform(0.8, 1.05)  # print a little less saturated than the art
    paper = np.array([rng.uniform(0.93, 1.0), rng.uniform(0.95, 1.0), rng.uniform(0.97, 1.0)], np.float32)
    bgr *= paper
    bgr += fine_noise(rng, height, w) * rng.uniform(2.0, 5.0)
    bgr *= (1 + 0.03 * smooth_noise(rng, height, w, 8))[..., None]
    return img


def _paste(canvas: np.ndarray, card: np.ndarray, quad: np.ndarray, shadow: bool) -> None:
    """Warp ``card`` (BGRA float) onto ``canvas`` at ``quad``, with its soft contact shadow."""
    h, w = canvas.shape[:2]
    ch, cw = card.shape[:2]
    src = np.array([[-0.5, -0.5], [cw - 0.5, -0.5], [cw - 0.5, ch - 0.5], [-0.5, ch - 0.5]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    warped = cv2.warpPerspective(card, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4] / 255.0
    if shadow:
        size = float(np.linalg.norm(quad[0] - quad[3]))
        soft = cv2.GaussianBlur(np.ascontiguousarray(alpha[..., 0], np.float32), (0, 0), size * 0.02)
        d = max(1, int(size * 0.012))
        canvas *= (1.0 - 0.35 * np.roll(soft, (d, d), axis=(0, 1)))[..., None]
    canvas[:] = canvas * (1 - alpha) + warped[..., :3] * alpha


def _layout(rng: np.random.Generator, n: int, w: int, h: int, aspect: float) -> list[np.ndarray]:
    """Card quads (upright, slightly turned) for ``n`` cards: one anywhere, or rows of up to three."""
    if n == 1:
        length = min(h, w) * rng.uniform(0.32, 0.6)
        turn = rng.normal(0, 8) + (90 if rng.random() < 0.2 else 0) + (180 if rng.random() < 0.3 else 0)
        width = length * aspect
        half = 0.5 * np.hypot(width, length)
        cx, cy = rng.uniform(half, w - half), rng.uniform(half, h - half)
        return [_rect(cx, cy, width, length, turn)]
    cols = 3 if n > 4 else 2
    rows = int(np.ceil(n / cols))
    length = min(h / (rows * 1.2), w / (cols * aspect * 1.35)) * rng.uniform(0.85, 0.97)
    width = length * aspect
    gx, gy = w / cols, h / rows
    quads = []
    for k in range(n):
        r, c = divmod(k, cols)
        cx = gx * (c + 0.5) + rng.normal(0, 0.04 * width)
        cy = gy * (r + 0.5) + rng.normal(0, 0.04 * length)
        quads.append(_rect(cx, cy, width, length, rng.normal(0, 4) + (180 if rng.random() < 0.3 else 0)))
    return quads


def _rect(cx: float, cy: float, width: float, length: float, degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    c, s = np.cos(a), np.sin(a)
    base = np.array(
        [[-width / 2, -length / 2], [width / 2, -length / 2], [width / 2, length / 2], [-width / 2, length / 2]]
    )
    return (base @ np.array([[c, s], [-s, c]]) + np.array([cx, cy])).astype(np.float32)


def _tilt(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A homography of a phone held a few degrees off straight above (corners moved up to ~4 %)."""
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    pull = rng.uniform(0.0, 0.04) * min(w, h)
    side = int(rng.integers(4))
    dst = src.copy()
    a, b = side, (side + 1) % 4  # one edge of the picture further away: it comes out shorter
    centre = src.mean(axis=0)
    for k in (a, b):
        dst[k] += (centre - src[k]) / np.linalg.norm(centre - src[k]) * pull
    dst += rng.normal(0, 0.004 * min(w, h), (4, 2)).astype(np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), np.float64)


def _light(canvas: np.ndarray, rng: np.random.Generator, quads: list[np.ndarray]) -> None:
    """Uneven light, a soft shadow across part of the cards, a glare spot, the light's colour."""
    h, w = canvas.shape[:2]
    g = rng.normal(0, 0.3, 2)
    ramp = (
        1.0
        + g[0] * np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
        + g[1] * np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    )
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    vignette = 1.0 - rng.uniform(0.0, 0.25) * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2) * 2
    canvas *= np.clip(ramp * vignette, 0.35, 1.6)[..., None]
    if rng.random() < 0.6:  # the phone's or the hand's shadow: a soft-edged half plane or blob
        q = quads[int(rng.integers(len(quads)))]
        size = float(np.linalg.norm(q[0] - q[3]))
        mask = np.zeros((h, w), np.float32)
        p = q.mean(axis=0) + rng.normal(0, 0.3 * size, 2)
        cv2.ellipse(
            mask,
            (int(p[0]), int(p[1])),
            (int(size * rng.uniform(0.4, 1.2)), int(size * rng.uniform(0.3, 0.8))),
            float(rng.uniform(0, 180)),
            0,
            360,
            1.0,
            -1,
        )
        soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), size * rng.uniform(0.03, 0.12)), np.float32)
        canvas *= (1.0 - rng.uniform(0.2, 0.5) * soft)[..., None]
    if rng.random() < 0.4:  # glare on the glossy print
        q = quads[int(rng.integers(len(quads)))]
        size = float(np.linalg.norm(q[0] - q[3]))
        t = rng.uniform(0.15, 0.85, 2)
        p = q[0] + (q[1] - q[0]) * t[0] + (q[3] - q[0]) * t[1]
        r = size * rng.uniform(0.04, 0.12)
        spot = np.exp(-((xx - p[0]) ** 2 + ((yy - p[1]) * rng.uniform(0.6, 1.4)) ** 2) / (2 * r * r))
        canvas += (rng.uniform(80, 200) * spot)[..., None]
    canvas *= np.array(
        [rng.uniform(0.85, 1.1), rng.uniform(0.95, 1.05), rng.uniform(0.85, 1.15)], np.float32
    ) * rng.uniform(0.8, 1.15)


def _camera(canvas: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    img = np.clip(canvas, 0, 255)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.1))
    img += fine_noise(rng, *img.shape[:2]) * rng.uniform(1.0, 4.0)
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 93))])
    decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else None
    return decoded if decoded is not None else out


def phone_photo(
    art: list[np.ndarray],
    cards: list[str],
    seed: int,
    size: tuple[int, int] | None = None,
) -> tuple[np.ndarray, PhotoTruth]:
    """One phone photo of the ``art`` (BGRA, in reading order; 1 to 9 cards): (BGR JPEG-decoded image, truth).

    ``size``: the photo's (width, height) in landscape; by default one of ``SIZES``."""
    if not 1 <= len(art) <= 9 or len(art) != len(cards):
        raise ValueError("a photo shows 1 to 9 cards, one id each")
    rng = np.random.default_rng(seed)
    w, h = SIZES[int(rng.integers(len(SIZES)))]
    if size is not None:
        w, h = size
    if rng.random() < 0.5 and len(art) == 1:
        w, h = h, w
    canvas, kind = _background(rng, h, w)
    aspect = art[0].shape[1] / art[0].shape[0]
    quads = _layout(rng, len(art), w, h, aspect)
    if kind == "hand" and len(art) == 1:
        _hand(canvas, quads[0], rng)
    for a, q in zip(art, quads, strict=True):
        length = int(np.linalg.norm(q[0] - q[3]) * 1.1)
        _paste(canvas, _print(a, rng, length), q, shadow=kind != "hand")
    if kind == "hand" and len(art) == 1:
        _thumb(canvas, quads[0], rng)
    _light(canvas, rng, quads)
    tilt = _tilt(rng, w, h)
    canvas = cv2.warpPerspective(canvas, tilt, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    corners = cv2.perspectiveTransform(np.stack(quads).reshape(-1, 1, 2).astype(np.float64), tilt).reshape(-1, 4, 2)
    return _camera(canvas, rng), PhotoTruth(tuple(cards), corners.astype(np.float32))


def write_photo_deck(deck: str, folder: Path, seed: int = 0, per_photo: int = 1, back: bool = True) -> list[Path]:
    """Photograph every card of ``deck`` into ``folder`` (``per_photo`` cards a photo, in canonical order).

    Each photo is a JPEG named by its cards (``+`` between them, reading order), and
    ``truth.json`` keeps every photo's corners, for measuring the cut-outs.
    """
    if not 1 <= per_photo <= 9:
        raise ValueError("per_photo must be 1..9")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    art = deck_art(deck)
    ids = [*ALL_CARD_IDS, *([BACK] if back else [])]
    paths, truth = [], {}
    for k in range(0, len(ids), per_photo):
        group = ids[k : k + per_photo]
        img, t = phone_photo([art[c] for c in group], group, seed * 1_000 + k)
        path = folder / f"{'+'.join(group)}.jpg"
        cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 95])
        paths.append(path)
        truth[path.name] = t.to_json()
    (folder / "truth.json").write_text(json.dumps(truth))
    return paths
