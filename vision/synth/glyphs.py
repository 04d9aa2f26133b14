"""Procedural Swiss suit symbols and corner indices, drawn with OpenCV primitives.

Real Swiss decks draw acorns, roses, bells and shields in many ways; a second, crude but
different drawing of each pip teaches the recogniser the suit rather than one artist's
line work. Colours are BGR.
"""

from __future__ import annotations

import cv2
import numpy as np

AA = cv2.LINE_AA

#: Index labels per rank; the second set is a common alternative on modern decks.
INDEX_LABELS: tuple[dict[str, str], ...] = (
    {"6": "6", "7": "7", "8": "8", "9": "9", "10": "10", "under": "U", "ober": "O", "koenig": "K", "ass": "A"},
    {"6": "VI", "7": "VII", "8": "VIII", "9": "IX", "10": "X", "under": "U", "ober": "O", "koenig": "K", "ass": "As"},
)


def _jitter(rng: np.random.Generator, colour: tuple[int, int, int], amount: int = 25) -> tuple[int, int, int]:
    c = np.clip(np.array(colour) + rng.integers(-amount, amount + 1, 3), 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def suit_palette(rng: np.random.Generator) -> dict[str, tuple[tuple[int, int, int], ...]]:
    """One drawing style's colours per suit (main, second, outline)."""
    outline = _jitter(rng, (20, 20, 20), 20)
    return {
        "eicheln": (_jitter(rng, (40, 170, 215)), _jitter(rng, (40, 120, 40)), outline),
        "rosen": (_jitter(rng, (40, 40, 200)), _jitter(rng, (40, 200, 230)), outline),
        "schellen": (_jitter(rng, (30, 190, 230)), _jitter(rng, (40, 40, 190)), outline),
        "schilten": (_jitter(rng, (40, 40, 190)), _jitter(rng, (40, 190, 230)), outline),
    }


def draw_suit(
    img: np.ndarray,
    suit: str,
    center: tuple[float, float],
    size: float,
    colours: tuple[tuple[int, int, int], ...],
    *,
    upside_down: bool = False,
) -> None:
    """Draw one pip of ``suit`` about ``size`` pixels tall centred at ``center``."""
    main, second, outline = colours
    cx, cy = center
    s = size / 2.0
    lw = max(1, round(size / 22))
    flip = -1.0 if upside_down else 1.0

    def p(dx: float, dy: float) -> tuple[int, int]:
        return (round(cx + dx * s), round(cy + flip * dy * s))

    def r(v: float) -> int:
        return max(1, round(v * s))

    if suit == "eicheln":  # acorn: nut below, scaly cap above, stem on top
        cv2.ellipse(img, p(0, 0.25), (r(0.42), r(0.6)), 0, 0, 360, main, -1, AA)
        cv2.ellipse(img, p(0, 0.25), (r(0.42), r(0.6)), 0, 0, 360, outline, lw, AA)
        start, end = (180, 360) if not upside_down else (0, 180)
        cv2.ellipse(img, p(0, -0.15), (r(0.5), r(0.45)), 0, start, end, second, -1, AA)
        cv2.ellipse(img, p(0, -0.15), (r(0.5), r(0.45)), 0, start, end, outline, lw, AA)
        for k in (-0.25, 0.0, 0.25):
            cv2.line(img, p(k - 0.12, -0.2), p(k + 0.12, -0.45), outline, max(1, lw // 2), AA)
        cv2.line(img, p(0, -0.6), p(0.12, -0.95), outline, lw + 1, AA)
    elif suit == "rosen":  # five petals round a yellow heart, green leaf tips between
        for k in range(5):
            a = np.deg2rad(-90 + 72 * k + 36)
            cv2.line(img, p(0, 0), p(0.95 * np.cos(a), 0.95 * np.sin(a)), (40, 140, 40), lw + 1, AA)
        for k in range(5):
            a = np.deg2rad(-90 + 72 * k)
            c = p(0.45 * np.cos(a), 0.45 * np.sin(a))
            cv2.circle(img, c, r(0.36), main, -1, AA)
            cv2.circle(img, c, r(0.36), outline, lw, AA)
        cv2.circle(img, p(0, 0), r(0.24), second, -1, AA)
        cv2.circle(img, p(0, 0), r(0.24), outline, lw, AA)
    elif suit == "schellen":  # round bell: body, band, slit, loop on top
        cv2.circle(img, p(0, 0.1), r(0.7), main, -1, AA)
        cv2.ellipse(img, p(0, 0.1), (r(0.7), r(0.16)), 0, 0, 360, second, -1, AA)
        cv2.circle(img, p(0, 0.1), r(0.7), outline, lw, AA)
        cv2.line(img, p(-0.3, 0.55), p(0.3, 0.55), outline, lw + 1, AA)
        cv2.circle(img, p(0, 0.55), r(0.1), outline, -1, AA)
        cv2.circle(img, p(0, -0.7), r(0.14), outline, lw, AA)
    elif suit == "schilten":  # shield: flat top, pointed bottom, two fields and a band
        pts = np.array([p(-0.62, -0.8), p(0.62, -0.8), p(0.62, 0.15), p(0, 0.95), p(-0.62, 0.15)], np.int32)
        cv2.fillPoly(img, [pts], main, AA)
        band = np.array([p(-0.62, -0.2), p(0.62, -0.2), p(0.62, 0.15), p(-0.62, 0.15)], np.int32)
        cv2.fillPoly(img, [band], second, AA)
        cv2.polylines(img, [pts], True, outline, lw, AA)
    else:
        raise ValueError(f"unknown suit {suit!r}")


#: Pip centres for 6..9 in a unit card box (x, y in 0..1), Swiss layouts in two columns.
PIP_LAYOUTS: dict[str, tuple[tuple[float, float], ...]] = {
    "6": ((0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)),
    "7": ((0.3, 0.2), (0.7, 0.2), (0.5, 0.35), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)),
    "8": ((0.3, 0.17), (0.7, 0.17), (0.3, 0.39), (0.7, 0.39), (0.3, 0.61), (0.7, 0.61), (0.3, 0.83), (0.7, 0.83)),
    "9": (
        (0.3, 0.17),
        (0.7, 0.17),
        (0.3, 0.39),
        (0.7, 0.39),
        (0.5, 0.5),
        (0.3, 0.61),
        (0.7, 0.61),
        (0.3, 0.83),
        (0.7, 0.83),
    ),
}


def draw_number_card(
    img: np.ndarray,
    suit: str,
    rank: str,
    colours: tuple[tuple[int, int, int], ...],
    rng: np.random.Generator,
    *,
    margin: float = 0.12,
) -> None:
    """Redraw the face of a 6..10 or Ass on blank paper: pips, the banner ten, the two-pip Ass."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = w * margin, h * margin * 0.8, w * (1 - margin), h * (1 - margin * 0.8)
    bw, bh = x1 - x0, y1 - y0
    mirror_bottom = bool(rng.random() < 0.5)
    if rank in PIP_LAYOUTS:
        size = min(bw * 0.36, bh / (len(PIP_LAYOUTS[rank]) // 2 + 1.2))
        for fx, fy in PIP_LAYOUTS[rank]:
            draw_suit(img, suit, (x0 + fx * bw, y0 + fy * bh), size, colours, upside_down=mirror_bottom and fy > 0.55)
    elif rank == "10":  # the banner: a pole with a flag carrying one pip
        lw = max(2, round(w / 40))
        pole_top, pole_bot = (round(x0 + 0.75 * bw), round(y0 + 0.05 * bh)), (round(x0 + 0.3 * bw), round(y1))
        flag = np.array(
            [
                pole_top,
                (round(x0), round(y0 + 0.12 * bh)),
                (round(x0 + 0.1 * bw), round(y0 + 0.7 * bh)),
                (round(x0 + 0.55 * bw), round(y0 + 0.45 * bh)),
            ],
            np.int32,
        )
        cv2.fillPoly(img, [flag], colours[0] if suit in ("rosen", "schilten") else colours[1], AA)
        cv2.polylines(img, [flag], True, colours[2], max(1, lw // 2), AA)
        cv2.line(img, pole_top, pole_bot, (40, 160, 200), lw, AA)
        cv2.line(img, pole_top, pole_bot, colours[2], 1, AA)
        draw_suit(img, suit, (x0 + 0.35 * bw, y0 + 0.35 * bh), min(bw, bh) * 0.3, colours)
    elif rank == "ass":  # the Swiss Daus shows two large pips
        size = min(bw * 0.6, bh * 0.36)
        draw_suit(img, suit, (x0 + 0.5 * bw, y0 + 0.3 * bh), size, colours)
        draw_suit(img, suit, (x0 + 0.5 * bw, y0 + 0.72 * bh), size, colours, upside_down=mirror_bottom)
    else:
        raise ValueError(f"rank {rank!r} is not a number card")


def draw_index(
    img: np.ndarray,
    suit: str,
    rank: str,
    colours: tuple[tuple[int, int, int], ...],
    labels: dict[str, str],
    font: int,
    text_colour: tuple[int, int, int],
    paper: tuple[int, int, int],
    *,
    with_pip: bool = True,
) -> None:
    """Corner indices: top-left upright and bottom-right turned 180 degrees, on a paper patch."""
    h, w = img.shape[:2]
    text = labels[rank]
    pw, ph = round(w * 0.2), round(h * 0.22)
    patch = np.empty((ph, pw, 3), np.uint8)
    patch[:] = paper
    scale = pw / 60.0 if len(text) <= 2 else pw / 85.0
    thick = max(1, round(pw / 22))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cv2.putText(patch, text, (max(1, (pw - tw) // 2), th + round(ph * 0.06)), font, scale, text_colour, thick, AA)
    if with_pip:
        draw_suit(patch, suit, (pw / 2, th + ph * 0.45), min(pw * 0.6, ph * 0.4), colours)
    ox, oy = round(w * 0.05), round(h * 0.04)
    img[oy : oy + ph, ox : ox + pw] = patch
    img[h - oy - ph : h - oy, w - ox - pw : w - ox] = patch[::-1, ::-1]
