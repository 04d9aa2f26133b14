"""Train the card-identity embedder on upright crops (cosine classifier with a margin)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.train.common import Run, train_loop
from vision.train.data import load_chunks
from vision.train.labels import LABELS
from vision.train.nets import Identifier

BACK_INDEX = LABELS.index("back")
SCALE, MARGIN = 16.0, 0.25


class CropData:
    def __init__(self, folder: Path, min_visible: float = 0.0) -> None:
        d = load_chunks(folder, prefix="crop_")
        keep = d["crop_vis"] >= min_visible
        self.img = d["crop_img"][keep]
        self.label = d["crop_label"][keep].astype(np.int64)
        self.deck = d["crop_deck"][keep] if "crop_deck" in d else np.array(["?"] * int(keep.sum()))
        # Backs and double-headed court cards look the same either way up: no orientation to learn.
        self.sym = d["crop_sym"][keep] if "crop_sym" in d else self.label == BACK_INDEX
        self.noise = torch.randn(3, 96 + 32, 64 + 32, generator=torch.Generator().manual_seed(1))

    def __len__(self) -> int:
        return len(self.img)

    def batch(
        self, idx: np.ndarray, rng: np.random.Generator | None
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(crops channels_last in [0,1], labels, upside-down flags with -1 where undefined); augmented
        when ``rng`` is given."""
        x = torch.from_numpy(self.img[idx]).permute(0, 3, 1, 2).float()
        y = torch.from_numpy(self.label[idx])
        n = len(idx)
        if rng is None:
            return x.div_(255.0), y, torch.zeros(n)
        flip = torch.from_numpy(rng.random(n) < 0.5)
        x[flip] = torch.flip(x[flip], dims=(2, 3))
        perm = rng.random(n) < 0.15  # swap colour channels: decks differ in colour, shapes matter more
        if perm.any():
            order = rng.permutation(3)
            x[torch.from_numpy(perm)] = x[torch.from_numpy(perm)][:, order]
        blur = torch.from_numpy(rng.random(n) < 0.25)
        if blur.any():
            x[blur] = F.avg_pool2d(x[blur], 3, 1, 1, count_include_pad=False)
        gain = rng.uniform(0.55, 1.45, (n, 1, 1, 1)) * rng.uniform(0.8, 1.2, (n, 3, 1, 1)) / 255.0
        bias = rng.uniform(-0.12, 0.12, (n, 1, 1, 1))
        oy, ox = rng.integers(0, 32, 2)
        noise = self.noise[:, oy : oy + 96, ox : ox + 64] * float(rng.uniform(0.0, 0.04))
        x.mul_(torch.from_numpy(gain.astype(np.float32))).add_(torch.from_numpy(bias.astype(np.float32))).add_(noise)
        target = flip.float()
        target[torch.from_numpy(self.sym[idx])] = -1.0
        return x.clamp_(0, 1).contiguous(memory_format=torch.channels_last), y, target


def losses(
    model: Identifier, x: torch.Tensor, y: torch.Tensor, flip: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    emb, flip_logit = model(x)
    cos = model.class_logits(emb)
    onehot = F.one_hot(y, cos.shape[1]).float()
    l_cls = F.cross_entropy(SCALE * (cos - MARGIN * onehot), y)
    face = (flip >= 0).float()  # -1: a back or double-headed card has no up or down
    l_flip = (
        F.binary_cross_entropy_with_logits(flip_logit, flip.clamp(min=0), reduction="none") * face
    ).sum() / face.sum().clamp(min=1)
    return l_cls, l_flip, cos


@torch.no_grad()
def evaluate(model: Identifier, data: CropData, limit: int = 4000) -> dict[str, float]:
    model.eval()
    correct = flips = n = n_face = 0
    rng = np.random.default_rng(0)
    for s in range(0, min(limit, len(data)), 256):
        idx = np.arange(s, min(s + 256, limit, len(data)))
        x, y, _ = data.batch(idx, None)
        flip = torch.from_numpy(rng.random(len(idx)) < 0.5)
        x[flip] = torch.flip(x[flip], dims=(2, 3))
        emb, fl = model(x.contiguous(memory_format=torch.channels_last))
        correct += int((model.class_logits(emb).argmax(1) == y).sum())
        face = torch.from_numpy(~data.sym[idx])
        flips += int(((fl > 0) == flip)[face].sum())
        n_face += int(face.sum())
        n += len(idx)
    model.train()
    return {"accuracy": correct / max(n, 1), "orientation": flips / max(n_face, 1)}


def train(
    data_dir: Path,
    val_dir: Path,
    *,
    epochs: int,
    batch: int,
    lr: float,
    threads: int,
    resume: bool,
    name: str = "identifier",
    minutes: float | None = None,
    init: Path | None = None,
) -> None:
    torch.set_num_threads(threads)
    run = Run(name)
    data, val = CropData(data_dir), CropData(val_dir, min_visible=0.7)
    model = Identifier(n_classes=len(LABELS)).to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)

    def step_loss(m: Identifier, b: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, dict[str, float]]:
        x, y, flip = b
        l_cls, l_flip, cos = losses(m, x, y, flip)
        acc = float((cos.argmax(1) == y).float().mean())
        return l_cls + 0.5 * l_flip, {"cls": float(l_cls.item()), "flip": float(l_flip.item()), "acc": acc}

    best = train_loop(
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
        step_loss=step_loss,
        evaluate=evaluate,
        metric="accuracy",
    )
    run.log(f"done, best val accuracy {best:.4f}")
