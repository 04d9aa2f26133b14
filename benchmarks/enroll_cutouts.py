"""Enrolment cut-outs: how well each card is cut out of a rendered phone photo, and how its light is evened.

``python -m benchmarks enroll_cutouts``. For each deck, 37 phone photos rendered by
``vision.synth.phone_photos`` (seed ``BENCH_CUTOUTS_SEED``, default 7 as in
``enroll_photos``; ``BENCH_CUTOUTS_PER_PHOTO`` cards a photo, default 1) are cut as
enrolment cuts them (``pictures_from_frame(photo=True)``: the detector's and the edge
finder's outlines moved to the card's edge, the light evened out). Reported per deck:

- cards missed, and the cut outlines' worst-corner error as a share of the card's length
  (median, 90th percentile, cards over 3 %: an end band or a court card's frame cut off);
- the light: each card cut at its true corners and evened (``even_light``), against its
  art, both scaled so that their paper is alike: the mean Lab difference after a slight
  blur (lower is better; the photo's print and paper differ from the art, so it is never 0).

No enrolment is made, so a deck takes seconds: it measures the cut-outs' share of what
``enroll_photos`` measures end to end. ``BENCH_CUTOUTS_DECKS`` picks decks.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from benchmarks import models_dir
from vision.recognizer import Recognizer, RecognizerSettings

DECKS = ("paris", "four-colour", "flat-swiss", "swiss-xvii")
#: An outline whose worst corner is this far off (share of the card's length) cut something off.
CUT_OFF = 0.03


def corner_error(quad: np.ndarray, truth: np.ndarray) -> float:
    """The worst corner's distance from the truth, either way up, as a share of the card's length."""
    from vision.enroll.cutout import upright

    length = float(np.linalg.norm(truth[0] - truth[3]))
    q, t = upright(quad), upright(truth)
    return min(float(np.abs(np.roll(q, r, axis=0) - t).max()) for r in (0, 2)) / length


def light_error(picture: np.ndarray, art: np.ndarray) -> float:
    """Mean Lab difference of two pictures (either way up), each scaled so that its paper is alike."""
    from vision.enroll.crops import flatten_alpha

    def lab(p: np.ndarray) -> np.ndarray:
        bgr = flatten_alpha(p, (128, 128, 128)).astype(np.float32)
        paper = np.quantile(bgr[20:-20, 12:-12].reshape(-1, 3), 0.95, axis=0)
        scaled = np.clip(bgr / np.maximum(paper, 1.0) * 245, 0, 255).astype(np.uint8)
        return np.asarray(cv2.GaussianBlur(cv2.cvtColor(scaled, cv2.COLOR_BGR2LAB).astype(np.float32), (0, 0), 2))

    a, b = lab(picture), lab(art)
    return min(float(np.abs(a - b).mean()), float(np.abs(a[::-1, ::-1] - b).mean()))


def measure(rec: Recognizer, deck: str, folder: Path, seed: int, per_photo: int) -> dict[str, Any]:
    from vision.enroll.cutout import even_light
    from vision.enroll.pictures import pictures_from_frame, rectify_picture
    from vision.synth.phone_photos import deck_art, write_photo_deck

    write_photo_deck(deck, folder, seed=seed, per_photo=per_photo)
    truth = json.loads((folder / "truth.json").read_text())
    arts = deck_art(deck)
    errors: list[float] = []
    missed: list[str] = []
    cut_off: list[str] = []
    light: list[float] = []
    for name, t in truth.items():
        img = cv2.imread(str(folder / name))
        if img is None:
            raise RuntimeError(f"{folder / name}: the rendered photo cannot be read")
        found = pictures_from_frame(img, rec, photo=True)
        for card, corners in zip(t["cards"], np.array(t["corners"], np.float32), strict=True):
            h, w = arts[card].shape[:2]
            whole = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]], np.float32)
            art = rectify_picture(arts[card], whole)
            light.append(light_error(even_light(rectify_picture(img, corners)), art))
            centre = corners.mean(axis=0)
            mine = [
                q
                for _, q in found
                if cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(centre[0]), float(centre[1])), False) >= 0
            ]
            if not mine:
                missed.append(card)
                continue
            errors.append(corner_error(mine[0], corners))
            if errors[-1] > CUT_OFF:
                cut_off.append(card)
    return {
        "cards": sum(len(t["cards"]) for t in truth.values()),
        "missed": missed,
        "corner_error_median": float(np.median(errors)) if errors else None,
        "corner_error_p90": float(np.quantile(errors, 0.9)) if errors else None,
        "cut_off": cut_off,
        "light_error_mean": float(np.mean(light)),
    }


def main() -> int:
    seed = int(os.environ.get("BENCH_CUTOUTS_SEED", "7"))
    per_photo = int(os.environ.get("BENCH_CUTOUTS_PER_PHOTO", "1"))
    decks = tuple(d for d in os.environ.get("BENCH_CUTOUTS_DECKS", ",".join(DECKS)).split(",") if d)
    rec = Recognizer(models_dir(), settings=RecognizerSettings(threads=2))
    result: dict[str, Any] = {"seed": seed, "per_photo": per_photo}
    with tempfile.TemporaryDirectory() as tmp:
        for deck in decks:
            r = measure(rec, deck, Path(tmp) / deck, seed, per_photo)
            result[deck] = r
            print(
                f"{deck:<15} cards {r['cards']} missed {len(r['missed'])} {r['missed']}; corner error median "
                f"{r['corner_error_median']:.4f} p90 {r['corner_error_p90']:.4f}; over {CUT_OFF:.0%}: "
                f"{len(r['cut_off'])} {r['cut_off']}; light error {r['light_error_mean']:.2f}",
                flush=True,
            )
    out = Path("out")
    out.mkdir(exist_ok=True)
    name = f"bench-enroll-cutouts-{'-'.join(decks)}-s{seed}-p{per_photo}.json"
    (out / name).write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
