"""How the card length of a frame is chosen from the detector read at several scales.

Plain numbers stand for the detector's cards at each scale (``vision.recognizer.probe``),
so each rule is pinned on its own; ``test_scales.py`` checks the whole search on rendered
frames with the real detector.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from vision.recognizer.probe import Probe, choose_length, is_group


def card(cx: float, cy: float, length: float) -> np.ndarray:
    """An upright card's corners, centred at (cx, cy)."""
    w, h = 0.64 * length / 2, length / 2
    return np.array([[cx - w, cy - h], [cx + w, cy - h], [cx + w, cy + h], [cx - w, cy + h]], np.float32)


def probe(*cards: tuple[float, float, float, float]) -> Probe:
    """A scale's cards as (cx, cy, length, peak)."""
    return Probe(
        np.stack([card(x, y, n) for x, y, n, _ in cards]),
        np.array([p for *_, p in cards], np.float32),
        np.array([n for _, _, n, _ in cards], np.float32),
    )


# Three cards fanned side by side, 200 px long: a coarse scale sees one blob 300 px long.
FAN = probe((300, 250, 300, 0.82))
FAN_APART = probe((230, 250, 200, 0.8), (300, 250, 200, 0.78), (370, 250, 200, 0.75))
# One card 300 px long whose pips, at a finer scale, look like small cards.
PIPS = probe((260, 200, 110, 0.8), (340, 300, 110, 0.8))


def test_an_outline_over_cards_that_a_finer_scale_finds_apart_is_a_group() -> None:
    assert is_group(FAN, FAN_APART)


def test_the_print_of_one_card_seen_as_small_blobs_is_no_group() -> None:
    assert not is_group(FAN, PIPS)


def test_one_card_found_inside_an_outline_is_no_group() -> None:
    assert not is_group(FAN, probe((300, 250, 200, 0.8), (600, 250, 200, 0.8)))


def test_weak_cards_at_the_finer_scale_do_not_make_a_group() -> None:
    assert not is_group(FAN, probe((230, 250, 200, 0.5), (300, 250, 200, 0.5)))


def test_a_sure_scale_whose_best_card_is_a_fan_gives_way_to_the_cards_of_the_fan() -> None:
    assert choose_length([FAN, FAN_APART, None]) == 200


def test_a_sure_scale_that_the_next_does_not_split_wins_at_once() -> None:
    def probes() -> Iterator[Probe | None]:  # the search must not read finer scales than it needs
        yield FAN
        yield PIPS
        raise AssertionError("read a scale it did not need")

    assert choose_length(probes()) == 300


def test_without_a_sure_card_the_largest_of_the_scales_peaking_alike_wins() -> None:
    whole = probe((300, 250, 300, 0.66))
    weave = probe((100, 100, 40, 0.7), (300, 300, 40, 0.7))
    assert choose_length([whole, weave]) == 300


def test_without_a_sure_card_a_group_does_not_win_the_tie() -> None:
    fan = probe((300, 250, 300, 0.7))
    apart = probe((230, 250, 200, 0.68), (300, 250, 200, 0.65), (370, 250, 200, 0.62))
    assert choose_length([fan, apart]) == 200


def test_no_card_at_any_scale_gives_no_length() -> None:
    assert choose_length([None, None]) is None
