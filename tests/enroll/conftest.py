"""Fixtures for enrolment: the real shipped ONNX models, real card art, real files on disk.

The recogniser and the enrolled paris decks (``recognizer``, ``paris_profile``,
``paris_suit_profile``) are session fixtures in ``tests/conftest.py``, shared with the
appliance tests.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.decks import PARIS, VIEWS, models_dir  # noqa: F401  (the enrolment tests import them from here)
from tests.web.conftest import phone  # noqa: F401  (Debian's Chromium through Playwright, for the page test)
from vision.enroll import DeckProfile, Enroller, scan_folder
from vision.recognizer import Recognizer


@pytest.fixture
def paris_folder(tmp_path: Path) -> Path:
    """A copy of the paris deck's card PNGs, as a user's folder of scans."""
    folder = tmp_path / "paris-scans"
    folder.mkdir()
    for png in PARIS.glob("*.png"):
        shutil.copy(png, folder / png.name)
    return folder


def enrol_flat(
    folder: Path,
    recognizer: Recognizer,
    cards: set[str] | tuple[str, ...],
    progress: Callable[[float, str], None] | None = None,
) -> DeckProfile:
    """``cards`` of the flat benchmark deck (coloured bands at both short ends, court cards in an inner frame),
    written as PNGs into ``folder`` and enrolled from there."""
    from vision.synth.other_decks import write_deck

    write_deck("flat-swiss", str(folder))
    for png in folder.glob("*.png"):
        if png.stem not in cards:
            png.unlink()
    scan = scan_folder(folder, recognizer)
    profile, _ = Enroller(recognizer, views=VIEWS).build("Flat", scan.suits, scan.samples, progress)
    return profile


def table_photo(cards: list[str], deck_dir: Path = PARIS, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """A plain overhead photo: ``cards`` (file stems) side by side on green cloth, slightly turned."""
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = (40, 100, 35)
    card_h = 150.0
    card_w = card_h * 316 / 492
    gap = (w - len(cards) * card_w) / (len(cards) + 1)
    rng = np.random.default_rng(3)
    for k, stem in enumerate(cards):
        art = cv2.imread(str(deck_dir / f"{stem}.png"), cv2.IMREAD_UNCHANGED)
        assert art is not None, stem
        ah, aw = art.shape[:2]
        cx, cy = gap + card_w / 2 + k * (card_w + gap), h / 2
        a = np.deg2rad(rng.uniform(-8, 8))
        c, s = np.cos(a), np.sin(a)
        corners = np.array(
            [[-card_w / 2, -card_h / 2], [card_w / 2, -card_h / 2], [card_w / 2, card_h / 2], [-card_w / 2, card_h / 2]]
        )
        dst = (corners @ np.array([[c, s], [-s, c]]) + [cx, cy]).astype(np.float32)
        src = np.array([[0, 0], [aw, 0], [aw, ah], [0, ah]], np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(art, m, (w, h), flags=cv2.INTER_AREA)
        alpha = warped[..., 3:4].astype(np.float32) / 255
        img = (img * (1 - alpha) + warped[..., :3] * alpha).astype(np.uint8)
    return cv2.GaussianBlur(img, (0, 0), 0.7)
