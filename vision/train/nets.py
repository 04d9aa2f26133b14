"""The two networks: a class-agnostic card detector and a card-identity embedder.

Both are built from depthwise-separable blocks (cheap on a Pi core) and trained in
``channels_last`` (the spike measured 1.6-2.2x faster training on this CPU).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from vision.recognizer.geometry import CORNER_SCALE, DETECTOR_STRIDE


def conv_bn(cin: int, cout: int, k: int = 3, s: int = 1, groups: int = 1, act: bool = True) -> nn.Sequential:
    layers: list[nn.Module] = [nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout)]
    if act:
        layers.append(nn.ReLU(inplace=True))
    return nn.Sequential(*layers)


class DWBlock(nn.Module):
    """Depthwise 3x3 then pointwise 1x1; residual when shape is kept."""

    def __init__(self, cin: int, cout: int, stride: int = 1) -> None:
        super().__init__()
        self.dw = conv_bn(cin, cin, 3, stride, groups=cin)
        self.pw = conv_bn(cin, cout, 1, act=False)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pw(self.dw(x))
        return F.relu(y + x if self.residual else y)


class Detector(nn.Module):
    """Stride-8 CenterNet-style detector: heatmaps for {face, back} and the 4 corners per cell.

    Corners are regressed relative to each output cell's centre (in units of
    ``CORNER_SCALE`` input pixels); the exported graph turns them into absolute input
    pixels so the runtime needs no knowledge of the grid.
    """

    def __init__(self, width: int = 1) -> None:
        super().__init__()
        c1, c2, c3, c4, c5 = 16 * width, 32 * width, 64 * width, 128 * width, 160 * width
        self.stem = conv_bn(3, c1, 3, 2)  # /2
        self.s2 = nn.Sequential(DWBlock(c1, c2, 2), DWBlock(c2, c2))  # /4
        self.s3 = nn.Sequential(DWBlock(c2, c3, 2), DWBlock(c3, c3), DWBlock(c3, c3))  # /8
        self.s4 = nn.Sequential(DWBlock(c3, c4, 2), DWBlock(c4, c4), DWBlock(c4, c4))  # /16
        self.s5 = nn.Sequential(DWBlock(c4, c5, 2), DWBlock(c5, c5))  # /32: context for big cards
        self.lat5 = conv_bn(c5, c4, 1)
        self.lat4 = conv_bn(c4, c3, 1)
        self.fuse = nn.Sequential(DWBlock(c3, c3), DWBlock(c3, c3))
        self.head_hm = nn.Sequential(conv_bn(c3, c3, 3, groups=c3), nn.Conv2d(c3, 2, 1))
        self.head_reg = nn.Sequential(conv_bn(c3, c3, 3, groups=c3), conv_bn(c3, c3, 1), nn.Conv2d(c3, 8, 1))
        nn.init.constant_(self.head_hm[-1].bias, -4.0)  # type: ignore[arg-type]

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x3 = self.s3(self.s2(self.stem(x)))
        x4 = self.s4(x3)
        x5 = self.s5(x4)
        x4 = x4 + F.interpolate(self.lat5(x5), size=x4.shape[-2:], mode="nearest")
        f = x3 + F.interpolate(self.lat4(x4), size=x3.shape[-2:], mode="nearest")
        f = self.fuse(f)
        return self.head_hm(f), self.head_reg(f)


class DetectorExport(nn.Module):
    """Wraps the detector for ONNX: BGR uint8-range input, sigmoid heatmap, peak mask, absolute corners."""

    def __init__(self, det: Detector, size: int) -> None:
        super().__init__()
        self.det = det
        g = size // DETECTOR_STRIDE
        ys, xs = torch.meshgrid(torch.arange(g), torch.arange(g), indexing="ij")
        centre = torch.stack([xs, ys]).float() * DETECTOR_STRIDE + DETECTOR_STRIDE / 2  # (2,g,g)
        self.register_buffer("centre", centre.repeat(4, 1, 1)[None])  # (1,8,g,g)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits, reg = self.det(x / 255.0)
        heat = torch.sigmoid(logits)
        peak = (F.max_pool2d(heat, 3, 1, 1) == heat).float() * heat
        return peak, reg * CORNER_SCALE + self.centre


class Identifier(nn.Module):
    """Upright card crop -> L2-normalised embedding, plus an "upside down" logit.

    A cosine classifier (learned class directions, not used at run time) trains the
    embedding; at run time cards are named by cosine similarity to per-card prototypes,
    so a new deck is enrolled by computing new prototypes, without retraining.
    """

    def __init__(self, dim: int = 128, n_classes: int = 37) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, 24, 3, 2),  # 48x32
            DWBlock(24, 32),
            DWBlock(32, 48, 2),  # 24x16
            DWBlock(48, 48),
            DWBlock(48, 96, 2),  # 12x8
            DWBlock(96, 96),
            DWBlock(96, 128, 2),  # 6x4
            DWBlock(128, 128),
            conv_bn(128, 48, 1),
        )
        self.fc = nn.Sequential(nn.Flatten(), nn.Linear(48 * 6 * 4, 256), nn.BatchNorm1d(256), nn.ReLU(inplace=True))
        self.embed = nn.Linear(256, dim)
        self.flip = nn.Linear(256, 1)
        self.classes = nn.Parameter(torch.randn(n_classes, dim) * 0.1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.fc(self.features(x))
        return F.normalize(self.embed(h), dim=1), self.flip(h)[:, 0]

    def class_logits(self, emb: torch.Tensor) -> torch.Tensor:
        return emb @ F.normalize(self.classes, dim=1).t()


class IdentifierExport(nn.Module):
    """Wraps the identifier for ONNX: BGR uint8-range crops in; embedding, flip probability and
    the trunk's map after its fourth block (``features.3``, 48x24x16) out, each 2x2 block of
    positions stacked into channels (192x12x8, ONNX ``SpaceToDepth``'s order), flattened.

    That map still says where on the card what lies, at a resolution that keeps a numeral's
    strokes; an enrolled deck trains its own small head on it (``vision.enroll.detail_head``),
    the embedding having pooled that away. It is the fourth block's map, not a deeper one
    (the sixth block's 96x12x8, the trunk's last 48x6x4): at half the stride a flat deck's
    VII and VIII, a few pixels apart, stay apart.
    """

    #: The blocks of ``Identifier.features`` whose output the third output is made from.
    MAP_BLOCKS = 4

    def __init__(self, ident: Identifier) -> None:
        super().__init__()
        self.ident = ident

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        blocks = self.ident.features
        early = blocks[: self.MAP_BLOCKS](x / 255.0)
        h = self.ident.fc(blocks[self.MAP_BLOCKS :](early))
        emb = F.normalize(self.ident.embed(h), dim=1)
        return emb, torch.sigmoid(self.ident.flip(h)[:, 0]), space_to_depth(early).flatten(1)


def space_to_depth(x: torch.Tensor) -> torch.Tensor:
    """(N, C, H, W) -> (N, 4C, H/2, W/2), channel (2 dy + dx) C + c, as ONNX ``SpaceToDepth`` with block size 2."""
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).permute(0, 3, 5, 1, 2, 4).reshape(n, 4 * c, h // 2, w // 2)


class Refiner(nn.Module):
    """A card's outline from a crop around its detected outline: 4 corner offsets.

    The detector places corners on a 320-pixel grid and sees overlapping cards at a
    quarter of the camera's resolution; this second stage sees one card (and its
    neighbours' edges) at full resolution and says where its corners really are, as
    offsets from where the detector put them, in units of the crop.
    """

    def __init__(self, outputs: int = 8) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, 24, 3, 2),  # 60x40
            DWBlock(24, 32),
            DWBlock(32, 48, 2),  # 30x20
            DWBlock(48, 48),
            DWBlock(48, 64, 2),  # 15x10
            DWBlock(64, 64),
            DWBlock(64, 96, 2),  # 8x5
            DWBlock(96, 96),
            conv_bn(96, 32, 1),
        )
        self.fc = nn.Sequential(
            nn.Flatten(), nn.Linear(32 * 8 * 5, 192), nn.ReLU(inplace=True), nn.Linear(192, outputs)
        )
        nn.init.zeros_(self.fc[-1].weight)  # type: ignore[arg-type]
        nn.init.zeros_(self.fc[-1].bias)  # type: ignore[arg-type]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.features(x))  # type: ignore[no-any-return]


class RefinerExport(nn.Module):
    """Wraps the refiner for ONNX: BGR uint8-range crops in, corner offsets (N, 4, 2) in crop pixels out."""

    def __init__(self, refiner: Refiner, width: int, height: int) -> None:
        super().__init__()
        self.refiner = refiner
        self.register_buffer("size", torch.tensor([float(width), float(height)]))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.refiner(x / 255.0).reshape(-1, 4, 2) * self.size


class Verifier(Refiner):
    """How well an outline covers one card (its IoU with the card), from the refiner's crop.

    Why: the detector sees a quarter of the camera's pixels; a card it scores 0.2 (a back
    in shadow, a card half under another) and an outline across two overlapping cards it
    scores 0.6 look alike there, and plainly different at full resolution around the
    refined outline. The refiner's trunk, one logit.
    """

    def __init__(self) -> None:
        super().__init__(outputs=1)


class VerifierExport(nn.Module):
    """Wraps the verifier for ONNX: BGR uint8-range crops in, coverage (N,) in [0, 1] out."""

    def __init__(self, verifier: Verifier) -> None:
        super().__init__()
        self.verifier = verifier

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.verifier(x / 255.0)).reshape(-1)
