"""The index corners: a second reading of a card from the two corners that print its index.

Why: a card of a trick lies partly under the next card or a hand, and the identifier,
which reads the whole card, then names a 6 with a row of pips hidden a 7 (a card 50-70 %
visible is named right about five times in six at the guide's mounting). The deck prints
the card's value and suit in two opposite corners, and one of them is mostly still in
view. The corner network reads each index corner on its own, and says "none" where no
index shows (hidden under another card, a back). Its reading multiplies the identifier's
(``fuse``), so a clear index settles a card the pips left open, and a hidden one changes
nothing.

The two corners are cut from the identifier's upright crop (``geometry.rectify``): its
top-left corner, and the top-left corner of the crop turned by half a turn (the card's
bottom-right). A double-headed or upside-down card shows its index there either way.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from scoring.cards import ALL_CARD_IDS
from vision.recognizer.settings import RecognizerSettings

#: Height and width (pixels of the identifier's 96 x 64 crop) of an index corner: the
#: value and the suit sign under it, with room for an outline a few pixels off.
CORNER_H: int = 28
CORNER_W: int = 20
#: The corner network's classes: the 36 cards in ``scoring.cards.ALL_CARD_IDS`` order (as
#: ``vision.train.labels``), then "no index in view" (where the identifier keeps backs).
CLASSES: tuple[str, ...] = ALL_CARD_IDS
NONE = len(CLASSES)


@lru_cache(maxsize=8)
def face_columns(names: tuple[str, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For a deck's ``names``: the positions of its faces among them, and each face's class
    in the corner network (worked out once per prototype set, not per frame)."""
    faces = [(j, CLASSES.index(name)) for j, name in enumerate(names) if name in CLASSES]
    return tuple(j for j, _ in faces), tuple(k for _, k in faces)


def corner_patches(crops: np.ndarray) -> np.ndarray:
    """(2N, CORNER_H, CORNER_W, 3): each crop's top-left corner, then each crop's bottom-right
    corner turned upright (the crops' order kept in both halves)."""
    crops = np.asarray(crops)
    if crops.ndim != 4 or crops.shape[1] < CORNER_H or crops.shape[2] < CORNER_W:
        raise ValueError(f"crops must be (N, H >= {CORNER_H}, W >= {CORNER_W}, 3), got {crops.shape}")
    top = crops[:, :CORNER_H, :CORNER_W]
    bottom = crops[:, ::-1, ::-1][:, :CORNER_H, :CORNER_W]
    return np.ascontiguousarray(np.concatenate([top, bottom]))


def corner_likelihood(corner_probs: np.ndarray) -> np.ndarray:
    """(N, F) how well each face explains both of a card's corner readings.

    ``corner_probs``: (N, 2, F + 1) the network's probabilities for each card's two corners
    (F faces, then "none"; the network's 37 columns, or a deck's faces among them).
    A corner reading "none" (hidden, or no index) says nothing about which face the card
    is, so its "none" share is spread evenly over the faces.
    """
    p = np.asarray(corner_probs, dtype=np.float64)
    n = p.shape[-1] - 1  # the faces; "none" is the last column
    faces = p[..., :n] + p[..., n:] / n
    return np.asarray(faces[:, 0] * faces[:, 1])


def fuse(face_probs: np.ndarray, corner_probs: np.ndarray, weight: float, floor: float) -> np.ndarray:
    """The identifier's probabilities of F faces (N, F), weighed by the corners'
    likelihood raised to ``weight``, with each card's face mass kept (whether it is a face
    or a back is the detector's and identifier's to say: a back shows no index, and
    neither does a face with both corners hidden).

    ``floor``: no face's likelihood counts as less than this share of the best face's, so
    the corners can raise a card's odds against another by at most ``(1 / floor) **
    weight``. A corner misread (an index drawn in a colour the network rarely saw) then
    cannot overturn a card the identifier is all but certain of, while the cards it
    names at 0.5-0.99 from what the next card leaves of their pips are still put right.
    """
    p = np.asarray(face_probs, dtype=np.float64)
    like = corner_likelihood(corner_probs)
    like = np.maximum(like, floor * like.max(axis=1, keepdims=True))
    out = p * like**weight
    mass = p.sum(axis=1, keepdims=True)
    return np.asarray(out / np.maximum(out.sum(axis=1, keepdims=True), 1e-300) * mass)


class CornerStage:
    """The index-corner network (``card-corners.onnx``): crops in, (N, 2, 37) probabilities."""

    def __init__(self, path: Path, settings: RecognizerSettings) -> None:
        from vision.recognizer.stages import onnx_session

        self.session = onnx_session(path, settings)
        self.input = self.session.get_inputs()[0].name

    def run(self, crops: np.ndarray) -> np.ndarray:
        from vision.recognizer.stages import nchw

        n = len(crops)
        if n == 0:
            return np.zeros((0, 2, NONE + 1), np.float32)
        (logits,) = self.session.run(None, {self.input: nchw(corner_patches(crops))})
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        return np.stack([p[:n], p[n:]], axis=1).astype(np.float32)
