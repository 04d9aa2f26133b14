"""The index-corner network trains on rendered corners and exports what the runtime reads.

Needs torch, which only training machines have: skipped where it is missing (CI).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")

from vision.recognizer.corners import NONE, CornerStage  # noqa: E402
from vision.recognizer.geometry import CROP_H, CROP_W  # noqa: E402
from vision.recognizer.settings import RecognizerSettings  # noqa: E402
from vision.train.corner_data import CornerJob, render_corner_chunk  # noqa: E402
from vision.train.corners import export, train  # noqa: E402


def test_a_short_training_exports_a_file_the_runtime_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    render_corner_chunk(CornerJob(tmp_path / "data", 5_200_000, 2))
    monkeypatch.chdir(tmp_path)
    train(tmp_path / "data", tmp_path / "data", epochs=1, batch=16, lr=1e-3, threads=1, resume=False, name="c")
    assert (tmp_path / "runs" / "c" / "best.pt").is_file()
    export("c", "best", tmp_path / "card-corners.onnx")
    stage = CornerStage(tmp_path / "card-corners.onnx", RecognizerSettings())
    crops = np.random.default_rng(1).integers(0, 255, (3, CROP_H, CROP_W, 3), dtype=np.uint8)
    probs = stage.run(crops)
    assert probs.shape == (3, 2, NONE + 1)
    assert np.allclose(probs.sum(axis=2), 1.0, atol=1e-5)
    assert stage.run(crops[:0]).shape == (0, 2, NONE + 1)
    assert os.path.getsize(tmp_path / "card-corners.onnx") < 1_000_000
