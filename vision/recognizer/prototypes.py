"""Per-card prototype vectors: how the identity stage names a card without retraining.

A prototype set maps labels (card ids or ``"back"``) to unit vectors in the identifier's
embedding space; a label may own several prototypes (e.g. several enrolment photos) and
scores by its best one. The built-in deck ships as ``models/swiss-xvii.prototypes.npz``;
enrolling a new deck writes a new file of the same shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import numpy as np

from vision.detection import BACK
from vision.recognizer.geometry import UNIT_QUAD, from_outline_frame

#: Softmax temperature turning cosine similarity into a probability over labels.
DEFAULT_TEMPERATURE: float = 16.0
#: Long over short side of the built-in deck's cards (its art is 316 x 492 px): the
#: proportions an outline is checked against when a set does not say its own.
DEFAULT_ASPECT: float = 492 / 316


class PrototypeError(ValueError):
    """A prototype file or array that cannot be used."""


@dataclass(frozen=True)
class Prototypes:
    """Unit vectors (P, D) with one label each; ``names`` are the distinct labels in first-seen order."""

    labels: tuple[str, ...]
    vectors: np.ndarray
    temperature: float = DEFAULT_TEMPERATURE
    #: Labels whose cards the outline verifier knows: one it says is no card is dropped
    #: (``RecognizerSettings.reject_below``). The built-in deck's file names all of them
    #: (the verifier learnt that deck); an enrolled deck names those whose own pictures
    #: the verifier covered on the enrolment tables; None (an older file, prototypes
    #: built by hand) names none, so nothing is dropped on the verifier's word.
    verified: frozenset[str] | None = None
    #: Where this deck's cards really lie in the unit frame of the outline the detector and
    #: refiner draw around them (``geometry.in_outline_frame``; (4, 2), ``UNIT_QUAD`` when
    #: they agree). Enrolment measures it on its table photos: a deck whose short ends
    #: are coloured bands is outlined at the bands' inner edge, cutting off the numerals
    #: printed in them. None: not measured (the built-in deck, which the networks learnt).
    outline: np.ndarray | None = None
    #: Long over short side of this deck's cards (``card_aspect``); None: the built-in
    #: deck's. Enrolment measures it from the pictures where they show a whole card's
    #: outline (a PNG's opaque part, a scan, a photo's refined outline).
    aspect: float | None = None
    #: How sure of a face a set that has a ``back`` prototype must be to overrule the detector's "back".
    back_overrule: ClassVar[float] = 0.98

    def __post_init__(self) -> None:
        v = self.vectors
        if v.ndim != 2 or v.shape[0] != len(self.labels) or v.shape[0] == 0:
            raise PrototypeError(f"prototypes need (P, D) vectors with P = {len(self.labels)} labels, got {v.shape}")
        if self.outline is not None and np.shape(self.outline) != (4, 2):
            raise PrototypeError(f"outline must be 4 corners (4, 2), got {np.shape(self.outline)}")
        if self.aspect is not None and not 1.0 < self.aspect < 3.0:
            raise PrototypeError(f"aspect must be a card's long over short side (1-3), got {self.aspect!r}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.labels))

    @property
    def completes_outlines(self) -> bool:
        """Are outlines out of this deck's proportions read again, completed (``RecognizerSettings.aspect_tolerance``)?

        Only for an enrolled deck (one whose ``outline`` enrolment measured). The networks
        learnt the built-in deck through the detector's own off outlines of half-covered
        cards and read them as they are, so completing them gains the built-in deck
        nothing. An enrolled deck's head learnt from a few dozen views per card, and a
        squeezed crop is where it fails, so there completing them saves misreads
        (models/README.md, "Measurements behind the runtime's choices").
        """
        return self.outline is not None

    @property
    def judges_faces(self) -> bool:
        """May a face be dropped when the detector and the verifier both doubt it (``RecognizerSettings.judged_least``)?

        Only the built-in deck's (no measured ``outline``): the networks learnt its cards.
        An enrolled deck's faces the verifier covers less, and judged so, a flat-swiss deck
        enrolled from rendered photos lost 5 of its 146 cards found in rendered scenes, and
        a trick; its faces are dropped on the coverage alone (``reject_below``).
        """
        return self.outline is None

    @property
    def reads_trunk(self) -> bool:
        """Do ``scores`` read the identifier's maps (``trunk``)? The built-in set does not, so the
        recogniser does not ask the identifier for them, which saves time on every frame."""
        return False

    @property
    def reads_corners(self) -> bool:
        """Are this set's faces weighed by the index corners' reading (``RecognizerSettings.corner_weight``)?

        Only the built-in deck's (no measured ``outline``): the corner network learnt its
        indices, and an enrolled deck prints others (letters, other numerals) or none.
        """
        return self.outline is None

    @property
    def outlined_as_drawn(self) -> bool:
        """Do the networks outline this deck's cards where they end (its outlines are not moved)?

        Then the outlines in one frame say how large a card is as they are
        (``RecognizerSettings.size_tolerance``). A deck whose outlines are moved
        (``outline``) is sized on the moved outlines of its faces only: the networks outline
        its faces short of their coloured end bands and its backs whole (on the flat
        benchmark deck, sizing the drawn outlines, backs and all, misread 6 cards of 250
        instead of 4; sized where its faces are, 2).
        """
        return self.outline is None or bool(np.array_equal(self.outline, UNIT_QUAD))

    @property
    def card_aspect(self) -> float:
        """Long over short side of this deck's cards."""
        return DEFAULT_ASPECT if self.aspect is None else float(self.aspect)

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def scores(
        self, embeddings: np.ndarray, crops: np.ndarray | None = None, trunk: np.ndarray | None = None
    ) -> np.ndarray:
        """Probabilities (N, len(names)): softmax over each label's best cosine similarity.

        ``crops`` are the upright crops the embeddings were made from, (N, H, W, 3), or
        several views of each card, (N, V, H, W, 3), whose embeddings were averaged;
        ``trunk`` the identifier's maps of them (N, T) or (N, V, T). Both unused here; a
        subclass (an enrolled deck's, ``vision.enroll``) may read them.
        """
        sims = np.asarray(embeddings, dtype=np.float32) @ self.vectors.T  # (N, P)
        names = self.names
        index = {n: i for i, n in enumerate(names)}
        best = np.full((sims.shape[0], len(names)), -np.inf, dtype=np.float32)
        for j, lab in enumerate(self.labels):
            k = index[lab]
            best[:, k] = np.maximum(best[:, k], sims[:, j])
        z = best * self.temperature
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def card_outlines(self, quads: np.ndarray) -> np.ndarray:
        """The outlines of this deck's cards (K, 4, 2), given the ones the networks drew.

        Backs are moved too: enrolment cuts every picture's table views, its back's as
        well, where this puts them, and a face the detector took for a back must be cut
        as the faces were to be told from one.
        """
        if self.outline is None or self.outlined_as_drawn or not len(quads):
            return quads
        return from_outline_frame(quads, self.outline)

    def overrules_back(self, probs: np.ndarray) -> bool:
        """May this set call a face card what the detector took for a back (``probs``: one row of ``scores``)?

        The detector decides face or back from the 320 px letterboxed frame; a face with a
        thick dark frame or a plain banner (a Swiss banner 10) can look like a back there,
        and a card called a back is never counted. The identifier sees the full-resolution
        crop and has a ``back`` prototype to compare with, so it tells a true back from such
        a face where the detector cannot (models/README.md, "Measurements behind the
        runtime's choices"). A set without a back prototype cannot say "back", so it
        never overrules.
        """
        names = self.names
        if BACK not in names:
            return False
        top = int(np.argmax(probs))
        return names[top] != BACK and float(probs[top]) >= self.back_overrule

    def verifies(self, label: str) -> bool:
        """May a card named ``label`` be dropped when the verifier says its outline covers no card?"""
        return self.verified is not None and label in self.verified

    def save(self, path: Path) -> None:
        arrays = {
            "labels": np.array(self.labels),
            "vectors": self.vectors.astype(np.float32),
            "temperature": np.float32(self.temperature),
        }
        if self.outline is not None:
            arrays["outline"] = np.asarray(self.outline, np.float32)
        if self.aspect is not None:
            arrays["aspect"] = np.float32(self.aspect)
        np.savez(path, **arrays, **verified_array(self.verified))  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> Prototypes:
        if not Path(path).is_file():
            raise PrototypeError(f"prototype file not found: {path}")
        with np.load(path, allow_pickle=False) as z:
            outline = z["outline"].astype(np.float32) if "outline" in z.files else None
            aspect = float(z["aspect"]) if "aspect" in z.files else None
            return cls(
                tuple(str(x) for x in z["labels"]),
                z["vectors"].astype(np.float32),
                float(z["temperature"]),
                verified_labels(z),
                outline,
                aspect,
            )


def verified_array(verified: frozenset[str] | None) -> dict[str, np.ndarray]:
    """The ``verified`` labels as an npz entry (none when unknown, so older readers see an older file)."""
    return {} if verified is None else {"verified": np.array(sorted(verified), dtype=np.str_)}


def verified_labels(z: np.lib.npyio.NpzFile) -> frozenset[str] | None:
    return frozenset(str(x) for x in z["verified"]) if "verified" in z.files else None


def build_prototypes(
    embeddings: np.ndarray, labels: list[str] | tuple[str, ...], temperature: float = DEFAULT_TEMPERATURE
) -> Prototypes:
    """Average the unit embeddings of each label into one unit prototype per label.

    Call with embeddings of a few upright crops per card (both orientations help, since
    the identifier reads cards either way up); works for any deck the embedding can see.
    """
    emb = np.asarray(embeddings, dtype=np.float32)
    if emb.ndim != 2 or emb.shape[0] != len(labels) or emb.shape[0] == 0:
        raise PrototypeError(f"need one embedding per label: got {emb.shape} for {len(labels)} labels")
    names = list(dict.fromkeys(labels))
    lab = np.array(labels)
    vecs = np.stack([emb[lab == n].mean(axis=0) for n in names])
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True) + 1e-12
    return Prototypes(tuple(names), vecs.astype(np.float32), temperature)
