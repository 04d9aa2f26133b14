"""Training data of the index-corner network (``vision.recognizer.corners``), rendered.

Scenes are rendered at the mountings of ``vision.synth.geometry`` (seven in ten around
the guide's, the rest any mounting), the tricks laid as players lay them, with the Swiss
training deck and its procedural variants. Each card at least a fifth visible is cut as
the identifier cuts it, at a jittered outline (a detector's outline is a few pixels off),
and both its index corners are kept, labelled with the card where at least ``SHOWN`` of
the corner's index area is the card's own (the scene's label map, warped with the crop),
"none" where at most ``HIDDEN`` is (a card or a hand over it), and left out between.
Backs give "none" corners. No torch here: the data renders on any machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from vision.recognizer.corners import CLASSES, CORNER_H, CORNER_W, NONE, corner_patches
from vision.recognizer.geometry import rectify
from vision.synth.geometry import Geometry, guide_range, random_geometry
from vision.synth.scene import render_scene
from vision.train.data import jitter_quad

#: A corner whose index area is this much the card's own is labelled with the card ...
SHOWN = 0.85
#: ... one this little is labelled "none"; between, it is left out.
HIDDEN = 0.35
#: Jittered crops per card.
CUTS = 2
#: The part of a corner patch the index lies in (rows, columns), whose share decides.
CORE = (slice(2, 24), slice(1, 16))


@dataclass(frozen=True)
class CornerJob:
    out: Path
    first_seed: int
    count: int
    jitter: float = 0.035


def _geometry(rng: np.random.Generator) -> Geometry:
    return guide_range(rng) if rng.random() < 0.7 else random_geometry(rng)


def render_corner_chunk(job: CornerJob) -> Path:
    """Render ``job.count`` scenes and save their corner patches and labels to one npz
    (written whole or not at all: a temporary file renamed)."""
    patches: list[np.ndarray] = []
    labels: list[int] = []
    for k in range(job.count):
        seed = job.first_seed + k
        rng = np.random.default_rng(seed + 5_303_000)
        style = "hard" if rng.random() < 0.2 else "mixed"
        scene = render_scene(seed, style=style, geometry=_geometry(rng))
        for i, c in enumerate(scene.cards):
            if c.visible < 0.2:
                continue
            own_map = (scene.mask == scene.label_of(i)).astype(np.uint8) * 255
            for _ in range(CUTS):
                quad = jitter_quad(np.asarray(c.corners), rng, job.jitter * float(rng.uniform(0.3, 1.3)))
                pieces = corner_patches(rectify(scene.image, quad)[None])
                owns = corner_patches(rectify(own_map, quad, labels=True)[None, :, :, None])[..., 0]
                for patch, mine in zip(pieces, owns, strict=True):
                    share = float((mine[CORE] > 0).mean())
                    if c.card == "back" or share <= HIDDEN:
                        label = NONE
                    elif share >= SHOWN:
                        label = CLASSES.index(c.card)
                    else:
                        continue
                    patches.append(patch)
                    labels.append(label)
    path = job.out / f"corners-{job.first_seed:09d}.npz"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(
        tmp,
        patch=np.stack(patches) if patches else np.zeros((0, CORNER_H, CORNER_W, 3), np.uint8),
        label=np.array(labels, np.int16),
    )
    tmp.replace(path)
    return path


def render(out: Path, first_seed: int, scenes: int, chunk: int = 100, workers: int = 2) -> None:
    """Render ``scenes`` scenes from ``first_seed`` in chunks (a chunk already there is kept)."""
    jobs = [
        CornerJob(out, s, min(chunk, first_seed + scenes - s))
        for s in range(first_seed, first_seed + scenes, chunk)
        if not (out / f"corners-{s:09d}.npz").exists()
    ]
    t0 = time.time()
    with Pool(workers) as pool:
        for n, path in enumerate(pool.imap_unordered(render_corner_chunk, jobs), 1):
            print(f"{time.strftime('%H:%M:%S')} {path.name} ({n}/{len(jobs)}, {time.time() - t0:.0f} s)", flush=True)
