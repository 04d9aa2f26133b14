"""``jasscam replay RECORDING``: a recorded game through recogniser and tracker, like live.

The recording's video goes frame by frame through the real recogniser and the real trick
tracker (the loop is :mod:`jasscam.replay`, shared with the demo and the benchmarks).

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
from pathlib import Path
from typing import Any

NAME = "replay"
HELP = "run a recording's video through recogniser and tracker; print the tricks and the score sheet"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("recording", metavar="RECORDING", help="recording folder (recording.json, video, events.jsonl)")
    parser.add_argument(
        "--realtime", action="store_true", help="pace the video at its own frame rate, as a camera would"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="compare with the recording's ground-truth events (exit status 1 if a trick or a round score differs)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object (events, tricks, score, comparison)")
    parser.add_argument("--models", metavar="DIR", help="folder with the recogniser's ONNX models (default: models/)")
    parser.add_argument("--no-gate", action="store_true", help="recognise every frame, even unchanged ones")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads (default 1)")


def run(args: argparse.Namespace) -> int:
    from jasscam.replay import format_comparison, format_sheet, format_tricks, replay_recording, score_state
    from jasscam.sources.recording import check_event_order
    from scoring.events import event_to_dict
    from vision.detection import FrameDetections
    from vision.recognizer import Recognizer, RecognizerSettings
    from vision.recording import Recording, RecordingError
    from vision.tracker.evaluate import compare, never_read

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
        # Each frame's reads are kept only to tell a trick lost to the reads (--compare).
        record: list[FrameDetections] | None = [] if args.compare else None
        result = replay_recording(
            recording, LearningRecognizer(recognizer), gate=not args.no_gate, realtime=args.realtime, record=record
        )
    except (RecordingError, cv2.error) as exc:  # damaged part way: a short video, bytes that do not decode
        print(f"jasscam replay: {recording.path} is damaged: {exc}", file=sys.stderr)
        return 2
    try:
        state, rejected = score_state(recording.events, result.camera_events)
    except RuleError as exc:  # e.g. events.jsonl without its game_configured
        print(f"jasscam replay: {recording.path}: the events cannot be scored: {exc}", file=sys.stderr)
        return 2
    comparison = compare(recording.events, result.camera_events) if args.compare else None
    unread = never_read(recording.events, record) if record is not None else None
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
                {
                    "round": t.round,
                    "trick": t.index,
                    "truth": t.truth,
                    "seen": t.seen,
                    "truth_winner": t.truth_winner,
                    "seen_winner": t.seen_winner,
                    "card_never_read": (t.round, t.index) in (unread or set()),
                }
                for t in comparison.tricks
                if not t.ok
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
            print(format_comparison(comparison, unread))
    if comparison is not None:
        ok = comparison.tricks_right == len(comparison.tricks) and comparison.rounds_exact == len(comparison.rounds)
        return 0 if ok else 1
    return 0
