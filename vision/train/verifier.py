"""Train the outline verifier (``vision.recognizer.outline.verified``) on ``verifier-data`` chunks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.train.common import Run, train_on_crops
from vision.train.data import load_chunks
from vision.train.nets import Verifier

#: A candidate covering a card at IoU >= this is a card (the benchmark's match); < NOT_A_CARD is not.
A_CARD = 0.5
NOT_A_CARD = 0.3


class VerdictData:
    def __init__(self, folders: Path) -> None:
        d = load_chunks(folders)
        self.crop, self.cover, self.score, self.detector = d["crop"], d["cover"], d["score"], d["detector"]

    def __len__(self) -> int:
        return len(self.crop)

    def batch(self, idx: np.ndarray, rng: np.random.Generator | None) -> tuple[torch.Tensor, torch.Tensor]:
        """(crops channels_last in [0, 1], coverage (N, 1)); mirrored either way, recoloured and relit when
        ``rng`` is given."""
        x = self.crop[idx].astype(np.float32)
        if rng is not None:
            n = len(idx)
            across, down = rng.random(n) < 0.5, rng.random(n) < 0.5
            x[across] = x[across, :, ::-1]
            x[down] = x[down, ::-1]
            # Any colour of card: a deck's paper, court figures or back may be printed in
            # anything (a flat deck's full-bleed yellow Ober was "no card" without this).
            for i in np.nonzero(rng.random(n) < 0.5)[0]:
                x[i] = x[i][..., rng.permutation(3)]
            grey = rng.random(n) < 0.15
            x[grey] = x[grey].mean(axis=3, keepdims=True)
            gain = rng.uniform(0.6, 1.4, (n, 1, 1, 1)) * rng.uniform(0.6, 1.4, (n, 1, 1, 3))
            x = x * gain.astype(np.float32) + rng.uniform(-25, 25, (n, 1, 1, 1)).astype(np.float32)
            x += rng.normal(0, float(rng.uniform(0, 6)), x.shape).astype(np.float32)
        t = torch.from_numpy(np.clip(x, 0, 255) / 255.0).permute(0, 3, 1, 2)
        return t.contiguous(memory_format=torch.channels_last), torch.from_numpy(self.cover[idx].reshape(-1, 1))


@torch.no_grad()
def evaluate(model: Verifier, data: VerdictData, limit: int = 8000) -> dict[str, float]:
    """On the detector's candidates: cards kept and non-cards let through when the verifier's
    coverage is cut at 0.5, and those the detector scored under 0.5 that its blend with the
    verifier lifts over it (``rescued``)."""
    model.eval()
    idx = np.nonzero(data.detector == 1)[0][:limit]
    pred = []
    for s in range(0, len(idx), 256):
        x, _ = data.batch(idx[s : s + 256], None)
        pred.append(torch.sigmoid(model(x)).reshape(-1).numpy())
    model.train()
    p, cover = np.concatenate(pred), data.cover[idx]
    card, junk = cover >= A_CARD, cover < NOT_A_CARD
    missed, passed = int((card & (p < 0.5)).sum()), int((junk & (p >= 0.5)).sum())
    det = data.score[idx] >= 0.5
    # The runtime's default: candidates the detector scored 0.2-0.5 are added when
    # detector^0.3 x coverage^0.7 reaches 0.5.
    doubted = ~det & (data.score[idx] >= 0.2)
    rescued = doubted & (data.score[idx].clip(1e-6) ** 0.3 * p**0.7 >= 0.5)
    return {
        "rescued": float((card & rescued).sum()),
        "rescued_junk": float((junk & rescued).sum()),
        "cards": float(card.sum()),
        "junk": float(junk.sum()),
        "missed": float(missed),
        "passed": float(passed),
        "detector_missed": float((card & ~det).sum()),
        "detector_passed": float((junk & det).sum()),
        "mae": float(np.abs(p - cover).mean()),
        "score": -float(missed + passed),
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
    name: str = "verifier",
    minutes: float | None = None,
    init: Path | None = None,
) -> None:
    """``init`` may be a refiner's checkpoint: its trunk is taken, its corner head left out."""
    torch.set_num_threads(threads)
    run = Run(name)
    data, val = VerdictData(data_dir), VerdictData(val_dir)
    model = Verifier().to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    if init is not None:
        state = torch.load(init, map_location="cpu", weights_only=False)["model"]
        own = model.state_dict()
        taken = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
        model.load_state_dict(taken, strict=False)
        run.log(f"initialised {len(taken)}/{len(own)} tensors from {init}")
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
        init=None,
        loss_fn=F.binary_cross_entropy_with_logits,
        evaluate=evaluate,
    )
    run.log(f"done, best: {-best:.0f} candidates on the wrong side")
