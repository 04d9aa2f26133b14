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
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detection import BACK
from vision.enroll.augment import camera_views
from vision.enroll.checks import EnrollReport, check
from vision.enroll.crops import EnrollImageError, flatten_alpha
from vision.enroll.detail_head import MAP_SIZE, fit_detail_head
from vision.enroll.formats import FORMAT_VERSION, profile_format
from vision.enroll.head import Z_TEMPERATURE, DeckPrototypes, card_features, fit_ridge, unit
from vision.enroll.pictures import Embedder, Sample, deck_aspect
from vision.enroll.profile import PICTURE_H, PICTURE_W, DeckProfile
from vision.enroll.tables import TABLE_SHARE, Progress, judges_outlines, known_to_verifier, table_crops
from vision.recognizer.geometry import CROP_H, CROP_W
from vision.recognizer.prototypes import Prototypes

#: Camera-like views per picture: 32 take about 0.25 s per card on a loaded 2-core x86 (views + embedding + HOG).
DEFAULT_VIEWS = 32
#: Probe vectors closer than this (cosine) mean the same identifier made them.
SAME_MODEL_COSINE = 0.999
#: Shrinkage of the within-card covariance towards the identity (fraction of its mean variance).
SHRINKAGE = 0.1


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
            extras, covers, outline = table_crops(self.embedder, self.seed, pictures, n_table, progress)
            for k, extra in enumerate(extras):
                crops[k].append(extra)
        means, per_view, feats, trunks = [], [], [], []
        for k, parts in enumerate(crops):
            x = np.ascontiguousarray(np.concatenate(parts))
            emb, trunk = self._embed(x)
            per_view.append(emb)
            trunks.append(trunk)
            feats.append(card_features(x))
            means.append(unit(emb.mean(axis=0)))
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
        every view of every picture; ``progress`` follows the detail head's training.
        ``covers`` (per picture, from ``picture_views``) decide which cards the verifier may
        drop (``known_to_verifier``); ``outline`` is where the networks' outlines of the
        deck's cards should be moved (``Prototypes.outline``), ``aspect`` the cards'
        proportions (``Prototypes.aspect``).
        """
        verified = known_to_verifier(labels, covers)
        vectors, labs = [per_view.mean(axis=1)], list(labels)
        if BACK not in labs and self.back is not None:
            vectors.append(self.back)
            labs += [BACK] * len(self.back)
        v = np.concatenate(vectors)
        if not self.adapt:
            return Prototypes(
                tuple(labs), unit(v).astype(np.float32), verified=verified, outline=outline, aspect=aspect
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
            unit(v @ projection).astype(np.float32),
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
        """``protos`` with a detail head trained on the views' maps ``trunk`` (P, V, MAP_SIZE).

        None is trained without a deck head."""
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
            per_view = unit(per_view @ prototypes.projection)
            means = unit(per_view.mean(axis=1))
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
        return judges_outlines(self.embedder)

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
        """The profile with prototypes rebuilt from its pictures for this identifier.

        As many views are made as it was enrolled with."""
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
