"""``jasscam replay RECORDING``: a recorded game through recogniser and tracker, like live.

The recording's video goes frame by frame through the real recogniser and the real trick
tracker; the tracker learns each round's contract from the recording's ``round_started``
events (as the live appliance learns it from the dashboard) once the video reaches them.
Frames that show no change (``FrameGate``) are not recognised again: the tracker gets the
previous detections with the new time, which is what makes replay faster than real time
on one thread.

Prints the tricks the camera saw and the score sheet the rules engine makes of them;
``--compare`` checks them against the recording's ground truth, ``--json`` prints one
JSON object instead. A damaged recording (unreadable metadata or events, a video that
ends before its declared frame count or stops decoding, events out of time order) gives
one line naming the file and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from scoring.events import Event
    from scoring.game import GameState
    from vision.detection import Detection
    from vision.recording import Recording
    from vision.tracker.evaluate import Comparison

NAME = "replay"
HELP = "run a recording's video through recogniser and tracker; print the tricks and the score sheet"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("recording", metavar="RECORDING", help="recording folder (recording.json, video, events.jsonl)")
    parser.add_argument("--realtime", action="store_true", help="pace the video at its own frame rate, as a camera would")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="compare with the recording's ground-truth events (exit status 1 if a trick or a round score differs)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object (events, tricks, score, comparison)")
    parser.add_argument("--models", metavar="DIR", help="folder with the recogniser's ONNX models (default: models/)")
    parser.add_argument("--no-gate", action="store_true", help="recognise every frame, even unchanged ones")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads (default 1)")


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
) -> ReplayResult:
    """Run ``(t, frame)`` pairs through the recogniser and a fresh tracker.

    ``truth`` supplies the ``round_started`` events (by their ``t``); nothing else of it
    reaches the tracker.
    """
    from scoring.events import RoundStarted
    from vision.detection import FrameDetections
    from vision.tracker import TableLayout, TrickTracker
    from vision.tracker.gate import FrameGate
    from vision.tracker.reread import resolve_rereads
    from vision.tracker.tracker import TrackerEvent

    layout = TableLayout.from_dict(seat_layout) if seat_layout else TableLayout()
    tracker = TrickTracker(layout)
    rounds = [ev for ev in truth if isinstance(ev, RoundStarted)]
    frame_gate = FrameGate() if gate else None
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
        while rounds and (rounds[0].t or 0.0) <= t + 1e-9:
            tracker.start_round(rounds.pop(0))
        if frame_gate is None or frame_gate.changed(frame):
            dets = recognize(frame)
            result.recognised += 1
        h, w = frame.shape[:2]
        seen += tracker.update(FrameDetections(t, tuple(dets), w, h))
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
) -> ReplayResult:
    return replay_frames(
        recording.frames(),
        recording.events,
        recognize,
        seat_layout={"edges": list(recording.seat_edges)},
        gate=gate,
        realtime=realtime,
        fps=recording.fps,
    )


# ------------------------------------------------------------------ printing


def _state(truth: Sequence[Event], camera: Sequence[Event]) -> tuple[GameState, list[tuple[int, str]]]:
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


def format_comparison(result: Comparison) -> str:
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
    for t in result.tricks:
        if not t.ok:
            lines.append(
                f"  round {t.round + 1} trick {t.index + 1}: truth {list(t.truth)} -> {t.truth_winner},"
                f" seen {list(t.seen)} -> {t.seen_winner}"
            )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from jasscam.sources.recording import check_event_order
    from scoring.events import event_to_dict
    from vision.recognizer import Recognizer, RecognizerSettings
    from vision.recording import Recording, RecordingError
    from vision.tracker.evaluate import compare

    try:
        recording = Recording.open(args.recording)
        check_event_order(recording)
    except (RecordingError, OSError, UnicodeDecodeError) as exc:
        print(f"jasscam replay: {exc}", file=sys.stderr)
        return 2
    if args.threads < 1:
        print(f"jasscam replay: --threads must be >= 1, got {args.threads}", file=sys.stderr)
        return 2
    try:
        kwargs: dict[str, Any] = {"settings": RecognizerSettings(threads=args.threads)}
        if args.models:
            kwargs["models_dir"] = Path(args.models)
        recognizer = Recognizer(**kwargs)
    except (FileNotFoundError, ValueError) as exc:
        print(f"jasscam replay: cannot load the recogniser: {exc}", file=sys.stderr)
        return 2
    from scoring.events import RoundStarted

    if not any(isinstance(e, RoundStarted) for e in recording.events):
        print(
            f"jasscam replay: {recording.path} has no round_started event; the tracker needs each round's"
            " contract and forehand, so no cards will be counted",
            file=sys.stderr,
        )
    import cv2

    from scoring.game import RuleError
    from vision.recognizer.scale import LearningRecognizer

    try:
        # Read as the appliance reads live: at the card length learnt from the first sure cards.
        result = replay_recording(recording, LearningRecognizer(recognizer), gate=not args.no_gate, realtime=args.realtime)
    except (RecordingError, cv2.error) as exc:  # damaged part way: a short video, bytes that do not decode
        print(f"jasscam replay: {recording.path} is damaged: {exc}", file=sys.stderr)
        return 2
    try:
        state, rejected = _state(recording.events, result.camera_events)
    except RuleError as exc:  # e.g. events.jsonl without its game_configured
        print(f"jasscam replay: {recording.path}: the events cannot be scored: {exc}", file=sys.stderr)
        return 2
    comparison = compare(recording.events, result.camera_events) if args.compare else None
    if args.json:
        out: dict[str, Any] = {
            "recording": str(recording.path),
            "frames": result.frames,
            "recognised_frames": result.recognised,
            "video_s": round(result.video_s, 3),
            "wall_s": round(result.wall_s, 3),
            "speed": round(result.speed, 2),
            "events": [event_to_dict(e) for e in result.camera_events],
            "rejected": [{"position": p, "reason": r} for p, r in rejected],
            "state": state.to_dict(),
        }
        if comparison is not None:
            out["comparison"] = comparison.summary()
            out["wrong_tricks"] = [
                {"round": t.round, "trick": t.index, "truth": t.truth, "seen": t.seen,
                 "truth_winner": t.truth_winner, "seen_winner": t.seen_winner}
                for t in comparison.tricks if not t.ok
            ]
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(format_tricks(state))
        print()
        print(format_sheet(state))
        for pos, reason in rejected:
            print(f"refused by the rules engine: {reason} (merged event {pos})")
        print()
        print(
            f"{result.frames} frames ({result.video_s:.1f} s of video) in {result.wall_s:.1f} s:"
            f" {result.speed:.1f}x real time, recogniser ran on {result.recognised} frames"
        )
        if comparison is not None:
            print()
            print(format_comparison(comparison))
    if comparison is not None:
        ok = comparison.tricks_right == len(comparison.tricks) and comparison.rounds_exact == len(comparison.rounds)
        return 0 if ok else 1
    return 0
