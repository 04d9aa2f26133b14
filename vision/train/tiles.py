"""Detector training tiles from every mounting, each scaled as the runtime scales its frames.

The runtime brings a frame's cards to ``RecognizerSettings.card_input_px`` before the
detector reads it (``Recognizer.detector_scale``), whatever the camera. Training tiles are
made the same way: a scene is rendered at a mounting drawn from ``vision.synth.geometry``
(640 x 480 to 1920 x 1080, cards 7-35 % of the short side, Module 3 or Wide lens, tilted,
tricks laid close about the centre), scaled so its cards come out about that length
(jittered 0.7-1.45x, the error of a card length learnt from a few cards), and cut into a
``DETECTOR_SIZE`` square around a card or anywhere (padded grey where the frame ends).
Half the scenes are dealt with the Swiss training deck and its variants, a third with the
drawn French decks of ``vision.synth.train_decks``; paris and the benchmark decks never.

Chunks have ``vision.train.data``'s detector arrays (``det_img``, ``obj_*``), so
``python -m vision.train detector --data`` trains on them as on any other.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.recognizer.geometry import DETECTOR_SIZE, PAD_VALUE, resized
from vision.recognizer.scale import card_length
from vision.synth import train_decks
from vision.synth.geometry import guide_range, random_geometry
from vision.synth.scene import render_scene
from vision.train.data import save_chunk

#: The card length the tiles bring cards to (``RecognizerSettings.card_input_px``).
CARD_INPUT_PX = 64.0
FAMILIES = ("any", "guide")


@dataclass(frozen=True)
class TileJob:
    out: Path
    first_seed: int
    count: int
    family: str
    tiles_per_scene: int = 2


def _clipped_share(quad: np.ndarray, size: int) -> float:
    """Share of ``quad``'s area inside the tile [0, size)^2."""
    q = quad.astype(np.float32).reshape(-1, 1, 2)
    area = abs(cv2.contourArea(q))
    if area <= 0:
        return 0.0
    tile = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32).reshape(-1, 1, 2)
    inter, _ = cv2.intersectConvexConvex(q, tile)
    return float(inter) / area


def render_tiles(job: TileJob) -> Path:
    size = DETECTOR_SIZE
    imgs: list[np.ndarray] = []
    quads: list[np.ndarray] = []
    cls: list[int] = []
    vis: list[float] = []
    owner: list[int] = []
    for k in range(job.count):
        seed = job.first_seed + k
        rng = np.random.default_rng(seed + 5_003_000)
        geometry = random_geometry(rng) if job.family == "any" else guide_range(rng)
        style = "hard" if rng.random() < 0.2 else "mixed"
        if rng.random() < 0.35:
            scene = train_decks.render_scene(seed, style=style, geometry=geometry)
        else:
            scene = render_scene(seed, style=style, geometry=geometry)
        seen = [card_length(c.corners) for c in scene.cards if c.visible >= 0.5]
        if not seen:
            continue
        scale = CARD_INPUT_PX * float(rng.uniform(0.7, 1.45)) / float(np.median(seen))
        h, w = scene.image.shape[:2]
        nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
        big = resized(scene.image, nw, nh)
        sx, sy = nw / w, nh / h
        for _ in range(job.tiles_per_scene):
            if rng.random() < 0.75:  # about a card (most often the trick), else anywhere
                c = np.asarray(scene.cards[int(rng.integers(len(scene.cards)))].corners).mean(axis=0) * [sx, sy]
                x0 = int(c[0] - size / 2 + rng.uniform(-0.3, 0.3) * size)
                y0 = int(c[1] - size / 2 + rng.uniform(-0.3, 0.3) * size)
            else:
                x0 = int(rng.uniform(min(0, nw - size), max(0, nw - size) + 1))
                y0 = int(rng.uniform(min(0, nh - size), max(0, nh - size) + 1))
            x0 = int(np.clip(x0, min(0, nw - size), max(0, nw - size)))
            y0 = int(np.clip(y0, min(0, nh - size), max(0, nh - size)))
            tile = np.full((size, size, 3), PAD_VALUE, np.uint8)
            ax0, ay0, ax1, ay1 = max(0, x0), max(0, y0), min(nw, x0 + size), min(nh, y0 + size)
            tile[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0] = big[ay0:ay1, ax0:ax1]
            index = len(imgs)
            imgs.append(tile)
            for t in scene.cards:
                q = np.asarray(t.corners, np.float32) * [sx, sy] - [x0, y0]
                share = _clipped_share(q, size)
                if share <= 0:
                    continue
                quads.append(q.astype(np.float32))
                cls.append(1 if t.card == "back" else 0)
                vis.append(float(t.visible) * share)
                owner.append(index)
    return save_chunk(job.out / f"chunk-{job.first_seed:09d}.npz", imgs, quads, cls, vis, owner, size=size)


def render_tile_dataset(
    out: Path, first_seed: int, scenes: int, *, family: str = "any", chunk: int = 100, workers: int = 2
) -> None:
    """Render ``scenes`` scenes' tiles from ``first_seed`` on; chunks already on disk are kept (resumable)."""
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")
    jobs = [
        TileJob(out, s, min(chunk, first_seed + scenes - s), family)
        for s in range(first_seed, first_seed + scenes, chunk)
    ]
    todo = [j for j in jobs if not (out / f"chunk-{j.first_seed:09d}.npz").exists()]
    t0 = time.time()
    print(f"tiles: {len(jobs)} chunks, {len(jobs) - len(todo)} on disk", flush=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for n, path in enumerate(pool.map(render_tiles, todo), 1):
            print(f"tiles: {path.name} ({n}/{len(todo)}, {n * chunk / (time.time() - t0):.2f} scenes/s)", flush=True)


def is_held_out(photo: str) -> bool:
    """The fixed held-out split of the real photos: two in five, chosen by the file name's hash.

    Training never sees these; ``benchmarks/real_photos.py`` reports on them apart.
    """
    import hashlib

    return int(hashlib.sha1(Path(photo).stem.encode()).hexdigest(), 16) % 5 < 2


def render_real_tiles(folder: Path, out: Path, *, per_photo: int = 6, seed: int = 0) -> Path:
    """Tiles from the training split of labelled real photos (Pascal VOC boxes), scaled like the rest.

    A box gives a card's centre and size but not its corners, so these tiles teach the
    heatmap only (``obj_known`` 0: no corner target): where cards are on real carpet, cloth
    and wood under real light, and that the clutter there is no card.
    """
    import xml.etree.ElementTree as ET

    size = DETECTOR_SIZE
    rng = np.random.default_rng(seed)
    imgs: list[np.ndarray] = []
    quads: list[np.ndarray] = []
    cls: list[int] = []
    vis: list[float] = []
    owner: list[int] = []
    known: list[int] = []
    for xml in sorted(folder.glob("*.xml")):
        if is_held_out(xml.name):
            continue
        root = ET.parse(xml).getroot()
        image = cv2.imread(str(xml.parent / (root.findtext("filename") or "")))
        if image is None:
            continue
        boxes = np.array(
            [
                [float(o.findtext(f"bndbox/{k}") or 0) for k in ("xmin", "ymin", "xmax", "ymax")]
                for o in root.iter("object")
            ],
            np.float64,
        ).reshape(-1, 4)
        if not len(boxes):
            continue
        # The box of a card turned by up to 45 degrees is up to 1.3x its length; take the long side.
        length = float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))
        for _ in range(per_photo):
            scale = CARD_INPUT_PX * float(rng.uniform(0.65, 1.5)) / length
            h, w = image.shape[:2]
            nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
            big = resized(image, nw, nh)
            if rng.random() < 0.5:
                big = np.ascontiguousarray(big[:, ::-1])
                b = boxes.copy()
                b[:, [0, 2]] = w - boxes[:, [2, 0]]
            else:
                b = boxes
            b = b * [nw / w, nh / h, nw / w, nh / h]
            x0 = int(rng.uniform(min(0, nw - size), max(0, nw - size) + 1))
            y0 = int(rng.uniform(min(0, nh - size), max(0, nh - size) + 1))
            tile = np.full((size, size, 3), PAD_VALUE, np.uint8)
            ax0, ay0, ax1, ay1 = max(0, x0), max(0, y0), min(nw, x0 + size), min(nh, y0 + size)
            tile[ay0 - y0 : ay1 - y0, ax0 - x0 : ax1 - x0] = big[ay0:ay1, ax0:ax1]
            index = len(imgs)
            imgs.append(tile)
            for bx in b:
                q = np.array([[bx[0], bx[1]], [bx[2], bx[1]], [bx[2], bx[3]], [bx[0], bx[3]]], np.float32) - [x0, y0]
                share = _clipped_share(q, size)
                if share <= 0:
                    continue
                quads.append(q.astype(np.float32))
                cls.append(0)
                vis.append(share)
                owner.append(index)
                known.append(0)
    return save_chunk(out / "chunk-real-train.npz", imgs, quads, cls, vis, owner, obj_known=np.array(known, np.int8))
