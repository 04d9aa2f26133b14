"""Rendered games with an oracle recogniser: the tracker tested on real motion and timing.

The game renderer (``vision.synth.game``) animates hands laying cards, covering them,
gathering and sweeping tricks, and times its ground-truth events off the frames. Here the
same animation runs, and each frame's true card poses and visible fractions (from the
renderer's label map) are turned into the detections a recogniser of a chosen quality
would report: cards mostly hidden are missed, some detections drop out, corners jitter,
a few reads are wrong with the truth among the alternatives. This separates the
tracker's own accuracy and latency from the recogniser's. Which edges an arm reaches in
from is not taken from the label map: the run-time arm stage (``vision.arms``) looks at
the rendered frames, as it does on the appliance.

Test and benchmark helper only (imports the renderer, never used at run time).
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from scoring.cards import ALL_CARD_IDS
from scoring.events import CardPlayed, Event, TrickCollected
from vision.arms import ArmWatcher
from vision.detection import Detection, FrameDetections
from vision.synth.habits import Habits


@dataclass(frozen=True)
class OracleQuality:
    """How good the pretend recogniser is."""

    min_visible: float = 0.45  # a card less visible than this is not found
    drop: float = 0.03  # chance a visible card is missed in a frame anyway
    misread: float = 0.03  # chance the top read is another card (truth second)
    jitter_px: float = 1.0  # corner noise

    @classmethod
    def named(cls, name: str) -> OracleQuality:
        if name == "clean":
            return cls()
        if name == "hard":
            return cls(min_visible=0.55, drop=0.12, misread=0.12, jitter_px=3.0)
        raise ValueError(f"oracle quality must be 'clean' or 'hard', got {name!r}")


@dataclass
class OracleGame:
    frames: list[FrameDetections] = field(default_factory=list)
    truth: list[Event] = field(default_factory=list)
    width: int = 0
    height: int = 0
    #: (seat, card) laid out of turn on purpose (``oracle_game(out_of_turn=...)``), if any.
    out_of_turn: tuple[int, str] | None = None
    #: With ``habits``: the habits each trick was laid and collected with, trick by trick
    #: (``HabitDirector.by_trick``).
    habits: list[Counter[str]] = field(default_factory=list)


@contextlib.contextmanager
def _capture_states(sink: list[tuple[object, np.ndarray]]) -> Iterator[None]:
    """Record each rendered frame's state and label map (the renderer draws them anyway)."""
    import vision.synth.game as game

    original = game.render_frame

    def spy(table: game.Table, state: game.FrameState, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        frame, labels = original(table, state, rng)
        sink.append((state, labels))
        return frame, labels

    game.render_frame = spy
    try:
        yield
    finally:
        game.render_frame = original


def plant_out_of_turn(events: list[Event], trick: int) -> tuple[list[Event], tuple[int, str]]:
    """``events`` with the second and third cards of trick ``trick`` (counted over the game,
    or the first later trick with only its four cards, no Weis or Stöck between) swapped;
    and the (seat, card) laid out of turn."""
    ends = [i for i, ev in enumerate(events) if isinstance(ev, TrickCollected)]
    for k, end in enumerate(ends[trick:], trick):
        start = end - 4
        four = events[start:end]
        before = events[start - 1] if start > 0 else None
        if all(isinstance(ev, CardPlayed) for ev in four) and (
            k == 0 or before is not None and not isinstance(before, CardPlayed)
        ):
            second, third = four[1], four[2]
            assert isinstance(third, CardPlayed)
            return [*events[: start + 1], third, second, *events[start + 3 :]], (third.seat, third.card)
    raise ValueError(f"no trick from {trick} on has only its four cards")


def oracle_game(
    seed: int,
    *,
    style: str = "clean",
    quality: OracleQuality | None = None,
    tricks: int | None = None,
    rounds: int = 1,
    contract: str | None = None,
    fps: float = 10.0,
    size: tuple[int, int] = (640, 480),
    record_to: Path | None = None,
    layout: str = "apart",
    guide: bool = False,
    out_of_turn: int | None = None,
    habits: bool | Habits = False,
) -> OracleGame:
    """Animate game ``seed`` (optionally only its first ``tricks`` tricks) with oracle detections.

    ``layout``: how the renderer lays tricks ("apart", or "near-centre": close about the
    centre, overlapping, each card turned toward its player by up to 25 degrees).

    ``record_to``: also write the frames and the timed events as a recording folder there,
    so the same game can go through the real video path (``jasscam replay``).

    ``out_of_turn``: in that trick (or the next one with nothing but its four cards) the
    third player lays before the second, the hand coming from their own edge: a card
    laid out of turn on purpose, which the truth's fold flags (``OracleGame.out_of_turn``).

    ``habits``: the players have the habits of a real table (``vision.synth.habits``; True
    for their usual chances), drawn apart from the game's own draws.
    """
    from vision.recording import RecordingWriter
    from vision.synth.game import Director, make_table, simulate_game
    from vision.synth.geometry import GUIDE
    from vision.synth.habits import HabitDirector

    quality = quality or OracleQuality.named(style)
    events = simulate_game(seed, rounds=rounds, contract=contract)
    if tricks is not None:
        cut, n = len(events), 0
        for i, ev in enumerate(events):
            if isinstance(ev, TrickCollected):
                n += 1
                if n == tricks:
                    cut = i + 1
                    break
        events = events[:cut]
    planted = None
    if out_of_turn is not None:
        events, planted = plant_out_of_turn(events, out_of_turn)
    width, height = size
    rng = np.random.default_rng(seed)
    # ``guide``: the hardware guide's mounting at this size (cards 9-10 % of the short side).
    geometry = replace(GUIDE, width=width, height=height) if guide else None
    table = make_table(rng, width, height, "swiss-xvii", style, geometry, layout)
    director = (
        HabitDirector(table, fps, rng, seed, None if habits is True else habits)
        if habits
        else Director(table, fps, rng)
    )
    noise = random.Random(seed * 7919 + 1)
    arms = ArmWatcher()
    out = OracleGame(width=width, height=height)
    captured: list[tuple[object, np.ndarray]] = []
    index = 0
    writer = RecordingWriter(record_to, fps=fps, width=width, height=height, overwrite=True) if record_to else None
    with _capture_states(captured):
        for frame, _labels in director.run(events):
            state, labels = captured[-1]
            t = index / fps
            index += 1
            out.frames.append(
                FrameDetections(
                    round(t, 6),
                    _detect(table, state, labels, quality, noise),
                    width,
                    height,
                    arms.update(frame, t),
                )
            )
            captured.clear()
            if writer is not None:
                writer.write_frame(frame)
    out.truth = list(director.timed)
    out.out_of_turn = planted
    if isinstance(director, HabitDirector):
        out.habits = [Counter(c) for c in director.by_trick]
    if writer is not None:
        for ev in out.truth:
            writer.add_event(ev)
        writer.close()
    return out


def _detect(
    table: object, state: object, labels: np.ndarray, q: OracleQuality, noise: random.Random
) -> tuple[Detection, ...]:
    h, w = labels.shape
    counts = np.bincount(labels.ravel(), minlength=256)
    dets: list[Detection] = []
    for c in state.cards:  # type: ignore[attr-defined]
        quad = table.camera.project(c.pose.corners())  # type: ignore[attr-defined]
        x, y = quad[:, 0], quad[:, 1]
        area = 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
        visible = min(1.0, counts[c.label] / area) if area > 0 else 0.0
        if visible < q.min_visible or noise.random() < q.drop:
            continue
        pts = tuple(
            (float(px + noise.gauss(0, q.jitter_px)), float(py + noise.gauss(0, q.jitter_px))) for px, py in quad
        )
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        box = (max(0.0, min(xs)), max(0.0, min(ys)), min(float(w), max(xs)), min(float(h), max(ys)))
        others = [k for k in noise.sample(ALL_CARD_IDS, 4) if k != c.card][:3]
        conf = noise.uniform(0.7, 0.97) * (0.6 + 0.4 * visible)
        if noise.random() < q.misread * (2.0 - visible):
            wrong = others[0]
            top_conf = noise.uniform(0.35, 0.75)
            alts = ((c.card, top_conf * noise.uniform(0.3, 0.9)), (others[1], 0.02))
            dets.append(Detection(wrong, top_conf, box, pts, alts))
        else:
            alts = ((others[0], (1 - conf) * 0.5), (others[1], (1 - conf) * 0.2))
            dets.append(Detection(c.card, conf, box, pts, alts))
    return tuple(dets)


def card_rest_times(truth: list[Event]) -> dict[str, float]:
    return {e.card: e.t for e in truth if isinstance(e, CardPlayed) and e.t is not None}


__all__ = ["OracleGame", "OracleQuality", "card_rest_times", "oracle_game"]
