"""An enrolled deck's own prototype set: embedding prototypes plus a small pixel classifier.

Why more than prototypes: the identifier was trained on Swiss-German art and on drawn
French decks, so its embedding is surest on the kinds of card it
has seen; on a deck in a new style it can still mix up suits of one colour, or court cards
that differ in a fill or a letter. A second opinion is learnt from the deck itself: a
linear (ridge) classifier on the crop's shape (gradient histograms, HOG) and its fills (a
small picture white-balanced on the card's own paper), fitted at enrolment on the
camera-like views in milliseconds. Its scores are standardised and added, at
``HEAD_WEIGHT``, to the standardised embedding similarities.

Everything is numpy and OpenCV and runs on the crops the recognizer already makes
(``Prototypes.scores(embeddings, crops)``), in well under a millisecond a card
(models/README.md, "Enrolled decks: how the heads were chosen").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.detection import BACK
from vision.enroll.detail_head import MAP_SIZE, DetailHead
from vision.recognizer.geometry import CROP_H, CROP_W
from vision.recognizer.prototypes import PrototypeError, Prototypes, verified_array, verified_labels

CELL = 8
BINS = 9
#: Ridge penalty of the pixel classifier (features are unit vectors).
RIDGE = 1.0
#: Weight of the pixel classifier's standardised scores against the embedding's: enough for
#: the deck's own shapes and fills to overrule an embedding unsure between two cards of one
#: colour, not so much that a shadow's fill misleads it (chosen on tuning scenes of three
#: unseen decks; models/README.md, "Enrolled decks: how the heads were chosen").
HEAD_WEIGHT = 0.6
#: An enrolled deck that knows its back overrules the detector's "back" when it gives the
#: back at most 3 % and its best face at least 0.3: the detector learnt backs from the
#: training deck, and a face with large flat fills can look like one to it, while the deck
#: itself knows its back well (measured in models/README.md, "Enrolled decks").
FACE_MASS = 0.97
FACE_TOP = 0.3
#: Probabilities are a softmax of the combined z-scores at this temperature.
Z_TEMPERATURE = 2.0
#: Weight of the detail head's standardised scores (``vision.enroll.detail_head``: a small
#: convolutional classifier on the identifier's 192x12x8 map, trained at enrolment): the
#: map still holds a letter's or a numeral's strokes that the embedding pooled away
#: (chosen on tuning scenes; models/README.md, "Enrolled decks: how the heads were chosen").
DETAIL_WEIGHT = 0.6
#: The arrays a saved deck keeps beside its prototype vectors (any may be absent).
ARRAYS = ("projection", "head_weights", "head_mean", "outline")


def unit(v: np.ndarray) -> np.ndarray:
    """``v`` with its last axis scaled to unit length: prototypes and embeddings are compared by cosine."""
    return v / (np.linalg.norm(v, axis=-1, keepdims=True) + 1e-12)


def hog_features(crops: np.ndarray) -> np.ndarray:
    """(N, CROP_H, CROP_W, 3) uint8 -> (N, F) unit vectors: gradient histograms per 8x8 cell.

    Unsigned orientations in 9 bins, square-rooted magnitudes; the histogram of the crop
    turned 180 degrees is added, so a card reads the same either way up (the detector
    does not know which end is up).
    """
    crops = np.asarray(crops)
    n = len(crops)
    if n == 0:
        return np.zeros((0, (CROP_H // CELL) * (CROP_W // CELL) * BINS), np.float32)
    gray = np.stack([cv2.cvtColor(c, cv2.COLOR_BGR2GRAY) for c in crops]).astype(np.float32)
    gx = np.zeros_like(gray)
    gy = np.zeros_like(gray)
    gx[:, :, 1:-1] = gray[:, :, 2:] - gray[:, :, :-2]
    gy[:, 1:-1, :] = gray[:, 2:, :] - gray[:, :-2, :]
    mag = np.sqrt(gx * gx + gy * gy)
    ang = np.minimum((np.arctan2(gy, gx) % np.pi) * (BINS / np.pi), BINS - 1e-3).astype(np.int64)
    ch, cw = CROP_H // CELL, CROP_W // CELL
    cell = (np.arange(CROP_H)[:, None] // CELL) * cw + (np.arange(CROP_W)[None, :] // CELL)  # (H, W)
    per_img = ch * cw * BINS
    idx = np.arange(n)[:, None, None] * per_img + cell[None] * BINS + ang
    hist = np.bincount(idx.ravel(), weights=mag.ravel(), minlength=n * per_img).reshape(n, ch, cw, BINS)
    hist = hist + hist[:, ::-1, ::-1, :]  # turned 180 degrees: cells swap, unsigned orientations stay
    feats = np.sqrt(hist.reshape(n, -1)).astype(np.float32)
    return feats / (np.linalg.norm(feats, axis=1, keepdims=True) + 1e-6)


#: The deck head's thumbnail of the crop (columns, rows) and the share of it taken for paper.
THUMB = (16, 24)
PAPER_QUANTILE = 0.9


def thumbnail_features(crops: np.ndarray) -> np.ndarray:
    """(N, 16*24*3) unit vectors: a small Lab picture of the crop, white-balanced on its own paper.

    Gradients (HOG) say where the strokes are but not what lies between them: a brown
    and a golden court card of one drawing, or a light and a dark panel behind one
    letter, have the same strokes. The thumbnail keeps the fills. Each crop is divided,
    channel by channel, by its own paper (the brightest tenth of the thumbnail), so the
    colour of the light and the camera's white balance fall out and a fill's lightness
    and hue are read against the card it is printed on. Read either way up, like the HOG.
    """
    crops = np.asarray(crops)
    w, h = THUMB
    small = np.stack([cv2.resize(c, (w, h), interpolation=cv2.INTER_AREA) for c in crops]).astype(np.float32)
    paper = np.quantile(small.reshape(len(crops), -1, 3), PAPER_QUANTILE, axis=1)
    small = np.clip(small / (paper[:, None, None, :] + 1.0), 0.0, 1.0)
    lab = np.stack([cv2.cvtColor(s, cv2.COLOR_BGR2LAB) for s in small]) / np.array([100.0, 64.0, 64.0], np.float32)
    lab = lab + lab[:, ::-1, ::-1]
    feats = lab.reshape(len(crops), -1)
    feats = feats - feats.mean(axis=1, keepdims=True)
    return (feats / (np.linalg.norm(feats, axis=1, keepdims=True) + 1e-6)).astype(np.float32)


#: Length of ``card_features``' vectors; a saved head of another length was made by an older enroller.
FEATURE_SIZE = (CROP_H // CELL) * (CROP_W // CELL) * BINS + THUMB[0] * THUMB[1] * 3


def card_features(crops: np.ndarray) -> np.ndarray:
    """What the deck head reads: the crop's HOG and its paper-balanced thumbnail (each a unit vector)."""
    crops = np.asarray(crops)
    if len(crops) == 0:
        return np.zeros((0, FEATURE_SIZE), np.float32)
    return np.concatenate([hog_features(crops), thumbnail_features(crops)], axis=1).astype(np.float32)


def fit_ridge(features: np.ndarray, targets: np.ndarray, ridge: float = RIDGE) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form ridge regression of one-hot ``targets`` (N, C) on ``features`` (N, F).

    Gives (weights (F, C), mean (F,))."""
    mu = features.mean(axis=0)
    a = (features - mu).astype(np.float64)
    y = targets.astype(np.float64) - targets.mean(axis=0)
    w = np.linalg.solve(a.T @ a + ridge * np.eye(a.shape[1]), a.T @ y)
    return w.astype(np.float32), mu.astype(np.float32)


def _z(x: np.ndarray) -> np.ndarray:
    return (x - x.mean(axis=1, keepdims=True)) / (x.std(axis=1, keepdims=True) + 1e-6)


@dataclass(frozen=True)
class DeckPrototypes(Prototypes):
    """Prototypes of an enrolled deck: a whitening ``projection`` of the embedding, a pixel head and a detail head.

    ``head_weights`` (F, len(names)) and ``head_mean`` (F,) score each crop's HOG
    features per label (a label the head does not know, such as a borrowed card back,
    gets the row's mean). Without crops only the embedding is used. ``detail`` scores the
    identifier's map of each crop (``Recognizer.embed_trunk``; without it, or without the
    map, that term is left out).
    """

    projection: np.ndarray | None = None
    head_weights: np.ndarray | None = None
    head_mean: np.ndarray | None = None
    head_weight: float = HEAD_WEIGHT
    knows_back: bool = False
    detail: DetailHead | None = None
    detail_weight: float = DETAIL_WEIGHT

    def __post_init__(self) -> None:
        super().__post_init__()
        p = self.projection
        if p is not None and (p.ndim != 2 or p.shape[1] != self.vectors.shape[1]):
            raise PrototypeError(f"projection must be (D, {self.vectors.shape[1]}), got {p.shape}")
        self._check_linear("head", "head", self.head_weights, self.head_mean, "F")
        if self.detail is not None and self.detail.labels != len(self.names):
            raise PrototypeError(f"detail head scores {self.detail.labels} labels, the deck has {len(self.names)}")

    def _check_linear(self, name: str, what: str, w: np.ndarray | None, m: np.ndarray | None, dim: str) -> None:
        """A linear head's ``<name>_weights`` (dim, len(names)) and ``<name>_mean`` (dim,): both or neither."""
        if (w is None) != (m is None):
            raise PrototypeError(f"{name}_weights and {name}_mean go together")
        if (
            w is not None
            and m is not None
            and (w.ndim != 2 or w.shape[1] != len(self.names) or m.shape != (w.shape[0],))
        ):
            raise PrototypeError(
                f"{what} must be ({dim}, {len(self.names)}) weights with a ({dim},) mean, got {w.shape} and {m.shape}"
            )

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1] if self.projection is None else self.projection.shape[0])

    @property
    def reads_trunk(self) -> bool:
        return self.detail is not None and self.detail.fits_map and self.has_head

    @property
    def reads_corners(self) -> bool:
        """Never: the corner network learnt the built-in deck's indices, not this deck's."""
        return False

    @property
    def has_head(self) -> bool:
        """A head that reads today's ``card_features`` (one saved by an older enroller is left unused until rebuilt)."""
        return self.head_weights is not None and self.head_weights.shape[0] == FEATURE_SIZE

    def similarities(self, embeddings: np.ndarray) -> np.ndarray:
        """(N, len(names)): each label's best cosine similarity, in the projected space."""
        emb = np.asarray(embeddings, dtype=np.float32)
        if self.projection is not None:
            emb = emb @ self.projection
            emb = emb / (np.linalg.norm(emb, axis=1, keepdims=True) + 1e-12)
        sims = emb @ self.vectors.T
        names = self.names
        index = {n: i for i, n in enumerate(names)}
        best = np.full((sims.shape[0], len(names)), -np.inf, dtype=np.float32)
        for j, lab in enumerate(self.labels):
            k = index[lab]
            best[:, k] = np.maximum(best[:, k], sims[:, j])
        return best

    def logits(self, best: np.ndarray, features: np.ndarray | None, trunk: np.ndarray | None = None) -> np.ndarray:
        """Combined scores (N, len(names)) from label similarities and (optionally) HOG features and identifier maps.

        ``trunk`` is (N, MAP_SIZE), or (N, V, MAP_SIZE) for V views of each card, whose
        detail scores are averaged.
        """
        if self.head_weights is None or len(best) == 0:
            return best * self.temperature
        if features is None:  # embedding only, on the same z scale as with the head
            return _z(best) * self.temperature
        assert self.head_mean is not None
        head = (features - self.head_mean) @ self.head_weights
        z = _z(best) + self.head_weight * _z(head)
        if trunk is not None and self.detail is not None and self.detail.fits_map:
            if trunk.shape[-1] != MAP_SIZE:
                raise PrototypeError(
                    f"detail head reads the identifier's {MAP_SIZE}-value map, got {trunk.shape[-1]} values"
                )
            detail = (
                self.detail.logits(trunk.reshape(-1, MAP_SIZE)).reshape(len(best), -1, len(self.names)).mean(axis=1)
            )
            z = z + self.detail_weight * _z(detail)
        return z * self.temperature

    def scores(
        self, embeddings: np.ndarray, crops: np.ndarray | None = None, trunk: np.ndarray | None = None
    ) -> np.ndarray:
        """As ``Prototypes.scores``; crops (N, V, H, W, 3), several views of each card, are read by their mean features.

        The recogniser's second look at an unsure card passes all five of its crops;
        averaging the head's features as well as the embeddings reads a crop cut a little
        off as its neighbours do. Their maps (N, V, MAP_SIZE) are each scored by the
        detail head and the scores averaged.
        """
        best = self.similarities(embeddings)
        use_head = crops is not None and self.has_head and len(best) > 0
        features = None
        if use_head and crops is not None:
            crops = np.asarray(crops)
            if crops.ndim == 5:
                n, v = crops.shape[:2]
                features = card_features(crops.reshape(n * v, *crops.shape[2:])).reshape(n, v, -1).mean(axis=1)
            else:
                features = card_features(crops)
        z = self.logits(best, features, trunk if use_head else None)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def overrules_back(self, probs: np.ndarray) -> bool:
        """A card the detector took for a back is a face if this deck, which knows its own back, rules its back out.

        The detector learnt backs from the training deck; a deck with large flat fills
        (a flat-swiss court card) or a plain banded face can look like a back to it,
        while the deck head has seen both sides. It need not know which face it is (the
        tracker reads the card again in later frames), only that it is not this deck's
        back: at most ``1 - FACE_MASS`` on the back and ``FACE_TOP`` on its best face.
        """
        names = self.names
        if not (self.knows_back and self.has_head) or BACK not in names:
            return False
        b = names.index(BACK)
        p = np.asarray(probs, dtype=np.float64)
        return 1.0 - float(p[b]) >= FACE_MASS and float(np.delete(p, b).max()) >= FACE_TOP

    def save(self, path: Path) -> None:
        extra: dict[str, np.ndarray] = {
            "head_weight": np.array(self.head_weight, np.float32),
            "knows_back": np.array(self.knows_back),
            "detail_weight": np.array(self.detail_weight, np.float32),
        }
        for key in ARRAYS:
            value = getattr(self, key)
            if value is not None:
                extra[key] = value.astype(np.float32)
        if self.detail is not None:
            extra.update(self.detail.arrays())
        extra["labels"] = np.array(self.labels)
        extra["vectors"] = self.vectors.astype(np.float32)
        extra["temperature"] = np.float32(self.temperature)  # type: ignore[assignment]
        extra.update(verified_array(self.verified))
        if self.aspect is not None:
            extra["aspect"] = np.float32(self.aspect)  # type: ignore[assignment]
        np.savez(path, **extra)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> DeckPrototypes:
        if not Path(path).is_file():
            raise PrototypeError(f"prototype file not found: {path}")
        with np.load(path, allow_pickle=False) as z:
            get = {k: z[k].astype(np.float32) for k in ARRAYS if k in z.files}
            try:
                detail = DetailHead.from_arrays({k: z[k] for k in z.files if k.startswith("detail_")})
            except ValueError as e:
                raise PrototypeError(f"{path}: {e}") from e
            return cls(
                tuple(str(x) for x in z["labels"]),
                z["vectors"].astype(np.float32),
                float(z["temperature"]),
                head_weight=float(z["head_weight"]) if "head_weight" in z.files else HEAD_WEIGHT,
                knows_back=bool(z["knows_back"]) if "knows_back" in z.files else False,
                detail=detail,
                detail_weight=float(z["detail_weight"]) if "detail_weight" in z.files else DETAIL_WEIGHT,
                verified=verified_labels(z),
                aspect=float(z["aspect"]) if "aspect" in z.files else None,
                **get,
            )
