"""A recorded game through recogniser and tracker, as the live appliance runs it.

The library behind ``jasscam replay``, ``jasscam demo``'s printout, the tracker tests and
the benchmarks: one loop, so what they measure is what the command does. The tracker
learns each round's contract from the recording's ``round_started`` events (as the live
appliance learns it from the dashboard) once the video reaches them. Frames that show no
change (``FrameGate``) are not recognised again: the tracker gets the previous detections
with the new time, which is what makes replay faster than real time on one thread. The
arm stage (``vision.arms``) looks at every frame, as on the appliance.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from scoring.events import Event
    from scoring.game import GameState
    from vision.detection import Detection, FrameDetections
    from vision.recording import Recording
    from vision.tracker.evaluate import Comparison


@dataclass
class ReplayResult:
    """What a replay produced: the camera's events and how fast it went."""

    camera_events: list[Event] = field(default_factory=list)
    frames: int = 0
    recognised: int = 0
    video_s: float = 0.0
    wall_s: float = 0.0

    @property
    def speed(self) -> float:
        """Video seconds per wall-clock second (3.0 = three times real time)."""
        return self.video_s / self.wall_s if self.wall_s > 0 else float("inf")


def replay_frames(
    frames: Iterator[tuple[float, np.ndarray]],
    truth: Sequence[Event],
    recognize: Callable[[np.ndarray], list[Detection]],
    *,
    seat_layout: dict[str, Any] | None = None,
    gate: bool = True,
    realtime: bool = False,
    fps: float = 10.0,
    record: list[FrameDetections] | None = None,
) -> ReplayResult:
    """Run ``(t, frame)`` pairs through the recogniser and a fresh tracker.

    ``truth`` supplies the table's inputs, ``round_started`` and ``weis_declared`` (by their
    ``t``), as the dashboard gives them to the live tracker; nothing else of it reaches
    the tracker. ``record``: each frame's detections, as the tracker got them, are
    appended there (a benchmark keeps them to run the tracker again without the video).
    """
    from vision.arms import ArmWatcher
    from vision.detection import FrameDetections
    from vision.tracker import TableLayout, TrickTracker
    from vision.tracker.gate import FrameGate
    from vision.tracker.reread import resolve_rereads
    from vision.tracker.tracker import TableInputs, TrackerEvent

    layout = TableLayout.from_dict(seat_layout) if seat_layout else TableLayout()
    tracker = TrickTracker(layout)
    inputs = TableInputs(truth)
    frame_gate = FrameGate() if gate else None
    arms = ArmWatcher()
    result = ReplayResult()
    dets: list[Detection] = []
    seen: list[TrackerEvent] = []
    start = time.perf_counter()
    last_t = 0.0
    for t, frame in frames:
        if realtime:
            wait = t - (time.perf_counter() - start)
            if wait > 0:
                time.sleep(wait)
        inputs.before(tracker, t)
        if frame_gate is None or frame_gate.changed(frame):
            dets = recognize(frame)
            result.recognised += 1
        h, w = frame.shape[:2]
        detected = FrameDetections(t, tuple(dets), w, h, arms.update(frame, t))
        if record is not None:
            record.append(detected)
        seen += tracker.update(detected)
        result.frames += 1
        last_t = t
    seen += tracker.finish(last_t)
    result.camera_events = resolve_rereads(seen)
    result.wall_s = time.perf_counter() - start
    result.video_s = last_t + 1.0 / fps if result.frames else 0.0
    return result


def replay_recording(
    recording: Recording,
    recognize: Callable[[np.ndarray], list[Detection]],
    *,
    gate: bool = True,
    realtime: bool = False,
    record: list[FrameDetections] | None = None,
) -> ReplayResult:
    """``recording``'s video through ``recognize`` and a tracker laid out as the table was."""
    return replay_frames(
        recording.frames(),
        recording.events,
        recognize,
        seat_layout={"edges": list(recording.seat_edges)},
        gate=gate,
        realtime=realtime,
        fps=recording.fps,
        record=record,
    )


def score_state(truth: Sequence[Event], camera: Sequence[Event]) -> tuple[GameState, list[tuple[int, str]]]:
    """The rules engine's state of the truth's set-up and contracts merged with the camera's
    events, and the merged events it refused (position, reason): a refused event is
    reported, never fatal, as on the appliance."""
    from vision.tracker.evaluate import fold_accepting, merge

    state, rejected, _ = fold_accepting(merge(truth, camera))
    return state, rejected


def format_tricks(state: GameState) -> str:
    lines: list[str] = []
    rounds = list(state.rounds)
    if state.round is not None and all(r.index != state.round.index for r in rounds):
        rounds.append(state.round)
    for r in rounds:
        lines.append(f"Round {r.index + 1}: {r.contract}, forehand seat {r.forehand}")
        for trick in r.tricks:
            cards = "  ".join(f"{c.seat}:{c.card:<16}" for c in trick.cards)
            last = "  (last trick)" if trick.last else ""
            lines.append(f"  trick {trick.index + 1}: {cards} -> seat {trick.winner}, {trick.points} pts{last}")
        if r.trick:
            lines.append("  on the table: " + "  ".join(f"{c.seat}:{c.card}" for c in r.trick))
        if r.complete:
            s = r.score
            match = f", Match team {s.match_team}" if s.match_team is not None else ""
            lines.append(f"  card points {s.card_points[0]} : {s.card_points[1]}{match}")
    return "\n".join(lines)


def format_sheet(state: GameState) -> str:
    lines = ["Score sheet            team 0 (seats 0+2)   team 1 (seats 1+3)"]
    for row in state.sheet:
        a, b = row.written
        lines.append(
            f"  round {row.round + 1:<2} {row.contract:<9} x{row.multiplier}  {a.total:>10}           {b.total:>10}"
        )
    ta, tb = state.totals
    lines.append(f"  total                 {ta.total:>10}           {tb.total:>10}")
    return "\n".join(lines)


def format_comparison(result: Comparison, unread: set[tuple[int, int]] | None = None) -> str:
    """The comparison for a person; ``unread``: the tricks with a card no frame read as
    itself (``vision.tracker.evaluate.never_read``), marked among the wrong ones, so that a
    trick lost to the reads is told from one lost by the tracker."""
    s = result.summary()
    lines = [
        f"Tricks right (cards, seats, winner): {s['tricks_right']} / {s['tricks']}",
        f"Rounds with the exact score: {s['rounds_exact']} / {s['rounds']}",
        f"Cards reported: {s['cards_seen']} of {s['cards_truth']}, missed or first misread: {s['cards_unmatched']},"
        f" corrected by the tracker later: {s['corrected']}, asked with alternatives: {s['asked']},"
        f" refused by the rules engine: {s['rejected_events']}",
        f"Latency from card at rest to event: median {s['latency_median_s']} s, p95 {s['latency_p95_s']} s",
        f"Collections seen: {s['collections']}, collector named {s['collectors_named']}, right {s['collectors_right']};"
        f" flags not in the truth: {s['extra_flags'] or 'none'}",
    ]
    wrong = [t for t in result.tricks if not t.ok]
    if unread is not None:
        lost = sum(1 for t in wrong if (t.round, t.index) in unread)
        lines.append(f"Tricks lost with a card no frame read as itself: {lost} of {len(wrong)}")
    for t in wrong:
        lines.append(
            f"  round {t.round + 1} trick {t.index + 1}: truth {list(t.truth)} -> {t.truth_winner},"
            f" seen {list(t.seen)} -> {t.seen_winner}"
            + (" (a card never read as itself)" if unread is not None and (t.round, t.index) in unread else "")
        )
    return "\n".join(lines)
