"""Train the outline refiner (``vision.recognizer.outline``) on ``vision.train.outlines`` chunks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.recognizer.outline import REFINE_H, REFINE_W
from vision.train.common import Run, train_on_crops
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
        "before_median": float(np.median(b)),
        "after_median": float(np.median(a)),
        "after_p90": float(np.percentile(a, 90)),
        "score": -float(np.mean(a)),
    }


def train(
    data_dir: Path,
    val_dir: Path,
    *,
    epochs: int,
    batch: int,
    lr: float,
    threads: int,
    resume: bool,
    name: str = "refiner",
    minutes: float | None = None,
    init: Path | None = None,
) -> None:
    torch.set_num_threads(threads)
    run = Run(name)
    data, val = OutlineData(data_dir), OutlineData(val_dir)
    model = Refiner().to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    best = train_on_crops(
        run,
        model,
        opt,
        data,
        val,
        batch=batch,
        lr=lr,
        epochs=epochs,
        minutes=minutes,
        resume=resume,
        init=init,
        loss_fn=lambda pred, off: F.smooth_l1_loss(pred, off, beta=0.01),
        evaluate=evaluate,
    )
    run.log(f"done, best mean corner error {-best:.3f} crop px")
