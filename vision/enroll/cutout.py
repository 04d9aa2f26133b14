"""Cut a card out of a phone photo without the networks, and even out the light it was taken in.

Why a second finder beside the shipped detector: a phone photo of one card is often
card-shaped itself (3:2 or 4:3 turned on its side is close to a card's 2:3), and the
card in it fills a third of it. Such a photo must not be taken whole as a scan, and a
photo the detector finds no card in still shows one. The card's paper meets the
background along four straight edges; a convex four-sided outline of a card's
proportions, closed by strong edges all round, is the card (``find_card_quads``).

Why even out the light (``even_light``): a photo's light is brighter on one side, and a
phone or hand shadows part of the card. Enrolment makes its camera-like views from the
picture; a shadow baked into the picture would teach that card's prototype a shadow it
will not have at the table. The card's paper is the brightest thing on it almost
everywhere, so a smooth surface fitted to the paper's brightness, channel by channel, is
the light and its colour; dividing by it leaves the print.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Long over short side a card outline may have (Jass cards are about 1.56; perspective and a bent card).
ASPECT_RANGE = (1.3, 1.85)
#: Smallest card worth taking, as a share of the photo's area.
MIN_AREA = 0.01
#: A card outline this much of the photo or more is the photo's own frame, not a card in it.
MAX_AREA = 0.85
#: Share of a candidate's perimeter that must lie on a strong edge.
EDGE_SUPPORT = 0.6
#: Side the photo is reduced to for the search.
WORK_SIDE = 720


def _edges(gray: np.ndarray) -> np.ndarray:
    blurred = cv2.GaussianBlur(gray, (0, 0), 1.2)
    med = float(np.median(blurred))
    return cv2.Canny(blurred, max(10.0, 0.4 * med), max(30.0, 1.0 * med))


def _quad_of(contour: np.ndarray) -> np.ndarray | None:
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    approx = cv2.approxPolyDP(hull, 0.03 * peri, True).reshape(-1, 2)
    if len(approx) == 4:
        return approx.astype(np.float32)
    rect = cv2.minAreaRect(hull)
    if cv2.contourArea(hull) < 0.88 * rect[1][0] * rect[1][1]:
        return None
    return cv2.boxPoints(rect).astype(np.float32)


def _support(edges: np.ndarray, quad: np.ndarray) -> float:
    """Share of points along the quad's sides with an edge pixel within 2 px."""
    near = cv2.dilate(edges, np.ones((5, 5), np.uint8))
    h, w = edges.shape
    hits = total = 0
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        n = max(8, int(np.linalg.norm(b - a) / 2))
        # the corners are rounded: judge the middle 80 % of each side
        t = np.linspace(0.1, 0.9, n)[:, None]
        p = np.round(a + (b - a) * t).astype(int)
        ok = (p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)
        total += n
        hits += int(near[p[ok, 1], p[ok, 0]].astype(bool).sum())
    return hits / max(total, 1)


def _aspect(quad: np.ndarray) -> float:
    s = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    a, b = (s[0] + s[2]) / 2, (s[1] + s[3]) / 2
    return float(max(a, b) / max(min(a, b), 1e-6))


def find_card_quads(img: np.ndarray) -> list[np.ndarray]:
    """Card outlines in a photo (BGR/BGRA), each (4, 2) in the photo's pixels, largest first.

    A candidate is a convex four-sided outline of a card's proportions, between
    ``MIN_AREA`` and ``MAX_AREA`` of the photo, not touching its border, with strong
    edges along ``EDGE_SUPPORT`` of its sides; overlapping candidates keep the larger.
    """
    bgr = img[..., :3]
    scale = WORK_SIDE / max(bgr.shape[:2])
    small = cv2.resize(bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else bgr
    scale = min(scale, 1.0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    edges = np.zeros(small.shape[:2], np.uint8)
    for ch in range(3):
        edges |= _edges(lab[..., ch])
    closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    h, w = small.shape[:2]
    area = float(h * w)
    contours, _ = cv2.findContours(closed, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    found: list[tuple[float, np.ndarray]] = []
    for c in contours:
        if cv2.contourArea(cv2.convexHull(c)) < MIN_AREA * area:
            continue
        quad = _quad_of(c)
        if quad is None:
            continue
        a = abs(cv2.contourArea(quad))
        if not MIN_AREA * area <= a <= MAX_AREA * area:
            continue
        if not ASPECT_RANGE[0] <= _aspect(quad) <= ASPECT_RANGE[1]:
            continue
        margin = 2
        if (
            quad[:, 0].min() < margin
            or quad[:, 1].min() < margin
            or quad[:, 0].max() > w - 1 - margin
            or quad[:, 1].max() > h - 1 - margin
        ):
            continue
        if _support(edges, quad) < EDGE_SUPPORT:
            continue
        found.append((a, quad))
    found.sort(key=lambda f: -f[0])
    kept: list[np.ndarray] = []
    for _a, q in found:
        centre = q.mean(axis=0)
        if any(holds(k, centre) for k in kept):
            continue
        kept.append(q)
    return [upright(k / scale) for k in kept]


def holds(quad: np.ndarray, point: np.ndarray) -> bool:
    """Does ``quad`` hold ``point`` (inside or on its edge)?"""
    outline = quad.reshape(-1, 1, 2).astype(np.float32)
    return cv2.pointPolygonTest(outline, (float(point[0]), float(point[1])), False) >= 0


def upright(quad: np.ndarray) -> np.ndarray:
    """The corners ordered clockwise from a corner of a short side, so ``rectify`` gives a portrait card
    (which end is up is for the identifier to say)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    c = q.mean(axis=0)
    q = q[np.argsort(np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0]))]  # clockwise on screen (y points down)
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)  # the first side must be a short one (the card's top)
    return q.astype(np.float32)


#: Grid of cells the paper's brightness is sampled on, and the share of a cell taken as its paper.
LIGHT_GRID = (6, 9)
PAPER_SHARE = 0.85
#: A cell is paper when its colour is the paper's within this much (each channel over the cell's grey
#: level, against the border's brightest cells): a pale coloured panel is not, whatever its brightness.
PAPER_TINT = 0.06
#: Paper under a phone's white balance is grey within this much per channel; a "paper" further off
#: is a card with no paper showing (a patterned back).
PAPER_NEUTRAL = 0.3
#: Paper along the border (in cells' worth) below which a card shows no paper (a back printed to its
#: edge, with white lines or rings in its pattern) and is left as it is.
BORDER_PAPER = 4.0
#: Cells this far off the light fitted on the border (share of it) are ink, glare or a fill, not paper.
LIGHT_OUTLIER = 0.1
#: Paper cells needed to fit the light's shape, and the largest spread (RMS, share of the light) left
#: about a fit worth dividing by; a poorer fit only sets the paper's colour and brightness.
LIGHT_MIN_CELLS = 8
LIGHT_MAX_SPREAD = 0.05


def _light_basis(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1)


def _fit_light(design: np.ndarray, level: np.ndarray, weight: np.ndarray) -> np.ndarray | None:
    """Weighted least squares of ``level`` on ``design``; None from too few cells."""
    if int((weight > 0).sum()) < LIGHT_MIN_CELLS:
        return None
    sw = np.sqrt(weight)
    coef, *_ = np.linalg.lstsq(design * sw[:, None], level * sw, rcond=None)
    return np.asarray(coef)


def even_light(picture: np.ndarray) -> np.ndarray:
    """The upright card picture (BGRA or BGR) under even, white light: divided by a smooth brightness
    fitted to its paper and by the paper's colour, the paper then set to the picture's own paper brightness.

    The light's shape is a quadratic fitted on the grey level of the cells that are paper:
    first those along the card's border, which is paper on nearly every deck while its
    middle may be a large panel (a deck's Ober and König may differ only by the panel's
    shade, so the panel must keep it); then every cell within ``LIGHT_OUTLIER`` of that
    fit, twice. A cell is paper when it has the paper's colour (``PAPER_TINT``): a pale
    coloured panel has another. The light's colour is one for the card: a phone photo
    is lit by one lamp or window. Where too few cells are paper, or the fit leaves them
    spread, the shape is not trusted and only the paper's colour and brightness are set;
    a card with no paper showing is left as it is.
    """
    bgr = picture[..., :3].astype(np.float32)
    h, w = bgr.shape[:2]
    gx, gy = LIGHT_GRID
    xs, ys, vals, weights, border = [], [], [], [], []
    grey = bgr.mean(axis=2)
    # a tenth of the card in from each side: the rounded corners and the cut's edge are no paper
    for j in range(gy):
        for i in range(gx):
            y0, y1 = int(h * (0.05 + 0.9 * j / gy)), int(h * (0.05 + 0.9 * (j + 1) / gy))
            x0, x1 = int(w * (0.05 + 0.9 * i / gx)), int(w * (0.05 + 0.9 * (i + 1) / gx))
            cell = bgr[y0:y1, x0:x1].reshape(-1, 3)
            g = grey[y0:y1, x0:x1].reshape(-1)
            top = g >= np.quantile(g, PAPER_SHARE)
            xs.append((x0 + x1) / 2 / w - 0.5)
            ys.append((y0 + y1) / 2 / h - 0.5)
            vals.append(cell[top].mean(axis=0))
            weights.append(float(np.mean(g >= 0.8 * np.quantile(g, 0.95))))
            border.append(i in (0, gx - 1) or j in (0, gy - 1))
    x, y, v, wt, ring = np.array(xs), np.array(ys), np.array(vals), np.array(weights), np.array(border)
    level = np.maximum(v.mean(axis=1), 1.0)
    tint = v / level[:, None]
    brightest = ring & (level >= np.quantile(level[ring], 0.5))
    paper_tint = np.median(tint[brightest], axis=0)
    # cells much darker than the brightest paper are fills, not paper in shadow
    paper = (np.abs(tint - paper_tint).max(axis=1) <= PAPER_TINT) & (level > 0.45 * np.quantile(level, 0.9))
    wt = wt * paper
    if float(np.abs(paper_tint - 1.0).max()) > PAPER_NEUTRAL or float((wt * ring).sum()) < BORDER_PAPER:
        return picture
    design = _light_basis(x, y)
    coef = _fit_light(design, level, wt * ring)
    use = wt * ring
    for _ in range(2):
        if coef is None:
            break
        off = level / np.maximum(design @ coef, 1.0) - 1.0
        use = wt * (np.abs(off) <= LIGHT_OUTLIER)
        coef = _fit_light(design, level, use)
    if coef is not None:
        off = level / np.maximum(design @ coef, 1.0) - 1.0
        if float(np.sqrt(np.sum(use * off**2) / max(float(use.sum()), 1e-6))) > LIGHT_MAX_SPREAD:
            coef = None
    paper_level = float(np.quantile(level[paper], 0.9))
    target = float(np.clip(paper_level, 180.0, 245.0))
    if coef is None:  # no shape to trust: the paper's colour and brightness only
        light = np.full((h, w), paper_level, np.float32)
    else:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        light = np.clip(_light_basis(xx / w - 0.5, yy / h - 0.5) @ coef.astype(np.float32), 8.0, None)
    colour = (paper_tint / paper_tint.mean()).astype(np.float32)
    light = light * _shading(bgr / (light[..., None] * colour))
    out = np.clip(bgr / (light[..., None] * colour) * target, 0, 255).astype(np.uint8)
    return np.dstack([out, picture[..., 3]]) if picture.shape[2] == 4 else out


#: The paper's own shading left after the smooth fit is followed this closely (Gaussian sigma, share of
#: the picture's width): a hand's or phone's shadow, a lamp's spot, a glare on the paper.
SHADING_SIGMA = 0.05
#: A pixel is the paper's when its colour is the paper's within this much per channel (share of its grey
#: level) and its brightness this share of the fitted light or more: ink is darker, a fill has a colour.
SHADING_TINT = 0.12
SHADING_LEAST = 0.6
#: Weight of the fitted light itself where no paper lies near (a court card's panel): the shading is
#: followed where there is paper to follow, and left to the fit elsewhere.
SHADING_PRIOR = 0.05


def _shading(flat: np.ndarray) -> np.ndarray:
    """The paper's brightness over a picture already divided by a smooth light (about 1 on paper), spread
    from the paper's pixels over the picture (normalised convolution): the shadows and spots of a real
    photo's light that a quadratic does not follow. 1 where no paper lies near."""
    grey = flat.mean(axis=2)
    tint = flat / np.maximum(grey, 1e-3)[..., None]
    paper = ((np.abs(tint - 1.0).max(axis=2) <= SHADING_TINT) & (grey >= SHADING_LEAST)).astype(np.float32)
    sigma = SHADING_SIGMA * flat.shape[1]
    num = cv2.GaussianBlur(paper * grey, (0, 0), sigma)
    den = cv2.GaussianBlur(paper, (0, 0), sigma)
    return np.asarray((num + SHADING_PRIOR) / (den + SHADING_PRIOR), np.float32)


#: How far out from a found outline its card's edge is looked for (share of the card's side), and in.
REACH_OUT = 0.22
REACH_IN = 0.04
#: An edge at least this share of the side's strongest counts as the card's own; the outermost such wins.
EDGE_SHARE = 0.45
#: The share for the ends of an outline still too squat after that: something of the card is cut off.
FAINT_EDGE_SHARE = 0.2


def refine_to_edges(img: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` moved side by side to the card's outer edge: where the paper meets the background.

    Why: the networks outline some decks short (a card with coloured bands at its ends
    is outlined where the paper meets the band), and an outline from the edge finder can
    be a court card's inner frame (widened once to the card's long sides where paper lies
    around it, ``_inner_frame``, and its ends then looked for again). The card's own edge is the outermost straight edge
    running along the whole side within ``REACH_OUT`` of it; a texture of the table does
    not run along a whole side, and the card's contact shadow is softer than its edge.
    """
    return _refine(img, quad, frames=True)


def _refine(img: np.ndarray, quad: np.ndarray, frames: bool) -> np.ndarray:
    q = upright(quad).astype(np.float64)
    gw, gh = 160, 250
    ox, oy = REACH_OUT * gw, REACH_OUT * gh
    # the quad's unit frame, grown by REACH_OUT on every side, laid out axis-aligned
    dst = np.array([[ox, oy], [ox + gw, oy], [ox + gw, oy + gh], [ox, oy + gh]], np.float64)
    m = cv2.getPerspectiveTransform(q.astype(np.float32), dst.astype(np.float32))
    size = (int(gw + 2 * ox), int(gh + 2 * oy))
    flat = cv2.warpPerspective(img[..., :3], m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = np.asarray(cv2.GaussianBlur(lab, (0, 0), 1.0), np.float32)
    gy = np.abs(np.diff(lab, axis=0)).sum(axis=2)  # (H-1, W)
    gx = np.abs(np.diff(lab, axis=1)).sum(axis=2)  # (H, W-1)
    x0, x1 = int(ox + 0.15 * gw), int(ox + 0.85 * gw)
    y0, y1 = int(oy + 0.15 * gh), int(oy + 0.85 * gh)
    inner_y, inner_x = int(oy + gh - REACH_IN * gh), int(ox + gw - REACH_IN * gw)
    top_profile = np.median(gy[: int(oy + REACH_IN * gh), x0:x1], axis=1)
    bottom_profile = np.median(gy[inner_y:, x0:x1], axis=1)
    top, bottom = _outermost(top_profile, outward=-1), _outermost(bottom_profile, outward=1)
    left = _outermost(np.median(gx[y0:y1, : int(ox + REACH_IN * gw)], axis=0), outward=-1)
    right = _outermost(np.median(gx[y0:y1, inner_x:], axis=0), outward=1)
    if top is None or bottom is None or left is None or right is None:
        return q.astype(np.float32)
    bottom, right = bottom + inner_y, right + inner_x
    # Only an outline out of a card's proportions is moved, and only along the sides that
    # make it one: the short ends of one too squat (bands cut off), the long sides of one
    # too narrow. An outline of a card's shape lies at its edge, unless it is a court
    # card's inner frame (``_inner_frame``); an edge further out is otherwise the hand
    # holding it or the card's shadow.
    aspect = _aspect(q)
    t, b, lft, r = oy, oy + gh, ox, ox + gw
    if aspect < CARD_SHAPE[0]:
        t, b = _moved(top + 1.0, oy, gh), _moved(bottom + 1.0, oy + gh, gh)
        if aspect * (b - t) / gh < CARD_SHAPE[0]:
            # still squat: a band's outer edge on a background of the band's shade is faint
            faint_t = _outermost(top_profile, outward=-1, share=FAINT_EDGE_SHARE)
            faint_b = _outermost(bottom_profile, outward=1, share=FAINT_EDGE_SHARE)
            if t == oy and faint_t is not None:
                t = _moved(faint_t + 1.0, oy, gh)
            if b == oy + gh and faint_b is not None:
                b = _moved(faint_b + inner_y + 1.0, oy + gh, gh)
        t, b = _both_ends(t, b, oy, gh, aspect * (b - t) / gh)
    elif aspect > CARD_SHAPE[1]:
        lft, r = _moved(left + 1.0, ox, gw), _moved(right + 1.0, ox + gw, gw)
    grown = aspect * (b - t) / gh * gw / (r - lft)
    if frames and lft == ox and CARD_SHAPE[0] <= grown <= CARD_SHAPE[1]:
        # the edges outside the frame, judged against the strongest out there: the frame's own
        # edge (a dark panel on the paper) would make the card's edge on a pale cloth look faint
        out_left, out_right = int(ox - KEEP_WITHIN * gw), int(ox + gw + KEEP_WITHIN * gw) - inner_x
        left_edges = [p + 1.0 for p in _peaks(np.median(gx[y0:y1, :out_left], axis=0))]
        right_edges = [
            p + out_right + inner_x + 1.0 for p in _peaks(np.median(gx[y0:y1, inner_x:], axis=0)[out_right:])
        ]
        wider = _inner_frame(flat, (ox, oy, gw, gh), left_edges, right_edges)
        if wider is not None:  # the card's width, then its ends looked for again from there
            box = np.array([[wider[0], t], [wider[1], t], [wider[1], b], [wider[0], b]], np.float64)
            frame = cv2.perspectiveTransform(box.reshape(-1, 1, 2), np.linalg.inv(m)).reshape(4, 2)
            return _refine(img, frame.astype(np.float32), frames=False)
    if (t, b, lft, r) == (oy, oy + gh, ox, ox + gw):
        return q.astype(np.float32)
    box = np.array([[lft, t], [r, t], [r, b], [lft, b]], np.float64)
    back = cv2.perspectiveTransform(box.reshape(-1, 1, 2), np.linalg.inv(m)).reshape(4, 2)
    if not CARD_SHAPE[0] * 0.95 <= _aspect(back) <= CARD_SHAPE[1] * 1.05:
        return q.astype(np.float32)
    return back.astype(np.float32)


#: Long over short side of an outline that already has a card's shape (Jass and French cards are 1.53-1.60).
CARD_SHAPE = (1.42, 1.72)
#: A side found this close to its drawn place (share of the card's side) keeps its drawn place.
KEEP_WITHIN = 0.03


def _moved(found: float, drawn: float, side: float) -> float:
    return drawn if abs(found - drawn) < KEEP_WITHIN * side else found


def _both_ends(t: float, b: float, drawn_t: float, side: float, aspect: float) -> tuple[float, float]:
    """The short ends of a squat outline moved alike where only one found the card's edge and the outline
    is still squat: a Jass or French card is drawn the same at both ends (its bands, its double-headed
    court figures), so what the networks cut off at one end they cut off at the other; the card's edge at
    the other end is lost in a background of the band's colour."""
    up, down = drawn_t - t, b - (drawn_t + side)
    if aspect >= CARD_SHAPE[0] or min(up, down) > 0 or max(up, down) <= 0:
        return t, b
    grow = max(up, down)
    return drawn_t - grow, drawn_t + side + grow


#: A strip is the card's paper when its grey level is this share of the card's paper or more, its
#: channels within this share of its grey level (a cream paper under a warm lamp), and the spread
#: across it (std over the median, row by row: the light may change along it) under the last.
STRIP_LEVEL = 0.75
STRIP_TINT = 0.35
STRIP_SPREAD = 0.08
#: The spread a strip between an inner frame and a pair of edges at the same distance may have: the
#: pair is evidence already, and a narrow margin lit from one side spreads more than a wide one.
PAIR_SPREAD = 0.12
#: And the share of the frame's brightest paper it must reach: a glare spot on the panel sets that high.
PAIR_LEVEL = 0.6
#: And the tint: a cream paper under a warm lamp, in a margin a few pixels wide.
PAIR_TINT = 0.45
#: The long sides of an inner frame lie this close (share of the frame's width) to mirror images.
FRAME_SYMMETRY = 0.04


def _paper_strip(
    flat: np.ndarray,
    rows: slice,
    cols: slice,
    paper: float,
    spread_max: float = STRIP_SPREAD,
    level: float = STRIP_LEVEL,
    tint_max: float = STRIP_TINT,
) -> bool:
    strip = flat[rows, cols].reshape(-1, 3).astype(np.float32)
    if flat[rows, cols].shape[1] < 2 or len(strip) < 20:
        return False
    grey = strip.mean(axis=1)
    med = float(np.median(grey))
    tint = float(np.median((strip.max(axis=1) - strip.min(axis=1)) / np.maximum(grey, 1.0)))
    rows_grey = flat[rows, cols].astype(np.float32).mean(axis=2)
    spread = float(np.median(rows_grey.std(axis=1) / np.maximum(np.median(rows_grey, axis=1), 1.0)))
    return med >= level * paper and tint <= tint_max and spread <= spread_max


def _inner_frame(
    flat: np.ndarray, frame: tuple[float, float, float, float], lefts: list[float], rights: list[float]
) -> tuple[float, float] | None:
    """The card's long sides, where the card-shaped outline (``frame``: x, y, width, height in ``flat``,
    the outline's frame grown by ``REACH_OUT``) is a court card's inner frame; None where it is the card.

    An inner frame is told by what lies outside it: the card's paper, alike on both long sides, up to
    an edge at the same distance on both sides (``lefts``, ``rights``: the edges found left and right
    of it), beyond which lies something else than that paper. The innermost such pair is the card's
    edge: a hand holding the card, or the cloth's pattern, gives edges further out on one side only.
    Outside a card's own outline lies the table, a cloth or a hand; a white sheet under it is
    paper-like, but it reaches no edge at the same distance on both sides, and beyond a line printed
    on the card's margin the same paper goes on."""
    ox, oy, gw, gh = frame
    rows = slice(int(oy + 0.2 * gh), int(oy + 0.8 * gh))
    inside = flat[rows, int(ox + 0.05 * gw) : int(ox + 0.95 * gw)].astype(np.float32).mean(axis=2)
    paper = float(np.quantile(inside, 0.95))
    lab = cv2.cvtColor(flat, cv2.COLOR_BGR2LAB).astype(np.float32)
    pad = 2
    beyond = int(0.04 * gw)
    pairs = sorted(
        ((ox - a) + (b - ox - gw), a, b)
        for a in lefts
        for b in rights
        if a <= ox - KEEP_WITHIN * gw
        and b >= ox + gw + KEEP_WITHIN * gw
        and abs((ox - a) - (b - ox - gw)) <= FRAME_SYMMETRY * gw
    )
    for _reach, left, right in pairs:
        near = [_between(left, ox), _between(ox + gw, right)]
        far = [
            slice(max(0, int(left) - pad - beyond), int(left) - pad),
            slice(int(right) + pad, int(right) + pad + beyond),
        ]
        if not all(_paper_strip(flat, rows, c, paper, PAIR_SPREAD, PAIR_LEVEL, PAIR_TINT) for c in near):
            continue
        if any(_paper_strip(flat, rows, f, paper) and _alike(lab, rows, n, f) for n, f in zip(near, far, strict=True)):
            continue  # the same paper goes on beyond it: a line on the card's margin, or a sheet under the card
        return left, right
    return None


def _between(a: float, b: float) -> slice:
    """The columns between two edges, a fifth of the gap (at least 2 px) kept off each: a court card's
    frame is drawn with a line, and the card's edge is blurred."""
    keep = max(2, int(0.2 * (b - a)))
    return slice(int(a) + keep, int(b) - keep)


#: Two strips whose mean Lab colours lie closer than this are the same paper.
SAME_PAPER = 8.0


def _alike(lab: np.ndarray, rows: slice, a: slice, b: slice) -> bool:
    ma = lab[rows, a].reshape(-1, 3).mean(axis=0)
    mb = lab[rows, b].reshape(-1, 3).mean(axis=0)
    return bool(np.linalg.norm(ma - mb) < SAME_PAPER)


#: A gradient profile whose strongest step is under this (Lab units summed) shows no edge at all.
FLAT_PROFILE = 6.0


def _peaks(profile: np.ndarray, share: float = FAINT_EDGE_SHARE) -> list[int]:
    """Indices of the local peaks of ``profile`` at least ``share`` of its largest (none if flat)."""
    if len(profile) < 3 or float(profile.max()) < FLAT_PROFILE:
        return []
    top = float(profile.max())
    return [
        i
        for i in range(1, len(profile) - 1)
        if profile[i] >= profile[i - 1] and profile[i] >= profile[i + 1] and profile[i] >= share * top
    ]


def paper_margins(img: np.ndarray, quad: np.ndarray) -> bool:
    """Is the margin along both long sides of ``quad`` in ``img`` the card's paper?

    A Jass or French card has paper along its long sides, inside its edge (its ends may
    be coloured bands); an outline that takes in the card's shadow, a hand or the table
    has that at its margin instead, and one that cuts through the card has the print.
    """
    q = upright(quad).astype(np.float32)
    w, h = 80, 125
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    flat = cv2.warpPerspective(img[..., :3], cv2.getPerspectiveTransform(q, dst), (w, h), flags=cv2.INTER_AREA)
    rows = slice(int(0.2 * h), int(0.8 * h))
    paper = float(np.quantile(flat[rows, 2 : w - 2].astype(np.float32).mean(axis=2), 0.95))
    return all(_paper_strip(flat, rows, c, paper) for c in (slice(2, 5), slice(w - 5, w - 2)))


def _outermost(profile: np.ndarray, outward: int, share: float = EDGE_SHARE) -> int | None:
    """Index of the outermost local peak of ``profile`` at least ``share`` of its largest (None if flat)."""
    if len(profile) < 3 or float(profile.max()) < FLAT_PROFILE:
        return None
    peaks = _peaks(profile, share)
    if not peaks:
        return int(np.argmax(profile))
    return peaks[0] if outward < 0 else peaks[-1]
