"""The recognition step the appliance runs on every frame: ONNX detector, then identifier.

Stage 1 (class-agnostic detector, the frame letterboxed to the square its file declares) finds every card's quadrilateral
and whether it shows its face or its back; the outline refiner (``outline``, a third
small network, when the models folder has it) then moves each outline onto its card from
a full-resolution crop around it. Stage 2 warps each face-up quad from the
full-resolution frame into an upright crop, embeds it, and names it by cosine similarity
to the active deck's prototypes. Nothing is kept between calls: a frame in, detections out.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import onnxruntime as ort

from vision.detection import BACK, Detection
from vision.recognizer.edges import refine_quads
from vision.recognizer.geometry import (
    CROP_H,
    CROP_W,
    DETECTOR_SIZE,
    Letterbox,
    canonical_corners,
    completed_outlines,
    letterbox,
    nms_quads,
    quad_area,
    quad_aspect,
    quad_box,
    rectify,
    rotate_half,
    scaled_input,
)
from vision.recognizer.outline import REFINE_H, REFINE_W, TableSize, refined, sized_to_table, verified
from vision.recognizer.prototypes import Prototypes

#: The shipped models live in the repository's models/ folder.
MODELS_DIR: Path = Path(__file__).resolve().parents[2] / "models"
DETECTOR_FILE = "card-detector.onnx"
IDENTIFIER_FILE = "card-identifier.onnx"
#: Optional third network: a models folder without it runs detector and identifier only.
REFINER_FILE = "card-refiner.onnx"
#: Optional fourth network, run after the refiner: how well each outline covers one card.
VERIFIER_FILE = "card-verifier.onnx"
PROTOTYPES_FILE = "swiss-xvii.prototypes.npz"


class RecognizerInputError(ValueError):
    """A frame the recognizer cannot read (wrong type, dtype, shape or size)."""


@dataclass(frozen=True)
class RecognizerSettings:
    """Tunable knobs; defaults are what models/README.md measured."""

    threads: int = 1
    score_threshold: float = 0.5
    nms_iou: float = 0.4
    max_cards: int = 40
    alternatives: int = 3
    spin: bool = False  # onnxruntime busy-waiting: lower latency, but burns a core between frames
    #: A card read less surely than this (best prototype probability) gets a second look:
    #: four more crops, shifted by ``second_look_shift`` of the card's sides, whose
    #: embeddings are averaged with the first. 0 turns it off. 0.99 since session 9: with
    #: the refiner's outlines, cards read at 0.9-0.99 were the ones it still put right (one
    #: card more on each set of tuning scenes, 4 % more time; at 0.9 it changed nothing).
    second_look_below: float = 0.99
    second_look_shift: float = 0.03
    #: Passes of the learned outline refiner (``vision.recognizer.outline``) over each
    #: detected outline; 0 turns it off.
    refiner_passes: int = 2
    #: Snap each detected outline to the card's edges in the full-resolution frame
    #: (``vision.recognizer.edges``) when the learned refiner is not run (a models folder
    #: without it, or ``refiner_passes=0``): after the refiner the snap made outlines worse.
    refine_corners: bool = True
    #: Ask the outline verifier (``VERIFIER_FILE``, when the models folder has it) about
    #: every outline: the detector's peaks down to ``candidate_threshold`` are refined, one
    #: scored under ``verify_below`` is reported if the verifier takes its crop for a card
    #: (see ``verifier_weight``), and its coverage ranks (``rank_weight``) and drops
    #: (``reject_below``) the others.
    verify: bool = True
    candidate_threshold: float = 0.2
    candidate_nms: float = 0.6
    #: A judged outline is reported when detector score ** (1 - w) x the verifier's
    #: coverage ** w reaches ``score_threshold`` (its score stays the detector's).
    verifier_weight: float = 0.7
    #: Outlines the detector scores below this are judged by the verifier; the others
    #: keep the detector's score. 0.5 (the threshold): the verifier finds cards the
    #: detector doubted and never drops one it found; 1.0: it judges every outline.
    #: Why not 1.0: on a deck whose court cards have an inner frame (the flat benchmark
    #: deck) it took the frame for the card, called the outline too large, and dropped them.
    verify_below: float = 0.5
    #: Weight of the verifier's coverage when overlapping outlines the detector was sure of
    #: compete in NMS (detector ** (1 - w) x coverage ** w; the doubted ones compete by
    #: their judged score). 0: the detector's score alone, as before session 9.
    rank_weight: float = 0.3
    #: A card the detector was sure of is dropped when the verifier gives its outline a
    #: coverage under this and the active deck's prototypes say the verifier reads that
    #: card (``Prototypes.verified``: the built-in deck's every card, an enrolled deck's
    #: cards whose own pictures it covered on the enrolment tables). Most of the detector's
    #: false cards are phones, notepads and dark rectangles the verifier scores under 0.1;
    #: 0 turns it off.
    reject_below: float = 0.2
    #: For an enrolled deck (``Prototypes.completes_outlines``): an outline whose long /
    #: short side is more than this (a fraction) off the deck's cards'
    #: (``Prototypes.card_aspect``) has most likely one side guessed where another card or
    #: a hand covers the card: it is read again as the outlines that keep three of its
    #: sides and give the card its proportions (``geometry.completed_outlines``), and the
    #: one read most surely is kept, outline and read. 0 turns it off. Why 0.08: on 300
    #: tuning scenes per deck (seeds 41,000,000+; no cut limit) it took four-colour's
    #: misreads from 21 to 15 and flat-swiss's from 23 to 12 (0.05: 14 / 12 with twice
    #: the outlines read again; 0.12: 17 / 14), and paris's from 4 to 3.
    aspect_tolerance: float = 0.08
    #: ... and a completed outline is kept only when read at least this surely: a card cut
    #: by the frame's edge or lost in shadow reads poorly whichever side is moved, and a
    #: poor read is no reason to move its outline (a Swiss card half out of the frame, its
    #: outline short, was read 0.58 as another card on a completed outline). 0.8 changed
    #: none of the enrolled decks' counts above.
    aspect_sure: float = 0.8
    #: ... and a completed outline may cut at most this share of the drawn outline's area.
    #: Outlines too long for their width are shortened, for a deck whose outlines are
    #: moved (``Prototypes.outline``) and a card whose outline was already right at one
    #: end; but a card half under another, outlined across both, cut to its proportions
    #: shows part of it, and six pips of a ten read as a six (a rendered flat-swiss game
    #: lost three tricks to that with no limit: its outline was 39 % too long, a cut of
    #: 28 %). Tuning scenes' misreads (four-colour / flat-swiss): no limit 15 / 12, 0.25
    #: 15 / 12, 0.15 15 / 15; with 0.25 all eight rendered games of each deck are right.
    aspect_cut: float = 0.25
    #: With the verifier: an outline whose short or long side is more than this (a fraction)
    #: off the table's cards' (the median of the outlines the detector was sure of, with the
    #: deck's proportions within ``aspect_tolerance``, covered at least 0.7) is tried as the
    #: card-sized outlines that keep one of its corners and sides, and the one the verifier
    #: covers best replaces it when it covers a card ``size_gain`` better than the drawn one
    #: and at least ``size_least`` (``outline.sized_to_table``). 0 turns it off. Why: most of
    #: the cards still missed were outlined with part of them guessed wrong: a card leaving
    #: the frame outlined with its long edge taken for a short one, a card under a glass or
    #: a hand outlined across or askew. On the tuning scenes (900 mixed, 300 hard; session
    #: 13) it found 3,168 cards instead of 3,165, with 7 false detections instead of 10 and
    #: 12 misread instead of 16 (0.10: the same, with 70 % more outlines tried; least 0.5:
    #: 4 more false detections; models/README.md has the rest).
    size_tolerance: float = 0.15
    size_gain: float = 0.1
    size_least: float = 0.6
    #: ... and only outlines the verifier covers less well than this are tried (one covered
    #: better is a card outlined right, nearer the camera or cut by the lens): the tuning
    #: scenes read the same as with no limit, with 44 % fewer outlines tried (0.8: the same,
    #: 57 % fewer, but one more misread on the held-out mixed scenes).
    size_covered: float = 0.85
    #: For a detector that reads any input size: a card's length (its long side) in the
    #: detector's input that it reads best; each frame is scaled so the table's cards come
    #: out this long (``Recognizer.detector_scale``).
    card_input_px: float = 64.0
    #: ... and the card length assumed, as a fraction of the frame's short side, when the
    #: caller does not say (the hardware guide's mounting gives about a tenth).
    card_fraction: float = 0.095
    #: ... and the detector's input is never larger than this on its long side, nor smaller
    #: than ``min_input_side`` on its short side.
    max_input_side: int = 1280
    min_input_side: int = 96

    def __post_init__(self) -> None:
        if not isinstance(self.threads, int) or self.threads < 1:
            raise ValueError(f"threads must be an integer >= 1, got {self.threads!r}")
        if not 0.0 < self.score_threshold < 1.0:
            raise ValueError(f"score_threshold must be in (0, 1), got {self.score_threshold!r}")
        if not 0.0 < self.nms_iou <= 1.0:
            raise ValueError(f"nms_iou must be in (0, 1], got {self.nms_iou!r}")
        if not 0.0 <= self.second_look_below <= 1.0 or not 0.0 <= self.second_look_shift < 0.25:
            raise ValueError("second_look_below must be in [0, 1] and second_look_shift in [0, 0.25)")
        if not 0.0 < self.candidate_threshold < 1.0 or not 0.0 < self.candidate_nms <= 1.0:
            raise ValueError("candidate_threshold must be in (0, 1) and candidate_nms in (0, 1]")
        if not 0.0 <= self.verifier_weight <= 1.0 or not 0.0 <= self.verify_below <= 1.0:
            raise ValueError(f"verifier_weight and verify_below must be in [0, 1], got {self.verifier_weight!r}, {self.verify_below!r}")
        if not 0.0 <= self.rank_weight <= 1.0:
            raise ValueError(f"rank_weight must be in [0, 1], got {self.rank_weight!r}")
        if not 0.0 <= self.aspect_tolerance < 1.0 or not 0.0 <= self.aspect_sure <= 1.0 or not 0.0 <= self.aspect_cut < 1.0:
            raise ValueError(
                "aspect_tolerance must be in [0, 1), aspect_sure in [0, 1] and aspect_cut in [0, 1), got "
                f"{self.aspect_tolerance!r}, {self.aspect_sure!r}, {self.aspect_cut!r}"
            )
        if not 0.0 <= self.size_tolerance < 1.0 or not 0.0 <= self.size_gain < 1.0 or not (
            0.0 <= self.size_least <= 1.0 and 0.0 <= self.size_covered <= 1.0
        ):
            raise ValueError(
                "size_tolerance and size_gain must be in [0, 1), size_least and size_covered in [0, 1], got "
                f"{self.size_tolerance!r}, {self.size_gain!r}, {self.size_least!r}, {self.size_covered!r}"
            )
        if not 0.0 <= self.reject_below < 1.0:
            raise ValueError(f"reject_below must be in [0, 1), got {self.reject_below!r}")
        if not isinstance(self.refiner_passes, int) or not 0 <= self.refiner_passes <= 4:
            raise ValueError(f"refiner_passes must be an integer 0-4, got {self.refiner_passes!r}")
        if not 16.0 <= self.card_input_px <= 400.0 or not 0.01 <= self.card_fraction <= 1.0:
            raise ValueError(f"card_input_px must be in [16, 400] and card_fraction in [0.01, 1], got {self.card_input_px!r}, {self.card_fraction!r}")
        if not 64 <= self.min_input_side <= self.max_input_side <= 4096:
            raise ValueError(f"need 64 <= min_input_side <= max_input_side <= 4096, got {self.min_input_side}, {self.max_input_side}")
        if self.max_cards < 1 or self.alternatives < 0:
            raise ValueError("max_cards must be >= 1 and alternatives >= 0")


def _session(path: Path, settings: RecognizerSettings) -> ort.InferenceSession:
    if not path.is_file():
        raise FileNotFoundError(f"model file not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = settings.threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if settings.spin else "0")
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


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
        self._det = _session(mdir / DETECTOR_FILE, self.settings)
        size = self._det.get_inputs()[0].shape[-1]
        #: A detector exported for one square size is fed the frame letterboxed into it; one
        #: that reads any size (``python -m vision.train detector-any-size``) is fed the frame
        #: scaled so its cards come out ``card_input_px`` long (``detector_scale``).
        self.any_size = not isinstance(size, int)
        #: The square frames are letterboxed to for a fixed-size detector.
        self.detector_size = size if isinstance(size, int) else DETECTOR_SIZE
        self._ident = _session(mdir / IDENTIFIER_FILE, self.settings)
        self._ident_outputs = [o.name for o in self._ident.get_outputs()]
        refiner, verifier = mdir / REFINER_FILE, mdir / VERIFIER_FILE
        self._refiner = _session(refiner, self.settings) if refiner.is_file() and self.settings.refiner_passes else None
        # The verifier judges refined outlines; it was not trained on the detector's own.
        use = verifier.is_file() and self.settings.verify and self._refiner is not None
        self._verifier = _session(verifier, self.settings) if use else None
        self._outline_files = [mdir / DETECTOR_FILE] + [refiner] * (self._refiner is not None) + [verifier] * (self._verifier is not None)
        if prototypes is None:
            prototypes = mdir / PROTOTYPES_FILE
        self.prototypes = prototypes if isinstance(prototypes, Prototypes) else Prototypes.load(Path(prototypes))
        dim = self._ident.get_outputs()[0].shape[1]
        if isinstance(dim, int) and dim != self.prototypes.dim:
            raise ValueError(f"prototypes have {self.prototypes.dim} dims, identifier gives {dim}")
        self._warm_up()

    def _warm_up(self) -> None:
        """One throw-away pass so the first real frame is not slow (allocations, kernel choice)."""
        self._det.run(None, {"image": np.zeros((1, 3, self.detector_size, self.detector_size), np.float32)})
        self.embed(np.zeros((1, CROP_H, CROP_W, 3), np.uint8))
        if self._refiner is not None:
            self._refine_run(np.zeros((1, REFINE_H, REFINE_W, 3), np.uint8))
        if self._verifier is not None:
            self._verify_run(np.zeros((1, REFINE_H, REFINE_W, 3), np.uint8))

    def _refine_run(self, crops: np.ndarray) -> np.ndarray:
        assert self._refiner is not None
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
        return np.asarray(self._refiner.run(None, {"crops": x})[0])

    def _verify_run(self, crops: np.ndarray) -> np.ndarray:
        assert self._verifier is not None
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
        return np.asarray(self._verifier.run(None, {"crops": x})[0])

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
            raise RecognizerInputError(f"crops must be (N, {CROP_H}, {CROP_W}, 3) uint8, got {crops.shape} {crops.dtype}")
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32)
        out = self._ident.run(None if maps else self._ident_outputs[:2], {"crops": x})
        return out[0], out[1].reshape(-1), out[2] if len(out) > 2 else None

    @cached_property
    def outlines_digest(self) -> str:
        """Names the detector, refiner and verifier files in use (read once, when first asked).

        An enrolled deck keeps it: its table views were cut and judged by these networks,
        and a profile made by others is rebuilt from its pictures.
        """
        return _digest(self._outline_files)

    def detector_scale(self, frame_shape: tuple[int, ...], card_length: float | None = None) -> float:
        """The factor a frame is resized by for a detector that reads any size.

        ``card_length``: a card's long side in this frame's pixels, as the caller knows it
        (``vision.recognizer.scale.CardScale`` learns it from the sure cards of earlier
        frames); without it ``card_fraction`` of the short side. The result brings a card
        to ``card_input_px``, within the input size limits.
        """
        s = self.settings
        h, w = int(frame_shape[0]), int(frame_shape[1])
        length = card_length if card_length is not None and np.isfinite(card_length) and card_length > 0 else s.card_fraction * min(h, w)
        scale = s.card_input_px / float(length)
        scale = min(scale, s.max_input_side / max(h, w))
        return max(scale, s.min_input_side / min(h, w))

    def detector_input(self, frame: np.ndarray, card_length: float | None = None) -> tuple[np.ndarray, Letterbox]:
        """The detector's input for ``frame``: letterboxed to its square, or scaled (``detector_scale``)."""
        if not self.any_size:
            return letterbox(frame, self.detector_size)
        return scaled_input(frame, self.detector_scale(frame.shape, card_length))

    #: Card lengths tried by ``find_card_length``, as fractions of the frame's short side,
    #: largest first: from a phone photo of one card filling it to a camera hung high over a
    #: big table. The largest is there for photos: a card 0.8 of the short side read at the
    #: next scale comes out near the band's top, peaks weakly, and a smaller "card" in the
    #: carpet or the print won.
    PROBE_FRACTIONS = (0.85, 0.55, 0.34, 0.2, 0.12, 0.07)
    #: ... the peak at which a card there is sure (the search stops at the first such scale),
    #: and the least peak a card found at some scale must reach to be believed at all.
    PROBE_SURE = 0.8
    PROBE_LEAST = 0.4

    def find_card_length(self, frame: np.ndarray) -> float | None:
        """A card's long side in ``frame``'s pixels, found without knowing the mounting; None if no card is seen.

        The detector reads cards well over a band of sizes about ``card_input_px``; one far
        outside it is missed or outlined badly. So the frame is read at the scales that
        would bring a card of each ``PROBE_FRACTIONS`` length to that size, largest cards
        (smallest input) first. The first scale at which a card the detector is sure of
        (``PROBE_SURE``) comes out inside the band (0.6-1.6x ``card_input_px``) wins;
        without one, the scale whose best card inside the band peaks highest (at least
        ``PROBE_LEAST``). The answer is the median length of that scale's cards inside the
        band whose peak is within 0.2 of its best. Largest first because a fine scale turns
        the weave of a carpet or the grain of wood into card-sized blobs, and coarse scales
        are cheap. The appliance asks this until it has learnt its mounting
        (``vision.recognizer.scale.CardScale``); a single photo asks it once.
        """
        frame = check_frame(frame)
        if not self.any_size:
            return None
        h, w = frame.shape[:2]
        target = self.settings.card_input_px
        best: tuple[float, float] | None = None  # (best peak, length in frame pixels)
        for fraction in self.PROBE_FRACTIONS:
            scale = self.detector_scale(frame.shape, fraction * min(h, w))
            img, lb = scaled_input(frame, scale)
            peak, corners = self._det.run(None, {"image": np.ascontiguousarray(img.transpose(2, 0, 1)[None], dtype=np.float32)})
            heat = peak[0].max(axis=0)
            ys, xs = np.nonzero(heat >= self.PROBE_LEAST)
            if len(ys) == 0:
                continue
            quads = corners[0][:, ys, xs].T.reshape(-1, 4, 2)
            scores = heat[ys, xs]
            keep = nms_quads(quads, scores, self.settings.nms_iou)
            quads, scores = quads[keep], scores[keep]
            sides = np.linalg.norm(quads - quads[:, [1, 2, 3, 0]], axis=2)
            lengths = np.maximum(sides[:, 0] + sides[:, 2], sides[:, 1] + sides[:, 3]) / 2
            inside = (lengths >= 0.6 * target) & (lengths <= 1.6 * target)
            if not inside.any():
                continue
            top = float(scores[inside].max())
            length = float(np.median(lengths[inside & (scores >= top - 0.2)])) / lb.scale
            if top >= self.PROBE_SURE:
                return length
            if best is None or top > best[0]:
                best = (top, length)
        return None if best is None else best[1]

    def detect_quads(self, frame: np.ndarray, card_length: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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
        ``reject_below`` acts in :meth:`recognize`, once the card is named.
        """
        quads, scores, is_back, _ = self.detect_outlines(frame, card_length)
        return quads, scores, is_back

    def detect_outlines(
        self, frame: np.ndarray, card_length: float | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """``detect_quads`` and the verifier's coverage of each outline (None without a verifier).

        Enrolment reads the coverage of a new deck's cards laid on a table: a deck whose
        cards the verifier does not take for cards (an inner frame on a coloured card) must
        not have them dropped on its word (``RecognizerSettings.reject_below``).
        """
        frame = check_frame(frame)
        if card_length is None and self.any_size:
            card_length = self.find_card_length(frame)
        s = self.settings
        verify = self._verifier is not None
        threshold, nms = (min(s.candidate_threshold, s.score_threshold), s.candidate_nms) if verify else (s.score_threshold, s.nms_iou)
        img, lb = self.detector_input(frame, card_length)
        x = np.ascontiguousarray(img.transpose(2, 0, 1)[None], dtype=np.float32)
        peak, corners = self._det.run(None, {"image": x})
        peak, corners = peak[0], corners[0]  # (2,g,g), (8,g,g)
        best = peak.max(axis=0)
        ys, xs = np.nonzero(best >= threshold)
        if len(ys) == 0:
            return np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), np.zeros(0, bool), np.zeros(0, np.float32) if verify else None
        scores = best[ys, xs]
        order = np.argsort(-scores)[: s.max_cards * (4 if verify else 2)]
        ys, xs, scores = ys[order], xs[order], scores[order]
        is_back = peak[1, ys, xs] > peak[0, ys, xs]
        quads = corners[:, ys, xs].T.reshape(-1, 4, 2)
        quads = np.stack([canonical_corners(q) for q in lb.to_frame(quads)])
        keep = nms_quads(quads, scores, nms)[: s.max_cards * (2 if verify else 1)]
        quads, scores, is_back = quads[keep], scores[keep], is_back[keep]
        if self._refiner is not None:
            for _ in range(s.refiner_passes):
                quads = refined(frame, quads, self._refine_run)
            quads = np.stack([canonical_corners(q) for q in quads])
            # Two outlines of one card (one across two cards) now lie on each other.
            keep = nms_quads(quads, scores, nms)
            quads, scores, is_back = quads[keep], scores[keep], is_back[keep]
        elif s.refine_corners:
            quads = refine_quads(frame, quads)
        cover = None
        if verify:
            cover = verified(frame, quads, self._verify_run)
            doubted = scores < s.verify_below
            judged = scores.copy()
            judged[doubted] = scores[doubted] ** (1.0 - s.verifier_weight) * cover[doubted] ** s.verifier_weight
            sure = judged >= s.score_threshold
            # Of two overlapping outlines the one that covers a card better wins: an outline
            # across two cards scored a little over the card's own no longer hides it.
            rank = np.where(doubted, judged, scores ** (1.0 - s.rank_weight) * cover**s.rank_weight)
            quads, scores, rank, is_back, cover = quads[sure], scores[sure], rank[sure], is_back[sure], cover[sure]
            keep = nms_quads(quads, rank, s.nms_iou)[: s.max_cards]
            quads, scores, is_back, cover = quads[keep], scores[keep], is_back[keep], cover[keep]
            if s.size_tolerance > 0:
                quads, scores, is_back, cover = self._sized_to_table(frame, quads, scores, is_back, cover)
        return quads.astype(np.float32), scores.astype(np.float32), is_back, cover

    def _sized_to_table(
        self, frame: np.ndarray, quads: np.ndarray, scores: np.ndarray, is_back: np.ndarray, cover: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``outline.sized_to_table`` with this recogniser's settings and networks, then NMS again
        (a moved outline may now lie on a card already outlined)."""
        s = self.settings
        size = TableSize(
            tolerance=s.size_tolerance, aspect=self.prototypes.card_aspect, aspect_tolerance=s.aspect_tolerance,
            sure=s.score_threshold, gain=s.size_gain, least=s.size_least, least_drawn=s.reject_below,
            most_drawn=s.size_covered,
        )
        refine = self._refine_run if self._refiner is not None and s.refiner_passes > 0 else None
        outline = None if self.prototypes.outlined_as_drawn else self.prototypes.outline
        quads, cover, moved = sized_to_table(frame, quads, scores, cover, size, refine, self._verify_run, outline, is_back)
        if not moved.any():
            return quads, scores, is_back, cover
        keep = nms_quads(quads, scores ** (1.0 - s.rank_weight) * cover**s.rank_weight, s.nms_iou)
        return quads[keep], scores[keep], is_back[keep], cover[keep]

    def recognize(self, frame: np.ndarray, card_length: float | None = None) -> list[Detection]:
        """Every card in the frame, best first: id (or ``"back"``), confidence, box, corners, alternatives.

        ``frame``: the camera's full resolution (the identifier crops from it). ``card_length``:
        a card's long side in its pixels when known (see ``detector_scale``); without it a
        detector that reads any size first finds it on this frame (``find_card_length``).
        """
        quads, scores, is_back, cover = self.detect_outlines(frame, card_length)
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
        names = self.prototypes.names
        h, w = frame.shape[:2]
        out: list[Detection] = []
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
            if cover is not None and cover[i] < self.settings.reject_below and self.prototypes.verifies(named):
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

    def _complete(
        self, frame: np.ndarray, quads: np.ndarray, crops: np.ndarray, emb: np.ndarray, flip: np.ndarray,
        trunk: np.ndarray | None, probs: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray]:
        """Outlines out of the deck's proportions, replaced by the completed outline read most surely.

        Which side of a half-covered card is the guessed one cannot be told from the outline
        alone; the crop cut at the right outline shows the card as the deck draws it, and
        the prototypes read that one best (an off outline squeezes or stretches the art).
        Only outlines off by more than ``aspect_tolerance`` are tried, with up to four
        identifier runs each: 148 (four-colour) and 419 (flat-swiss) outlines on 300 tuning
        scenes, where 713 and 665 cards were named.
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
            quads[i], crops[i], emb[i], flip[i], probs[i] = outlines[best], more[best], m_emb[best], m_flip[best], m_probs[best]
            if trunk is not None and m_trunk is not None:
                trunk[i] = m_trunk[best]
        return quads, crops, emb, flip, trunk, probs

    def _second_look(
        self, frame: np.ndarray, quads: np.ndarray, unsure: np.ndarray, emb: np.ndarray, flip: np.ndarray,
        trunk: np.ndarray | None, probs: np.ndarray, crops: np.ndarray,
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
