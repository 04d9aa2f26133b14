"""An enrolled deck's detail head: a small convolutional classifier trained, in numpy, on the identifier's map.

Why a trained network and not one more ridge regression: a deck drawn in a style the
identifier never saw can tell two cards apart by something small, a letter on a panel
whose shade also differs (four-colour Q and K), one figure's colour. Under shadow, glare
or a noisy camera the shade misleads, and linear heads on the crop's pixels or the
identifier's pooled trunk followed it: even fitted on rendered tables of the deck itself,
they misread the same cards. The identifier's map after its fourth block (48 x 24 x 16,
each 2x2 block of positions stacked into channels: 192 x 12 x 8, ``Recognizer.embed_trunk``)
still has a letter's or a numeral's strokes, and a 3x3 convolution learnt on the deck's
own views reads them. (Sessions 14-15 read the map after the sixth block, 96 x 12 x 8: at
twice the stride it kept a letter's shape but lost a flat deck's VII from its VIII.)

numpy only, so it trains on the appliance at enrolment (no torch there): one 3x3
convolution (192 -> 64 channels), ReLU, 2x2 max-pool, dropout, a linear layer to the
deck's labels; AdamW with label smoothing, dropped-out input channels, a fixed seed (a
profile rebuilds identically). Only the weights' gradients are needed (the map is
fixed), so backpropagation is three matrix products.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: The identifier's map the head reads: channels, rows, columns.
MAP_SHAPE = (192, 12, 8)
MAP_SIZE = MAP_SHAPE[0] * MAP_SHAPE[1] * MAP_SHAPE[2]
#: Convolution channels, training epochs and batch size: small enough to train on the
#: appliance's CPU during enrolment (models/README.md, "Enrolled decks: how the heads were chosen").
CHANNELS = 64
EPOCHS = 60
BATCH = 64
LEARNING_RATE = 3e-3
WEIGHT_DECAY = 0.05
LABEL_SMOOTHING = 0.1
INPUT_DROPOUT = 0.1
DROPOUT = 0.3
#: Each map is scaled to this length: how bright the crop was says nothing about the card.
SCALE = 10.0


def _scaled(maps: np.ndarray) -> np.ndarray:
    """(N, MAP_SIZE) or (N, C, H, W) -> (N, H, W, C) float32, each map scaled to length ``SCALE``."""
    x = np.asarray(maps, dtype=np.float32).reshape(-1, *MAP_SHAPE)
    norm = np.linalg.norm(x.reshape(len(x), -1), axis=1).reshape(-1, 1, 1, 1)
    return np.ascontiguousarray((x * (SCALE / (norm + 1e-6))).transpose(0, 2, 3, 1))


def _columns(x: np.ndarray) -> np.ndarray:
    """(N, H, W, C) -> (N * H * W, 9 * C): each position's 3x3 neighbourhood (zero-padded), for the convolution."""
    n, h, w, c = x.shape
    padded = np.zeros((n, h + 2, w + 2, c), np.float32)
    padded[:, 1:-1, 1:-1] = x
    cols = np.empty((n, h, w, 3, 3, c), np.float32)
    for dy in range(3):
        for dx in range(3):
            cols[:, :, :, dy, dx] = padded[:, dy : dy + h, dx : dx + w]
    return cols.reshape(n * h * w, 9 * c)


@dataclass(frozen=True)
class DetailHead:
    """The trained weights: ``conv`` (9 * 192, CHANNELS) with ``conv_bias``, ``fc`` (CHANNELS * 6 * 4,
    labels) with ``fc_bias``.

    Weights made for another identifier map (96 channels) load, so the
    profile that holds them loads too, but do not ``fit_map``: they are not used, and the
    profile is rebuilt from its pictures (``Enroller.is_current``).
    """

    conv: np.ndarray
    conv_bias: np.ndarray
    fc: np.ndarray
    fc_bias: np.ndarray

    def __post_init__(self) -> None:
        c = self.conv.shape[1] if self.conv.ndim == 2 else -1
        pooled = (MAP_SHAPE[1] // 2) * (MAP_SHAPE[2] // 2) * c
        if (
            self.conv.ndim != 2
            or self.conv.shape[0] % 9
            or self.conv_bias.shape != (c,)
            or self.fc.ndim != 2
            or self.fc.shape[0] != pooled
            or self.fc_bias.shape != (self.fc.shape[1],)
        ):
            raise ValueError(
                f"detail head weights do not fit a {MAP_SHAPE} map: conv {self.conv.shape}, conv bias "
                f"{self.conv_bias.shape}, fc {self.fc.shape}, fc bias {self.fc_bias.shape}"
            )

    @property
    def labels(self) -> int:
        return int(self.fc.shape[1])

    @property
    def fits_map(self) -> bool:
        """Were these weights made for the map the identifier gives now (``MAP_SHAPE``)?"""
        return bool(self.conv.shape[0] == 9 * MAP_SHAPE[0])

    def logits(self, maps: np.ndarray) -> np.ndarray:
        """(N, MAP_SIZE) identifier maps -> (N, labels) scores."""
        if not self.fits_map:
            raise ValueError(
                f"detail head was made for a {self.conv.shape[0] // 9}-channel map, not the {MAP_SHAPE} one"
            )
        x = _scaled(maps)
        pooled, _, _ = _forward_conv(x, self.conv, self.conv_bias)
        return pooled.reshape(len(x), -1) @ self.fc + self.fc_bias

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "detail_conv": self.conv,
            "detail_conv_bias": self.conv_bias,
            "detail_fc": self.fc,
            "detail_fc_bias": self.fc_bias,
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray]) -> DetailHead | None:
        """The head saved by ``arrays`` (None when none was saved)."""
        keys = ("detail_conv", "detail_conv_bias", "detail_fc", "detail_fc_bias")
        if not all(k in arrays for k in keys):
            return None
        return cls(*(np.asarray(arrays[k], np.float32) for k in keys))


def _forward_conv(x: np.ndarray, conv: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Convolution, ReLU and 2x2 max-pool of (N, H, W, C) maps: pooled (N, H/2, W/2, K), and for backprop the
    neighbourhood columns and the convolution's output."""
    n, h, w, _ = x.shape
    cols = _columns(x)
    y = (cols @ conv + bias).reshape(n, h, w, -1)
    np.maximum(y, 0.0, out=y)
    k = y.shape[-1]
    blocks = y.reshape(n, h // 2, 2, w // 2, 2, k)
    pooled = blocks.max(axis=(2, 4))
    return pooled, cols, y


def fit_detail_head(
    maps: np.ndarray,
    targets: np.ndarray,
    n_labels: int,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
    epochs: int = EPOCHS,
) -> DetailHead:
    """Train the head on the views' maps (N, MAP_SIZE) labelled ``targets`` (N,) in 0..n_labels-1."""
    x_all = _scaled(maps)
    y_all = np.asarray(targets, dtype=np.int64)
    if len(x_all) != len(y_all) or len(x_all) == 0:
        raise ValueError(f"need one label per map, got {len(x_all)} maps and {len(y_all)} labels")
    rng = np.random.default_rng((seed, 14))
    c_in = MAP_SHAPE[0]
    pooled_size = (MAP_SHAPE[1] // 2) * (MAP_SHAPE[2] // 2) * CHANNELS
    # initialised as torch initialises Conv2d and Linear: uniform within 1/sqrt(fan_in)
    b1, b2 = 1.0 / np.sqrt(9 * c_in), 1.0 / np.sqrt(pooled_size)
    params = [
        rng.uniform(-b1, b1, (9 * c_in, CHANNELS)).astype(np.float32),
        rng.uniform(-b1, b1, CHANNELS).astype(np.float32),
        rng.uniform(-b2, b2, (pooled_size, n_labels)).astype(np.float32),
        rng.uniform(-b2, b2, n_labels).astype(np.float32),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    smooth = np.full(n_labels, LABEL_SMOOTHING / n_labels, np.float32)
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(len(x_all))
        for s in range(0, len(order), BATCH):
            idx = order[s : s + BATCH]
            b = len(idx)
            keep = (rng.random((b, 1, 1, c_in)) >= INPUT_DROPOUT).astype(np.float32) / (1.0 - INPUT_DROPOUT)
            x = x_all[idx] * keep
            conv, conv_b, fc, fc_b = params
            pooled, cols, y = _forward_conv(x, conv, conv_b)
            flat = pooled.reshape(b, -1)
            drop = (rng.random(flat.shape) >= DROPOUT).astype(np.float32) / (1.0 - DROPOUT)
            hidden = flat * drop
            logits = hidden @ fc + fc_b
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            target = np.tile(smooth, (b, 1))
            target[np.arange(b), y_all[idx]] += 1.0 - LABEL_SMOOTHING
            d_logits = (p - target) / b
            g_fc = hidden.T @ d_logits
            g_fc_b = d_logits.sum(axis=0)
            d_pooled = ((d_logits @ fc.T) * drop).reshape(pooled.shape)
            # the max-pool passes each block's gradient to the position that was its maximum
            n, h, w, k = y.shape
            blocks = y.reshape(n, h // 2, 2, w // 2, 2, k)
            winner = blocks == pooled[:, :, None, :, None, :]
            d_y = (winner * d_pooled[:, :, None, :, None, :]).reshape(n * h * w, k)
            d_y *= y.reshape(n * h * w, k) > 0.0
            g_conv = cols.T @ d_y
            g_conv_b = d_y.sum(axis=0)
            step += 1
            lr_1 = LEARNING_RATE / (1.0 - beta1**step)
            for p_, g, m_, v_ in zip(params, (g_conv, g_conv_b, g_fc, g_fc_b), m, v, strict=True):
                p_ *= 1.0 - LEARNING_RATE * WEIGHT_DECAY
                m_ *= beta1
                m_ += (1.0 - beta1) * g
                v_ *= beta2
                v_ += (1.0 - beta2) * g * g
                p_ -= lr_1 * m_ / (np.sqrt(v_ / (1.0 - beta2**step)) + eps)
        if progress is not None:
            progress((epoch + 1) / epochs)
    return DetailHead(*params)
