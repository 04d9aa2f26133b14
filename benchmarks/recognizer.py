"""Recognizer benchmark: accuracy on held-out rendered scenes, speed, model size, memory.

``python -m benchmarks recognizer`` (``BENCH_QUICK=1`` for a smaller, noisier run).
Held-out seeds start at 10,000,000; training used seeds below 1,000,000. Writes the
numbers to ``out/bench-recognizer.json`` as well as printing them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from benchmarks import models_dir
from vision.detection import BACK, Detection
from vision.recognizer import Prototypes, Recognizer, RecognizerSettings, build_prototypes
from vision.recognizer.geometry import CROP_H, CROP_W, quad_areas, quad_iou, rectify

HELD_OUT_SEED = 10_000_000
PEER = Path(__file__).resolve().parents[1].parent / "shared" / "peers" / "yolov8n-640-untrained.onnx"
BUCKETS = ((0.0, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01))
MIN_VISIBLE = 0.7


def _greedy(dets: list[Detection], truth: list, js: list[int], used_d: set[int]) -> list[tuple[int, int]]:
    pairs = []
    for i, d in enumerate(dets):
        if i in used_d:
            continue
        for j in js:
            iou = quad_iou(np.array(d.corners), np.asarray(truth[j].corners))
            if iou > 0.5:
                pairs.append((iou, i, j))
    used_t: set[int] = set()
    out = []
    for _, i, j in sorted(pairs, reverse=True):
        if i not in used_d and j not in used_t:
            used_d.add(i)
            used_t.add(j)
            out.append((i, j))
    return out


def match(dets: list[Detection], truth: list, min_visible: float = MIN_VISIBLE) -> list[tuple[int, int]]:
    """One-to-one matching of detections to truth cards by polygon IoU > 0.5, best pairs first.

    Cards at least ``min_visible`` visible (the ones the targets are about) choose first.
    Why: the cards of a pile of won tricks lie almost exactly on each other (IoU 0.8-0.95),
    so the one detection of the pile's top card would otherwise often go to a card under
    it that is 0-10 % visible, and the card on top would count as missed.
    """
    used: set[int] = set()
    scored = [j for j, t in enumerate(truth) if t.visible >= min_visible]
    rest = [j for j, t in enumerate(truth) if t.visible < min_visible]
    return _greedy(dets, truth, scored, used) + _greedy(dets, truth, rest, used)


def _share_inside(a: np.ndarray, b: np.ndarray) -> float:
    """Fraction of quad ``a``'s area that lies inside quad ``b``."""
    area_a, _, inter = quad_areas(a, b)
    return inter / area_a if area_a > 0 else 0.0


def false_detections(
    dets: list[Detection], truth: list, pairs: dict[int, int], min_visible: float = MIN_VISIBLE
) -> int:
    """Detections that are not of a real card.

    A detection matched to a card is real. So is one of a card less than ``min_visible``
    visible (a card half under a hand or another card): it lies mostly (>= 80 %) on that
    card, found by its visible part, or overlaps its outline at IoU >= 0.3, its hidden
    corners guessed roughly. The targets count precision for well-visible cards, so those
    are left out of it (as COCO leaves out detections of "ignore" regions) rather than
    counted as false. A second detection of a well-visible card that is already matched,
    or one on bare table, is false.
    """
    matched_d = set(pairs.values())
    n = 0
    for i, d in enumerate(dets):
        if i in matched_d:
            continue
        q = np.array(d.corners)
        if any(
            t.visible < min_visible
            and (_share_inside(q, np.asarray(t.corners)) >= 0.8 or quad_iou(q, np.asarray(t.corners)) >= 0.3)
            for t in truth
        ):
            continue
        n += 1
    return n


def accuracy(rec: Recognizer, style: str, n: int, deck: str = "swiss-xvii", seed0: int = HELD_OUT_SEED) -> dict:
    from vision.synth.scene import render_scene
    from vision.tracker.config import TrackerConfig

    floor = TrackerConfig().min_detection_confidence
    by_bucket: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # truth, found, named right
    n_det = n_det_matched = n_det_all = n_det_all_matched = 0
    used_det = used_matched = 0  # the same, counting only detections the tracker takes
    back_as_face = face_as_back = orient_ok = orient_n = 0
    corner_err: list[float] = []
    for k in range(n):
        scene = render_scene(seed0 + k, style=style, deck=deck)
        dets = rec.recognize(scene.image)
        pairs = dict((j, i) for i, j in match(dets, scene.cards))
        hits = sum(1 for j in pairs if scene.cards[j].visible >= MIN_VISIBLE)
        n_det += hits + false_detections(dets, scene.cards, pairs)
        n_det_matched += hits
        n_det_all += len(dets)
        n_det_all_matched += len(pairs)
        # The tracker ignores faces read less surely than its floor; backs it takes as seen.
        used = [d for d in dets if d.card == BACK or d.confidence >= floor]
        used_pairs = dict((j, i) for i, j in match(used, scene.cards))
        used_hits = sum(1 for j in used_pairs if scene.cards[j].visible >= MIN_VISIBLE)
        used_det += used_hits + false_detections(used, scene.cards, used_pairs)
        used_matched += used_hits
        for j, t in enumerate(scene.cards):
            b = next(f"{lo:.1f}-{min(hi, 1.0):.1f}" for lo, hi in BUCKETS if lo <= t.visible < hi)
            by_bucket[b][0] += 1
            if j not in pairs:
                continue
            d = dets[pairs[j]]
            by_bucket[b][1] += 1
            by_bucket[b][2] += int(d.card == t.card)
            if t.visible >= MIN_VISIBLE:
                back_as_face += int(t.card == BACK and d.card != BACK)
                face_as_back += int(t.card != BACK and d.card == BACK)
                gt = np.asarray(t.corners)
                dc = np.array(d.corners)
                if t.card != BACK and not getattr(t, "symmetric", False) and d.card == t.card:
                    orient_n += 1
                    orient_ok += int(np.linalg.norm(dc[0] - gt[0]) < np.linalg.norm(dc[0] - gt[2]))
                # corner error up to the half-turn ambiguity
                err = min(np.linalg.norm(dc - np.roll(gt, s, axis=0), axis=1).mean() for s in (0, 2))
                corner_err.append(float(err))
    tot = [sum(by_bucket[b][i] for b in by_bucket if float(b.split("-")[0]) >= MIN_VISIBLE) for i in range(3)]
    return {
        "style": style,
        "deck": deck,
        "scenes": n,
        "cards_visible_ge_0.7": tot[0],
        "recall_ge_0.7": tot[1] / max(tot[0], 1),
        "precision": n_det_matched / max(n_det, 1),
        # The stricter figure: every detection not matched at IoU > 0.5 counted as false
        "precision_all_detections": n_det_all_matched / max(n_det_all, 1),
        "identity_accuracy_ge_0.7": tot[2] / max(tot[1], 1),
        # At the tracker's operating point: faces under its confidence floor left out.
        "recall_ge_0.7_tracker_floor": used_matched / max(tot[0], 1),
        "precision_tracker_floor": used_matched / max(used_det, 1),
        "back_read_as_face": back_as_face,
        "face_read_as_back": face_as_back,
        "orientation_accuracy": orient_ok / max(orient_n, 1),
        "median_corner_error_px": float(np.median(corner_err)) if corner_err else float("nan"),
        "buckets": {
            b: {"cards": v[0], "recall": v[1] / max(v[0], 1), "identity": v[2] / max(v[1], 1)}
            for b, v in sorted(by_bucket.items())
        },
    }


def art_crop(img: np.ndarray) -> np.ndarray:
    """Card art (BGRA, or BGR photo of one card) as an upright identifier crop on white paper."""
    import cv2

    if img.shape[2] == 4:
        a = img[..., 3:4].astype(np.float32) / 255
        img = (img[..., :3] * a + 255 * (1 - a)).astype(np.uint8)
    return cv2.resize(img, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def enrol_from_art(rec: Recognizer, deck: str) -> Prototypes:
    """Replace the recognizer's prototypes by ones made from one art image per card (both ways up)."""
    from scoring.cards import ALL_CARD_IDS
    from vision.synth.assets import load_deck

    art = load_deck(deck)
    labels = [*ALL_CARD_IDS, BACK]
    crops = np.stack([art_crop(art[c][1]) for c in labels])
    emb, _ = rec.embed(np.concatenate([crops, crops[:, ::-1, ::-1].copy()]))
    rec.prototypes = build_prototypes(emb, labels + labels)
    return rec.prototypes


def enrol_by_synthesis(rec: Recognizer, deck: str, scenes: int) -> None:
    """Prototypes from crops of the deck's art pasted into rendered scenes (seeds apart from the test's).

    Still only the one enrolled image per card, but seen under the renderer's light, blur
    and perspective, which is closer to what the camera will show than the flat art.
    """
    from vision.synth.scene import render_scene

    crops, labels = [], []
    for k in range(scenes):
        scene = render_scene(HELD_OUT_SEED + 600_000 + k, style="mixed", deck=deck)
        for t in scene.cards:
            if t.visible >= 0.8:
                crop = rectify(scene.image, np.asarray(t.corners))
                crops += [crop, crop[::-1, ::-1].copy()]
                labels += [t.card, t.card]
    art = enrol_from_art(rec, deck)  # every card gets its art prototype, even if no scene showed it
    emb, _ = rec.embed(np.stack(crops))
    synth = build_prototypes(emb, labels)
    rec.prototypes = Prototypes(
        art.labels + synth.labels, np.concatenate([art.vectors, synth.vectors]), art.temperature
    )


def speed(rec: Recognizer, frames: list[np.ndarray], repeats: int) -> dict:
    times, dets = [], 0
    for _ in range(repeats):
        for f in frames:
            t = time.perf_counter()
            dets += len(rec.recognize(f))
            times.append(time.perf_counter() - t)
    det_t = []
    for f in frames:
        t = time.perf_counter()
        rec.detect_quads(f)
        det_t.append(time.perf_counter() - t)
    return {
        "median_ms": 1000 * float(np.median(times)),
        "p90_ms": 1000 * float(np.percentile(times, 90)),
        "detector_only_median_ms": 1000 * float(np.median(det_t)),
        "cards_per_frame": dets / (repeats * len(frames)),
    }


def peer_speed(threads: int, repeats: int = 20) -> float | None:
    if not PEER.is_file():
        return None
    import onnxruntime as ort

    o = ort.SessionOptions()
    o.intra_op_num_threads = threads
    o.inter_op_num_threads = 1
    o.add_session_config_entry("session.intra_op.allow_spinning", "0")
    s = ort.InferenceSession(str(PEER), o, providers=["CPUExecutionProvider"])
    inp = s.get_inputs()[0]
    x = np.random.default_rng(0).random((1, 3, 640, 640), dtype=np.float32)
    s.run(None, {inp.name: x})
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        s.run(None, {inp.name: x})
        ts.append(time.perf_counter() - t)
    return 1000 * float(np.median(ts))


MEMORY_SCRIPT = """
import sys, numpy as np
from vision.recognizer import Recognizer
frames = np.load(sys.argv[1])
r = Recognizer(sys.argv[2])
for _ in range(3):
    for f in frames:
        r.recognize(f)
for line in open('/proc/self/status'):
    if line.startswith(('VmHWM', 'VmRSS')):
        print(line.split()[0][:-1], int(line.split()[1]) // 1024)
"""


def memory(frames: list[np.ndarray], models: Path) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "frames.npy"
        np.save(path, np.stack(frames))
        out = subprocess.run(
            [sys.executable, "-c", MEMORY_SCRIPT, str(path), str(models)], capture_output=True, text=True, check=True
        )
    return {k: int(v) for k, v in (line.split() for line in out.stdout.split("\n") if line)}


#: Issue 4's targets: on the held-out mixed scenes (every surface and light), cards >= 70 %
#: visible; the hard style is reported beside them.
TARGET_RATE = 0.995
TARGET_MEDIAN_MS = 15.0
TARGET_MEMORY_MB = 300


def targets(result: dict) -> dict[str, bool]:
    """Which of issue 4's targets ``result`` (as ``main`` collects it) meets."""
    mixed = next(
        a for a in result["accuracy"] if a["style"] == "mixed" and a["deck"] == "swiss-xvii" and "prototypes" not in a
    )
    return {
        "recall": mixed["recall_ge_0.7"] >= TARGET_RATE,
        "precision": mixed["precision"] >= TARGET_RATE,
        "identity": mixed["identity_accuracy_ge_0.7"] >= TARGET_RATE,
        "median_ms_1_thread": result["speed"]["1_thread"]["median_ms"] <= TARGET_MEDIAN_MS,
        "memory": result["memory_mb"]["VmHWM"] < TARGET_MEMORY_MB,
    }


def main() -> None:
    from vision.synth.scene import render_scene

    quick = os.environ.get("BENCH_QUICK") == "1"
    n_mixed, n_hard, n_paris = (60, 30, 30) if quick else (300, 150, 100)
    models = models_dir()
    result: dict = {"models": {p.name: p.stat().st_size for p in sorted(models.glob("*")) if p.is_file()}}
    rec = Recognizer(models, settings=RecognizerSettings(threads=1))
    acc = [accuracy(rec, "mixed", n_mixed), accuracy(rec, "hard", n_hard, seed0=HELD_OUT_SEED + 500_000)]
    # Enrolment preview (issue 8): one art image per card, no retraining.
    enrol_from_art(rec, "swiss-xvii")
    acc.append(
        {**accuracy(rec, "mixed", n_paris, seed0=HELD_OUT_SEED + 700_000), "prototypes": "one art image per card"}
    )
    enrol_from_art(rec, "paris")
    acc.append(
        {
            **accuracy(rec, "mixed", n_paris, deck="paris", seed0=HELD_OUT_SEED + 800_000),
            "prototypes": "one art image per card",
        }
    )
    enrol_by_synthesis(rec, "paris", 20 if quick else 60)
    acc.append(
        {
            **accuracy(rec, "mixed", n_paris, deck="paris", seed0=HELD_OUT_SEED + 800_000),
            "prototypes": "art + rendered scenes",
        }
    )
    result["accuracy"] = acc

    frames = [render_scene(HELD_OUT_SEED + 900_000 + k, style="mixed").image for k in range(30)]
    result["speed"] = {}
    for threads in (1, 2):
        r = Recognizer(models, settings=RecognizerSettings(threads=threads))
        s = speed(r, frames, 3 if quick else 10)
        peer = peer_speed(threads)
        s["yolov8n_640_median_ms"] = peer
        s["yolov8n_640_over_ours"] = (peer / s["median_ms"]) if peer else None
        result["speed"][f"{threads}_thread"] = s
    if not PEER.is_file():
        result["speed"]["note"] = f"{PEER} missing: reference timing skipped"
    result["memory_mb"] = memory(frames[:10], models)
    result["targets_met"] = targets(result)

    for a in acc:
        print(
            f"{a['deck']:<11} {a['style']:<6} {a.get('prototypes', 'shipped prototypes'):<24} scenes {a['scenes']:4d} "
            f"cards>=0.7 {a['cards_visible_ge_0.7']:5d}  recall {a['recall_ge_0.7']:.4f}  "
            f"precision {a['precision']:.4f}  identity {a['identity_accuracy_ge_0.7']:.4f}  "
            f"(faces >= tracker floor: recall {a['recall_ge_0.7_tracker_floor']:.4f} "
            f"precision {a['precision_tracker_floor']:.4f})  orientation {a['orientation_accuracy']:.4f}  "
            f"corner err {a['median_corner_error_px']:.2f}px  "
            f"back->face {a['back_read_as_face']} face->back {a['face_read_as_back']}"
        )
        print(
            "    by visibility: "
            + "  ".join(
                f"{b}: n={v['cards']} R={v['recall']:.3f} id={v['identity']:.3f}" for b, v in a["buckets"].items()
            )
        )
    for k, s in result["speed"].items():
        print(f"speed {k}: {s}")
    print(f"memory (MB): {result['memory_mb']}")
    print(f"model files (bytes): {result['models']}")
    print(f"targets met (mixed scenes, issue 4): {result['targets_met']}")
    out = Path("out")
    out.mkdir(exist_ok=True)
    (out / "bench-recognizer.json").write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
