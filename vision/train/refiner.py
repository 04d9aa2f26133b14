"""Train the outline refiner (``vision.recognizer.outline``) on ``vision.train.outlines`` chunks."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.recognizer.outline import REFINE_H, REFINE_W
from vision.train.common import Run, checkpoint, cosine_lr, eta, start
from vision.train.data import load_chunks
from vision.train.nets import Refiner
from vision.train.outlines import mirrored


class OutlineData:
    def __init__(self, folders: Path) -> None:
        d = load_chunks(folders)
        self.crop, self.nom, self.tgt, self.detector = d["crop"], d["nom"], d["tgt"], d["detector"]
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
    data_dir: Path, val_dir: Path, *, epochs: int, batch: int, lr: float, threads: int, resume: bool,
    name: str = "refiner", minutes: float | None = None, init: Path | None = None,
) -> None:
    torch.set_num_threads(threads)
    run = Run(name)
    data, val = OutlineData(data_dir), OutlineData(val_dir)
    model = Refiner().to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps_per_epoch = len(data) // batch
    total = epochs * steps_per_epoch
    step, best, budget = start(run, model, opt, total=total, minutes=minutes, resume=resume, init=init, best=-1e9)
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
