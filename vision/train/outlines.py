"""Training data of the outline refiner and the outline verifier: crops around detected (or jittered) outlines.

Data: scenes rendered here (Swiss deck with its procedural variants, and the drawn French
decks of ``vision.synth.train_decks``), each run through the shipped detector. Every card
at least ``MIN_VISIBLE`` visible gives a crop around the detector's outline for it (the
error the refiner must undo) and ``JITTERED`` crops around its true outline disturbed like
a detector's error, larger and smaller, so it also learns to move an outline that is far off.

The verifier's data (``verdict_chunk``) are crops around what the recogniser has refined
out of every detector peak down to ``CANDIDATE_SCORE``: real cards, outlines across two
cards, table patterns and hands; each labelled with how well it covers a card (IoU).
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.recognizer.geometry import canonical_corners, clockwise, quad_iou
from vision.recognizer.outline import outline_crop, to_crop
from vision.train.data import jitter_quad, load_renderer

MIN_VISIBLE = 0.3
JITTERED = 2
#: A detector outline is cut for the card it overlaps most, if at least this much.
MATCH_IOU = 0.3

#: Verifier data: the detector's peaks down to this score, first-pass NMS this loose.
CANDIDATE_SCORE = 0.1
CANDIDATE_NMS = 0.6

#: One recogniser per worker process and settings (loading the networks takes a while).
_RECOGNISERS: dict[tuple[str, Any], Any] = {}


@dataclass(frozen=True)
class RefinerJob:
    out: Path
    first_seed: int
    count: int
    style: str
    renderer: str
    models: str


def _recogniser(models: str, **settings: Any) -> Any:
    from vision.recognizer.runtime import Recognizer, RecognizerSettings

    key = (models, tuple(sorted(settings.items())))
    if key not in _RECOGNISERS:
        _RECOGNISERS[key] = Recognizer(models, settings=RecognizerSettings(**settings))
    return _RECOGNISERS[key]


def _save_chunk(job: RefinerJob, **arrays: np.ndarray) -> Path:
    """Write one chunk atomically (a chunk on disk is a finished one: reruns skip it)."""
    job.out.mkdir(parents=True, exist_ok=True)
    path = job.out / f"chunk-{job.first_seed:09d}.npz"
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, **arrays)  # type: ignore[arg-type]
    tmp.rename(path)
    return path


def aligned(truth: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The true corners in the cyclic order that lies nearest ``quad``'s corners (an outline has no top)."""
    t = clockwise(truth)
    shifts = [np.roll(t, -k, axis=0) for k in range(4)]
    return shifts[int(np.argmin([np.linalg.norm(s - quad, axis=1).sum() for s in shifts]))]


def samples(image: np.ndarray, quad: np.ndarray, truth: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(crop, nominal corners, true corners) in crop pixels for one outline of one card."""
    crop, m = outline_crop(image, quad)
    return crop, to_crop(m, quad), to_crop(m, aligned(truth, quad))


def render_chunk(job: RefinerJob) -> Path:
    # The detector's own outlines, as the refiner will get them: not refined already.
    detector = _recogniser(job.models, score_threshold=0.3, refiner_passes=0, refine_corners=False)
    render = load_renderer(job.renderer)
    crops, noms, tgts, vis, src = [], [], [], [], []
    for k in range(job.count):
        seed = job.first_seed + k
        rng = np.random.default_rng(seed + 31_337)
        scene = render(seed, style=job.style)
        found, _, _ = detector.detect_quads(scene.image)
        truths = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in scene.cards]
        owner = []  # the card each detector outline overlaps most, if enough
        for q in found:
            ious = [quad_iou(q, t) for t in truths]
            best = int(np.argmax(ious)) if ious else -1
            owner.append(best if best >= 0 and ious[best] >= MATCH_IOU else -1)
        for i, c in enumerate(scene.cards):
            if c.visible < MIN_VISIBLE:
                continue
            quads = [(q, 1) for q, o in zip(found, owner, strict=True) if o == i]
            for _ in range(JITTERED):
                amount = float(rng.choice([0.02, 0.05, 0.09]))
                quads.append((canonical_corners(jitter_quad(truths[i], rng, amount)), 0))
            for q, s in quads:
                crop, nom, tgt = samples(scene.image, q, truths[i])
                crops.append(crop)
                noms.append(nom)
                tgts.append(tgt)
                vis.append(float(c.visible))
                src.append(s)
    return _save_chunk(
        job,
        crop=np.stack(crops),
        nom=np.array(noms, np.float32),
        tgt=np.array(tgts, np.float32),
        vis=np.array(vis, np.float32),
        detector=np.array(src, np.int8),
    )


def coverage(quad: np.ndarray, truths: list[np.ndarray], visible: list[float]) -> float:
    """How well ``quad`` covers a card at least ``MIN_VISIBLE`` visible (best IoU), or -1 when it is the
    outline of a card hidden more than that (left out: such cards are neither to be found nor false)."""
    ious = np.array([quad_iou(quad, t) for t in truths], np.float32)
    seen = np.array(visible, np.float32) >= MIN_VISIBLE
    best = float(ious[seen].max()) if seen.any() else 0.0
    hidden = float(ious[~seen].max()) if (~seen).any() else 0.0
    return -1.0 if hidden >= 0.5 and hidden > best else best


def verdict_chunk(job: RefinerJob) -> Path:
    """Crops of the recogniser's refined candidate outlines (and jittered true ones) with their coverage."""
    # Every outline the verifier will judge at run time: refined, before it is asked.
    candidates = _recogniser(job.models, score_threshold=CANDIDATE_SCORE, nms_iou=CANDIDATE_NMS, verify=False)
    render = load_renderer(job.renderer)
    crops, cover, score, back, src = [], [], [], [], []
    for k in range(job.count):
        seed = job.first_seed + k
        rng = np.random.default_rng(seed + 77_777)
        scene = render(seed, style=job.style)
        truths = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in scene.cards]
        visible = [float(c.visible) for c in scene.cards]
        found, scores, is_back = candidates.detect_quads(scene.image)
        quads = [(q, float(s), bool(b), 1) for q, s, b in zip(found, scores, is_back, strict=True)]
        for t, v in zip(truths, visible, strict=True):
            if v >= MIN_VISIBLE:
                amount = float(rng.choice([0.02, 0.05, 0.1, 0.2]))
                quads.append((canonical_corners(jitter_quad(t, rng, amount)), -1.0, False, 0))
        for q, s, b, source in quads:
            c = coverage(q, truths, visible)
            if c < 0:
                continue
            crops.append(outline_crop(scene.image, q)[0])
            cover.append(c)
            score.append(s)
            back.append(b)
            src.append(source)
    return _save_chunk(
        job,
        crop=np.stack(crops),
        cover=np.array(cover, np.float32),
        score=np.array(score, np.float32),
        back=np.array(back, bool),
        detector=np.array(src, np.int8),
    )


def render_dataset(
    out: Path,
    first_seed: int,
    scenes: int,
    *,
    style: str,
    renderer: str,
    models: str = "models",
    chunk: int = 200,
    workers: int = 2,
    verdicts: bool = False,
) -> list[Path]:
    """Render ``scenes`` scenes into refiner chunks, or verifier chunks with ``verdicts`` (skipping
    chunks already on disk)."""
    jobs = [
        RefinerJob(out, s, min(chunk, first_seed + scenes - s), style, renderer, models)
        for s in range(first_seed, first_seed + scenes, chunk)
    ]
    todo = [j for j in jobs if not (out / f"chunk-{j.first_seed:09d}.npz").exists()]
    t0 = time.time()
    what = "verifier" if verdicts else "refiner"
    print(f"{what} data: {len(jobs)} chunks, {len(jobs) - len(todo)} already on disk", flush=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for n, path in enumerate(pool.map(verdict_chunk if verdicts else render_chunk, todo), 1):
            print(f"{what} data: {path.name}, {n * chunk / (time.time() - t0):.1f} scenes/s", flush=True)
    return sorted(out.glob("chunk-*.npz"))


def mirrored(
    crops: np.ndarray,
    nom: np.ndarray,
    tgt: np.ndarray,
    across: np.ndarray,
    down: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops (N, H, W, 3) mirrored left-right where ``across``, top-bottom where ``down``, with their
    corners (N, 4, 2) moved and reordered to match: corner 0 stays the top-left one, clockwise."""
    crops, nom, tgt = crops.copy(), nom.copy(), tgt.copy()
    for flip, axis, order in ((across, 0, [1, 0, 3, 2]), (down, 1, [3, 2, 1, 0])):
        size = crops.shape[2 - axis]
        crops[flip] = np.flip(crops[flip], axis=2 - axis)
        for pts in (nom, tgt):
            pts[flip] = pts[flip][:, order]
            pts[flip, :, axis] = size - 1 - pts[flip, :, axis]
    return crops, nom, tgt
