"""The enrolled paris deck that the enrolment, deck and appliance tests share.

Enrolling a whole deck is the most expensive set-up of the suite (views, tables and the
detail head for 37 cards), and a dozen tests only read the result. So it is enrolled
once per test run (the session fixtures in ``tests/conftest.py``) and kept in pytest's
cache (``.pytest_cache``) under a key made of everything the enrolment reads: the
sources of ``scoring/`` and ``vision/``, the models, the deck's pictures, this file and
the versions of Python, numpy, OpenCV and onnxruntime. A change to any of them enrols
the deck afresh; ``pytest --cache-clear`` (or ``-p no:cacheprovider``) does too.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import platform
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from vision.enroll import DeckProfile
    from vision.recognizer import Recognizer

REPO = Path(__file__).resolve().parents[1]
PARIS = REPO / "vision" / "assets" / "decks" / "paris"
#: Few views keep the tests fast; the benchmark measures the default.
VIEWS = 12


def models_dir() -> Path:
    from vision.recognizer import MODELS_DIR

    return Path(os.environ.get("JASSCAM_MODELS") or MODELS_DIR)


def enrol_paris(recognizer: Recognizer) -> DeckProfile:
    """The whole paris deck, enrolled from its pictures."""
    from vision.enroll import Enroller, scan_folder

    scan = scan_folder(PARIS, recognizer)
    assert not scan.errors
    profile, report = Enroller(recognizer, views=VIEWS).build("Paris", scan.suits, scan.samples)
    assert report.ok, [i.message for i in report.issues]
    return profile


def enrol_paris_herz(recognizer: Recognizer, folder: Path) -> DeckProfile:
    """The paris deck's herz cards and back, enrolled as "Paris" from a copy in ``folder``."""
    from vision.enroll import Enroller, scan_folder

    for png in [*PARIS.glob("herz-*.png"), PARIS / "back.png"]:
        shutil.copy(png, folder / png.name)
    scan = scan_folder(folder, recognizer)
    assert not scan.errors
    profile, report = Enroller(recognizer, views=VIEWS).build("Paris", scan.suits, scan.samples)
    assert {i.kind for i in report.issues} == {"missing"}, [i.message for i in report.issues]
    return profile


def _inputs_key(name: str) -> str:
    import cv2
    import numpy as np
    import onnxruntime

    digest = hashlib.sha256()
    versions = (name, VIEWS, platform.python_version(), np.__version__, cv2.__version__, onnxruntime.__version__)
    digest.update(repr(versions).encode())
    roots = [REPO / "scoring", REPO / "vision", models_dir(), Path(__file__)]
    for root in roots:
        files = (
            sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
            if root.is_dir()
            else [root]
        )
        for path in files:
            digest.update(str(path.relative_to(root) if root.is_dir() else path.name).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def cached_profile(config: pytest.Config, name: str, build: Callable[[], DeckProfile]) -> DeckProfile:
    """``build()``'s profile, or the one an earlier run built from the very same inputs."""
    cache = getattr(config, "cache", None)
    if cache is None:  # -p no:cacheprovider
        return build()
    path = Path(cache.mkdir("enrolled-decks")) / f"{name}-{_inputs_key(name)}.pickle"
    if path.exists():
        try:
            with path.open("rb") as f:
                return pickle.load(f)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
            path.unlink(missing_ok=True)  # unreadable by this code: enrol again
    profile = build()
    for old in path.parent.glob("*.pickle"):
        if old.stem.rsplit("-", 1)[0] == name:  # this deck made from other inputs ("paris" is not "paris-herz")
            old.unlink(missing_ok=True)
    part = path.with_suffix(".part")
    with part.open("wb") as f:
        pickle.dump(profile, f, protocol=pickle.HIGHEST_PROTOCOL)
    part.replace(path)
    return profile
