"""Things on and over a Jass table that are not cards: arms and hands, phones, glasses,
coins, the score board and a pen. They occlude cards and tempt a detector into false
positives (a white notepad is card-like), which is why they are in the scenes.

All drawing happens in the ideal image; opaque props mark ``OCCLUDER`` in the label map.
"""

from __future__ import annotations

import cv2
import numpy as np

AA = cv2.LINE_AA
OCCLUDER = 255

SKIN = (
    (120, 150, 205),
    (100, 130, 190),
    (80, 110, 170),
    (150, 180, 225),
    (60, 85, 130),
    (45, 65, 100),
    (135, 160, 200),
)
SLEEVES = ((40, 40, 40), (150, 90, 40), (60, 60, 160), (200, 200, 200), (40, 120, 60), (30, 60, 110), (120, 120, 130))


def _pick(
    rng: np.random.Generator, palette: tuple[tuple[int, int, int], ...], jitter: int = 15
) -> tuple[int, int, int]:
    c = np.clip(np.array(palette[int(rng.integers(len(palette)))]) + rng.integers(-jitter, jitter + 1, 3), 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def _darker(c: tuple[int, int, int], f: float = 0.75) -> tuple[int, int, int]:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


def _pt(p: np.ndarray) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))


class ArmStyle:
    """One person's arm: skin tone, sleeve colour and length, hand size."""

    def __init__(self, rng: np.random.Generator, card_height: float) -> None:
        self.skin = _pick(rng, SKIN)
        self.sleeve = _pick(rng, SLEEVES, 25)
        self.hand_len = card_height * rng.uniform(1.6, 2.0)
        self.hand_w = card_height * rng.uniform(0.8, 1.0)
        self.arm_w = card_height * rng.uniform(0.7, 0.85)
        self.sleeve_frac = rng.uniform(0.2, 0.8)  # how much of the visible arm is covered
        self.spread = rng.uniform(0.0, 0.25)
        self.thumb_side = 1.0 if rng.random() < 0.8 else -1.0  # +1: right hand seen from above


Finger = tuple[np.ndarray, np.ndarray, float]


def arm_shapes(
    start: np.ndarray, tip: np.ndarray, style: ArmStyle, curl: float = 0.0
) -> tuple[list[tuple[str, np.ndarray]], list[Finger]]:
    """The primitives of an arm reaching from ``start`` (off the table edge) to finger ``tip``."""
    start, tip = np.asarray(start, float), np.asarray(tip, float)
    d = tip - start
    length = max(float(np.hypot(*d)), 1.0)
    u = d / length
    n = np.array([-u[1], u[0]])
    finger_len = style.hand_len * 0.45 * (1 - 0.5 * curl)
    palm_len = style.hand_len * 0.5
    knuckles = tip - u * finger_len
    wrist = knuckles - u * palm_len
    shapes: list[tuple[str, np.ndarray]] = []
    fingers: list[Finger] = []
    forearm = np.array(
        [
            start + n * style.arm_w / 2,
            wrist + n * style.hand_w * 0.38,
            wrist - n * style.hand_w * 0.38,
            start - n * style.arm_w / 2,
        ]
    )
    shapes.append(("skin_poly", forearm))
    palm = np.array(
        [
            wrist + n * style.hand_w * 0.4,
            knuckles + n * style.hand_w * 0.5,
            knuckles - n * style.hand_w * 0.5,
            wrist - n * style.hand_w * 0.42,
        ]
    )
    shapes.append(("skin_poly", palm))
    fw = style.hand_w / 4.0
    side = style.thumb_side
    # little, ring, middle, index finger from the side away from the thumb
    for off, rel in ((-0.37, 0.72), (-0.125, 0.93), (0.125, 1.0), (0.37, 0.88)):
        base = knuckles + n * style.hand_w * off * side
        direction = u + n * off * side * style.spread
        direction = direction / np.hypot(*direction)
        fingers.append((base - u * fw * 0.3, base + direction * finger_len * rel, fw))
    thumb_base = wrist + u * palm_len * 0.3 + n * style.hand_w * 0.4 * side
    thumb_dir = u * 0.65 + n * 0.75 * side
    fingers.append((thumb_base, thumb_base + thumb_dir * finger_len * 0.75, fw * 1.2))
    sleeve_end = start + (wrist - start) * style.sleeve_frac
    sleeve = np.array(
        [
            start + n * style.arm_w * 0.65 - u * 50,
            sleeve_end + n * style.arm_w * 0.62,
            sleeve_end - n * style.arm_w * 0.62,
            start - n * style.arm_w * 0.65 - u * 50,
        ]
    )
    shapes.append(("sleeve", sleeve))
    return shapes, fingers


def draw_arm(
    img: np.ndarray,
    labels: np.ndarray | None,
    start: np.ndarray,
    tip: np.ndarray,
    style: ArmStyle,
    *,
    curl: float = 0.0,
    shadow: float = 0.35,
    height: float = 1.0,
) -> None:
    """Draw a shaded arm with its soft shadow; ``height`` above the table widens the shadow."""
    shapes, fingers = arm_shapes(start, tip, style, curl)
    h, w = img.shape[:2]
    if shadow > 0:
        sm = np.zeros((h // 2, w // 2), np.uint8)
        off = np.array([6.0, 9.0]) * height
        for a, b, t in fingers:
            cv2.line(sm, _pt((a + off) / 2), _pt((b + off) / 2), 255, max(1, round(t / 2)), AA)
        for _, poly in shapes:
            cv2.fillPoly(sm, [np.round((poly + off) / 2).astype(np.int32)], 255, AA)
        sm = cv2.GaussianBlur(sm, (0, 0), 2 + 3 * height)
        factor = 1.0 - shadow * cv2.resize(sm, (w, h)).astype(np.float32) / 255.0
        img[:] = (img.astype(np.float32) * factor[..., None]).astype(np.uint8)
    # draw flat colours into a layer over the arm's bounding region, then shade the layer
    # by distance from the silhouette so the arm looks round rather than cut from paper
    pts_all = np.concatenate([poly for _, poly in shapes] + [np.array([a, b]) for a, b, _ in fingers])
    pad = 4
    x0 = max(int(pts_all[:, 0].min()) - pad, 0)
    y0 = max(int(pts_all[:, 1].min()) - pad, 0)
    x1 = min(int(pts_all[:, 0].max()) + pad + 1, w)
    y1 = min(int(pts_all[:, 1].max()) + pad + 1, h)
    if x1 <= x0 or y1 <= y0:
        return
    o = np.array([x0, y0], float)
    layer = np.zeros((y1 - y0, x1 - x0, 3), np.uint8)
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    edge = _darker(style.skin, 0.8)
    for a, b, t in fingers:  # fingers and thumb first, so the palm covers their roots
        cv2.line(layer, _pt(a - o), _pt(b - o), edge, round(t) + 1, AA)
        cv2.line(layer, _pt(a - o), _pt(b - o), style.skin, max(1, round(t) - 1), AA)
        cv2.line(mask, _pt(a - o), _pt(b - o), 255, round(t) + 1, AA)
        tip_dir = (b - a) / max(float(np.hypot(*(b - a))), 1.0)
        cv2.circle(layer, _pt(b - o - tip_dir * t * 0.3), max(1, round(t * 0.22)), _darker(style.skin, 0.92), -1, AA)
        across = np.array([-tip_dir[1], tip_dir[0]]) * t * 0.3
        for k in (0.45, 0.7):  # knuckle creases
            c = a + (b - a) * k - o
            cv2.line(layer, _pt(c - across), _pt(c + across), _darker(style.skin, 0.85), 1, AA)
    for kind, poly in shapes:
        pts = np.round(poly - o).astype(np.int32)
        colour = style.sleeve if kind == "sleeve" else style.skin
        cv2.fillPoly(layer, [pts], colour, AA)
        if kind == "sleeve":  # a cuff edge and a few folds
            cv2.polylines(layer, [pts], True, _darker(colour, 0.6), 2, AA)
        cv2.fillPoly(mask, [pts], 255, AA)
    radius = max(1.5, style.arm_w / 6)
    inside = cv2.GaussianBlur(mask, (0, 0), radius).astype(np.float32) / 255.0
    shade = 0.55 + 0.45 * np.sqrt(np.clip(inside, 0, 1))
    alpha = mask.astype(np.float32)[..., None] / 255.0
    roi = img[y0:y1, x0:x1].astype(np.float32)
    roi = roi * (1 - alpha) + layer.astype(np.float32) * shade[..., None] * alpha
    img[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    if labels is not None:
        labels[y0:y1, x0:x1][mask > 127] = OCCLUDER


def edge_point(rng: np.random.Generator, w: int, h: int, side: int, spread: float = 0.8) -> np.ndarray:
    """A point just outside the frame on ``side`` (0 bottom, 1 right, 2 top, 3 left)."""
    t = rng.uniform(0.5 - spread / 2, 0.5 + spread / 2)
    m = 0.08 * max(w, h)
    return np.array([(t * w, h + m), (w + m, t * h), (t * w, -m), (-m, t * h)][side], float)


def _rot_rect(center: np.ndarray, size: tuple[float, float], angle: float) -> np.ndarray:
    return cv2.boxPoints(((float(center[0]), float(center[1])), size, angle)).astype(np.float32)


def _shadow_poly(img: np.ndarray, pts: np.ndarray, strength: float, off: tuple[float, float] = (4, 6)) -> None:
    """Darken a soft, offset copy of polygon ``pts`` (only its bounding region is touched)."""
    h, w = img.shape[:2]
    q = np.asarray(pts, np.float32) + np.array(off, np.float32)
    m = 8
    x0, y0 = max(int(q[:, 0].min()) - m, 0), max(int(q[:, 1].min()) - m, 0)
    x1, y1 = min(int(q[:, 0].max()) + m + 1, w), min(int(q[:, 1].max()) + m + 1, h)
    if x1 <= x0 or y1 <= y0:
        return
    sm = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(sm, [np.round(q - [x0, y0]).astype(np.int32)], 1.0, AA)
    sm = cv2.GaussianBlur(sm, (0, 0), 2.5)
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi.astype(np.float32) * (1 - strength * sm)[..., None]).astype(np.uint8)


def draw_phone(
    img: np.ndarray, labels: np.ndarray, rng: np.random.Generator, center: np.ndarray, card_h: float
) -> None:
    size = (card_h * rng.uniform(0.75, 0.85), card_h * rng.uniform(1.5, 1.75))
    angle = float(rng.uniform(0, 180))
    body = _rot_rect(center, size, angle)
    _shadow_poly(img, body, 0.4)
    cv2.fillPoly(img, [np.round(body).astype(np.int32)], _pick(rng, ((20, 20, 20), (200, 200, 205), (60, 40, 30))), AA)
    screen = _rot_rect(center, (size[0] * 0.88, size[1] * 0.9), angle)
    on = rng.random() < 0.4
    colour = _pick(rng, ((200, 160, 120), (230, 230, 230), (120, 200, 240))) if on else (25, 22, 20)
    cv2.fillPoly(img, [np.round(screen).astype(np.int32)], colour, AA)
    if on:  # app tiles
        for _ in range(6):
            c = center + rng.uniform(-0.3, 0.3, 2) * size[1] * 0.6
            cv2.fillPoly(
                img,
                [np.round(_rot_rect(c, (size[0] * 0.18, size[0] * 0.18), angle)).astype(np.int32)],
                _pick(rng, ((50, 50, 200), (200, 100, 40), (60, 180, 60), (40, 180, 230))),
                AA,
            )
    cv2.fillPoly(labels, [np.round(body).astype(np.int32)], OCCLUDER)


def draw_glass(
    img: np.ndarray, labels: np.ndarray, rng: np.random.Generator, center: np.ndarray, card_h: float
) -> None:
    """A drinking glass from above: a refracting, slightly brighter disc with bright rim."""
    r = int(card_h * rng.uniform(0.35, 0.5))
    h, w = img.shape[:2]
    cx, cy = round(float(center[0])), round(float(center[1]))
    x0, y0, x1, y1 = max(cx - r, 0), max(cy - r, 0), min(cx + r + 1, w), min(cy + r + 1, h)
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    mask = np.zeros(roi.shape[:2], np.uint8)
    cv2.circle(mask, (cx - x0, cy - y0), r, 255, -1, AA)
    inner = cv2.GaussianBlur(roi, (0, 0), 2.0)
    inner = cv2.addWeighted(inner, 0.85, np.full_like(inner, 220), 0.15, 0)
    tint = _pick(rng, ((230, 230, 230), (120, 200, 230), (60, 60, 160)))  # water, beer, wine
    inner = cv2.addWeighted(inner, 0.8, np.full_like(inner, tint), 0.2, 0)
    m = mask.astype(np.float32)[..., None] / 255
    roi[:] = (roi * (1 - m) + inner * m).astype(np.uint8)
    cv2.circle(img, (cx, cy), r, (235, 235, 235), max(1, r // 10), AA)
    cv2.ellipse(
        img,
        (cx, cy),
        (int(r * 0.75), int(r * 0.75)),
        float(rng.uniform(0, 360)),
        0,
        70,
        (255, 255, 255),
        max(1, r // 12),
        AA,
    )
    cv2.circle(labels, (cx, cy), r, OCCLUDER, max(1, r // 10))


def draw_coin(img: np.ndarray, labels: np.ndarray, rng: np.random.Generator, center: np.ndarray, card_h: float) -> None:
    r = int(card_h * rng.uniform(0.1, 0.16))
    metal = _pick(rng, ((120, 170, 200), (170, 170, 170), (60, 120, 180)))
    c = _pt(center)
    _shadow_poly(img, np.asarray(cv2.ellipse2Poly(c, (r, r), 0, 0, 360, 20), np.float32), 0.45, (2, 3))
    cv2.circle(img, c, r, metal, -1, AA)
    cv2.circle(img, c, r, _darker(metal, 0.6), max(1, r // 6), AA)
    shine = (min(255, metal[0] + 60), min(255, metal[1] + 60), min(255, metal[2] + 60))
    cv2.circle(img, (c[0] - r // 3, c[1] - r // 3), max(1, r // 3), shine, -1, AA)
    cv2.circle(labels, c, r, OCCLUDER, -1)


def draw_board(
    img: np.ndarray, labels: np.ndarray, rng: np.random.Generator, center: np.ndarray, card_h: float
) -> None:
    """A score slate (dark, chalk Z strokes) or a paper notepad (white, card-like, with lines)."""
    slate = rng.random() < 0.5
    size = (card_h * rng.uniform(1.6, 2.6), card_h * rng.uniform(1.1, 1.8))
    angle = float(rng.uniform(-30, 30))
    body = _rot_rect(center, size, angle)
    _shadow_poly(img, body, 0.3)
    base = _pick(rng, ((30, 45, 35), (25, 25, 25))) if slate else _pick(rng, ((245, 248, 250), (170, 240, 250)), 6)
    cv2.fillPoly(img, [np.round(body).astype(np.int32)], base, AA)
    ink = (215, 215, 215) if slate else _pick(rng, ((150, 60, 20), (40, 40, 40)))
    a = np.deg2rad(angle)
    ux, uy = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    for k in range(int(rng.integers(3, 8))):
        y = (k + 1) / 9 - 0.5
        p0 = center + ux * size[0] * -0.4 + uy * size[1] * y
        p1 = center + ux * size[0] * rng.uniform(-0.1, 0.4) + uy * size[1] * y
        cv2.line(img, _pt(p0), _pt(p1), ink, 1, AA)
        for _ in range(int(rng.integers(1, 5))):  # tally strokes
            q = p0 + (p1 - p0) * rng.random()
            cv2.line(img, _pt(q - uy * card_h * 0.05), _pt(q + uy * card_h * 0.05 + ux * 3), ink, 1, AA)
    cv2.fillPoly(labels, [np.round(body).astype(np.int32)], OCCLUDER)


def draw_pen(img: np.ndarray, labels: np.ndarray, rng: np.random.Generator, center: np.ndarray, card_h: float) -> None:
    body = _rot_rect(center, (card_h * rng.uniform(1.1, 1.5), card_h * 0.08), float(rng.uniform(0, 180)))
    _shadow_poly(img, body, 0.35, (2, 3))
    cv2.fillPoly(
        img,
        [np.round(body).astype(np.int32)],
        _pick(rng, ((30, 30, 160), (160, 60, 20), (20, 20, 20), (40, 200, 230))),
        AA,
    )
    cv2.fillPoly(labels, [np.round(body).astype(np.int32)], OCCLUDER)


def draw_bottle(
    img: np.ndarray, labels: np.ndarray, rng: np.random.Generator, center: np.ndarray, card_h: float
) -> None:
    """A bottle seen from straight above: a dark glass disc, its neck a bright ring at the centre, a cap."""
    r = int(card_h * rng.uniform(0.32, 0.45))
    c = _pt(center)
    _shadow_poly(img, np.asarray(cv2.ellipse2Poly(c, (r, r), 0, 0, 360, 15), np.float32), 0.5, (6, 9))
    glass = _pick(rng, ((30, 80, 40), (20, 50, 90), (40, 40, 40), (150, 190, 200)))
    cv2.circle(img, c, r, glass, -1, AA)
    cv2.circle(img, c, int(r * 0.8), _darker(glass, 0.7), max(1, r // 8), AA)
    cv2.circle(img, c, max(2, int(r * 0.32)), (220, 230, 230), max(1, r // 10), AA)
    cap = _pick(rng, ((40, 40, 200), (200, 200, 40), (230, 230, 230), (40, 160, 220)))
    cv2.circle(img, c, max(1, int(r * 0.24)), cap, -1, AA)
    cv2.ellipse(
        img, c, (int(r * 0.7), int(r * 0.7)), float(rng.uniform(0, 360)), 0, 50, (235, 235, 235), max(1, r // 12), AA
    )
    cv2.circle(labels, c, r, OCCLUDER, -1)


def draw_coaster(
    img: np.ndarray, labels: np.ndarray, rng: np.random.Generator, center: np.ndarray, card_h: float
) -> None:
    """A beer mat: a card-sized round or square piece of printed board (a card-like negative)."""
    size = card_h * rng.uniform(0.85, 1.05)
    base = _pick(rng, ((235, 240, 245), (60, 60, 200), (40, 120, 200), (200, 200, 200)))
    ink = _pick(rng, ((20, 20, 160), (30, 30, 30), (230, 230, 230)))
    if rng.random() < 0.5:
        c, r = _pt(center), int(size / 2)
        outline = np.asarray(cv2.ellipse2Poly(c, (r, r), 0, 0, 360, 12), np.float32)
    else:
        outline = _rot_rect(center, (size, size), float(rng.uniform(0, 90)))
    _shadow_poly(img, outline, 0.3, (2, 3))
    pts = np.round(outline).astype(np.int32)
    cv2.fillPoly(img, [pts], base, AA)
    cv2.polylines(img, [pts], True, ink, max(1, int(size / 30)), AA)
    cv2.circle(img, _pt(center), int(size * 0.22), ink, max(1, int(size / 25)), AA)
    cv2.putText(img, "BIER", _pt(center + [-size * 0.2, size * 0.35]), cv2.FONT_HERSHEY_SIMPLEX, size / 160, ink, 1, AA)
    cv2.fillPoly(labels, [pts], OCCLUDER)


PROPS = {"phone": draw_phone, "glass": draw_glass, "coin": draw_coin, "board": draw_board, "pen": draw_pen}
#: Everything on a real Jass table: scenes drawn at a camera mounting (``vision.synth.geometry``)
#: draw from these; the older framing keeps ``PROPS`` so its seeds draw the same scenes.
TABLE_PROPS = PROPS | {"bottle": draw_bottle, "coaster": draw_coaster}
