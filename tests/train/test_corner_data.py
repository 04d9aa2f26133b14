"""The index corners' training data: cut from rendered scenes, labelled by what shows."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.recognizer.corners import CLASSES, CORNER_H, CORNER_W, NONE
from vision.synth.scene import render_scene
from vision.train.corner_data import CornerJob, _geometry, render_corner_chunk


def test_a_chunk_labels_each_corner_with_a_card_of_its_scene_or_none(tmp_path: Path) -> None:
    seed, count = 5_100_000, 3
    path = render_corner_chunk(CornerJob(tmp_path, seed, count))
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left
    with np.load(path) as z:
        patches, labels = z["patch"], z["label"]
    assert patches.shape[1:] == (CORNER_H, CORNER_W, 3) and patches.dtype == np.uint8
    assert len(patches) == len(labels) > 0
    dealt = set()
    for k in range(count):
        rng = np.random.default_rng(seed + k + 5_303_000)
        style = "hard" if rng.random() < 0.2 else "mixed"
        scene = render_scene(seed + k, style=style, geometry=_geometry(rng))
        dealt |= {c.card for c in scene.cards if c.visible >= 0.2}
    named = {CLASSES[n] for n in labels if n != NONE}
    assert named and named <= dealt
    assert (labels == NONE).any()  # hidden corners and backs teach "no index"
