"""Training chunks: written whole or not at all, and read back as one data set."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.train.data import load_chunks, save_chunk


def _chunk(folder: Path, name: str, images: int, cards_per_image: int) -> Path:
    imgs = [np.full((32, 32, 3), k, np.uint8) for k in range(images)]
    quads = [np.zeros((4, 2), np.float32) + k for k in range(images * cards_per_image)]
    owner = [k // cards_per_image for k in range(images * cards_per_image)]
    return save_chunk(
        folder / name,
        imgs,
        quads,
        [0] * len(quads),
        [1.0] * len(quads),
        owner,
        size=32,
        obj_known=np.ones(len(quads), np.int8),
    )


def test_two_chunks_read_as_one_set_with_each_card_on_its_own_image(tmp_path: Path) -> None:
    _chunk(tmp_path, "chunk-a.npz", images=2, cards_per_image=3)
    _chunk(tmp_path, "chunk-b.npz", images=3, cards_per_image=1)
    d = load_chunks(tmp_path)
    assert d["det_img"].shape == (5, 32, 32, 3)
    assert d["obj_img"].tolist() == [0, 0, 0, 1, 1, 1, 2, 3, 4]
    assert d["obj_quad"].shape == (9, 4, 2) and d["obj_known"].tolist() == [1] * 9


def test_a_chunk_leaves_no_temporary_file_and_an_empty_one_keeps_its_shape(tmp_path: Path) -> None:
    path = save_chunk(tmp_path / "chunk-empty.npz", [], [], [], [], [], size=64)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chunk-empty.npz"]
    with np.load(path) as z:
        assert z["det_img"].shape == (0, 64, 64, 3) and z["obj_quad"].shape == (0, 4, 2)


def test_a_chunk_cut_off_while_written_is_not_read(tmp_path: Path) -> None:
    _chunk(tmp_path, "chunk-a.npz", images=2, cards_per_image=1)
    (tmp_path / "chunk-b.tmp.npz").write_bytes(b"PK\x03\x04 half a zip")
    assert load_chunks(tmp_path)["det_img"].shape[0] == 2
