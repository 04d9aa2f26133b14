"""python -m vision.synth samples/sheet: files a person (or another tool) can inspect."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from vision.synth.__main__ import main
from vision.synth.scene import render_scene


def test_samples_writes_images_and_their_ground_truth(tmp_path: Path) -> None:
    assert main(["samples", "--out", str(tmp_path), "--n", "3", "--seed", "40", "--size", "128x96"]) == 0
    lines = (tmp_path / "labels.jsonl").read_text().splitlines()
    assert len(lines) == 3
    for line in lines:
        entry = json.loads(line)
        img = cv2.imread(str(tmp_path / entry["image"]))
        assert img is not None and img.shape == (96, 128, 3)
        expected = render_scene(entry["seed"], width=128, height=96)
        assert [c["card"] for c in entry["cards"]] == [c.card for c in expected.cards]
        assert json.loads((tmp_path / entry["image"].replace(".jpg", ".json")).read_text())["cards"] == entry["cards"]


def test_sheet_tiles_scenes_into_one_image(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    assert main(["sheet", "--out", str(out), "--n", "6", "--size", "128x96", "--truth-row"]) == 0
    sheet = cv2.imread(str(out))
    assert sheet is not None and sheet.shape == (2 * 96, 4 * 128, 3)
