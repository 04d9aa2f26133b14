"""How the real-photo benchmark reads the photos' labelled boxes."""

from __future__ import annotations

import numpy as np

from benchmarks.real_photos import is_strip, matches


def test_a_whole_card_box_is_no_strip_upright_or_turned() -> None:
    assert not is_strip(np.array([10, 10, 73, 98]))  # upright French card, 63 x 88
    assert not is_strip(np.array([10, 10, 98, 73]))  # lying on its side
    assert not is_strip(np.array([0, 0, 107, 107]))  # turned by 45 degrees


def test_the_visible_strip_of_a_fanned_card_is_a_strip() -> None:
    assert is_strip(np.array([200, 40, 240, 260]))
    assert is_strip(np.array([0, 0, 300, 30]))


def test_a_whole_outline_of_a_covered_card_cannot_meet_its_strip() -> None:
    """Why strips are counted apart: the card's whole outline overlaps its strip too little."""
    strip = np.array([[60.0, 10.0, 90.0, 98.0]])
    whole = np.array([[27.0, 10.0, 90.0, 98.0]])
    assert matches(whole, strip) == []
    assert matches(strip, strip) == [(0, 0)]
