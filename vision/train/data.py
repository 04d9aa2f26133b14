"""Render training data to disk ahead of training, so rendering never competes with it.

Each chunk file ``<out>/chunk-<first seed>.npz`` holds, for a run of scene seeds:

* detector inputs: the scene letterboxed to 320x320 (``det_img``) and, per card, its
  corners in input pixels, face/back class and visible fraction (``obj_*``);
* identifier inputs: upright crops rectified from the full-resolution scene through the
  ground-truth corners jittered like a detector's error (``crop_img``, ``crop_label``,
  ``crop_vis``), so the identifier trains independently of the detector.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.recognizer.geometry import DETECTOR_SIZE, letterbox, rectify
from vision.train.labels import LABELS

LABEL_INDEX = {lab: i for i, lab in enumerate(LABELS)}
#: Cards less visible than this are not cut out for the identifier.
CROP_MIN_VISIBLE = 0.5
#: Crops per card, each with its own corner jitter.
CROPS_PER_CARD = 2


@dataclass(frozen=True)
class RenderJob:
    out: Path
    first_seed: int
    count: int
    width: int
    height: int
    style: str
    decks: tuple[str, ...]
    renderer: str
    jitter: float = 0.035
    det_size: int = DETECTOR_SIZE
    crops: bool = True


def load_renderer(spec: str) -> Callable[..., Any]:
    mod, _, fn = spec.partition(":")
    return getattr(importlib.import_module(mod), fn or "render_scene")


def jitter_quad(quad: np.ndarray, rng: np.random.Generator, amount: float = 0.035) -> np.ndarray:
    """Perturb a card quad like an imperfect detector: per-corner noise plus a shared shift and scale."""
    q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    side = float(min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])))
    centre = q.mean(axis=0)
    scale = 1.0 + rng.normal(0.0, amount)
    shift = rng.normal(0.0, amount * side, 2)
    noise = rng.normal(0.0, amount * side, (4, 2))
    return ((q - centre) * scale + centre + shift + noise).astype(np.float32)


def _is_plain(style: Any, deck: str) -> bool:
    """True when the renderer drew the deck's own art (no procedural variant): used for its prototypes."""
    if style is None:
        return True
    return bool(
        style.hue_shift == 0
        and style.saturation == 1.0
        and style.contrast == 1.0
        and style.gamma == 1.0
        and style.paper == (255, 255, 255)
        and style.corner_radius < 0
        and style.art_scale == 1.0
        and style.frame == 0
        and not style.double_headed
        and style.indices == 0
        and not style.redrawn_pips
    )


def render_chunk(job: RenderJob) -> Path:
    render = load_renderer(job.renderer)
    det_img, obj_quad, obj_cls, obj_vis, obj_img = [], [], [], [], []
    crop_img, crop_label, crop_vis, crop_deck, crop_sym = [], [], [], [], []
    for k in range(job.count):
        seed = job.first_seed + k
        rng = np.random.default_rng(seed + 7_919_000)
        deck = job.decks[int(rng.integers(len(job.decks)))]
        scene = render(seed, width=job.width, height=job.height, style=job.style, deck=deck)
        img, lb = letterbox(scene.image, job.det_size)
        deck_name = deck if _is_plain(getattr(scene, "deck_style", None), deck) else f"{deck}~variant"
        det_img.append(img)
        for c in scene.cards:
            corners = np.asarray(c.corners, dtype=np.float32).reshape(4, 2)
            obj_quad.append(lb.to_input(corners))
            obj_cls.append(1 if c.card == "back" else 0)
            obj_vis.append(float(c.visible))
            obj_img.append(k)
            if job.crops and c.visible >= CROP_MIN_VISIBLE:
                for _ in range(CROPS_PER_CARD):
                    amount = job.jitter * float(rng.uniform(0.3, 1.3))
                    crop_img.append(rectify(scene.image, jitter_quad(corners, rng, amount)))
                    crop_label.append(LABEL_INDEX[c.card])
                    crop_vis.append(float(c.visible))
                    crop_deck.append(deck_name)
                    crop_sym.append(bool(getattr(c, "symmetric", c.card == "back")))
    return save_chunk(
        job.out / f"chunk-{job.first_seed:09d}.npz",
        det_img,
        obj_quad,
        obj_cls,
        obj_vis,
        obj_img,
        crop_img=np.stack(crop_img) if crop_img else np.zeros((0, 96, 64, 3), np.uint8),
        crop_label=np.array(crop_label, np.int16),
        crop_vis=np.array(crop_vis, np.float32),
        crop_deck=np.array(crop_deck, dtype="U32"),
        crop_sym=np.array(crop_sym, bool),
    )


def save_chunk(
    path: Path,
    images: list[np.ndarray],
    quads: list[np.ndarray],
    cls: list[int],
    vis: list[float],
    owner: list[int],
    *,
    size: int = 320,
    **more: np.ndarray,
) -> Path:
    """One chunk of detector inputs and their cards (``obj_*``, ``obj_img`` naming each card's
    image), plus ``more`` arrays, written whole or not at all (a temporary file renamed):
    a render stopped halfway leaves no chunk that ``load_chunks`` would half read."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    arrays: dict[str, np.ndarray] = {
        "det_img": np.stack(images) if images else np.zeros((0, size, size, 3), np.uint8),
        "obj_quad": np.array(quads, np.float32).reshape(-1, 4, 2),
        "obj_cls": np.array(cls, np.int8),
        "obj_vis": np.array(vis, np.float32),
        "obj_img": np.array(owner, np.int32),
        **more,
    }
    np.savez(tmp, **arrays)  # type: ignore[arg-type]  # numpy's stub types the keywords as its own flags
    tmp.rename(path)
    return path


def render_dataset(
    out: Path,
    first_seed: int,
    scenes: int,
    *,
    chunk: int = 200,
    workers: int = 2,
    width: int = 640,
    height: int = 480,
    style: str = "mixed",
    decks: tuple[str, ...] = ("swiss-xvii",),
    renderer: str = "vision.synth.scene:render_scene",
    jitter: float = 0.035,
    det_size: int = DETECTOR_SIZE,
    crops: bool = True,
) -> list[Path]:
    """Render ``scenes`` scenes from ``first_seed`` on in ``workers`` processes; skip chunks already on disk.

    ``det_size``: the square the detector's input is letterboxed to; ``crops=False`` leaves
    the identifier's crops out (a detector-only data set, a third of the disk).
    """
    out.mkdir(parents=True, exist_ok=True)
    jobs = [
        RenderJob(
            out, s, min(chunk, first_seed + scenes - s), width, height, style, decks, renderer, jitter, det_size, crops
        )
        for s in range(first_seed, first_seed + scenes, chunk)
    ]
    todo = [j for j in jobs if not (out / f"chunk-{j.first_seed:09d}.npz").exists()]
    t0 = time.time()
    done = len(jobs) - len(todo)
    print(f"render: {len(jobs)} chunks of {chunk} scenes, {done} already on disk", flush=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for path in pool.map(render_chunk, todo):
            done += 1
            rate = (done - (len(jobs) - len(todo))) * chunk / max(time.time() - t0, 1e-6)
            print(f"render: {done}/{len(jobs)} chunks ({path.name}), {rate:.1f} scenes/s", flush=True)
    return sorted(out.glob("chunk-*.npz"))


def load_chunks(folder: Path, prefix: str = "") -> dict[str, np.ndarray]:
    """Concatenate every chunk in ``folder`` (object image indices made global); ``a,b`` joins folders.

    ``prefix`` loads only the arrays whose name starts with it: the identifier needs the
    crops, and the scenes beside them would double its memory (15,000 scenes are 4.6 GB).
    """
    # A ``.tmp.npz`` is a chunk whose writing was cut off (``save_chunk``), never a chunk.
    files = sorted(
        f for part in str(folder).split(",") for f in Path(part).glob("chunk-*.npz") if not f.name.endswith(".tmp.npz")
    )
    if not files:
        raise FileNotFoundError(f"no chunk-*.npz in {folder}; run `python -m vision.train render` first")
    parts: dict[str, list[np.ndarray]] = {}
    offset = 0
    for f in files:
        with np.load(f) as z:
            for key in z.files:
                if not key.startswith(prefix):
                    continue
                arr = z[key] + offset if key == "obj_img" else z[key]
                parts.setdefault(key, []).append(arr)
            if "obj_known".startswith(prefix) and "obj_quad" in z.files and "obj_known" not in z.files:
                # Rendered cards' corners are known; only real photos' boxes lack them.
                parts.setdefault("obj_known", []).append(np.ones(len(z["obj_quad"]), np.int8))
            if "obj_img".startswith(prefix) and "det_img" in z.files:
                offset += len(z["det_img"])
    return {k: np.concatenate(v) for k, v in parts.items()}
