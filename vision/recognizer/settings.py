"""The recogniser's settings, each with the range it may take and why it is what it is.

One frozen dataclass for the whole recognition, so a config file, a benchmark and a test
set it the same way; each stage (``vision.recognizer.stages``) reads the fields named in
its docstring. The measurements behind the defaults are in models/README.md
("Measurements behind the runtime's choices"); here only the reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class Range:
    """The values a setting may take: ``low``..``high``, either end open, integers only if ``integer``."""

    low: float
    high: float
    low_open: bool = False
    high_open: bool = False
    integer: bool = False

    def admits(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if self.integer and not isinstance(value, int):
            return False
        v = float(value)
        if not math.isfinite(v):
            return False
        above = v > self.low if self.low_open else v >= self.low
        below = v < self.high if self.high_open else v <= self.high
        return above and below

    def __str__(self) -> str:
        kind = "an integer" if self.integer else "a number"
        return f"{kind} in {'(' if self.low_open else '['}{self.low:g}, {self.high:g}{')' if self.high_open else ']'}"


def setting(default: Any, valid: Range | None = None) -> Any:
    """A field with its range (None: a flag, any bool)."""
    return field(default=default, metadata={"range": valid})


UNIT = Range(0.0, 1.0)
OPEN_UNIT = Range(0.0, 1.0, low_open=True, high_open=True)
FRACTION = Range(0.0, 1.0, high_open=True)


@dataclass(frozen=True)
class RecognizerSettings:
    """Tunable knobs of the whole recognition; defaults are what models/README.md measured."""

    #: onnxruntime threads per network (the Pi's other cores run the tracker and server).
    threads: int = setting(1, Range(1, 64, integer=True))
    #: The least detector score a card is reported at.
    score_threshold: float = setting(0.5, OPEN_UNIT)
    #: Outlines overlapping more than this (polygon IoU) are one card.
    nms_iou: float = setting(0.4, Range(0.0, 1.0, low_open=True))
    #: Two outlines overlapping more than ``nms_iou``, and no more than ``distinct_iou``,
    #: are two cards when each is read as a face, a different one, with a probability of at
    #: least ``distinct_read``: a card laid over a third of the card before it, as players
    #: lay a trick (a König laid over an Ass, quad IoU 0.47, was dropped for two seconds).
    #: Otherwise the lower ranked one goes, as ``nms_iou`` says. ``distinct_iou`` equal to
    #: ``nms_iou`` turns it off.
    distinct_iou: float = setting(0.5, Range(0.0, 1.0, low_open=True))
    distinct_read: float = setting(0.8, UNIT)
    max_cards: int = setting(40, Range(1, 400, integer=True))
    #: Runner-up readings kept on each detection, for the table to pick from when asked.
    alternatives: int = setting(3, Range(0, 36, integer=True))
    #: onnxruntime busy-waiting: lower latency, but burns a core between frames.
    spin: bool = setting(False)
    #: A card read less surely than this (best prototype probability) gets a second look:
    #: four more crops, shifted by ``second_look_shift`` of the card's sides, whose
    #: embeddings are averaged with the first; 0 turns it off. High, because with the
    #: refiner's outlines the cards read at 0.9-0.99 were the ones it still put right.
    second_look_below: float = setting(0.99, UNIT)
    second_look_shift: float = setting(0.03, Range(0.0, 0.25, high_open=True))
    #: How much the index corners' reading (``vision.recognizer.corners``, when the models
    #: folder has the corner network) weighs against the identifier's for the built-in
    #: deck: the exponent of their likelihood; 0 turns it off. ``corner_floor``: no face's
    #: likelihood counts as less than this share of the best face's, so a corner misread
    #: cannot overturn a card the identifier is all but certain of.
    corner_weight: float = setting(3.0, Range(0.0, 6.0))
    corner_floor: float = setting(0.05, Range(0.0, 1.0, low_open=True))
    #: Passes of the learned outline refiner (``vision.recognizer.outline``) over each
    #: detected outline; 0 turns it off.
    refiner_passes: int = setting(2, Range(0, 4, integer=True))
    #: Snap each detected outline to the card's edges in the full-resolution frame
    #: (``vision.recognizer.edges``) when the learned refiner is not run: after the refiner
    #: the snap made outlines worse.
    refine_corners: bool = setting(True)
    #: Ask the outline verifier about every outline: the detector's peaks down to
    #: ``candidate_threshold`` are refined, one scored under ``verify_below`` is reported if
    #: the verifier takes its crop for a card (see ``verifier_weight``), and its coverage
    #: ranks (``rank_weight``) and drops (``reject_below``, ``judged_least``) the others.
    verify: bool = setting(True)
    candidate_threshold: float = setting(0.2, OPEN_UNIT)
    candidate_nms: float = setting(0.6, Range(0.0, 1.0, low_open=True))
    #: A judged outline is reported when detector score ** (1 - w) x the verifier's
    #: coverage ** w reaches ``score_threshold`` (its score stays the detector's).
    verifier_weight: float = setting(0.7, UNIT)
    #: Outlines the detector scores below this are judged by the verifier; the others keep
    #: the detector's score. At the threshold, the verifier finds cards the detector doubted
    #: and never drops one it found; judging every outline took a deck's inner frame on its
    #: court cards for the card, called the outline too large, and dropped them.
    verify_below: float = setting(0.5, UNIT)
    #: Weight of the verifier's coverage when overlapping outlines the detector was sure of
    #: compete in NMS (detector ** (1 - w) x coverage ** w; the doubted ones compete by
    #: their judged score): an outline across two cards scored a little over the card's own
    #: no longer hides it. 0: the detector's score alone.
    rank_weight: float = setting(0.3, UNIT)
    #: A card the detector was sure of is dropped when the verifier gives its outline a
    #: coverage under this and the active deck's prototypes say the verifier reads that card
    #: (``Prototypes.verified``). Most of the detector's false cards are phones, notepads and
    #: dark rectangles the verifier scores under 0.1; 0 turns it off.
    reject_below: float = setting(0.2, FRACTION)
    #: Such a card, named a face of the built-in deck (``Prototypes.judges_faces``), is
    #: also dropped when its judged score (detector ** (1 - w) x coverage ** w,
    #: ``verifier_weight``) is under this. Card-shaped things a phone photo or a table
    #: holds (a postcard, a business card, a book's page) can leave the detector fairly
    #: sure, while the verifier covers them less than a card, and both low together mean
    #: no card (models/README.md, "Card-shaped things"). 0 turns it off.
    judged_least: float = setting(0.6, FRACTION)
    #: For an enrolled deck (``Prototypes.completes_outlines``): an outline whose long /
    #: short side is more than this (a fraction) off the deck's cards' has most likely one
    #: side guessed where another card or a hand covers the card: it is read again as the
    #: outlines that keep three of its sides and give the card its proportions
    #: (``geometry.completed_outlines``), and the one read most surely is kept. 0 turns it off.
    aspect_tolerance: float = setting(0.08, FRACTION)
    #: ... and a completed outline is kept only when read at least this surely: a card cut
    #: by the frame's edge or lost in shadow reads poorly whichever side is moved, and a
    #: poor read is no reason to move its outline.
    aspect_sure: float = setting(0.8, UNIT)
    #: ... and a completed outline may cut at most this share of the drawn outline's area: a
    #: card half under another, outlined across both, cut to its proportions shows part of
    #: it, and six pips of a ten read as a six.
    aspect_cut: float = setting(0.25, FRACTION)
    #: With the verifier: an outline whose short or long side is more than this (a fraction)
    #: off the table's cards' (the median of the outlines the detector was sure of) is tried
    #: as the card-sized outlines that keep one of its corners and sides, and the one the
    #: verifier covers best replaces it when it covers a card ``size_gain`` better and at
    #: least ``size_least`` (``outline.sized_to_table``). 0 turns it off. Why: most cards
    #: still missed were outlined with part of them guessed wrong: a card leaving the frame
    #: outlined with its long edge taken for a short one, a card under a glass or a hand
    #: outlined across or askew.
    size_tolerance: float = setting(0.15, FRACTION)
    size_gain: float = setting(0.1, FRACTION)
    size_least: float = setting(0.6, UNIT)
    #: ... and only outlines the verifier covers less well than this are tried: one covered
    #: better is a card outlined right, nearer the camera or cut by the lens.
    size_covered: float = setting(0.85, UNIT)
    #: For a detector that reads any input size: a card's length (its long side) in the
    #: detector's input that it reads best; each frame is scaled so the table's cards come
    #: out this long (``Recognizer.detector_scale``). Shorter inputs are faster, but cards
    #: of a trick laid close together merge.
    card_input_px: float = setting(64.0, Range(16.0, 400.0))
    #: ... the card length assumed, as a fraction of the frame's short side, when the
    #: caller does not say (the hardware guide's mounting gives about a tenth).
    card_fraction: float = setting(0.095, Range(0.01, 1.0))
    #: ... and the detector's input is never larger than this on its long side, nor smaller
    #: than ``min_input_side`` on its short side.
    max_input_side: int = setting(1280, Range(64, 4096, integer=True))
    min_input_side: int = setting(96, Range(64, 4096, integer=True))
    #: A photo whose card length the caller does not know (``Recognizer.recognize(photo=True)``)
    #: is read at the length ``Recognizer.find_card_length`` chooses and again for cards
    #: this share of it; the second reading's outlines ranked (detector score and
    #: verifier coverage, as ``rank_weight`` weighs them) at least ``finer_least`` join the
    #: first's. The search chooses one length per frame, and on real photos it often chose
    #: one for a few cards fanned or side by side that it took for one card. 0 turns it off.
    finer_scale: float = setting(0.62, FRACTION)
    finer_least: float = setting(0.5, UNIT)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            valid: Range | None = f.metadata.get("range")
            if valid is None:
                if not isinstance(value, bool):
                    raise ValueError(f"{f.name} must be true or false, got {value!r}")
            elif not valid.admits(value):
                raise ValueError(f"{f.name} must be {valid}, got {value!r}")
        if self.distinct_iou < self.nms_iou:
            raise ValueError(f"need nms_iou <= distinct_iou, got {self.nms_iou}, {self.distinct_iou}")
        if self.min_input_side > self.max_input_side:
            raise ValueError(f"need min_input_side <= max_input_side, got {self.min_input_side}, {self.max_input_side}")
