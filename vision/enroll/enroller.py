"""Enrolment: card pictures in, a deck profile and a report of what looks wrong out.

How a deck is learnt without training: every picture is shown to the shipped identifier
as many camera-like views (``vision.enroll.augment``); the mean of a picture's view
embeddings becomes one prototype of its card. A card scores by its best prototype, so
more pictures of a card (other photos, other light) simply add prototypes. Nothing of
the built-in deck is touched: the profile is a separate prototype set, and the
recognizer uses it only when a table selects it.

The views also teach a linear map for this deck (``adapt``): the embedding was trained on
another deck, so some of its directions vary a lot between views of one card and little
between cards. Whitening by the views' within-card covariance (shrunk towards the
identity) stresses the directions that tell this deck's cards apart; it is fitted in
milliseconds and travels with the prototypes as ``Prototypes.projection``.

The same embeddings check the user's labels: a picture closer to another card's
prototype than to its own card's other pictures is mislabelled; two pictures of
different labels that are as close as two camera views of one picture show the same
card (one of the two labels is wrong, or one card was photographed twice); a card with
no picture is missing.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from scoring.cards import ALL_CARD_IDS
from vision.detection import BACK
from vision.enroll.augment import camera_views, card_sheet, table_photo
from vision.enroll.crops import EnrollImageError, alpha_quad, flatten_alpha, full_quad, is_card_shaped
from vision.enroll.cutout import ASPECT_RANGE, even_light, find_card_quads, refine_to_edges
from vision.enroll.detail_head import MAP_SIZE, fit_detail_head
from vision.enroll.formats import FORMAT_VERSION, profile_format
from vision.enroll.head import Z_TEMPERATURE, DeckPrototypes, card_features, fit_ridge
from vision.enroll.names import named
from vision.enroll.profile import PICTURE_H, PICTURE_W, DeckProfile
from vision.enroll.same_card import same_print
from vision.recognizer.geometry import (
    CROP_H,
    CROP_W,
    UNIT_QUAD,
    from_outline_frame,
    half_turn_mean,
    in_outline_frame,
    quad_area,
    quad_aspect,
    rectify,
    rotate_half,
)
from vision.recognizer.prototypes import Prototypes

#: Camera-like views per picture: 32 take about 0.25 s per card on a loaded 2-core x86 (views + embedding + HOG).
DEFAULT_VIEWS = 32
#: Probe vectors closer than this (cosine) mean the same identifier made them.
SAME_MODEL_COSINE = 0.999
#: A card-shaped image is a photo, not a scan taken whole, when a card detected in it
#: covers at least this share of it and reaches at most one of its sides.
SCAN_MIN_AREA = 0.3
#: A card outline inside a card-shaped image, clear of its border by this share of its short side and
#: covering at least this share of it, makes the image a photo of the card on a background.
PHOTO_MARGIN = 0.02
PHOTO_MIN_AREA = 0.02
#: Share of the views cut by the real detector from photographed tables (the rest: jittered true corners).
TABLE_SHARE = 0.5
#: Two labels whose held-out views go to each other this often (summed both ways) are one card:
#: about 1.0 for one picture under two labels, at most 0.6 for a 7 and an 8 of one suit at 8 views.
DUPLICATE_SHARE = 0.75
#: A card the verifier covers at least this well on nine in ten of its enrolment tables is
#: one it knows (``Prototypes.verified``): a deck whose court cards have an inner frame or
#: coloured bands is outlined short of them, and covered poorly (models/README.md,
#: "Enrolled decks"). Views the detector missed count as 0.
COVER_TRUST = 0.5
COVER_QUANTILE = 0.1
#: Fewer table views of a card than this: not known.
COVER_MIN_VIEWS = 4
#: A deck whose cards the detector and refiner outline this far (a share of the card's
#: sides) from where they lie has its outlines moved (``Prototypes.outline``); one outlined
#: closer keeps them as drawn: a deck with coloured bands at its ends is outlined well
#: short of them, a plain deck within a share or two (models/README.md, "Enrolled decks").
OUTLINE_MIN_SHIFT = 0.03
#: Cards found on the tables needed to measure it.
OUTLINE_MIN_CARDS = 12
#: Shrinkage of the within-card covariance towards the identity (fraction of its mean variance).
SHRINKAGE = 0.1

Progress = Callable[[float, str], None]


class Embedder(Protocol):
    """What enrolment needs of the recognizer (``vision.recognizer.Recognizer`` is one)."""

    def embed(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


class Detector(Embedder, Protocol):
    def detect_quads(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


class OutlineJudge(Detector, Protocol):
    """A detector that also says how well each outline covers a card (``Recognizer.detect_outlines``)."""

    def detect_outlines(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]: ...


def _judges_outlines(embedder: object) -> bool:
    return callable(getattr(embedder, "detect_outlines", None))


@dataclass
class Sample:
    """One enrolment picture: its card label (canonical id or ``back``; None = not yet known)."""

    label: str | None
    picture: np.ndarray  # (PICTURE_H, PICTURE_W, 4) uint8, upright
    source: str
    #: Long over short side of the card, where the image showed its whole outline (a PNG's
    #: opaque part, a scan); None from a photo, whose outline the networks drew.
    aspect: float | None = None


@dataclass(frozen=True)
class Issue:
    """Something wrong with the enrolment, naming the cards: ``kind`` is missing, mislabelled, duplicate or confusable."""

    kind: str
    cards: tuple[str, ...]
    message: str
    sources: tuple[str, ...] = ()

    @property
    def is_error(self) -> bool:
        return self.kind in ("missing", "mislabelled", "duplicate")

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": list(self.cards),
            "message": self.message,
            "sources": list(self.sources),
            "error": self.is_error,
        }


@dataclass
class EnrollReport:
    """The checks' findings and per-card margins (how far each card is from its nearest other card)."""

    issues: list[Issue] = field(default_factory=list)
    nearest: dict[str, tuple[str, float]] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not any(i.is_error for i in self.issues)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "issues": [i.to_json() for i in self.issues],
            "nearest": {k: {"card": v[0], "cosine": round(v[1], 4)} for k, v in self.nearest.items()},
            "seconds": round(self.seconds, 2),
        }


# -- pictures -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Views:
    """What enrolment learns a deck from: per picture (P), its views (V) as the identifier and the deck
    head read them, and what the tables said about how the networks outline the deck's cards."""

    means: np.ndarray  # (P, D) unit mean embeddings
    per_view: np.ndarray  # (P, V, D) each view's embedding
    features: np.ndarray  # (P, V, F) the deck head's features
    trunk: np.ndarray | None  # (P, V, MAP_SIZE) the identifier's maps; None from an identifier that gives none
    covers: (
        list[np.ndarray] | None
    )  # the verifier's coverage of each picture on each table (None: no tables or verifier)
    outline: np.ndarray | None  # (4, 2) ``Prototypes.outline``; None without tables


def _bgra(img: np.ndarray) -> np.ndarray:
    return img if img.shape[2] == 4 else np.dstack([img, np.full(img.shape[:2], 255, np.uint8)])


def rectify_picture(img: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` of ``img`` (BGR/BGRA) as an upright PICTURE_W x PICTURE_H BGRA picture."""
    img = _bgra(img)
    q = np.asarray(quad, np.float32).reshape(4, 2)
    side = max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[1] - q[2]))
    factor = side / (1.5 * PICTURE_H)
    if factor > 1.0:  # shrink first so the bilinear warp does not alias
        img = cv2.resize(
            img,
            (max(1, round(img.shape[1] / factor)), max(1, round(img.shape[0] / factor))),
            interpolation=cv2.INTER_AREA,
        )
        q = q / factor
    return rectify(img, q, PICTURE_W, PICTURE_H)


def pictures_in_image(img: np.ndarray, detector: Detector | None = None) -> list[np.ndarray]:
    """Every card in an enrolment image, as upright BGRA pictures (reading order).

    A transparent-cornered card picture is cut at its opaque part. Otherwise the
    detector looks for cards (a photo of one or several cards on a table); an image it
    finds no card in, or only small ones in, that has a card's shape is a scan of one
    card and is taken whole.
    """
    return [p for p, _ in cards_in_image(img, detector)]


def cards_in_image(img: np.ndarray, detector: Detector | None = None) -> list[tuple[np.ndarray, float | None]]:
    """``pictures_in_image`` with each card's long over short side where the image shows its own
    outline (a PNG's opaque part, a scan taken whole); None for cards found in a photo."""
    quad = alpha_quad(img)
    if quad is not None:
        return [(rectify_picture(img, quad), _proportions(quad))]
    found = pictures_from_frame(flatten_alpha(img), detector, photo=True) if detector is not None else []
    scan = _scan(img, found)
    if scan is not None:
        return [scan]
    if not found and detector is None:
        raise EnrollImageError("the image is not card-shaped and no detector was given to find the card in it")
    return [(p, None) for p, _ in found]


def picture_from_image(img: np.ndarray, detector: Detector | None = None) -> np.ndarray:
    """The one card of an enrolment image (the largest, if the photo shows several) as an upright BGRA picture."""
    return card_in_image(img, detector)[0]


def card_in_image(img: np.ndarray, detector: Detector | None = None) -> tuple[np.ndarray, float | None]:
    """``picture_from_image`` and the card's long over short side where the image shows its own outline
    (a PNG's opaque part, a scan taken whole); None for a card found in a photo."""
    quad = alpha_quad(img)
    if quad is not None:
        return rectify_picture(img, quad), _proportions(quad)
    found = pictures_from_frame(flatten_alpha(img), detector, photo=True) if detector is not None else []
    scan = _scan(img, found)
    if scan is not None:
        return scan
    if not found:
        if detector is None:
            raise EnrollImageError("the image is not card-shaped and no detector was given to find the card in it")
        raise EnrollImageError("no face-up card found in the image")
    return max(found, key=lambda f: quad_area(f[1]))[0], None


def _scan(img: np.ndarray, found: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, float] | None:
    """The whole image as one card, when it has a card's shape and shows no card lying in it.

    A phone photo of one card is often card-shaped itself (3:2, or 4:3 on its side) with
    the card a third of it: a card found whole inside it, clear of its border, on a
    background (``_lies_inside``), makes it a photo however small the card.
    """
    if not is_card_shaped(img):
        return None
    area = img.shape[0] * img.shape[1]
    if any(quad_area(q) >= SCAN_MIN_AREA * area and _sides_touched(q, img.shape) <= 1 for _, q in found):
        return None
    if any(_lies_inside(q, img.shape) for _, q in found):
        return None
    whole = full_quad(img)
    return rectify_picture(img, whole), _proportions(whole)


def _sides_touched(quad: np.ndarray, shape: tuple[int, ...]) -> int:
    """How many of the image's sides ``quad`` reaches (within ``PHOTO_MARGIN``).

    A card found in a card-shaped image that reaches two sides or more is part of the card the
    image is (the detector, reading a scan at a photo's scale, outlined its lower half),
    not a card lying in a photo.
    """
    h, w = shape[:2]
    margin = PHOTO_MARGIN * min(h, w)
    q = np.asarray(quad, np.float32).reshape(4, 2)
    return (
        int(q[:, 0].min() < margin)
        + int(q[:, 1].min() < margin)
        + int(q[:, 0].max() > w - margin)
        + int(q[:, 1].max() > h - margin)
    )


def _lies_inside(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """A card's outline of a card's proportions, at least ``PHOTO_MIN_AREA`` of the image, clear of its border."""
    h, w = shape[:2]
    q = np.asarray(quad, np.float32).reshape(4, 2)
    return bool(
        _sides_touched(q, shape) == 0
        and quad_area(q) >= PHOTO_MIN_AREA * h * w
        and ASPECT_RANGE[0] <= _proportions(q) <= ASPECT_RANGE[1]
    )


def _proportions(quad: np.ndarray) -> float:
    a = quad_aspect(quad)
    return max(a, 1.0 / a)


def deck_aspect(samples: Iterable[Sample]) -> float | None:
    """The median long over short side of the pictures that measured one (``Sample.aspect``), or None.

    A deck's cards share their proportions; the recogniser completes the outline of a
    half-covered card with them (``RecognizerSettings.aspect_tolerance``). Photos do not
    count: the networks drew their outlines, and they outline some decks short.
    """
    found = [s.aspect for s in samples if s.aspect is not None and 1.0 < s.aspect < 3.0]
    return float(np.median(found)) if found else None


def reading_order(quads: np.ndarray) -> list[int]:
    """Indices of ``quads`` row by row (top to bottom), left to right within a row."""
    if len(quads) == 0:
        return []
    centres = quads.mean(axis=1)
    heights = np.array([np.linalg.norm(q[0] - q[3]) for q in quads])
    row_gap = 0.5 * float(np.median(heights))
    order = list(np.argsort(centres[:, 1]))
    rows: list[list[int]] = []
    for i in order:
        if rows and centres[i, 1] - np.mean([centres[j, 1] for j in rows[-1]]) < row_gap:
            rows[-1].append(int(i))
        else:
            rows.append([int(i)])
    return [i for row in rows for i in sorted(row, key=lambda j: centres[j, 0])]


def pictures_from_frame(
    frame: np.ndarray, detector: Detector, photo: bool = False
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every face-up card in a camera frame, in reading order: (upright BGRA picture, quad in frame pixels).

    ``photo``: the frame is a phone photo of cards laid out to be learnt: where the
    detector finds none, the cards are looked for by their outlines (``find_card_quads``),
    and every picture's light is evened out (``even_light``), since the photo's light is
    not the table's.
    """
    quads, _scores, is_back = detector.detect_quads(frame)
    keep = [i for i in range(len(quads)) if not is_back[i]]
    quads = quads[keep]
    if photo:
        quads = photo_quads(frame, list(quads))
    if len(quads) == 0:
        return []
    crops = np.stack([rectify(frame, q) for q in quads])
    _emb, flip = detector.embed(crops)
    out = []
    for i in reading_order(quads):
        q = rotate_half(quads[i]) if flip[i] >= 0.5 else quads[i]  # thumbnails stand upright
        picture = rectify_picture(frame, q)
        out.append((even_light(picture) if photo else picture, q))
    return out


def photo_quads(photo: np.ndarray, detected: list[np.ndarray]) -> np.ndarray:
    """The cards of a phone photo: the detector's outlines and the edge finder's, each moved to the
    card's outer edge (``refine_to_edges``), one per card (the larger where two share a centre).

    The detector outlines some decks short and misses some court cards on a busy cloth;
    the edge finder can take a court card's inner frame or miss a card on a pale cloth.
    Together, pushed to the paper's edge, they find and cut each card whole.
    """
    candidates = [refine_to_edges(photo, q) for q in [*detected, *find_card_quads(photo)]]
    candidates.sort(key=lambda q: -quad_area(q))
    kept: list[np.ndarray] = []
    for q in candidates:
        c = q.mean(axis=0)
        if any(
            cv2.pointPolygonTest(k.reshape(-1, 1, 2).astype(np.float32), (float(c[0]), float(c[1])), False) >= 0
            for k in kept
        ):
            continue
        kept.append(q)
    return np.array(kept, np.float32).reshape(-1, 4, 2)


# -- embedding ----------------------------------------------------------------------------

_PROBE: np.ndarray | None = None


def probe_crops() -> np.ndarray:
    """Two fixed, smooth pseudo-random crops: any identifier embeds them the same way every time."""
    global _PROBE
    if _PROBE is None:
        rng = np.random.default_rng(20261129)
        small = rng.integers(0, 256, (2, 12, 8, 3)).astype(np.uint8)
        _PROBE = np.stack([cv2.resize(s, (CROP_W, CROP_H), interpolation=cv2.INTER_CUBIC) for s in small])
    return _PROBE


def probe_embedding(embedder: Embedder) -> np.ndarray:
    return embedder.embed(probe_crops())[0].astype(np.float32)


def same_identifier(a: np.ndarray, b: np.ndarray) -> bool:
    """Were both probe embeddings made by the same identifier?"""
    if a.shape != b.shape:
        return False
    cos = (a * b).sum(axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1) + 1e-12)
    return bool(cos.min() >= SAME_MODEL_COSINE)


def clean_crop(picture: np.ndarray) -> np.ndarray:
    """The picture itself as an identifier crop (on a neutral table grey)."""
    return cv2.resize(flatten_alpha(picture, (110, 110, 110)), (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def _unit(v: np.ndarray) -> np.ndarray:
    return v / (np.linalg.norm(v, axis=-1, keepdims=True) + 1e-12)


class Enroller:
    """Builds deck profiles with one recognizer's identifier.

    ``views``: camera-like views per picture. ``back``: prototype vectors for the card
    back to use when a deck is enrolled without a picture of its back (by default the
    recognizer's current ``back`` prototypes, i.e. the built-in deck's).
    """

    def __init__(
        self,
        embedder: Embedder,
        *,
        views: int = DEFAULT_VIEWS,
        seed: int = 0,
        back: np.ndarray | None = None,
        adapt: bool = True,
        table_share: float = TABLE_SHARE,
    ) -> None:
        if views < 0:
            raise ValueError("views must be >= 0")
        self.embedder = embedder
        self.views = views
        self.seed = seed
        self.adapt = adapt and views > 0
        self.table_share = table_share
        if back is None:
            protos: Prototypes | None = getattr(embedder, "prototypes", None)
            if protos is not None and not isinstance(protos, DeckPrototypes) and BACK in protos.labels:
                back = protos.vectors[[i for i, lab in enumerate(protos.labels) if lab == BACK]]
        self.back = back
        self._probe: np.ndarray | None = None
        self._gives_trunk: bool | None = None

    @property
    def outlines(self) -> str:
        """The embedder's ``outlines_digest`` ("" when it has none, e.g. no detector)."""
        return str(getattr(self.embedder, "outlines_digest", ""))

    @property
    def probe(self) -> np.ndarray:
        if self._probe is None:
            self._probe = probe_embedding(self.embedder)
        return self._probe

    @property
    def gives_trunk(self) -> bool:
        """Does the embedder give the identifier's map that the detail head reads (``Recognizer.embed_trunk``)?

        An older identifier file gives another (its last, 48x6x4): no detail head then.
        """
        if self._gives_trunk is None:
            read = getattr(self.embedder, "embed_trunk", None)
            got = read(probe_crops()[:1])[2] if callable(read) else None
            self._gives_trunk = got is not None and got.shape[-1] == MAP_SIZE
        return self._gives_trunk

    def _embed(self, crops: np.ndarray, batch: int = 128) -> tuple[np.ndarray, np.ndarray | None]:
        """Embeddings (N, D) and, where the embedder gives them, the identifier's maps (N, MAP_SIZE)."""
        parts = [np.ascontiguousarray(crops[s : s + batch]) for s in range(0, len(crops), batch)]
        if not self.gives_trunk:
            return np.concatenate([self.embedder.embed(x)[0] for x in parts]), None
        reads = [self.embedder.embed_trunk(x) for x in parts]  # type: ignore[attr-defined]
        return np.concatenate([r[0] for r in reads]), np.concatenate([r[2] for r in reads]).astype(np.float32)

    def picture_views(self, pictures: list[np.ndarray], progress: Progress | None = None) -> Views:
        """The views of each picture, embedded and featured, and how the networks outline the deck's cards.

        The views are the clean picture both ways up plus ``views`` camera-like views, of
        which a share (``table_share``) are cut where the real detector finds the card on
        a photographed table of six, so the deck is learnt with the detector's own errors
        (at the outline it will be read at: ``Prototypes.outline``, when that moves it).
        Seeds depend on the pictures' order, so a profile rebuilds identically.
        """
        n_table = self._table_count(self.views)
        crops = [
            [clean_crop(pic)[None], clean_crop(pic)[None, ::-1, ::-1]]
            + ([camera_views(pic, self.views - n_table, seed=self.seed * 100_003 + k)] if self.views > n_table else [])
            for k, pic in enumerate(pictures)
        ]
        covers, outline = None, None
        if n_table:
            extras, covers, outline = self._table_views(pictures, n_table, progress)
            for k, extra in enumerate(extras):
                crops[k].append(extra)
        means, per_view, feats, trunks = [], [], [], []
        for k, parts in enumerate(crops):
            x = np.ascontiguousarray(np.concatenate(parts))
            emb, trunk = self._embed(x)
            per_view.append(emb)
            trunks.append(trunk)
            feats.append(card_features(x))
            means.append(_unit(emb.mean(axis=0)))
            if progress is not None:
                progress(
                    (0.5 if n_table else 0.0) + (0.5 if n_table else 1.0) * (k + 1) / len(crops),
                    f"picture {k + 1} of {len(crops)}",
                )
        trunk_views = None if any(t is None for t in trunks) else np.stack(trunks)  # type: ignore[arg-type]
        return Views(
            np.stack(means).astype(np.float32),
            np.stack(per_view).astype(np.float32),
            np.stack(feats),
            trunk_views,
            covers,
            outline,
        )

    def _table_count(self, views: int) -> int:
        """How many of ``views`` views per picture are cut from table photos (none without a detector)."""
        return int(round(views * self.table_share)) if callable(getattr(self.embedder, "detect_quads", None)) else 0

    def _table_views(
        self, pictures: list[np.ndarray], per_picture: int, progress: Progress | None
    ) -> tuple[list[np.ndarray], list[np.ndarray] | None, np.ndarray | None]:
        """``per_picture`` crops of each picture as the detector cuts it from photographed tables of six cards,
        the verifier's coverage of each try (0 where the detector missed it; None without a verifier), and
        where the cards lie in the detector's outlines (``Prototypes.outline``; as drawn when too few were found).

        When the outlines are off by ``OUTLINE_MIN_SHIFT`` or more, the same tables are
        laid again (same seed, so the same photos) and the crops cut where the card is.
        """
        got, covers, found = self._lay_tables(pictures, per_picture, progress, None, (0.0, 0.3))
        if len(found) < OUTLINE_MIN_CARDS:  # too few to say: kept as drawn
            return got, covers, UNIT_QUAD.copy()
        outline = half_turn_mean(np.median(np.stack(found), axis=0))
        if float(np.abs(outline - UNIT_QUAD).max()) < OUTLINE_MIN_SHIFT:
            return got, covers, UNIT_QUAD.copy()
        got, _, _ = self._lay_tables(pictures, per_picture, progress, outline, (0.3, 0.5))
        return got, covers, outline

    def _lay_tables(
        self,
        pictures: list[np.ndarray],
        per_picture: int,
        progress: Progress | None,
        outline: np.ndarray | None,
        span: tuple[float, float],
    ) -> tuple[list[np.ndarray], list[np.ndarray] | None, list[np.ndarray]]:
        """The table crops (cut at ``outline`` in the detector's outline frame, if given), the verifier's
        coverage, and each found card's true corners in its outline's frame. Progress runs over ``span``.

        A card the detector misses is tried again on a later table; after three tries'
        worth of tables the rest are camera views cut at jittered true corners.
        """
        detector: Detector = self.embedder  # type: ignore[assignment]
        judge: OutlineJudge | None = self.embedder if _judges_outlines(self.embedder) else None  # type: ignore[assignment]
        covers: list[list[float]] | None = [[] for _ in pictures] if judge is not None else None
        rng = np.random.default_rng((self.seed, 7))
        sheets = [card_sheet(p) for p in pictures]
        got: list[list[np.ndarray]] = [[] for _ in pictures]
        found: list[np.ndarray] = []
        need = np.full(len(pictures), per_picture)
        budget = 3 * int(np.ceil(need.sum() / 6))
        for t in range(budget):
            open_ = np.nonzero(need > 0)[0]
            if len(open_) == 0:
                break
            chosen = rng.permutation(open_)[:6]
            img, truth = table_photo([sheets[k] for k in chosen], rng)
            if judge is not None:
                quads, _scores, _back, cover = judge.detect_outlines(img)
            else:
                (quads, _scores, _back), cover = detector.detect_quads(img), None
            if cover is None:
                covers = None  # a recogniser without a verifier: nothing to ask
            for k, q in zip(chosen, truth, strict=True):
                card_h = float(np.linalg.norm(q[0] - q[3]))
                dist = np.linalg.norm(quads.mean(axis=1) - q.mean(axis=0), axis=1) if len(quads) else np.zeros(0)
                j = int(np.argmin(dist)) if len(dist) else -1
                hit = j >= 0 and dist[j] < 0.3 * card_h
                if covers is not None:
                    covers[k].append(float(cover[j]) if hit and cover is not None else 0.0)
                if hit:
                    found.append(in_outline_frame(quads[j], q))
                    cut = quads[j] if outline is None else from_outline_frame(quads[j], outline)[0]
                    got[k].append(rectify(img, cut))
                    need[k] -= 1
            if progress is not None:
                progress(span[0] + (span[1] - span[0]) * min(1.0, (t + 1) / max(budget / 3, 1)), "tables")
        out = []
        for k, crops in enumerate(got):
            if need[k] > 0:  # the detector kept missing it: fall back to camera views
                crops += list(camera_views(pictures[k], int(need[k]), seed=self.seed * 100_003 + 50_000 + k))
            out.append(np.stack(crops))
        return out, None if covers is None else [np.asarray(c, np.float32) for c in covers], found

    def prototypes(
        self,
        labels: list[str],
        per_view: np.ndarray,
        features: np.ndarray | None = None,
        covers: list[np.ndarray] | None = None,
        trunk: np.ndarray | None = None,
        outline: np.ndarray | None = None,
        aspect: float | None = None,
        progress: Progress | None = None,
    ) -> Prototypes:
        """One prototype per picture (a card scores by its best picture), plus a borrowed back if none was enrolled.

        With ``adapt``: the whitening projection, and (given the views' HOG ``features``)
        the pixel head, and (given their ``trunk`` maps too) the detail head, fitted on
        every view of every picture; ``progress`` follows the detail head's training. ``covers`` (per picture, from ``picture_views``)
        decide which cards the verifier may drop (``known_to_verifier``); ``outline`` is
        where the networks' outlines of the deck's cards should be moved (``Prototypes.outline``),
        ``aspect`` the cards' proportions (``Prototypes.aspect``).
        """
        verified = known_to_verifier(labels, covers)
        vectors, labs = [per_view.mean(axis=1)], list(labels)
        if BACK not in labs and self.back is not None:
            vectors.append(self.back)
            labs += [BACK] * len(self.back)
        v = np.concatenate(vectors)
        if not self.adapt:
            return Prototypes(
                tuple(labs), _unit(v).astype(np.float32), verified=verified, outline=outline, aspect=aspect
            )
        projection = whitening(labels, per_view)
        names = list(dict.fromkeys(labs))
        head_w = head_mu = None
        if features is not None:
            x = features.reshape(-1, features.shape[-1])
            y = np.zeros((len(x), len(names)), np.float32)
            y[np.arange(len(x)), _view_targets(names, labels, features.shape[1])] = 1.0
            head_w, head_mu = fit_ridge(x, y)
        protos = DeckPrototypes(
            tuple(labs),
            _unit(v @ projection).astype(np.float32),
            Z_TEMPERATURE,
            projection=projection,
            head_weights=head_w,
            head_mean=head_mu,
            knows_back=BACK in labels,
            verified=verified,
            outline=outline,
            aspect=aspect,
        )
        return protos if trunk is None else self._with_detail(protos, labels, trunk, progress)

    def _with_detail(
        self, protos: DeckPrototypes, labels: list[str], trunk: np.ndarray, progress: Progress | None
    ) -> DeckPrototypes:
        """``protos`` with a detail head trained on the views' maps ``trunk`` (P, V, MAP_SIZE); none without a deck head."""
        if protos.head_weights is None:
            return protos
        names = list(protos.names)
        learnt = None if progress is None else (lambda f: progress(f, "learning the deck"))
        targets = _view_targets(names, labels, trunk.shape[1])
        head = fit_detail_head(trunk.reshape(len(targets), -1), targets, len(names), self.seed, learnt)
        return dataclasses.replace(protos, detail=head)

    def build(
        self,
        name: str,
        suits: str,
        samples: Iterable[Sample],
        progress: Progress | None = None,
        learn_if_wrong: bool = True,
    ) -> tuple[DeckProfile, EnrollReport]:
        """The profile of the labelled ``samples`` and the report of what looks wrong (missing cards included).

        The deck is checked before its detail head is trained (the checks read the
        embedding and the pixel head only), so with ``learn_if_wrong`` False a report with
        errors comes back without that training, the longer part of enrolment: the user
        who left out a card or mislabelled one hears so sooner. The
        profile then has no detail head; stored anyway, it would be rebuilt when next
        loaded (``is_current``).
        """
        t0 = time.perf_counter()
        samples = [s for s in samples if s.label is not None]
        if not samples:
            raise EnrollImageError("no labelled card pictures to enrol")
        for s in samples:
            if s.picture.shape != (PICTURE_H, PICTURE_W, 4) or s.picture.dtype != np.uint8:
                raise EnrollImageError(
                    f"{s.source}: picture must be {PICTURE_H}x{PICTURE_W} BGRA uint8, got {s.picture.shape}"
                )
        labels = [str(s.label) for s in samples]
        seeing, learning = _phases(progress, self.adapt and self.gives_trunk)
        views = self.picture_views([s.picture for s in samples], seeing)
        means, per_view, features, trunk = views.means, views.per_view, views.features, views.trunk
        pictures: dict[str, list[np.ndarray]] = {}
        sources: dict[str, list[str]] = {}
        for s in samples:
            pictures.setdefault(str(s.label), []).append(s.picture)
            sources.setdefault(str(s.label), []).append(s.source)
        prototypes = self.prototypes(
            labels, per_view, features, views.covers, None, views.outline, deck_aspect(samples)
        )
        view_labels = None
        if isinstance(prototypes, DeckPrototypes) and prototypes.projection is not None:
            view_labels = self._held_out_reads(labels, per_view, features)
            # judge closeness where the deck's cards are told apart
            per_view = _unit(per_view @ prototypes.projection)
            means = _unit(per_view.mean(axis=1))
        report = check(
            labels, [s.source for s in samples], means, per_view, suits, view_labels, [s.picture for s in samples]
        )
        if trunk is not None and isinstance(prototypes, DeckPrototypes) and (report.ok or learn_if_wrong):
            prototypes = self._with_detail(prototypes, labels, trunk, learning)
        profile = DeckProfile(
            name=name,
            suits=suits,
            prototypes=prototypes,
            pictures=pictures,
            probe=self.probe,
            sources=sources,
            views=self.views,
            notes=[i.message for i in report.issues],
            outlines=self.outlines,
        )
        report.seconds = time.perf_counter() - t0
        return profile, report

    def _held_out_reads(self, labels: list[str], per_view: np.ndarray, features: np.ndarray) -> np.ndarray:
        """How a deck fitted on every other view reads the views it did not see (P, V//2 labels).

        Held out, so a picture's own views cannot simply be memorised: views of two
        pictures of one card under two labels split between the labels. Read by the
        embedding and the pixel head only: training the detail head a second time would
        double enrolment's time for a check the two already make.
        """
        n, v, d = per_view.shape
        fit, test = np.arange(0, v, 2), np.arange(1, v, 2)
        half = self.prototypes(labels, per_view[:, fit], features[:, fit])
        assert isinstance(half, DeckPrototypes)
        best = half.similarities(per_view[:, test].reshape(-1, d))
        names = np.array(half.names)
        logits = half.logits(best, features[:, test].reshape(len(test) * n, -1))
        return names[logits.argmax(axis=1)].reshape(n, len(test))

    def judges_outlines(self) -> bool:
        """Can the embedder say how well an outline covers a card (the verifier)?"""
        return _judges_outlines(self.embedder)

    def table_views(self, views: int) -> int:
        """How many of ``views`` views per picture come from laid tables (none without a detector)."""
        return self._table_count(views)

    def is_current(self, profile: DeckProfile) -> bool:
        """Is the profile of the newest format (``formats.FORMAT_VERSION``) for what this enroller can make,
        made by this enroller's identifier, with its table views cut and judged by these outline networks?"""
        other_outlines = profile.views > 0 and self.outlines != "" and profile.outlines != self.outlines
        return (
            profile_format(profile, self) == FORMAT_VERSION
            and not other_outlines
            and same_identifier(profile.probe, self.probe)
        )

    def refresh(self, profile: DeckProfile, progress: Progress | None = None) -> DeckProfile:
        """The profile with prototypes rebuilt from its pictures (as many views as it was enrolled with) for this identifier."""
        if self.is_current(profile):
            return profile
        same = Enroller(
            self.embedder,
            views=profile.views,
            seed=self.seed,
            back=self.back,
            adapt=self.adapt,
            table_share=self.table_share,
        )
        labels = [c for c in profile.cards for _ in profile.pictures[c]]
        seeing, learning = _phases(progress, same.adapt and same.gives_trunk)
        v = same.picture_views([p for c in profile.cards for p in profile.pictures[c]], seeing)
        profile.prototypes = same.prototypes(
            labels, v.per_view, v.features, v.covers, v.trunk, v.outline, profile.prototypes.aspect, learning
        )
        profile.probe = self.probe
        profile.outlines = self.outlines
        return profile


#: Share of enrolment's progress bar given to the views when the detail head is trained after them:
#: the head's training takes the larger part of an enrolment (models/README.md, "Enrolled decks").
VIEWS_SHARE = 0.3


def _phases(progress: Progress | None, learns: bool) -> tuple[Progress | None, Progress | None]:
    """Progress callbacks for seeing the views and for training the detail head, one bar from 0 to 1."""
    if progress is None:
        return None, None
    if not learns:
        return progress, None
    share = VIEWS_SHARE
    return (lambda f, text: progress(share * f, text)), (lambda f, text: progress(share + (1.0 - share) * f, text))


def _view_targets(names: list[str], labels: list[str], views: int) -> np.ndarray:
    """Each view's label index, pictures in order and each picture's ``views`` views together."""
    return np.repeat([names.index(lab) for lab in labels], views)


def known_to_verifier(labels: list[str], covers: list[np.ndarray] | None) -> frozenset[str]:
    """The labels whose pictures the verifier covered on enrolment tables (``COVER_TRUST`` at ``COVER_QUANTILE``).

    Why: the verifier learnt cards from the training decks; a deck whose court cards have an
    inner frame on a coloured card it takes for a smaller card, and would drop them. Only
    the cards it read as cards on their own tables may be dropped on its word.
    """
    if covers is None:
        return frozenset()
    pooled: dict[str, list[np.ndarray]] = {}
    for label, c in zip(labels, covers, strict=True):
        pooled.setdefault(label, []).append(np.asarray(c, np.float32).reshape(-1))
    known = set()
    for label, parts in pooled.items():
        c = np.concatenate(parts)
        if len(c) >= COVER_MIN_VIEWS and float(np.quantile(c, COVER_QUANTILE)) >= COVER_TRUST:
            known.add(label)
    return frozenset(known)


def whitening(labels: list[str], per_view: np.ndarray, shrinkage: float = SHRINKAGE) -> np.ndarray:
    """``Sw^-1/2``: the inverse square root of the within-card covariance of the view embeddings, shrunk.

    Within-card spread is measured around each card's mean over all its pictures and
    views, so several photos of one card also teach what does not matter.
    """
    lab = np.array(labels)
    d = per_view.shape[-1]
    resid = []
    for c in dict.fromkeys(labels):
        v = per_view[lab == c].reshape(-1, d)
        resid.append(v - v.mean(axis=0))
    r = np.concatenate(resid).astype(np.float64)
    sw = r.T @ r / max(len(r) - 1, 1)
    sw += shrinkage * float(np.trace(sw)) / d * np.eye(d)
    w, v = np.linalg.eigh(sw)
    return (v @ np.diag(w**-0.5) @ v.T * np.sqrt(float(np.mean(w)))).astype(np.float32)


# -- checks -------------------------------------------------------------------------------


def check(
    labels: list[str],
    sources: list[str],
    means: np.ndarray,
    per_view: np.ndarray,
    suits: str,
    view_labels: np.ndarray | None = None,
    pictures: list[np.ndarray] | None = None,
) -> EnrollReport:
    """Missing, mislabelled and duplicate cards, from the pictures' embeddings.

    ``same-card`` closeness is measured on the pictures themselves: a picture's camera
    views lie within some cosine of its mean; a picture of another label that close is
    the same card seen again. ``view_labels`` (P, V), how the finished deck reads each
    view, is the sharper test where available: two labels that split one picture's
    views between them cannot be told apart, so they name the same card. ``pictures``
    (one per label), where given, have the last word on a pair called the same card: two
    pictures whose print differs by a pip or an index numeral (``same_card.same_print``)
    are two cards, however alike they look overall.
    """
    report = EnrollReport()
    lab = np.array(labels)
    names = [c for c in (*ALL_CARD_IDS, BACK) if c in set(labels)]
    for c in ALL_CARD_IDS:
        if c not in set(labels):
            report.issues.append(Issue("missing", (c,), f"missing: no picture of {named(c, suits)}"))
    # How close camera views of one picture stay to its mean: the "same card" radius.
    view_sims = np.einsum("pvd,pd->pv", per_view, means)
    radius = np.quantile(view_sims, 0.5, axis=1)
    sims = means @ means.T
    # Mislabelled: closer to another card than to the other pictures of its own card.
    flagged: set[int] = set()
    for i, c in enumerate(labels):
        own = [j for j in range(len(labels)) if j != i and labels[j] == c]
        if not own:
            continue
        own_sim = float(sims[i, own].max())
        others = {
            n: (float(sims[i, lab == n].max()), int(np.argmax(np.where(lab == n, sims[i], -2))))
            for n in names
            if n != c
        }
        if not others:
            continue
        best = max(others, key=lambda n: others[n][0])
        best_sim, j = others[best]
        # Closer to another card than to its own, and as close to it as one card's own views.
        if best_sim > own_sim and best_sim >= 0.5 * (radius[i] + radius[j]):
            flagged.add(i)
            report.issues.append(
                Issue(
                    "mislabelled",
                    (c, best),
                    f"{sources[i]} is labelled {named(c, suits)} but looks like {named(best, suits)}",
                    (sources[i],),
                )
            )
    # Duplicates: two pictures with different labels as close as views of one picture.
    flagged_labels = {labels[i] for i in flagged}
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            # A label with a mislabelled picture teaches that picture's look: already reported.
            if labels[i] == labels[j] or labels[i] in flagged_labels or labels[j] in flagged_labels:
                continue
            # The two pictures themselves must be as close as views of one picture; where the
            # held-out reads are available they must also confuse the two labels. Either test
            # alone flags a 7 and an 8 of one suit that an identifier barely tells apart.
            same = bool(sims[i, j] >= 0.5 * (radius[i] + radius[j]))
            if same and view_labels is not None:
                shared = float(np.mean(view_labels[i] == labels[j]) + np.mean(view_labels[j] == labels[i]))
                same = shared >= DUPLICATE_SHARE
            if same and pictures is not None:
                same = same_print(pictures[i], pictures[j])
            if same:
                report.issues.append(
                    Issue(
                        "duplicate",
                        (labels[i], labels[j]),
                        f"{sources[i]} ({named(labels[i], suits)}) and {sources[j]} ({named(labels[j], suits)}) look like the same card;"
                        " one of the two labels is wrong",
                        (sources[i], sources[j]),
                    )
                )
    # Per card: its nearest other card, and a warning where they are barely apart.
    card_means = {n: _unit(means[lab == n].mean(axis=0)) for n in names}
    for n in names:
        best_n, best_s = "", -2.0
        for m in names:
            if m != n:
                s = float(card_means[n] @ card_means[m])
                if s > best_s:
                    best_n, best_s = m, s
        if best_n:
            report.nearest[n] = (best_n, best_s)
    return report
