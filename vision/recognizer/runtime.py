"""The recognition step the appliance runs on every frame: ONNX detector, then identifier.

Stage 1 (the class-agnostic detector, ``stages.DetectorStage``, the frame scaled so its
cards come out ``card_input_px`` long) finds every card's quadrilateral and whether it
shows its face or its back; the outline refiner (``outline``, a third
small network, when the models folder has it) then moves each outline onto its card from
a full-resolution crop around it. Stage 2 warps each face-up quad from the
full-resolution frame into an upright crop, embeds it, and names it by cosine similarity
to the active deck's prototypes. Nothing is kept between calls: a frame in, detections out.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from pathlib import Path

import numpy as np

from vision.detection import BACK, Detection
from vision.recognizer.corners import NONE as CORNER_NONE
from vision.recognizer.corners import CornerStage, face_columns, fuse
from vision.recognizer.edges import refine_quads
from vision.recognizer.geometry import (
    CROP_H,
    CROP_W,
    Letterbox,
    canonical_corners,
    completed_outlines,
    nms_quads,
    quad_area,
    quad_aspect,
    quad_box,
    quad_iou,
    rectify,
    rotate_half,
)
from vision.recognizer.outline import REFINE_H, REFINE_W, TableSize, refined, sized_to_table, verified
from vision.recognizer.probe import Probe, over_groups
from vision.recognizer.prototypes import Prototypes
from vision.recognizer.settings import RecognizerSettings
from vision.recognizer.stages import CropNetwork, DetectorStage, IdentifierStage

__all__ = ["MODELS_DIR", "Recognizer", "RecognizerInputError", "RecognizerSettings", "check_frame"]

#: The shipped models live in the repository's models/ folder.
MODELS_DIR: Path = Path(__file__).resolve().parents[2] / "models"
DETECTOR_FILE = "card-detector.onnx"
IDENTIFIER_FILE = "card-identifier.onnx"
#: Optional third network: a models folder without it runs detector and identifier only.
REFINER_FILE = "card-refiner.onnx"
#: Optional fourth network, run after the refiner: how well each outline covers one card.
VERIFIER_FILE = "card-verifier.onnx"
#: Optional fifth network: the built-in deck's index corners, read on their own.
CORNERS_FILE = "card-corners.onnx"
PROTOTYPES_FILE = "swiss-xvii.prototypes.npz"


class RecognizerInputError(ValueError):
    """A frame the recognizer cannot read (wrong type, dtype, shape or size)."""


def _digest(files: list[Path]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def check_frame(frame: object) -> np.ndarray:
    """Validate a camera frame: H x W x 3 uint8 BGR, at least 32 px each way."""
    if not isinstance(frame, np.ndarray):
        raise RecognizerInputError(f"frame must be a numpy array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise RecognizerInputError(f"frame must be uint8 BGR, got dtype {frame.dtype}")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise RecognizerInputError(f"frame must have shape (H, W, 3), got {frame.shape}")
    if frame.shape[0] < 32 or frame.shape[1] < 32:
        raise RecognizerInputError(f"frame is too small or empty: {frame.shape[1]}x{frame.shape[0]} px")
    return frame


class Recognizer:
    """Frame in, ``list[Detection]`` out. Load once; call :meth:`recognize` per frame."""

    def __init__(
        self,
        models_dir: Path | str = MODELS_DIR,
        settings: RecognizerSettings | None = None,
        prototypes: Prototypes | Path | str | None = None,
    ) -> None:
        self.settings = settings or RecognizerSettings()
        mdir = Path(models_dir)
        self.detector = DetectorStage(mdir / DETECTOR_FILE, self.settings)
        self.identifier = IdentifierStage(mdir / IDENTIFIER_FILE, self.settings)
        refiner, verifier = mdir / REFINER_FILE, mdir / VERIFIER_FILE
        self.refiner = (
            CropNetwork(refiner, self.settings, REFINE_H, REFINE_W)
            if refiner.is_file() and self.settings.refiner_passes
            else None
        )
        # The verifier judges refined outlines; it was not trained on the detector's own.
        use = verifier.is_file() and self.settings.verify and self.refiner is not None
        self.verifier = CropNetwork(verifier, self.settings, REFINE_H, REFINE_W) if use else None
        self._outline_files = (
            [mdir / DETECTOR_FILE] + [refiner] * (self.refiner is not None) + [verifier] * (self.verifier is not None)
        )
        corners = mdir / CORNERS_FILE
        self.corners = (
            CornerStage(corners, self.settings) if corners.is_file() and self.settings.corner_weight > 0 else None
        )
        if prototypes is None:
            prototypes = mdir / PROTOTYPES_FILE
        self.prototypes = prototypes if isinstance(prototypes, Prototypes) else Prototypes.load(Path(prototypes))
        if self.identifier.dim is not None and self.identifier.dim != self.prototypes.dim:
            raise ValueError(f"prototypes have {self.prototypes.dim} dims, identifier gives {self.identifier.dim}")

    def embed(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Upright card crops (N, CROP_H, CROP_W, 3) uint8 -> (unit embeddings (N, D), P(upside down) (N,))."""
        emb, flip, _ = self.embed_trunk(crops, maps=False)
        return emb, flip

    def embed_trunk(self, crops: np.ndarray, maps: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """``embed`` and the identifier's map of each crop (N, 192*12*8: after its fourth block, 2x2 positions
        stacked into channels), or None from an
        identifier that gives none.

        An enrolled deck's detail head reads the map (``vision.enroll.detail_head``): it still
        says where on the card what lies, which the embedding pooled away. ``maps=False``
        leaves it out (None), for prototypes that do not read it.
        """
        crops = np.asarray(crops)
        if crops.ndim != 4 or crops.shape[1:] != (CROP_H, CROP_W, 3) or crops.dtype != np.uint8:
            raise RecognizerInputError(
                f"crops must be (N, {CROP_H}, {CROP_W}, 3) uint8, got {crops.shape} {crops.dtype}"
            )
        return self.identifier.run(crops, maps)

    @cached_property
    def outlines_digest(self) -> str:
        """Names the detector, refiner and verifier files in use (read once, when first asked).

        An enrolled deck keeps it: its table views were cut and judged by these networks,
        and a profile made by others is rebuilt from its pictures.
        """
        return _digest(self._outline_files)

    @property
    def any_size(self) -> bool:
        """``DetectorStage.any_size``: whether the detector reads frames of any size."""
        return self.detector.any_size

    @property
    def detector_size(self) -> int:
        """``DetectorStage.size``: the square a fixed-size detector's frames are letterboxed to."""
        return self.detector.size

    def detector_scale(self, frame_shape: tuple[int, ...], card_length: float | None = None) -> float:
        """``DetectorStage.scale``: the factor a frame is resized by for the detector."""
        return self.detector.scale(frame_shape, card_length)

    def detector_input(self, frame: np.ndarray, card_length: float | None = None) -> tuple[np.ndarray, Letterbox]:
        """``DetectorStage.input``: the detector's input for ``frame``."""
        return self.detector.input(frame, card_length)

    def find_card_length(self, frame: np.ndarray) -> float | None:
        """``DetectorStage.find_card_length`` on a checked frame, with the verifier's coverage
        of a scale's best card to pass over blobs of the background when no scale has a
        sure card (``probe.choose_length``)."""
        frame = check_frame(frame)
        verifier = self.verifier
        if verifier is None:
            return self.detector.find_card_length(frame)

        def cover(probe: Probe) -> float:
            best = probe.best
            return float(verified(frame, probe.quads[best : best + 1].astype(np.float32), verifier.run)[0])

        return self.detector.find_card_length(frame, cover)

    def detect_quads(
        self, frame: np.ndarray, card_length: float | None = None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Stage 1 only: (quads (K,4,2) in frame pixels, scores (K,), is_back (K,) bool), after NMS.

        With the verifier, the detector's peaks down to ``candidate_threshold`` are refined
        and those scored under ``verify_below`` are judged: the weighted geometric mean of
        the detector's score and the verifier's coverage (``verifier_weight``) must reach
        ``score_threshold``; overlapping outlines compete in NMS by that judged score, or
        the detector's blended with the coverage (``rank_weight``) for the others. The
        scores returned stay the detector's: the verifier says there is a card, not how
        well it can be read (a card still under the hand, lifted by it, was read as some
        card and pulled the tracker's vote). Outlines of a size no other card in the
        frame has are then tried at the table's card size (``size_tolerance``).
        ``reject_below`` and ``judged_least`` act in :meth:`recognize`, once the card is named.
        """
        quads, scores, is_back, _ = self.detect_outlines(frame, card_length)
        return quads, scores, is_back

    def detect_outlines(
        self,
        frame: np.ndarray,
        card_length: float | None = None,
        *,
        photo: bool = False,
        final_iou: float | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """``detect_quads`` and the verifier's coverage of each outline (None without a verifier).

        Enrolment reads the coverage of a new deck's cards laid on a table: a deck whose
        cards the verifier does not take for cards (an inner frame on a coloured card) must
        not have them dropped on its word (``RecognizerSettings.reject_below``).

        ``photo``: a single picture, no mounting to learn its card length from. With the
        length unknown it is read at the length found and again for cards
        ``RecognizerSettings.finer_scale`` as long. Not for the camera's frames: the
        appliance learns its card length from the sure cards of its first frames
        (``vision.recognizer.scale.LearningRecognizer``), and the second reading's cards
        moved the length it learnt, and so the reads of every frame after (a rendered game
        lost two tricks).

        ``final_iou``: the overlap above which the last NMS drops the lower ranked of two
        outlines (default ``nms_iou``). ``recognize`` passes ``distinct_iou`` and settles the
        overlaps between the two by what the outlines read (``_distinct``).
        """
        frame = check_frame(frame)
        searched = card_length is None and self.any_size
        if searched:
            card_length = self.find_card_length(frame)
        s = self.settings
        final_iou = s.nms_iou if final_iou is None else final_iou
        out = self._outlines_at(frame, card_length, final_iou)
        if not (photo and searched and card_length is not None and s.finer_scale > 0 and out[3] is not None):
            return out
        finer = self._outlines_at(frame, card_length * s.finer_scale, final_iou)
        assert finer[3] is not None
        rank = [self._rank(out[1], out[3]), self._rank(finer[1], finer[3])]
        extra = rank[1] >= s.finer_least
        # An outline over a row of cards that the finer reading finds apart gives way to
        # them; every card of that reading is evidence, also one ranked too low to join.
        whole = ~over_groups(out[0], out[3], finer[0], finer[3])
        quads = np.concatenate([out[0][whole], finer[0][extra]])
        keep = nms_quads(quads, np.concatenate([rank[0][whole], rank[1][extra]]), final_iou)[: s.max_cards]
        return (
            quads[keep],
            np.concatenate([out[1][whole], finer[1][extra]])[keep],
            np.concatenate([out[2][whole], finer[2][extra]])[keep],
            np.concatenate([out[3][whole], finer[3][extra]])[keep],
        )

    def _rank(self, scores: np.ndarray, cover: np.ndarray) -> np.ndarray:
        """How overlapping outlines the detector was sure of compete: its score blended with
        the verifier's coverage (``RecognizerSettings.rank_weight``)."""
        w = self.settings.rank_weight
        return np.asarray(scores ** (1.0 - w) * cover**w)

    def _outlines_at(
        self, frame: np.ndarray, card_length: float | None, final_iou: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """``detect_outlines`` with the frame read for cards ``card_length`` long (None: the
        settings' share of the short side)."""
        s = self.settings
        verify = self.verifier is not None
        threshold, nms = (
            (min(s.candidate_threshold, s.score_threshold), s.candidate_nms)
            if verify
            else (s.score_threshold, final_iou)
        )
        img, lb = self.detector_input(frame, card_length)
        peak, corners = self.detector.run(img, steady=True)  # (2,g,g), (8,g,g)
        best = peak.max(axis=0)
        ys, xs = np.nonzero(best >= threshold)
        if len(ys) == 0:
            return (
                np.zeros((0, 4, 2), np.float32),
                np.zeros(0, np.float32),
                np.zeros(0, bool),
                np.zeros(0, np.float32) if verify else None,
            )
        scores = best[ys, xs]
        order = np.argsort(-scores)[: s.max_cards * (4 if verify else 2)]
        ys, xs, scores = ys[order], xs[order], scores[order]
        is_back = peak[1, ys, xs] > peak[0, ys, xs]
        quads = corners[:, ys, xs].T.reshape(-1, 4, 2)
        quads = np.stack([canonical_corners(q) for q in lb.to_frame(quads)])
        keep = nms_quads(quads, scores, nms)[: s.max_cards * (2 if verify else 1)]
        quads, scores, is_back = quads[keep], scores[keep], is_back[keep]
        if self.refiner is not None:
            for _ in range(s.refiner_passes):
                quads = refined(frame, quads, self.refiner.run)
            quads = np.stack([canonical_corners(q) for q in quads])
            # Two outlines of one card (one across two cards) now lie on each other.
            keep = nms_quads(quads, scores, nms)
            quads, scores, is_back = quads[keep], scores[keep], is_back[keep]
        elif s.refine_corners:
            quads = refine_quads(frame, quads)
        cover = None
        if self.verifier is not None:
            cover = verified(frame, quads, self.verifier.run)
            doubted = scores < s.verify_below
            judged = scores.copy()
            judged[doubted] = scores[doubted] ** (1.0 - s.verifier_weight) * cover[doubted] ** s.verifier_weight
            sure = judged >= s.score_threshold
            # Of two overlapping outlines the one that covers a card better wins: an outline
            # across two cards scored a little over the card's own no longer hides it.
            rank = np.where(doubted, judged, self._rank(scores, cover))
            quads, scores, rank, is_back, cover = quads[sure], scores[sure], rank[sure], is_back[sure], cover[sure]
            keep = nms_quads(quads, rank, final_iou)[: s.max_cards]
            quads, scores, is_back, cover = quads[keep], scores[keep], is_back[keep], cover[keep]
            if s.size_tolerance > 0:
                quads, scores, is_back, cover = self._sized_to_table(frame, quads, scores, is_back, cover, final_iou)
        return quads.astype(np.float32), scores.astype(np.float32), is_back, cover

    def _sized_to_table(
        self,
        frame: np.ndarray,
        quads: np.ndarray,
        scores: np.ndarray,
        is_back: np.ndarray,
        cover: np.ndarray,
        final_iou: float,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``outline.sized_to_table`` with this recogniser's settings and networks, then NMS again
        (a moved outline may now lie on a card already outlined) at ``final_iou``
        (``detect_outlines``)."""
        s = self.settings
        size = TableSize(
            tolerance=s.size_tolerance,
            aspect=self.prototypes.card_aspect,
            aspect_tolerance=s.aspect_tolerance,
            sure=s.score_threshold,
            gain=s.size_gain,
            least=s.size_least,
            least_drawn=s.reject_below,
            most_drawn=s.size_covered,
        )
        refine = self.refiner.run if self.refiner is not None and s.refiner_passes > 0 else None
        assert self.verifier is not None
        outline = None if self.prototypes.outlined_as_drawn else self.prototypes.outline
        quads, cover, moved = sized_to_table(
            frame, quads, scores, cover, size, refine, self.verifier.run, outline, is_back
        )
        if not moved.any():
            return quads, scores, is_back, cover
        keep = nms_quads(quads, self._rank(scores, cover), final_iou)
        return quads[keep], scores[keep], is_back[keep], cover[keep]

    def recognize(self, frame: np.ndarray, card_length: float | None = None, *, photo: bool = False) -> list[Detection]:
        """Every card in the frame, best first: id (or ``"back"``), confidence, box, corners, alternatives.

        ``frame``: the camera's full resolution (the identifier crops from it). ``card_length``:
        a card's long side in its pixels when known (see ``detector_scale``); without it a
        detector that reads any size first finds it on this frame (``find_card_length``).
        ``photo``: a single picture rather than a camera frame (``detect_outlines``).
        """
        s = self.settings
        quads, scores, is_back, cover = self.detect_outlines(frame, card_length, photo=photo, final_iou=s.distinct_iou)
        if len(quads) == 0:
            return []
        quads = self.prototypes.card_outlines(quads)
        crops = np.stack([rectify(frame, q) for q in quads])
        emb, flip, trunk = self.embed_trunk(crops, self.prototypes.reads_trunk)
        probs = self.prototypes.scores(emb, crops, trunk)
        if self.settings.aspect_tolerance > 0 and self.prototypes.completes_outlines:
            quads, crops, emb, flip, trunk, probs = self._complete(frame, quads, crops, emb, flip, trunk, probs)
        unsure = np.nonzero(probs.max(axis=1) < self.settings.second_look_below)[0]
        if len(unsure):
            probs, flip = self._second_look(frame, quads, unsure, emb, flip, trunk, probs, crops)
        if self.corners is not None and self.prototypes.reads_corners:
            probs = self._with_corners(crops, probs)
        names = self.prototypes.names
        h, w = frame.shape[:2]
        out: list[Detection] = []
        kept: list[tuple[np.ndarray, str, float]] = []  # outline, face (or back), its probability
        for i, q in enumerate(quads):
            ranked = np.argsort(-probs[i])
            top = names[ranked[0]]
            back = (bool(is_back[i]) and not self.prototypes.overrules_back(probs[i])) or top == BACK
            quad = q if back or flip[i] < 0.5 else rotate_half(q)
            x0, y0, x1, y1 = quad_box(quad)
            box = (max(0.0, x0), max(0.0, y0), min(float(w), x1), min(float(h), y1))
            det_score = float(scores[i])
            faces = [k for k in ranked if names[k] != BACK]
            named = BACK if back or not faces else names[faces[0]]
            sure = 0.0 if named == BACK else float(probs[i, faces[0]])
            if not self._distinct(q, named, sure, kept):
                continue
            kept.append((q, named, sure))
            if cover is not None and self.prototypes.verifies(named) and self._not_a_card(named, det_score, cover[i]):
                continue  # not a card, the verifier says, and it knows this deck's cards
            if back:
                card, conf = BACK, det_score
                alts: tuple[tuple[str, float], ...] = ()
            else:
                card, conf = names[faces[0]], det_score * float(probs[i, faces[0]])
                alts = tuple(
                    (names[k], det_score * float(probs[i, k])) for k in faces[1 : 1 + self.settings.alternatives]
                )
            out.append(
                Detection(
                    card=card,
                    confidence=conf,
                    box=box,
                    corners=tuple((float(x), float(y)) for x, y in quad),
                    alternatives=alts,
                )
            )
        return out

    def _distinct(self, quad: np.ndarray, named: str, sure: float, kept: list[tuple[np.ndarray, str, float]]) -> bool:
        """May ``quad``, read as ``named`` with probability ``sure``, stand beside the
        outlines ``kept`` so far (ranked higher)? Not when it overlaps one more than
        ``nms_iou``, unless both are read surely (``distinct_read``) as different faces."""
        s = self.settings
        for other, other_named, other_sure in kept:
            if quad_iou(quad, other) <= s.nms_iou:
                continue
            if BACK in (named, other_named) or named == other_named or min(sure, other_sure) < s.distinct_read:
                return False
        return True

    def _with_corners(self, crops: np.ndarray, probs: np.ndarray) -> np.ndarray:
        """``probs`` with the faces weighed by what the index corners of ``crops`` read."""
        assert self.corners is not None
        cols, classes = face_columns(self.prototypes.names)
        if not cols:
            return probs
        read = self.corners.run(crops)[..., [*classes, CORNER_NONE]]
        faces = list(cols)
        out = probs.copy()
        out[:, faces] = fuse(probs[:, faces], read, self.settings.corner_weight, self.settings.corner_floor)
        return out

    def _not_a_card(self, named: str, score: float, cover: float) -> bool:
        """Is an outline no card: covered too little by the verifier, or, named a face, judged too low?

        Backs are judged by the coverage alone: judged, two rendered backs partly under
        other cards were lost (0.51 and 0.53), while the false cards of the real photos
        that the judgement drops are mostly named faces (models/README.md, "Card-shaped
        things"). So are an enrolled deck's faces (``Prototypes.judges_faces``).
        """
        s = self.settings
        if cover < s.reject_below:
            return True
        judged = score ** (1.0 - s.verifier_weight) * cover**s.verifier_weight
        return named != BACK and self.prototypes.judges_faces and judged < s.judged_least

    def _complete(
        self,
        frame: np.ndarray,
        quads: np.ndarray,
        crops: np.ndarray,
        emb: np.ndarray,
        flip: np.ndarray,
        trunk: np.ndarray | None,
        probs: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
        """Outlines out of the deck's proportions, replaced by the completed outline read most surely.

        Which side of a half-covered card is the guessed one cannot be told from the outline
        alone; the crop cut at the right outline shows the card as the deck draws it, and
        the prototypes read that one best (an off outline squeezes or stretches the art).
        Only outlines off by more than ``aspect_tolerance`` are tried, with up to four
        identifier runs each, so the cost stays with the cards that need it.
        """
        aspect = self.prototypes.card_aspect
        s = self.settings
        tries: dict[int, list[int]] = {}  # outline -> its completed outlines' rows in ``outlines``
        outlines: list[np.ndarray] = []
        for i, q in enumerate(quads):
            if abs(quad_aspect(q) / aspect - 1.0) <= s.aspect_tolerance:
                continue
            least = (1.0 - s.aspect_cut) * quad_area(q)
            for c in completed_outlines(q, aspect):
                if quad_area(c) >= least:
                    tries.setdefault(i, []).append(len(outlines))
                    outlines.append(c)
        if not outlines:
            return quads, crops, emb, flip, trunk, probs
        more = np.stack([rectify(frame, q) for q in outlines])
        m_emb, m_flip, m_trunk = self.embed_trunk(more, self.prototypes.reads_trunk)
        m_probs = self.prototypes.scores(m_emb, more, m_trunk)
        quads, crops, emb, flip, probs = quads.copy(), crops.copy(), emb.copy(), flip.copy(), probs.copy()
        trunk = None if trunk is None or m_trunk is None else trunk.copy()
        sure = m_probs.max(axis=1)
        for i, rows in tries.items():
            best = max(rows, key=lambda n: sure[n])
            if sure[best] <= probs[i].max() or sure[best] < s.aspect_sure:
                continue
            quads[i], crops[i], emb[i], flip[i], probs[i] = (
                outlines[best],
                more[best],
                m_emb[best],
                m_flip[best],
                m_probs[best],
            )
            if trunk is not None and m_trunk is not None:
                trunk[i] = m_trunk[best]
        return quads, crops, emb, flip, trunk, probs

    def _second_look(
        self,
        frame: np.ndarray,
        quads: np.ndarray,
        unsure: np.ndarray,
        emb: np.ndarray,
        flip: np.ndarray,
        trunk: np.ndarray | None,
        probs: np.ndarray,
        crops: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Average each unsure card's embedding over crops shifted along its sides.

        Why: most misreads come from corners a few pixels off, which cut off or add a strip
        of the card's edge where the index and pips are; a crop slightly off the other way
        sees them. Averaging the embeddings (not the guesses) keeps one good view from being
        outvoted, and costs four identifier runs only for cards that need them. The
        prototypes get all five crops of each card and their five identifier maps (an
        enrolled deck's heads read them all).
        """
        d = self.settings.second_look_shift
        views = []
        for i in unsure:
            q = quads[i]
            across, along = q[1] - q[0], q[3] - q[0]
            views += [rectify(frame, q + d * v) for v in (across, -across, along, -along)]
        stacked = np.stack(views)
        more, more_flip, more_trunk = self.embed_trunk(stacked, self.prototypes.reads_trunk)
        emb, flip, probs = emb.copy(), flip.copy(), probs.copy()
        k = 4
        for n, i in enumerate(unsure):
            mean = emb[i] + more[n * k : (n + 1) * k].sum(axis=0)
            emb[i] = mean / max(float(np.linalg.norm(mean)), 1e-9)
            flip[i] = (flip[i] + more_flip[n * k : (n + 1) * k].sum()) / (k + 1)
        shifted = stacked.reshape(len(unsure), k, *crops.shape[1:])
        views_trunk = None
        if trunk is not None and more_trunk is not None:
            views_trunk = np.concatenate([trunk[unsure][:, None], more_trunk.reshape(len(unsure), k, -1)], axis=1)
        probs[unsure] = self.prototypes.scores(
            emb[unsure], np.concatenate([crops[unsure][:, None], shifted], axis=1), views_trunk
        )
        return probs, flip

    __call__ = recognize
