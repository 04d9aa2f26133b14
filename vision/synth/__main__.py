"""Write rendered scenes for inspection, a contact sheet, or measure throughput.

    python -m vision.synth samples --out DIR [--n 20] [--seed 0] [--style mixed] [--deck swiss-xvii]
    python -m vision.synth sheet --out docs/contact-sheet.jpg [--n 16 --seed 100 --truth-row --tile-width 320]
    python -m vision.synth bench [--n 50] [--size 640x480]

``samples`` writes ``<seed>.jpg`` plus ``<seed>.json`` (the scene's ground truth) per
scene and ``labels.jsonl`` with all of them; ``--overlay`` also draws the truth.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.synth.scene import STYLES, Scene, render_scene


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 640x480, got {text!r}") from None
    return w, h


def overlay(scene: Scene) -> np.ndarray:
    """The image with each card's quad, first corner (red dot), id and visible fraction."""
    img = scene.image.copy()
    for c in scene.cards:
        colour = (0, 255, 0) if c.face_up else (255, 160, 0)
        cv2.polylines(img, [np.round(c.corners).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
        cv2.circle(img, (round(float(c.corners[0, 0])), round(float(c.corners[0, 1]))), 3, (0, 0, 255), -1)
        x0, y0, _, _ = c.box
        cv2.putText(
            img,
            f"{c.card} {c.visible:.2f}",
            (round(x0), max(10, round(y0) - 2)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.33,
            (0, 255, 255),
            1,
            cv2.LINE_AA,
        )
    return img


def contact_sheet(
    scenes: list[Scene], cols: int = 4, with_overlay: bool = False, truth_row: bool = False, tile_width: int = 0
) -> np.ndarray:
    """Scenes in a grid; ``truth_row`` draws the ground truth on the last row's scenes."""
    n_last = len(scenes) - (len(scenes) - 1) // cols * cols
    tiles = [
        overlay(s) if with_overlay or (truth_row and i >= len(scenes) - n_last) else s.image
        for i, s in enumerate(scenes)
    ]
    if tile_width:
        tiles = [
            cv2.resize(t, (tile_width, round(t.shape[0] * tile_width / t.shape[1])), interpolation=cv2.INTER_AREA)
            for t in tiles
        ]
    h, w = tiles[0].shape[:2]
    rows = []
    for i in range(0, len(tiles), cols):
        row = tiles[i : i + cols]
        row += [np.zeros((h, w, 3), np.uint8)] * (cols - len(row))
        rows.append(np.hstack(row))
    return np.vstack(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.synth", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name in ("samples", "sheet", "bench"):
        p = sub.add_parser(name)
        p.add_argument("--n", type=int, default={"samples": 20, "sheet": 12, "bench": 50}[name])
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--style", choices=STYLES, default="mixed")
        p.add_argument("--deck", default="swiss-xvii")
        p.add_argument("--size", type=parse_size, default=(640, 480))
        if name != "bench":
            p.add_argument("--out", type=Path, required=True)
            p.add_argument("--overlay", action="store_true", help="draw the ground truth onto the images")
        if name == "sheet":
            p.add_argument("--truth-row", action="store_true", help="draw the ground truth on the last row")
            p.add_argument("--tile-width", type=int, default=0, help="scale each tile to this width")
    args = parser.parse_args(argv)
    w, h = args.size
    if args.cmd == "bench":
        cv2.setNumThreads(1)
        render_scene(args.seed, width=w, height=h, style=args.style, deck=args.deck)  # load art once
        t0, c0 = time.perf_counter(), time.process_time()
        for s in range(args.seed + 1, args.seed + 1 + args.n):
            render_scene(s, width=w, height=h, style=args.style, deck=args.deck)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(
            f"{args.n} scenes {w}x{h} style={args.style}: {dt / args.n * 1000:.1f} ms wall, "
            f"{cpu / args.n * 1000:.1f} ms CPU each; {args.n / dt:.1f} images/s wall, "
            f"{args.n / cpu:.1f} images/s per CPU-second (one thread)"
        )
        return 0
    scenes = [
        render_scene(s, width=w, height=h, style=args.style, deck=args.deck)
        for s in range(args.seed, args.seed + args.n)
    ]
    if args.cmd == "sheet":
        args.out.parent.mkdir(parents=True, exist_ok=True)
        sheet = contact_sheet(scenes, with_overlay=args.overlay, truth_row=args.truth_row, tile_width=args.tile_width)
        params = [cv2.IMWRITE_JPEG_QUALITY, 85] if args.out.suffix.lower() in (".jpg", ".jpeg") else []
        cv2.imwrite(str(args.out), sheet, params)
        print(f"wrote {args.out}")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "labels.jsonl", "w") as all_labels:
        for scene in scenes:
            img = overlay(scene) if args.overlay else scene.image
            cv2.imwrite(str(args.out / f"{scene.seed:06d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
            data = scene.to_json()
            (args.out / f"{scene.seed:06d}.json").write_text(json.dumps(data, indent=1))
            all_labels.write(json.dumps({"image": f"{scene.seed:06d}.jpg", **data}) + "\n")
    print(f"wrote {len(scenes)} scenes to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
