"""Detection streams the real recogniser gave on rendered rounds, kept as test fixtures.

The scripted ``Table`` says what a table does; it cannot say how the recogniser reads a
hand passing over a pile, the outline it draws for a card half under another, or which
wrong card it names for a few frames. These fixtures keep that: the detections
``python -m benchmarks.tracker --mode recognizer --habits --detections DIR`` recorded for
a rendered round (1280 x 960, the hardware guide's mounting, players' habits), cut after
the tricks a test needs, with the round's true events. Rounds are stored as gzipped JSON,
coordinates rounded to a tenth of a pixel (the tracker reads them the same).

``save`` writes one (``save_benchmark_round`` from such a detections file); ``load``
reads it back. The same keeps a round of oracle detections (``tests.tracker.oracle``: the
renderer's truth as detections, jittered) whose rendering has changed since.
"""

from __future__ import annotations

import gzip
import json
import pickle
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.events import Event, event_to_dict, parse_event
from vision.detection import Detection, FrameDetections
from vision.tracker import TableLayout, TrickTracker
from vision.tracker.evaluate import compare
from vision.tracker.reread import resolve_rereads
from vision.tracker.tracker import TableInputs, TrackerEvent

DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class RecordedRound:
    frames: list[FrameDetections]
    truth: list[Event]
    edges: list[str]


def _detection(d: Detection) -> list[Any]:
    return [
        d.card,
        round(d.confidence, 4),
        [round(v, 1) for v in d.box],
        [[round(x, 1), round(y, 1)] for x, y in d.corners],
        [[card, round(p, 4)] for card, p in d.alternatives],
    ]


def save(
    frames: Sequence[FrameDetections], truth: Sequence[Event], edges: Sequence[str], out: Path, until: float
) -> None:
    """Keep the frames up to ``until`` seconds of one round, and its true events up to then."""
    doc = {
        "edges": list(edges),
        "truth": [event_to_dict(e) for e in truth if (getattr(e, "t", None) or 0.0) <= until],
        "frames": [
            [round(fr.t, 3), fr.width, fr.height, sorted(fr.arms), [_detection(d) for d in fr.detections]]
            for fr in frames
            if fr.t <= until
        ],
    }
    with gzip.open(out, "wt", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))


def save_benchmark_round(detections_file: Path, out: Path, until: float) -> None:
    """``save`` for a round the tracker benchmark kept (``--detections``)."""
    with detections_file.open("rb") as f:
        data = pickle.load(f)  # the benchmark's own file, written on this machine
    save(data["frames"], data["truth"], data["edges"], out, until)


def load(name: str) -> RecordedRound:
    """The fixture ``name`` (a file in ``data/``)."""
    with gzip.open(DATA / name, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    frames = [
        FrameDetections(
            t,
            tuple(
                Detection(card, conf, tuple(box), tuple(tuple(p) for p in corners), tuple(tuple(a) for a in alts))
                for card, conf, box, corners, alts in dets
            ),
            width,
            height,
            frozenset(arms),
        )
        for t, width, height, arms, dets in doc["frames"]
    ]
    return RecordedRound(frames, [parse_event(e) for e in doc["truth"]], list(doc["edges"]))


def replay(recorded: RecordedRound) -> list[Event]:
    """The recorded frames through a fresh tracker, rounds started and Weis declared as the
    truth has them; rereads resolved."""
    tracker = TrickTracker(TableLayout.from_dict({"edges": recorded.edges}))
    inputs = TableInputs(recorded.truth)
    events: list[TrackerEvent] = []
    for frame in recorded.frames:
        inputs.before(tracker, frame.t)
        events += tracker.update(frame)
    events += tracker.finish(recorded.frames[-1].t)
    return list(resolve_rereads(events))


@dataclass(frozen=True)
class Replayed:
    """A fixture replayed: the round, the tracker's events, and trick by trick whether the
    tracker got it right."""

    recorded: RecordedRound
    events: list[Event]
    tricks_ok: list[bool]


def replayed(name: str) -> Replayed:
    """The fixture ``name`` (``load``) through a fresh tracker (``replay``), checked
    against its truth."""
    recorded = load(name)
    events = replay(recorded)
    return Replayed(recorded, events, [t.ok for t in compare(recorded.truth, events).tricks])
