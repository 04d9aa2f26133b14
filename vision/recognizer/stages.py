"""The recogniser's four networks as stage objects, each around one ONNX file.

``Recognizer`` (``vision.recognizer.runtime``) composes them: the detector finds outlines,
the refiner moves them onto the cards, the verifier judges them, the identifier names the
cards. Each stage reads the ``RecognizerSettings`` fields its docstring names; none keeps
anything between frames.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from pathlib import Path

import numpy as np
import onnxruntime as ort

from vision.recognizer.geometry import (
    CROP_H,
    CROP_W,
    DETECTOR_SIZE,
    Letterbox,
    letterbox,
    nms_quads,
    quad_lengths,
    scaled_input,
)
from vision.recognizer.probe import PROBE_LEAST, Probe, choose_length
from vision.recognizer.settings import RecognizerSettings


def onnx_session(
    path: Path,
    settings: RecognizerSettings,
    dims: dict[str, int] | None = None,
    *,
    patterns: bool = True,
) -> ort.InferenceSession:
    """One network on the CPU with ``threads`` threads, spinning only if ``spin``.

    ``dims`` fixes the file's named free dimensions (``{"height": 704, "width": 928}``), so
    onnxruntime plans the graph for that one shape (see ``DetectorStage.run``).
    ``patterns=False``: no memory plan kept per input shape, for a session fed many
    shapes (onnxruntime would keep one for each).
    """
    if not path.is_file():
        raise FileNotFoundError(f"model file not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = settings.threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if settings.spin else "0")
    opts.enable_mem_pattern = patterns
    for name, value in (dims or {}).items():
        opts.add_free_dimension_override_by_name(name, value)
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


def nchw(images: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) uint8 images as the networks' (N, 3, H, W) float32 input."""
    return np.ascontiguousarray(images.transpose(0, 3, 1, 2), dtype=np.float32)


class DetectorStage:
    """The class-agnostic card detector: a frame in, peaks and corners in its input's pixels.

    Reads ``card_input_px``, ``card_fraction``, ``max_input_side``, ``min_input_side`` and
    ``nms_iou``.
    """

    def __init__(self, path: Path, settings: RecognizerSettings) -> None:
        self.path = path
        self.settings = settings
        #: The session for any input size. It keeps no memory plan per shape: the length
        #: search feeds it six, and a steady shape gets a session of its own (``run``).
        self.session = onnx_session(path, settings, patterns=False)
        size = self.session.get_inputs()[0].shape[-1]
        #: A detector exported for one square size is fed the frame letterboxed into it; one
        #: that reads any size (``python -m vision.train detector-any-size``) is fed the frame
        #: scaled so its cards come out ``card_input_px`` long (``scale``).
        self.any_size = not isinstance(size, int)
        #: The square frames are letterboxed to for a fixed-size detector.
        self.size = size if isinstance(size, int) else DETECTOR_SIZE
        #: The input's named free dimensions (height, width), when it has both.
        dims = self.session.get_inputs()[0].shape[-2:]
        self._dims = tuple(dims) if all(isinstance(d, str) for d in dims) else None
        #: The session planned for the steady input shape (None until one is), and the
        #: shapes of the last steady reads.
        self._planned: tuple[tuple[int, int], ort.InferenceSession] | None = None
        self._recent: deque[tuple[int, int]] = deque(maxlen=self.PLAN_WINDOW)
        self.run(np.zeros((self.size, self.size, 3), np.uint8))  # the first real frame is not slowed by allocations

    #: A steady input shape gets a session planned for it once it was at least
    #: ``PLAN_SHARE`` of the last ``PLAN_WINDOW`` steady reads, and one such session is kept:
    #: a camera has one frame shape. Shapes that change from frame to frame (a card length
    #: searched on every frame, two cameras' recordings read by turns) get none: planning
    #: costs a few milliseconds and a slow first read, and each planned session holds the
    #: memory plan of its shape (tens of MB at the guide's mounting).
    PLAN_WINDOW = 8
    PLAN_SHARE = 0.75

    def run(self, image: np.ndarray, steady: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """One input image (H, W, 3) uint8 -> (peak (2, g, g), corners (8, g, g)) of the only image.

        ``steady``: a frame read at the mounting's scale, whose input shape stays the same
        from frame to frame (not a probe of the length search, which tries six). A shape
        read steadily (``PLAN_WINDOW``) runs on a session planned for it: the same outputs
        to the bit in about a tenth less time at the guide's mounting (models/README.md).
        """
        x = nchw(image[None])
        session = self.session
        if steady and self._dims is not None:
            shape = (int(image.shape[0]), int(image.shape[1]))
            self._recent.append(shape)
            planned = self._planned[1] if self._planned is not None and self._planned[0] == shape else None
            if planned is None and self._recent.count(shape) >= self.PLAN_SHARE * self.PLAN_WINDOW:
                self._planned = None  # the old plan's memory goes before the new one's comes
                planned = onnx_session(self.path, self.settings, dict(zip(self._dims, shape, strict=True)))
                self._planned = (shape, planned)
            if planned is not None:
                session = planned
        peak, corners = session.run(None, {"image": x})
        return peak[0], corners[0]

    def scale(self, frame_shape: tuple[int, ...], card_length: float | None = None) -> float:
        """The factor a frame is resized by for a detector that reads any size.

        ``card_length``: a card's long side in this frame's pixels, as the caller knows it
        (``vision.recognizer.scale.CardScale`` learns it from the sure cards of earlier
        frames); without it ``card_fraction`` of the short side. The result brings a card
        to ``card_input_px``, within the input size limits.
        """
        s = self.settings
        h, w = int(frame_shape[0]), int(frame_shape[1])
        length = (
            card_length
            if card_length is not None and np.isfinite(card_length) and card_length > 0
            else s.card_fraction * min(h, w)
        )
        scale = s.card_input_px / float(length)
        scale = min(scale, s.max_input_side / max(h, w))
        return max(scale, s.min_input_side / min(h, w))

    def input(self, frame: np.ndarray, card_length: float | None = None) -> tuple[np.ndarray, Letterbox]:
        """The detector's input for ``frame``: letterboxed to its square, or scaled (``scale``)."""
        if not self.any_size:
            return letterbox(frame, self.size)
        return scaled_input(frame, self.scale(frame.shape, card_length))

    #: Card lengths tried by ``find_card_length``, as fractions of the frame's short side,
    #: largest first: from a phone photo of one card filling it to a camera hung high over a
    #: big table. The largest is there for photos: a card 0.8 of the short side read at the
    #: next scale comes out near the band's top, peaks weakly, and a smaller "card" in the
    #: carpet or the print won.
    PROBE_FRACTIONS = (0.85, 0.55, 0.34, 0.2, 0.12, 0.07)

    def find_card_length(self, frame: np.ndarray, cover: Callable[[Probe], float] | None = None) -> float | None:
        """A card's long side in ``frame``'s pixels, found without knowing the mounting; None if no card is seen.

        The detector reads cards well over a band of sizes about ``card_input_px``; one far
        outside it is missed or outlined badly. So the frame is read at the scales that would
        bring a card of each ``PROBE_FRACTIONS`` length to that size, largest cards (smallest
        input) first, and ``vision.recognizer.probe.choose_length`` picks among them, reading
        finer scales only while it needs them. Largest first because a fine scale turns the
        weave of a carpet or the grain of wood into card-sized blobs, and coarse scales are
        cheap. The appliance asks this until it has learnt its mounting
        (``vision.recognizer.scale.CardScale``); a single photo asks it once. ``cover``:
        see ``choose_length``.
        """
        if not self.any_size:
            return None
        return choose_length((self.probe(frame, fraction) for fraction in self.PROBE_FRACTIONS), cover)

    def probe(self, frame: np.ndarray, fraction: float) -> Probe | None:
        """The cards inside the detector's band (0.6-1.6x ``card_input_px``) when ``frame`` is
        read for cards ``fraction`` of its short side; None when it has none peaking ``PROBE_LEAST``."""
        h, w = frame.shape[:2]
        target = self.settings.card_input_px
        img, lb = scaled_input(frame, self.scale(frame.shape, fraction * min(h, w)))
        peak, corners = self.run(img)
        heat = peak.max(axis=0)
        ys, xs = np.nonzero(heat >= PROBE_LEAST)
        if len(ys) == 0:
            return None
        quads = corners[:, ys, xs].T.reshape(-1, 4, 2)
        scores = heat[ys, xs]
        keep = nms_quads(quads, scores, self.settings.nms_iou)
        quads, scores = quads[keep], scores[keep]
        lengths = quad_lengths(quads)
        inside = (lengths >= 0.6 * target) & (lengths <= 1.6 * target)
        if not inside.any():
            return None
        return Probe(lb.to_frame(quads[inside]), scores[inside], lengths[inside] / lb.scale)


class CropNetwork:
    """The outline refiner or verifier: fixed-size crops about outlines in, one row per crop out."""

    def __init__(self, path: Path, settings: RecognizerSettings, height: int, width: int) -> None:
        self.path = path
        self.session = onnx_session(path, settings)
        self.run(np.zeros((1, height, width, 3), np.uint8))

    def run(self, crops: np.ndarray) -> np.ndarray:
        """Crops (N, H, W, 3) uint8 -> the network's output (N, ...)."""
        return np.asarray(self.session.run(None, {"crops": nchw(crops)})[0])


class IdentifierStage:
    """The card-identity embedder: upright crops in, unit embeddings, P(upside down) and its trunk's map out."""

    def __init__(self, path: Path, settings: RecognizerSettings) -> None:
        self.path = path
        self.session = onnx_session(path, settings)
        self.outputs = [o.name for o in self.session.get_outputs()]
        dim = self.session.get_outputs()[0].shape[1]
        #: Embedding size (None when the file leaves it open).
        self.dim: int | None = dim if isinstance(dim, int) else None
        self.run(np.zeros((1, CROP_H, CROP_W, 3), np.uint8), maps=False)

    def run(self, crops: np.ndarray, maps: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """(embeddings (N, D), P(upside down) (N,), map (N, ...) or None); ``maps=False`` leaves the map out."""
        out = self.session.run(None if maps else self.outputs[:2], {"crops": nchw(crops)})
        return out[0], out[1].reshape(-1), out[2] if len(out) > 2 else None
