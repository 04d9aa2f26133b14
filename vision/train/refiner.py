"""Train the outline refiner: crops around detected (or jittered) outlines -> true corners.

Data: scenes rendered here (Swiss deck with its procedural variants, and the drawn French
decks of ``vision.synth.train_decks``), each run through the shipped detector. Every card
at least ``MIN_VISIBLE`` visible gives a crop around the detector's outline for it (the
error the refiner must undo) and ``JITTERED`` crops around its true outline disturbed like
a detector's error, larger and smaller, so it also learns to move an outline that is far off.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F

from vision.recognizer.geometry import canonical_corners, clockwise, quad_iou
from vision.recognizer.outline import REFINE_H, REFINE_W, outline_crop, to_crop
from vision.train.common import Budget, Run, checkpoint, cosine_lr, eta
from vision.train.data import jitter_quad
from vision.train.nets import Refiner

MIN_VISIBLE = 0.3
JITTERED = 2
#: A detector outline is cut for the card it overlaps most, if at least this much.
MATCH_IOU = 0.3

_DETECTOR: Any = None


@dataclass(frozen=True)
class RefinerJob:
    out: Path
    first_seed: int
    count: int
    style: str
    renderer: str
    models: str


def _renderer(spec: str) -> Callable[..., Any]:
    mod, _, fn = spec.partition(":")
    return getattr(importlib.import_module(mod), fn or "render_scene")  # type: ignore[no-any-return]


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
    global _DETECTOR
    if _DETECTOR is None:
        from vision.recognizer.runtime import Recognizer, RecognizerSettings

        _DETECTOR = Recognizer(job.models, settings=RecognizerSettings(score_threshold=0.3, refine_corners=False))
    render = _renderer(job.renderer)
    crops, noms, tgts, vis, src = [], [], [], [], []
    for k in range(job.count):
        seed = job.first_seed + k
        rng = np.random.default_rng(seed + 31_337)
        scene = render(seed, style=job.style)
        found, _, _ = _DETECTOR.detect_quads(scene.image)
        truths = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in scene.cards]
        for i, c in enumerate(scene.cards):
            if c.visible < MIN_VISIBLE:
                continue
            quads: list[tuple[np.ndarray, int]] = []
            for q in found:
                ious = [quad_iou(q, t) for t in truths]
                if int(np.argmax(ious)) == i and ious[i] >= MATCH_IOU:
                    quads.append((q, 1))
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
    job.out.mkdir(parents=True, exist_ok=True)
    path = job.out / f"chunk-{job.first_seed:09d}.npz"
    tmp = path.with_suffix(".tmp.npz")
    np.savez(
        tmp, crop=np.stack(crops), nom=np.array(noms, np.float32), tgt=np.array(tgts, np.float32),
        vis=np.array(vis, np.float32), detector=np.array(src, np.int8),
    )
    tmp.rename(path)
    return path


def render_dataset(
    out: Path, first_seed: int, scenes: int, *, style: str, renderer: str, models: str = "models",
    chunk: int = 200, workers: int = 2,
) -> list[Path]:
    """Render ``scenes`` scenes into refiner chunks (skipping chunks already on disk)."""
    jobs = [
        RefinerJob(out, s, min(chunk, first_seed + scenes - s), style, renderer, models)
        for s in range(first_seed, first_seed + scenes, chunk)
    ]
    todo = [j for j in jobs if not (out / f"chunk-{j.first_seed:09d}.npz").exists()]
    t0 = time.time()
    print(f"refiner data: {len(jobs)} chunks, {len(jobs) - len(todo)} already on disk", flush=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for n, path in enumerate(pool.map(render_chunk, todo), 1):
            print(f"refiner data: {path.name}, {n * chunk / (time.time() - t0):.1f} scenes/s", flush=True)
    return sorted(out.glob("chunk-*.npz"))


class OutlineData:
    def __init__(self, folders: str) -> None:
        files = sorted(f for part in folders.split(",") for f in Path(part).glob("chunk-*.npz"))
        if not files:
            raise FileNotFoundError(f"no chunk-*.npz in {folders}; run `python -m vision.train refiner-data` first")
        parts: dict[str, list[np.ndarray]] = {}
        for f in files:
            with np.load(f) as z:
                for key in z.files:
                    parts.setdefault(key, []).append(z[key])
        d = {k: np.concatenate(v) for k, v in parts.items()}
        self.crop, self.nom, self.tgt = d["crop"], d["nom"], d["tgt"]
        self.vis, self.detector = d["vis"], d["detector"]
        self.scale = np.array([REFINE_W, REFINE_H], np.float32)

    def __len__(self) -> int:
        return len(self.crop)

    def batch(self, idx: np.ndarray, rng: np.random.Generator | None) -> tuple[torch.Tensor, torch.Tensor]:
        """(crops channels_last in [0, 1], target offsets (N, 8) in crop widths/heights); mirrored and
        relit when ``rng`` is given."""
        x = self.crop[idx].astype(np.float32)
        nom, tgt = self.nom[idx], self.tgt[idx]
        if rng is not None:
            n = len(idx)
            x, nom, tgt = mirrored(x, nom, tgt, rng.random(n) < 0.5, rng.random(n) < 0.5)
            gain = rng.uniform(0.6, 1.4, (n, 1, 1, 1)) * rng.uniform(0.85, 1.15, (n, 1, 1, 3))
            x = x * gain.astype(np.float32) + rng.uniform(-25, 25, (n, 1, 1, 1)).astype(np.float32)
            x += rng.normal(0, float(rng.uniform(0, 6)), x.shape).astype(np.float32)
        off = (tgt - nom) / self.scale
        t = torch.from_numpy(np.clip(x, 0, 255) / 255.0).permute(0, 3, 1, 2)
        return t.contiguous(memory_format=torch.channels_last), torch.from_numpy(off.reshape(-1, 8).astype(np.float32))


def mirrored(
    crops: np.ndarray, nom: np.ndarray, tgt: np.ndarray, across: np.ndarray, down: np.ndarray,
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


@torch.no_grad()
def evaluate(model: Refiner, data: OutlineData, limit: int = 6000) -> dict[str, float]:
    """Median corner error (crop pixels) of the detector's own outlines, before and after refinement."""
    model.eval()
    idx = np.nonzero(data.detector == 1)[0][:limit]
    before, after = [], []
    for s in range(0, len(idx), 256):
        x, off = data.batch(idx[s : s + 256], None)
        pred = model(x)
        err = (pred - off).reshape(-1, 4, 2) * torch.from_numpy(data.scale)
        after.append(err.norm(dim=2).numpy())
        before.append((off.reshape(-1, 4, 2) * torch.from_numpy(data.scale)).norm(dim=2).numpy())
    model.train()
    b, a = np.concatenate(before), np.concatenate(after)
    return {
        "before_median": float(np.median(b)), "after_median": float(np.median(a)),
        "after_p90": float(np.percentile(a, 90)), "score": -float(np.mean(a)),
    }


def train(
    data_dir: str, val_dir: str, *, epochs: int, batch: int, lr: float, threads: int, resume: bool,
    name: str = "refiner", minutes: float | None = None, init: Path | None = None,
) -> None:
    torch.set_num_threads(threads)
    run = Run(name)
    data, val = OutlineData(data_dir), OutlineData(val_dir)
    model = Refiner().to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps_per_epoch = len(data) // batch
    total = epochs * steps_per_epoch
    step, best, spent = 0, -1e9, 0.0
    if init is not None:
        model.load_state_dict(torch.load(init, map_location="cpu", weights_only=False)["model"])
        run.log(f"initialised from {init}")
    state = run.load("last.pt") if resume else None
    if state:
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        step, best, spent = state["step"], state["best"], state.get("spent_s", 0.0)
        run.log(f"resumed at step {step}/{total}")
    budget = Budget(total, minutes, spent)
    run.log(f"refiner: {len(data)} train / {len(val)} val crops, {sum(p.numel() for p in model.parameters())} params, {total} steps")
    rng = np.random.default_rng(step + 1)
    t_last, n_last, t_save, agg = time.time(), 0, time.time(), 0.0
    while budget.progress(step) < 1.0:
        perm = rng.permutation(len(data))
        for b in range(steps_per_epoch):
            if budget.progress(step) >= 1.0:
                break
            x, off = data.batch(perm[b * batch : (b + 1) * batch], rng)
            for gr in opt.param_groups:
                gr["lr"] = cosine_lr(step, budget.progress(step), lr)
            loss = F.smooth_l1_loss(model(x), off, beta=0.01)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1
            n_last += len(x)
            agg += loss.item()
            if step % 50 == 0:
                rate = n_last / (time.time() - t_last)
                run.log(
                    f"step {step}/{total} ep {step / steps_per_epoch:.2f} loss {agg / 50:.5f} "
                    f"lr {opt.param_groups[0]['lr']:.2e} {rate:.0f} crops/s eta {eta(budget.remaining_s(step, rate / batch))}"
                )
                t_last, n_last, agg = time.time(), 0, 0.0
            last = budget.progress(step) >= 1.0
            if step % steps_per_epoch == 0 or last or time.time() - t_save > 600:
                best = checkpoint(run, model, opt, step, best, budget, evaluate(model, val), "score")
                t_save = t_last = time.time()
    run.log(f"done, best mean corner error {-best:.3f} crop px")
