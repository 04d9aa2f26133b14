"""Card detection on real photographs this project did not make (../shared/real/handheld).

251 phone photos of a French deck on carpet, cloth and wood, tilted, overlapping, among
clutter, each card boxed (Pascal VOC). The detector's training saw three in five of them
(their boxes teach its heatmap where real cards lie, ``vision.train.tiles``); the fixed
held-out two in five (``vision.train.tiles.is_held_out``, 93 photos) never, and the
figures that count are theirs; the training split is printed beside them.
Class-agnostic: a detection counts when the axis-aligned box of its outline meets a
labelled box at IoU >= 0.5 (one to one, best pairs first). Each photo is read as a single
first frame (the card length found on it, ``Recognizer.find_card_length``), at full size
and shrunk so cards come out at the lengths a mounted camera gives. Recall and precision
per card-length bin (the box's long side in the photo as read).

``JASSCAM_REAL`` names another folder of ``*.xml`` + image pairs.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from benchmarks.scales import BINS, bin_name
from vision.recognizer.runtime import MODELS_DIR, Recognizer

REAL_DIR = Path(__file__).resolve().parents[2] / "shared" / "real" / "handheld"
#: Scales the photos are read at (1 = as taken).
SHRINK = (1.0, 0.5, 0.33)


def load_boxes(xml: Path) -> tuple[Path, np.ndarray]:
    root = ET.parse(xml).getroot()
    name = root.findtext("filename") or xml.with_suffix(".jpg").name
    image = xml.parent / name
    if not image.exists():
        image = next(
            (p for p in xml.parent.glob(xml.stem + ".*") if p.suffix.lower() in (".jpg", ".jpeg", ".png")), image
        )
    boxes = [
        [float(o.findtext(f"bndbox/{k}") or 0) for k in ("xmin", "ymin", "xmax", "ymax")] for o in root.iter("object")
    ]
    return image, np.array(boxes, np.float64).reshape(-1, 4)


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in ``a`` (N,4) with every box in ``b`` (M,4)."""
    x0 = np.maximum(a[:, None, 0], b[None, :, 0])
    y0 = np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 2], b[None, :, 2])
    y1 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = np.clip(x1 - x0, 0, None) * np.clip(y1 - y0, 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def matches(pred: np.ndarray, truth: np.ndarray, threshold: float = 0.5) -> list[tuple[int, int]]:
    """One-to-one (pred, truth) pairs at IoU >= ``threshold``, best first."""
    if len(pred) == 0 or len(truth) == 0:
        return []
    iou = box_iou(pred, truth)
    pairs, used_p, used_t = [], set(), set()
    for flat in np.argsort(-iou, axis=None):
        i, j = np.unravel_index(flat, iou.shape)
        if iou[i, j] < threshold:
            break
        if i in used_p or j in used_t:
            continue
        used_p.add(int(i))
        used_t.add(int(j))
        pairs.append((int(i), int(j)))
    return pairs


#: Not a bin: the labelled boxes that are strips (see ``is_strip``), counted apart.
STRIPS = "strips"


def is_strip(box: np.ndarray) -> bool:
    """A labelled box over 1.9 times as long as wide: the visible strip of a covered card.

    The photos' boxes bound what is visible: a card fanned under another is boxed as the
    strip that shows, while an outline (what the detector gives, the whole card, hidden
    part included) of it cannot meet that box at IoU 0.5. A whole card's box is at most
    about 1.6 times as long as wide (a French card is 88 x 63 mm, turned it is squarer).
    """
    w, h = float(box[2] - box[0]), float(box[3] - box[1])
    return max(w, h) > 1.9 * max(min(w, h), 1e-9)


def evaluate(rec: Recognizer, folder: Path, shrink: float, held_out: bool = True) -> dict[str, list[int]]:
    """Per bin: [labelled cards, found, detections, true detections], over the held-out photos (or the others)."""
    from vision.train.tiles import is_held_out

    out: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for xml in sorted(folder.glob("*.xml")):
        if is_held_out(xml.name) != held_out:
            continue
        path, truth = load_boxes(xml)
        image = cv2.imread(str(path))
        if image is None:
            continue
        if shrink != 1.0:
            image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
            truth = truth * shrink
        dets = rec.recognize(image, photo=True)
        pred = np.array([d.box for d in dets], np.float64).reshape(-1, 4)
        pairs = matches(pred, truth)
        found = {j for _, j in pairs}
        true_pred = {i for i, _ in pairs}
        for j, b in enumerate(truth):
            row = out[bin_name(max(b[2] - b[0], b[3] - b[1]))]
            row[0] += 1
            row[1] += j in found
            if is_strip(b):
                strips = out[STRIPS]
                strips[0] += 1
                strips[1] += j in found
        for i, b in enumerate(pred):
            row = out[bin_name(max(b[2] - b[0], b[3] - b[1]))]
            row[2] += 1
            row[3] += i in true_pred
    return out


def main() -> None:
    folder = Path(os.environ.get("JASSCAM_REAL", REAL_DIR))
    if not any(folder.glob("*.xml")):
        print(f"no labelled photos in {folder}: skipped")
        return
    models = Path(os.environ.get("JASSCAM_MODELS", MODELS_DIR))
    rec = Recognizer(models)
    print(f"{len(list(folder.glob('*.xml')))} photos in {folder}, models {models}")
    for shrink in SHRINK:
        rows = evaluate(rec, folder, shrink)
        strips = rows.pop(STRIPS, [0, 0, 0, 0])
        cards, found, dets, true = (sum(r[k] for r in rows.values()) for k in range(4))
        seen = evaluate(rec, folder, shrink, held_out=False)
        seen.pop(STRIPS, None)
        c2, f2, d2, t2 = (sum(r[k] for r in seen.values()) for k in range(4))
        print(
            f"held-out photos x{shrink:g}: cards {cards}  recall {found / max(cards, 1):.4f}  precision "
            f"{true / max(dets, 1):.4f}"
            f"   (training split: cards {c2}  recall {f2 / max(c2, 1):.4f}  precision {t2 / max(d2, 1):.4f})"
        )
        whole, whole_found = cards - strips[0], found - strips[1]
        print(
            f"   whole cards (boxes no strip of a covered card): {whole}  recall {whole_found / max(whole, 1):.4f}; "
            f"strips {strips[0]}  recall {strips[1] / max(strips[0], 1):.4f}"
        )
        for lo, _hi in BINS:
            b = bin_name(lo + 1)
            if b in rows:
                c, f, d, t = rows[b]
                print(
                    f"   {b:>8} px  cards {c:4d}  recall {f / max(c, 1):.4f}  detections {d:4d}  precision "
                    f"{t / max(d, 1):.4f}"
                )
