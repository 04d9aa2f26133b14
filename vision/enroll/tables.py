"""Enrolment tables: the deck's pictures laid six at a time on photographed tables and cut where the
shipped detector finds them, so that the deck is learnt with the detector's own outlines.

The same tables tell which cards the outline verifier knows (``known_to_verifier``) and
where the networks' outlines of this deck's cards lie (``Prototypes.outline``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

from vision.enroll.augment import camera_views, card_sheet, table_photo
from vision.enroll.pictures import Detector, Embedder
from vision.recognizer.geometry import UNIT_QUAD, from_outline_frame, half_turn_mean, in_outline_frame, rectify

#: Share of the views cut by the real detector from photographed tables (the rest: jittered true corners).
TABLE_SHARE = 0.5
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

Progress = Callable[[float, str], None]


class OutlineJudge(Detector, Protocol):
    """A detector that also says how well each outline covers a card (``Recognizer.detect_outlines``)."""

    def detect_outlines(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]: ...


def judges_outlines(embedder: object) -> bool:
    """Can ``embedder`` say how well an outline covers a card (a recogniser with the outline verifier)?"""
    return callable(getattr(embedder, "detect_outlines", None))


def table_crops(
    embedder: Embedder, seed: int, pictures: list[np.ndarray], per_picture: int, progress: Progress | None
) -> tuple[list[np.ndarray], list[np.ndarray] | None, np.ndarray | None]:
    """``per_picture`` crops of each picture as the detector cuts it from photographed tables of six cards,
    the verifier's coverage of each try (0 where the detector missed it; None without a verifier), and
    where the cards lie in the detector's outlines (``Prototypes.outline``; as drawn when too few were found).

    When the outlines are off by ``OUTLINE_MIN_SHIFT`` or more, the same tables are
    laid again (same seed, so the same photos) and the crops cut where the card is.
    """
    got, covers, found = lay_tables(embedder, seed, pictures, per_picture, progress, None, (0.0, 0.3))
    if len(found) < OUTLINE_MIN_CARDS:  # too few to say: kept as drawn
        return got, covers, UNIT_QUAD.copy()
    outline = half_turn_mean(np.median(np.stack(found), axis=0))
    if float(np.abs(outline - UNIT_QUAD).max()) < OUTLINE_MIN_SHIFT:
        return got, covers, UNIT_QUAD.copy()
    got, _, _ = lay_tables(embedder, seed, pictures, per_picture, progress, outline, (0.3, 0.5))
    return got, covers, outline


def lay_tables(
    embedder: Embedder,
    seed: int,
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
    detector: Detector = embedder  # type: ignore[assignment]
    judge: OutlineJudge | None = embedder if judges_outlines(embedder) else None  # type: ignore[assignment]
    covers: list[list[float]] | None = [[] for _ in pictures] if judge is not None else None
    rng = np.random.default_rng((seed, 7))
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
            crops += list(camera_views(pictures[k], int(need[k]), seed=seed * 100_003 + 50_000 + k))
        out.append(np.stack(crops))
    return out, None if covers is None else [np.asarray(c, np.float32) for c in covers], found


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
