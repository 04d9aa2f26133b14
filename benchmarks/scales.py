"""Recognition across camera geometries: recall, precision and identity per card length.

Scenes are rendered at mountings drawn from ``vision.synth.geometry`` (the guide's, a range
around it, and every resolution from 640 x 480 to 1920 x 1080 with cards 7-35 % of the
short side, Module 3 and Wide lenses) and recognised as the appliance does: the full
frame in, the detector scaled so cards come out ``card_input_px`` long. Each card is
binned by its length in the frame (its outline's long side), the issue's bins:
under 35, 35-50, 50-70, 70-100, 100-150, over 150 px. A card counts from 70 % visible.

``BENCH_SCALES_SCENES`` (default 120) scenes per geometry family; seeds are held out from
every training set (``HELD_OUT``).
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from benchmarks.recognizer import MIN_VISIBLE, false_detections, match
from vision.recognizer.runtime import MODELS_DIR, Recognizer
from vision.recognizer.scale import card_length
from vision.synth.geometry import GUIDE, Geometry, guide_range, random_geometry
from vision.synth.scene import Scene, render_scene

HELD_OUT = 77_000_000
BINS = ((0, 35), (35, 50), (50, 70), (70, 100), (100, 150), (150, 10_000))


def bin_name(length: float) -> str:
    for lo, hi in BINS:
        if lo <= length < hi:
            return f"<{hi}" if lo == 0 else (f">{lo}" if hi > 9_999 else f"{lo}-{hi}")
    raise ValueError(length)


#: Faces partly under another card or a hand, by the share of them in view: the cards of a
#: trick laid close together, whose names the tracker needs as much as the ones on top.
COVERED = ((0.3, 0.5), (0.5, MIN_VISIBLE))


class Tally:
    """Found / missed / false / misread counts per bin, and the partly covered faces' reads."""

    def __init__(self) -> None:
        self.n: dict[str, list[int]] = defaultdict(
            lambda: [0, 0, 0, 0, 0]
        )  # cards, found, named right, false, faces found
        self.covered: dict[tuple[float, float], list[int]] = {b: [0, 0, 0] for b in COVERED}  # faces, found, right

    def add(self, scene: Scene, dets: list) -> None:
        matched = {j: i for i, j in match(dets, scene.cards)}  # truth -> detection
        for j, t in enumerate(scene.cards):
            part = next((b for b in COVERED if b[0] <= t.visible < b[1]), None)
            if part is not None and t.card != "back":
                row = self.covered[part]
                row[0] += 1
                if j in matched:
                    row[1] += 1
                    row[2] += dets[matched[j]].card == t.card
            if t.visible < MIN_VISIBLE:
                continue
            row = self.n[bin_name(card_length(t.corners))]
            row[0] += 1
            if j in matched:
                row[1] += 1
                if t.card != "back":
                    row[4] += 1
                    row[2] += dets[matched[j]].card == t.card
        falses = false_detections(dets, scene.cards, matched)
        if falses:
            lengths = [card_length(t.corners) for t in scene.cards if t.visible >= MIN_VISIBLE] or [
                card_length(np.asarray(d.corners)) for d in dets
            ]
            self.n[bin_name(float(np.median(lengths)))][3] += falses

    def rows(self) -> Iterable[tuple[str, int, float, float, float]]:
        names = [bin_name(lo + 1) for lo, _hi in BINS]
        for b in names:
            cards, found, right, false, faces = self.n.get(b, [0, 0, 0, 0, 0])
            if cards == 0 and false == 0:
                continue
            yield b, cards, found / max(cards, 1), found / max(found + false, 1), right / max(faces, 1)

    def total(self) -> tuple[int, float, float, float]:
        cards, found, right, false, faces = (sum(r[k] for r in self.n.values()) for k in range(5))
        return cards, found / max(cards, 1), found / max(found + false, 1), right / max(faces, 1)


def run(
    rec: Recognizer,
    geometries: Callable[[np.random.Generator], Geometry],
    n: int,
    seed0: int,
    style: str = "mixed",
    probe: bool = True,
) -> tuple[Tally, dict[str, Tally], float]:
    tally, per_res = Tally(), defaultdict[str, Tally](Tally)
    rng = np.random.default_rng(seed0)
    spent = 0.0
    for k in range(n):
        geo = geometries(rng)
        scene = render_scene(seed0 + k, style=style, geometry=geo)
        # The appliance learns the mounting's card length from earlier frames; a scene is
        # read as a first frame: the length found on it alone, then the recognition timed.
        length = rec.find_card_length(scene.image) if probe else None
        t0 = time.perf_counter()
        dets = rec.recognize(scene.image, length)
        spent += time.perf_counter() - t0
        tally.add(scene, dets)
        per_res[f"{geo.width}x{geo.height}"].add(scene, dets)
    return tally, per_res, spent / max(n, 1)


def report(title: str, tally: Tally) -> None:
    cards, recall, precision, identity = tally.total()
    print(f"{title}: cards {cards}  recall {recall:.4f}  precision {precision:.4f}  identity {identity:.4f}")
    for b, c, r, p, i in tally.rows():
        print(f"   {b:>8} px  cards {c:5d}  recall {r:.4f}  precision {p:.4f}  identity {i:.4f}")
    for (lo, hi), (faces, found, right) in tally.covered.items():
        print(
            f"   faces {100 * lo:.0f}-{100 * hi:.0f} % in view: {faces} cards, found {found / max(faces, 1):.4f}, "
            f"identity {right / max(found, 1):.4f}"
        )


PEER = Path(__file__).resolve().parents[2] / "shared" / "peers" / "yolov8n-640-untrained.onnx"


def speed(models: Path, frames: list[np.ndarray], lengths: list[float], repeats: int = 5) -> dict[str, float]:
    """Median ms of the whole recognition (one thread, the mounting's card length known, as in
    the appliance once it has learnt it; one camera's frames after another's) and of the
    peer YOLOv8n-640 (its letterbox included), interleaved frame by frame so both see the
    same machine load."""
    import cv2
    import onnxruntime as ort

    from vision.recognizer.geometry import letterbox
    from vision.recognizer.runtime import RecognizerSettings

    # One thread in all: OpenCV's resize and warps would otherwise take a second core.
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    rec = Recognizer(models, RecognizerSettings(threads=1))
    peer = None
    if PEER.is_file():
        o = ort.SessionOptions()
        o.intra_op_num_threads = 1
        o.inter_op_num_threads = 1
        o.add_session_config_entry("session.intra_op.allow_spinning", "0")
        peer = ort.InferenceSession(str(PEER), o, providers=["CPUExecutionProvider"])
    ours, theirs, cards = [], [], 0
    # One camera at a time, as an appliance has one: its frames once untimed (the first
    # frames of a mounting, while the recogniser settles on it), then ``repeats`` times.
    cameras = sorted({f.shape for f in frames})
    for shape in cameras:
        pairs = [(f, n) for f, n in zip(frames, lengths, strict=True) if f.shape == shape]
        for frame, length in pairs:
            rec.recognize(frame, length)
        for frame, length in pairs * repeats:
            t0 = time.perf_counter()
            cards += len(rec.recognize(frame, length))
            ours.append(time.perf_counter() - t0)
            if peer is not None:
                t0 = time.perf_counter()
                img, _ = letterbox(frame, 640)
                x = np.ascontiguousarray(img.transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
                peer.run(None, {peer.get_inputs()[0].name: x})
                theirs.append(time.perf_counter() - t0)
    cv2.setNumThreads(threads)
    out = {
        "median_ms": 1000 * float(np.median(ours)),
        "p90_ms": 1000 * float(np.percentile(ours, 90)),
        "cards_per_frame": cards / (repeats * len(frames)),
    }
    if theirs:
        out["peer_median_ms"] = 1000 * float(np.median(theirs))
        out["peer_ratio"] = out["peer_median_ms"] / out["median_ms"]
    return out


MEMORY_SCRIPT = """
import sys, cv2, numpy as np
cv2.setNumThreads(1)
from vision.recognizer import Recognizer, RecognizerSettings
with np.load(sys.argv[1]) as z:
    frames = [z[k] for k in z.files if k != 'lengths']
    lengths = [float(n) for n in z['lengths']]
r = Recognizer(sys.argv[2], RecognizerSettings(threads=1))
# As the appliance: each frame searched for its card length until the mounting is learnt,
# then read at the length learnt, one camera at a time.
for _ in range(3):
    for f in frames:
        r.recognize(f)
for shape in sorted({f.shape for f in frames}):
    for _ in range(3):
        for f, n in zip(frames, lengths):
            if f.shape == shape:
                r.recognize(f, n)
for line in open('/proc/self/status'):
    if line.startswith('VmHWM'):
        print(int(line.split()[1]) // 1024)
"""


def memory_mb(models: Path, frames: list[np.ndarray], lengths: list[float]) -> int:
    """Peak resident memory (MB) of a process that reads ``frames``, searched and then at ``lengths``."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "frames.npz"
        np.savez(path, *frames, lengths=np.asarray(lengths))
        out = subprocess.run(
            [sys.executable, "-c", MEMORY_SCRIPT, str(path), str(models)], capture_output=True, text=True, check=True
        )
    return int(out.stdout.strip())


def speed_frames(n: int = 12) -> tuple[list[np.ndarray], list[float]]:
    """Guide-geometry frames (1280 x 960 and 1280 x 720) with three to five cards in view, and
    the card length each is read at: the median over the frames of its camera, as the
    appliance reads every frame of a mounting at the one length it learnt
    (``vision.recognizer.scale.CardScale``), not each at its own cards' length."""
    frames: list[np.ndarray] = []
    lengths: list[float] = []
    seed = HELD_OUT + 900_000
    while len(frames) < n:
        geo = GUIDE if len(frames) % 2 == 0 else Geometry(1280, 720, GUIDE.card_fraction)
        scene = render_scene(seed, style="clean", geometry=geo)
        seed += 1
        seen = [card_length(c.corners) for c in scene.cards if c.visible >= 0.5]
        if 3 <= len(seen) <= 5:
            frames.append(scene.image)
            lengths.append(float(np.median(seen)))
    camera = {
        shape: float(np.median([n for f, n in zip(frames, lengths, strict=True) if f.shape == shape]))
        for shape in {f.shape for f in frames}
    }
    return frames, [camera[f.shape] for f in frames]


def main() -> None:
    models = Path(os.environ.get("JASSCAM_MODELS", MODELS_DIR))
    n = int(os.environ.get("BENCH_SCALES_SCENES", "120"))
    frames, lengths = speed_frames()
    sp = speed(models, frames, lengths)
    print(
        f"speed (1280x960 and 1280x720, {sp['cards_per_frame']:.1f} cards a frame, one thread): median "
        f"{sp['median_ms']:.1f} ms, "
        f"p90 {sp['p90_ms']:.1f} ms; YOLOv8n-640 (untrained peer) {sp.get('peer_median_ms', float('nan')):.1f} ms, "
        f"{sp.get('peer_ratio', float('nan')):.1f}x ours; peak memory {memory_mb(models, frames, lengths)} MB"
    )
    rec = Recognizer(models)
    print(f"models {models}  detector reads any size: {rec.any_size}  card_input_px {rec.settings.card_input_px}")
    for title, geos, seed in (
        ("guide geometry 1280x960", lambda _r: GUIDE, HELD_OUT),
        ("around the guide", guide_range, HELD_OUT + 100_000),
        ("any mounting", random_geometry, HELD_OUT + 200_000),
    ):
        tally, per_res, ms = run(rec, geos, n, seed)
        report(f"{title} ({n} scenes, {1000 * ms:.1f} ms a frame)", tally)
        if title == "any mounting":
            for res in sorted(per_res, key=lambda r: int(r.split("x")[0]) * int(r.split("x")[1])):
                c, r, p, i = per_res[res].total()
                print(f"   {res:>10}  cards {c:5d}  recall {r:.4f}  precision {p:.4f}  identity {i:.4f}")
