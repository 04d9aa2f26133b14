"""Appliance pipeline benchmark: frames per second and resident memory while replaying.

The bundled demo recording (640x480, 10 fps) goes through the appliance exactly as in
``jasscam run`` (recording source in place of the camera, capture / recognition /
tracking threads, SQLite event store with fsync per event), with onnxruntime on one
thread, as fast as the pipeline takes frames. Two passes:

- ``gated``: the appliance's default, recognition skipped on frames where nothing
  changed (FrameGate);
- ``every frame``: the recogniser runs on every frame (the worst case: a table where
  something moves all the time).

Reports processed frames per second (frames out of the tracker per wall second), the
recogniser's mean time per frame, the arm stage's (``vision.arms``, run on every frame) as
a share of the recognise step's and of the frame budget at 10 fps, and resident memory (VmRSS after the run and the
process's peak, VmHWM). Targets of issue 6: >= 10 fps on one thread, < 300 MB resident.

    .venv/bin/python -m benchmarks.pipeline [--models DIR] [--recording DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

FPS_TARGET = 10.0
RSS_TARGET_MB = 300.0
BUNDLED = Path(__file__).resolve().parents[1] / "jasscam" / "data" / "demo-recording"


def memory_mb() -> dict[str, float]:
    """VmRSS (now) and VmHWM (peak) of this process from /proc, in MB."""
    out: dict[str, float] = {}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    except OSError:
        pass
    return out


def one_pass(recording: Path, models: str, gate: bool) -> dict[str, Any]:
    from jasscam.appliance import Appliance
    from jasscam.config import validate
    from jasscam.sources.recording import RecordingSource
    from jasscam.store import EventStore
    from scoring.events import CardPlayed, GameConfigured
    from vision.recording import Recording

    rec = Recording.open(recording)
    configured = next((e for e in rec.events if isinstance(e, GameConfigured)), GameConfigured())
    with tempfile.TemporaryDirectory(prefix="jasscam-bench-") as tmp:
        config = validate(
            {
                "store": {"state_dir": tmp},
                "recording": {"enabled": False},
                "dashboard": {"enabled": False},
                "recognizer": {"threads": 1, "models_dir": models},
            }
        )
        from jasscam.table_script import TableScript

        script: list[TableScript] = []

        def prepare(store: EventStore) -> None:
            game = store.new_game(configured)
            script.append(TableScript(store, game, rec.events))

        appliance = Appliance(
            config,
            source=RecordingSource(recording, realtime=False),
            gate=gate,
            on_frame=lambda f: script[0].on_frame(f),
        )
        started = time.perf_counter()
        appliance.start(prepare)
        appliance.watch(threading.Event(), ping=lambda: None)
        wall = time.perf_counter() - started
        assert appliance.pipeline is not None and appliance.store is not None
        stats = appliance.pipeline.stats
        game = appliance.store.current_game()
        cards = sum(isinstance(e, CardPlayed) for e in appliance.store.events(game or 0))
        memory = memory_mb()
        appliance.stop()
    recognizer = appliance.pipeline.recognize
    ran = getattr(recognizer, "ran", stats.recognized)
    return {
        "mode": "gated" if gate else "every frame",
        "frames": stats.tracked,
        "wall_s": round(wall, 2),
        "fps": round(stats.tracked / wall, 1),
        "video_s": round(rec.duration, 1),
        "speed_x_realtime": round(rec.duration / wall, 2),
        "recognizer_runs": ran,
        "recognize_ms_mean": round(1000 * stats.recognize_seconds / max(stats.recognized, 1), 2),
        "arms_ms_mean": round(1000 * stats.arms_seconds / max(stats.recognized, 1), 3),
        # Ratios say what the arm stage costs whatever the machine's speed.
        "arms_share_of_recognise": round(stats.arms_seconds / max(stats.recognize_seconds, 1e-9), 4),
        "arms_share_of_frame_budget": round(stats.arms_seconds / max(stats.recognized, 1) * 10.0, 4),
        "dropped": stats.dropped_before_recognition + stats.dropped_before_tracking,
        "cards_stored": cards,
        "rss_mb": round(memory.get("VmRSS", 0.0), 1),
        "peak_rss_mb": round(memory.get("VmHWM", 0.0), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks.pipeline", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--models",
        default=os.environ.get("JASSCAM_MODELS", ""),
        help="recogniser models folder (default: $JASSCAM_MODELS, else models/)",
    )
    parser.add_argument("--recording", default=str(BUNDLED), help="recording to replay (default: the bundled demo)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    from jasscam.appliance import ApplianceError

    try:
        results = [one_pass(Path(args.recording), args.models, gate) for gate in (True, False)]
    except ApplianceError as exc:
        print(f"benchmarks.pipeline: {exc}")
        return 2
    worst_fps = min(r["fps"] for r in results)
    peak = max(r["peak_rss_mb"] for r in results)
    verdict = {
        "fps_every_frame_ok": worst_fps >= FPS_TARGET,
        "rss_ok": peak < RSS_TARGET_MB,
    }
    if args.json:
        print(json.dumps({"passes": results, "targets": verdict}))
    else:
        for r in results:
            print(
                f"{r['mode']:>12}: {r['frames']} frames in {r['wall_s']} s = {r['fps']} fps "
                f"({r['speed_x_realtime']}x real time), recogniser {r['recognizer_runs']} runs, "
                f"recognise step {r['recognize_ms_mean']} ms per frame (gate included); "
                f"arm stage {r['arms_ms_mean']} ms per frame = {100 * r['arms_share_of_recognise']:.1f} % of the "
                f"recognise step, {100 * r['arms_share_of_frame_budget']:.2f} % of a 10 fps frame; "
                f"{r['cards_stored']} cards stored; "
                f"RSS {r['rss_mb']} MB, peak {r['peak_rss_mb']} MB"
            )
        print(
            f"targets: >= {FPS_TARGET:.0f} fps on one thread with every frame recognised: "
            f"{'met' if verdict['fps_every_frame_ok'] else 'NOT met'} ({worst_fps} fps); "
            f"< {RSS_TARGET_MB:.0f} MB resident: {'met' if verdict['rss_ok'] else 'NOT met'} (peak {peak} MB)"
        )
    return 0 if all(verdict.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
