"""A cheap "did anything change?" test that lets replay and the camera loop skip frames.

Most frames of a card game show a still table. Comparing a tiny block-averaged thumbnail
of the frame with the one last sent to the recogniser costs about a millisecond and says
whether the recogniser needs to run at all; when it does not, the previous detections
are handed to the tracker again with the new frame time, which is exactly what the
recogniser would have said for an unchanged picture.

Block averaging (rather than sampling every n-th pixel) is what makes this robust to
sensor noise and video compression artefacts: noise averages out over a block, while a
card or a hand moving changes whole blocks by tens of grey levels.
"""

from __future__ import annotations

import numpy as np


class FrameGate:
    """Says whether a frame differs enough from the last one that was let through.

    ``block`` is the thumbnail cell size in pixels, ``threshold`` the mean grey-level
    change of one cell that counts as a change, ``max_skip`` forces a frame through
    after that many skipped frames, so a slow drift can never hide a change for long,
    and ``linger`` lets that many frames through after each change.
    """

    def __init__(self, block: int = 16, threshold: float = 6.0, max_skip: int = 10, linger: int = 4) -> None:
        if not isinstance(block, int) or block < 1:
            raise ValueError(f"block must be a whole number of pixels >= 1, got {block!r}")
        if threshold <= 0:
            raise ValueError(f"threshold must be positive, got {threshold!r}")
        if not isinstance(max_skip, int) or max_skip < 0:
            raise ValueError(f"max_skip must be a whole number >= 0, got {max_skip!r}")
        if not isinstance(linger, int) or linger < 0:
            raise ValueError(f"linger must be a whole number >= 0, got {linger!r}")
        self.linger = linger
        self._lingering = 0
        self.block = block
        self.threshold = float(threshold)
        self.max_skip = max_skip
        self._reference: np.ndarray | None = None
        self._skipped = 0
        self.passed = 0
        self.skipped = 0

    def thumbnail(self, frame: np.ndarray) -> np.ndarray:
        """Block means of the frame's green channel (every second pixel each way), float32.

        Green alone and a quarter of the pixels keep this near a millisecond at 640x480
        while still averaging dozens of pixels per block.
        """
        if frame.ndim not in (2, 3):
            raise ValueError(f"frame must be HxW or HxWxC, got shape {frame.shape}")
        h, w = frame.shape[:2]
        b = self.block
        hh, ww = (h // b) * b, (w // b) * b
        if hh == 0 or ww == 0:
            raise ValueError(f"frame {w}x{h} is smaller than one {b}px block")
        step = 2 if b >= 4 and b % 2 == 0 else 1
        img = frame[:hh:step, :ww:step, 1] if frame.ndim == 3 and frame.shape[2] >= 2 else frame[:hh:step, :ww:step]
        if img.ndim == 3:
            img = img[:, :, 0]
        k = b // step
        sums = img.reshape(hh // b, k, ww // b, k).sum(axis=(1, 3), dtype=np.int32)
        return sums.astype(np.float32) / float(k * k)

    def changed(self, frame: np.ndarray) -> bool:
        """True if the recogniser should look at ``frame`` (it then becomes the reference)."""
        thumb = self.thumbnail(frame)
        ref = self._reference
        if ref is None or ref.shape != thumb.shape or self._skipped >= self.max_skip:
            return self._let_through(thumb)
        if float(np.abs(thumb - ref).max()) > self.threshold:
            self._lingering = self.linger
            return self._let_through(thumb)
        if self._lingering > 0:
            # Just after a change (a card laid, a hand withdrawn) keep looking for a few
            # frames: that is when the tracker decides, and several reads of the settled
            # card outvote one unlucky read.
            self._lingering -= 1
            return self._let_through(thumb)
        self._skipped += 1
        self.skipped += 1
        return False

    def _let_through(self, thumb: np.ndarray) -> bool:
        self._reference = thumb
        self._skipped = 0
        self.passed += 1
        return True
