"""Train the index-corner network (``vision.recognizer.corners``) and export it.

The data are rendered by ``vision.train.corner_data``; the network is small (a corner is
28 x 20 pixels) and trains in minutes on the CPU.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.recognizer.corners import CORNER_H, CORNER_W, NONE
from vision.train.common import Run, train_on_crops
from vision.train.export import OPSET
from vision.train.nets import DWBlock, conv_bn


class CornerData:
    """Every chunk of ``folders``: patches (N, CORNER_H, CORNER_W, 3) and labels."""

    def __init__(self, folders: list[Path]) -> None:
        files = sorted(p for folder in folders for p in folder.glob("corners-*.npz"))
        if not files:
            raise FileNotFoundError(f"no corners-*.npz in {', '.join(map(str, folders))}")
        loaded = [np.load(p) for p in files]
        self.img = np.concatenate([d["patch"] for d in loaded])
        self.label = np.concatenate([d["label"] for d in loaded]).astype(np.int64)

    def __len__(self) -> int:
        return len(self.img)

    def batch(self, idx: np.ndarray, rng: np.random.Generator | None) -> tuple[torch.Tensor, torch.Tensor]:
        x = torch.from_numpy(self.img[idx]).permute(0, 3, 1, 2).float()
        y = torch.from_numpy(self.label[idx])
        if rng is None:
            return x.div_(255.0).contiguous(memory_format=torch.channels_last), y
        n = len(idx)
        blur = torch.from_numpy(rng.random(n) < 0.2)
        if blur.any():
            x[blur] = F.avg_pool2d(x[blur], 3, 1, 1, count_include_pad=False)
        gain = rng.uniform(0.6, 1.4, (n, 1, 1, 1)) * rng.uniform(0.85, 1.15, (n, 3, 1, 1)) / 255.0
        bias = rng.uniform(-0.1, 0.1, (n, 1, 1, 1))
        x.mul_(torch.from_numpy(gain.astype(np.float32))).add_(torch.from_numpy(bias.astype(np.float32)))
        x.add_(torch.randn_like(x) * float(rng.uniform(0.0, 0.03)))
        return x.clamp_(0, 1).contiguous(memory_format=torch.channels_last), y


class CornerNet(nn.Module):
    """A small network for a 28 x 20 corner: value and suit sign, or no index (37 classes)."""

    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(
            conv_bn(3, 32, 3, 1),
            DWBlock(32, 48, 2),  # 14 x 10
            DWBlock(48, 48),
            DWBlock(48, 96, 2),  # 7 x 5
            DWBlock(96, 96),
            DWBlock(96, 128),
        )
        self.head = nn.Linear(128, NONE + 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x).mean(dim=(2, 3)))


@torch.no_grad()
def evaluate(model: CornerNet, data: CornerData, limit: int = 20000) -> dict[str, float]:
    model.eval()
    right = faces = faces_right = none_right = nones = 0
    for s in range(0, min(limit, len(data)), 512):
        idx = np.arange(s, min(s + 512, limit, len(data)))
        x, y = data.batch(idx, None)
        pred = model(x).argmax(1)
        right += int((pred == y).sum())
        face = y != NONE
        faces += int(face.sum())
        faces_right += int((pred == y)[face].sum())
        nones += int((~face).sum())
        none_right += int((pred == y)[~face].sum())
    model.train()
    n = max(1, min(limit, len(data)))
    return {
        "score": right / n,  # the share of corners read right: what the best checkpoint is
        "faces": faces_right / max(faces, 1),
        "none": none_right / max(nones, 1),
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
    name: str = "corners",
    minutes: float | None = None,
    init: Path | None = None,
) -> None:
    """Train on the chunks of ``data_dir`` (folders, comma-separated) as every trainer does."""
    torch.set_num_threads(threads)
    run = Run(name)
    data, val = CornerData([Path(d) for d in str(data_dir).split(",")]), CornerData([val_dir])
    model = CornerNet().to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)

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
        loss_fn=lambda logits, y: F.cross_entropy(logits, y, label_smoothing=0.05),
        evaluate=evaluate,
    )
    run.log(f"done, best val accuracy {best:.4f}")


def export(run: str, checkpoint: str, out: Path) -> None:
    """``runs/<run>/<checkpoint>.pt`` as an ONNX file taking (N, 3, CORNER_H, CORNER_W) 0-255
    BGR and giving logits; batch norms folded by the exporter's constant folding."""
    model = CornerNet()
    state = torch.load(Path("runs") / run / f"{checkpoint}.pt", map_location="cpu", weights_only=False)
    model.load_state_dict(state["model"])
    model.eval()

    class Wrapped(nn.Module):
        def __init__(self, net: CornerNet) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.net(x / 255.0)

    dummy = torch.zeros(2, 3, CORNER_H, CORNER_W)
    torch.onnx.export(
        Wrapped(model),
        (dummy,),
        str(out),
        input_names=["corners"],
        output_names=["logits"],
        dynamic_axes={"corners": {0: "n"}, "logits": {0: "n"}},
        opset_version=OPSET,
        dynamo=False,
    )
    print(f"wrote {out} from runs/{run}/{checkpoint}.pt (val {state.get('metrics')})")
