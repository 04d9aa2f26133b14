"""Train the class-agnostic card detector (CenterNet-style heatmaps + corner regression)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from vision.recognizer.geometry import (
    CORNER_SCALE,
    DETECTOR_SIZE,
    DETECTOR_STRIDE,
    canonical_corners,
    nms_quads,
    quad_iou,
)
from vision.train.common import Run, train_loop
from vision.train.data import load_chunks
from vision.train.nets import Detector

GRID = DETECTOR_SIZE // DETECTOR_STRIDE
#: Cards less visible than this are neither positives nor negatives for the heatmap.
POSITIVE_VISIBLE = 0.35


def build_targets(
    quads: np.ndarray,
    cls: np.ndarray,
    vis: np.ndarray,
    grid: int = GRID,
    known: np.ndarray | None = None,
) -> tuple[np.ndarray, ...]:
    """Heatmap (2,g,g), heatmap weight (2,g,g), corner target (8,g,g), corner weight (g,g) for one image.

    ``known``: per card, whether its corners are known (a real photo's box gives its centre
    and size only: heatmap, no corner target).
    """
    g = grid
    hm = np.zeros((2, g, g), np.float32)
    hw = np.ones((2, g, g), np.float32)
    reg = np.zeros((8, g, g), np.float32)
    rw = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for i in np.argsort(vis):  # most visible last, so it owns shared cells
        q = quads[i]
        c = q.mean(axis=0) / DETECTOR_STRIDE - 0.5  # in cell units
        ix, iy = round(float(c[0])), round(float(c[1]))
        if not (0 <= ix < g and 0 <= iy < g):
            continue
        if vis[i] < POSITIVE_VISIBLE:
            hw[:, max(0, iy - 1) : iy + 2, max(0, ix - 1) : ix + 2] = 0.0
            continue
        short = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])) / DETECTOR_STRIDE
        sigma = max(0.6, float(short) / 6.0)
        gauss = np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (2 * sigma * sigma))
        k = int(cls[i])
        hm[k] = np.maximum(hm[k], gauss)
        hm[k, iy, ix] = 1.0
        if known is not None and not known[i]:
            rw[max(0, iy - 1) : iy + 2, max(0, ix - 1) : ix + 2] = 0.0
            continue
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                y, x = iy + dy, ix + dx
                if 0 <= y < g and 0 <= x < g:
                    centre = (np.array([x, y], np.float32) + 0.5) * DETECTOR_STRIDE
                    reg[:, y, x] = ((q - centre) / CORNER_SCALE).reshape(-1)
                    rw[y, x] = 1.0 if dx == dy == 0 else 0.5
    return hm, hw, reg, rw


def augment(img: np.ndarray, quads: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Random flips and transpose of a square input, with its quads kept clockwise."""
    s = img.shape[0]
    q = quads.copy()
    if rng.random() < 0.5:
        img = img[:, ::-1]
        q[..., 0] = s - q[..., 0]
        q = q[:, ::-1]
    if rng.random() < 0.5:
        img = img[::-1]
        q[..., 1] = s - q[..., 1]
        q = q[:, ::-1]
    if rng.random() < 0.5:
        img = img.transpose(1, 0, 2)
        q = q[..., ::-1]
        q = q[:, ::-1]
    return np.ascontiguousarray(img), np.ascontiguousarray(q)


def focal_loss(logits: torch.Tensor, hm: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = (hm >= 1.0).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p**2 * (1 - hm) ** 4 * (1 - pos) * weight
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1.0)


def corner_loss(pred: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """Smooth-L1 on the 4 corners, minimised over the 4 cyclic orders (the outline has no 'top')."""
    b, _, g, _ = pred.shape
    p = pred.permute(0, 2, 3, 1).reshape(-1, 4, 2)
    t = target.permute(0, 2, 3, 1).reshape(-1, 4, 2)
    w = weight.reshape(-1)
    m = w > 0
    if not m.any():
        return pred.sum() * 0.0
    p, t, w = p[m], t[m], w[m]
    losses = torch.stack(
        [F.smooth_l1_loss(p, torch.roll(t, k, dims=1), reduction="none", beta=0.05).sum((1, 2)) for k in range(4)]
    )
    return (losses.min(dim=0).values * w).sum() / w.sum()


class DetectorData:
    """Detector tiles with their cards; ``scale`` resizes them at load.

    Why a load-time scale: the tiles are rendered with cards about the length the runtime
    brings them to (``RecognizerSettings.card_input_px``); a detector for shorter cards (a
    smaller, faster input) trains on the same tiles shrunk, with no new rendering.
    """

    def __init__(self, folder: Path, scale: float = 1.0) -> None:
        d = load_chunks(folder)
        self.img = d["det_img"]
        self.quad, self.cls, self.vis, obj_img = d["obj_quad"], d["obj_cls"], d["obj_vis"], d["obj_img"]
        if not 0.25 <= scale <= 1.0:
            raise ValueError(f"tile scale must be in [0.25, 1], got {scale}")
        if scale != 1.0:
            side = round(self.img.shape[1] * scale)
            self.img = np.stack([cv2.resize(t, (side, side), interpolation=cv2.INTER_AREA) for t in self.img])
            self.quad = self.quad * (side / d["det_img"].shape[1])
        self.known = d["obj_known"] if "obj_known" in d else np.ones(len(self.quad), np.int8)
        order = np.argsort(obj_img, kind="stable")
        self.quad, self.cls, self.vis, obj_img = self.quad[order], self.cls[order], self.vis[order], obj_img[order]
        self.known = self.known[order]
        self.start = np.searchsorted(obj_img, np.arange(len(self.img)))
        self.end = np.searchsorted(obj_img, np.arange(len(self.img)), side="right")
        #: The square the data were letterboxed to (320 as shipped; any multiple of 32 trains).
        self.size = int(self.img.shape[1])
        # Sensor noise drawn once: torch.randn over a whole batch costs as much as a training step here.
        self.noise = torch.randn(3, self.size + 64, self.size + 64, generator=torch.Generator().manual_seed(0))

    def __len__(self) -> int:
        return len(self.img)

    def objects(self, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        s, e = self.start[i], self.end[i]
        return self.quad[s:e], self.cls[s:e], self.vis[s:e]

    def known_corners(self, i: int) -> np.ndarray:
        return self.known[self.start[i] : self.end[i]]

    def batch(self, idx: np.ndarray, rng: np.random.Generator | None) -> tuple[torch.Tensor, ...]:
        imgs, hms, hws, regs, rws = [], [], [], [], []
        for i in idx:
            img, (q, c, v) = self.img[i], self.objects(int(i))
            if rng is not None:
                img, q = augment(img, q, rng)
            hm, hw, reg, rw = build_targets(q, c, v, self.size // DETECTOR_STRIDE, self.known_corners(int(i)))
            imgs.append(img)
            hms.append(hm)
            hws.append(hw)
            regs.append(reg)
            rws.append(rw)
        # NHWC bytes viewed as NCHW: already channels_last, no copy.
        x = torch.from_numpy(np.stack(imgs)).permute(0, 3, 1, 2).float()
        if rng is None:
            x.div_(255.0)
        else:  # photometric jitter: exposure, contrast, white balance, sensor noise
            n = len(idx)
            gain = rng.uniform(0.6, 1.4, (n, 1, 1, 1)) * rng.uniform(0.85, 1.15, (n, 3, 1, 1)) / 255.0
            bias = torch.from_numpy(rng.uniform(-0.1, 0.1, (n, 1, 1, 1)).astype(np.float32))
            oy, ox = rng.integers(0, self.noise.shape[-1] - self.size, 2)
            noise = self.noise[:, oy : oy + self.size, ox : ox + self.size] * float(rng.uniform(0, 0.03))
            x.mul_(torch.from_numpy(gain.astype(np.float32))).add_(bias).add_(noise).clamp_(0, 1)
        x = x.contiguous(memory_format=torch.channels_last)
        return (x, *(torch.from_numpy(np.stack(a)) for a in (hms, hws, regs, rws)))


def decode(
    heat: np.ndarray, reg: np.ndarray, threshold: float = 0.3, nms_iou: float = 0.4
) -> tuple[np.ndarray, np.ndarray]:
    """Numpy decode of one image's raw outputs (sigmoid heat (2,g,g), reg (8,g,g)) to quads in input pixels."""
    t = torch.from_numpy(heat)[None]
    peak = ((F.max_pool2d(t, 3, 1, 1) == t).float() * t)[0].numpy().max(axis=0)
    ys, xs = np.nonzero(peak >= threshold)
    if len(ys) == 0:
        return np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32)
    scores = peak[ys, xs]
    centre = (np.stack([xs, ys], axis=1).astype(np.float32) + 0.5) * DETECTOR_STRIDE
    quads = reg[:, ys, xs].T.reshape(-1, 4, 2) * CORNER_SCALE + centre[:, None, :]
    quads = np.stack([canonical_corners(q) for q in quads])
    keep = nms_quads(quads, scores, nms_iou)
    return quads[keep], scores[keep]


def match_stats(pred: np.ndarray, gt: np.ndarray, vis: np.ndarray, min_vis: float = 0.7) -> tuple[int, int, int, int]:
    """(true positives among GT >= min_vis, GT >= min_vis, predictions matching any card, predictions)."""
    used: set[int] = set()
    tp = 0
    matched_pred = 0
    for p in pred:
        ious = [quad_iou(p, g) if j not in used else 0.0 for j, g in enumerate(gt)]
        if ious and max(ious) > 0.5:
            j = int(np.argmax(ious))
            used.add(j)
            matched_pred += 1
            tp += int(vis[j] >= min_vis)
    return tp, int((vis >= min_vis).sum()), matched_pred, len(pred)


@torch.no_grad()
def evaluate(model: Detector, data: DetectorData, limit: int = 300) -> dict[str, float]:
    model.eval()
    tp = n_gt = mp = n_pred = 0
    for s in range(0, min(limit, len(data)), 32):
        idx = np.arange(s, min(s + 32, limit, len(data)))
        x = data.batch(idx, None)[0]
        logits, reg = model(x)
        heat = torch.sigmoid(logits).numpy()
        for k, i in enumerate(idx):
            quads, _ = decode(heat[k], reg[k].numpy())
            q, _, v = data.objects(int(i))
            a, b, c, d = match_stats(quads, q, v)
            tp, n_gt, mp, n_pred = tp + a, n_gt + b, mp + c, n_pred + d
    model.train()
    recall = tp / max(n_gt, 1)
    precision = mp / max(n_pred, 1)
    return {"recall": recall, "precision": precision, "f1": 2 * recall * precision / max(recall + precision, 1e-9)}


def _train_mode(model: Detector, freeze_bn: bool) -> None:
    model.train()
    if freeze_bn:
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.eval()


def train(
    data_dir: Path,
    val_dir: Path,
    *,
    epochs: int,
    batch: int,
    lr: float,
    threads: int,
    resume: bool,
    name: str = "detector",
    minutes: float | None = None,
    init: Path | None = None,
    freeze_bn: bool = False,
    input_scale: float = 1.0,
) -> None:
    """Train (or, from ``init``, train on) the detector. ``freeze_bn``: keep every batch norm
    as it is (a checkpoint made from an exported file, whose batch norms were folded).
    ``input_scale``: see ``DetectorData``."""
    torch.set_num_threads(threads)
    run = Run(name)
    data, val = DetectorData(data_dir, input_scale), DetectorData(val_dir, input_scale)
    model = Detector().to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)

    def step_loss(m: Detector, b: tuple[torch.Tensor, ...]) -> tuple[torch.Tensor, dict[str, float]]:
        x, hm, hw, reg, rw = b
        logits, pred = m(x)
        l_hm, l_reg = focal_loss(logits, hm, hw), corner_loss(pred, reg, rw)
        return l_hm + 2.0 * l_reg, {"heat": float(l_hm.item()), "corners": float(l_reg.item())}

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
        metric="f1",
        unit="images",
        log_every=25,
        train_mode=lambda m: _train_mode(m, freeze_bn),
    )
    run.log(f"done, best val f1 {best:.4f}")
