"""Benchmarks behind ``make bench``: they print numbers; the tests check behaviour."""

from __future__ import annotations

import os
from pathlib import Path


def models_dir() -> Path:
    """The models a benchmark measures: ``JASSCAM_MODELS=DIR`` if set, else the shipped ones.

    Why: a candidate model is judged by the same benchmark before it replaces the shipped
    one, without copying it over ``models/``.
    """
    from vision.recognizer import MODELS_DIR

    return Path(os.environ.get("JASSCAM_MODELS") or MODELS_DIR)
