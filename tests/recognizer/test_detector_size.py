"""The runtime letterboxes frames to the square the detector file declares, not to a constant."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

from vision.recognizer import MODELS_DIR, Recognizer, RecognizerSettings
from vision.recognizer.geometry import quad_iou
from vision.recognizer.runtime import DETECTOR_FILE
from vision.synth.scene import render_scene


def _detector_for(size: int, shipped: Path, out: Path) -> None:
    """The shipped detector behind an input of ``size``: resized to the shipped network's own size first, its
    corners scaled back.

    A real network with another input size, made without torch: it takes a
    ``size``-square letterboxed frame and answers in that square's pixels.
    """
    m = onnx.load(str(shipped))
    # The shipped file reads any size; inside this one it reads the 320 square it was trained at.
    inner = m.graph.input[0].type.tensor_type.shape.dim[-1].dim_value or 320
    for node in m.graph.node:
        node.input[:] = ["inner_image" if i == "image" else i for i in node.input]
        node.output[:] = ["inner_corners" if o == "corners" else o for o in node.output]
    scale = inner / size
    m.graph.initializer.extend(
        [
            helper.make_tensor("resize_scales", TensorProto.FLOAT, [4], [1.0, 1.0, scale, scale]),
            helper.make_tensor("corner_scale", TensorProto.FLOAT, [], [1.0 / scale]),
        ]
    )
    m.graph.node.insert(0, helper.make_node("Resize", ["image", "", "resize_scales"], ["inner_image"], mode="linear"))
    m.graph.node.append(helper.make_node("Mul", ["inner_corners", "corner_scale"], ["corners"]))
    for i in (2, 3):
        dim = m.graph.input[0].type.tensor_type.shape.dim[i]
        dim.ClearField("dim_param")
        dim.dim_value = size
    onnx.save(m, str(out))


def test_a_detector_made_for_another_input_size_is_fed_that_size(tmp_path: Path) -> None:
    settings = RecognizerSettings(threads=1)
    folders = []
    for size in (320, 416):
        models = tmp_path / f"models-{size}"
        shutil.copytree(MODELS_DIR, models)
        _detector_for(size, MODELS_DIR / DETECTOR_FILE, models / DETECTOR_FILE)
        folders.append(models)
    shipped, other = Recognizer(folders[0], settings=settings), Recognizer(folders[1], settings=settings)
    assert not other.any_size and (shipped.detector_size, other.detector_size) == (320, 416)
    for seed in (20_100_000, 20_100_001):
        frame = render_scene(seed, style="clean").image
        a, b = shipped.recognize(frame), other.recognize(frame)
        assert len(a) >= 3 and len(b) == len(a)
        for d in a:  # each card found again in the same place (the refiner puts both on the card)
            best = max(quad_iou(np.array(d.corners), np.array(e.corners)) for e in b)
            assert best > 0.9
        assert sorted(d.card for d in a) == sorted(d.card for d in b)
