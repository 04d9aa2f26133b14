"""How the card length of a frame is chosen from the detector read at several scales.

Plain numbers stand for the detector's cards at each scale (``vision.recognizer.probe``),
so each rule is pinned on its own; ``test_scales.py`` checks the whole search on rendered
frames with the real detector.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from vision.recognizer.probe import Probe, choose_length, is_group, is_outlined_large, over_groups


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


# A trick of 90-px cards read at the scale for 190-px cards: the detector, sure of a card
# under its band, outlines it 117 px long; the next scale is sure of it at its own length.
# (The peaks and lengths of a rendered frame at the guide's mounting, seed 77,000,018.)
TOO_LARGE = probe((660, 560, 117, 0.83))
ITS_CARDS = probe((650, 580, 95, 0.93), (680, 540, 88, 0.86), (600, 540, 96, 0.85))
FINEST = probe((650, 580, 88, 0.9), (680, 540, 87, 0.86))


def test_a_card_a_finer_scale_is_sure_of_inside_a_longer_sure_outline_shows_it_outlined_too_large() -> None:
    assert is_outlined_large(TOO_LARGE, ITS_CARDS)
    assert not is_group(TOO_LARGE, probe((650, 580, 95, 0.93)))  # one card: no group


def test_a_sure_card_outlined_too_large_gives_way_to_the_length_the_finer_scale_is_sure_of() -> None:
    assert choose_length([None, TOO_LARGE, ITS_CARDS, FINEST]) == 95


def test_a_card_the_finer_scale_is_unsure_of_does_not_shorten_a_sure_outline() -> None:
    unsure = probe((650, 580, 88, 0.7))
    assert not is_outlined_large(TOO_LARGE, unsure)
    assert choose_length([TOO_LARGE, unsure, FINEST]) == 117


def test_a_sure_card_found_about_as_long_at_the_finer_scale_keeps_its_length() -> None:
    assert not is_outlined_large(probe((650, 580, 95, 0.93)), FINEST)
    assert choose_length([probe((650, 580, 95, 0.93)), FINEST]) == 95


def test_the_print_of_a_card_a_little_shorter_at_the_next_scale_does_not_shorten_it() -> None:
    # A rendered phone photo's card, 284 px long, outlined 263 px; its picture 223 px.
    whole, picture = probe((190, 220, 263, 0.79)), probe((176, 217, 223, 0.85))
    assert not is_outlined_large(whole, picture)
    assert choose_length([probe((273, 359, 262, 0.68)), whole, picture, None]) == 263


def test_a_sure_card_elsewhere_at_the_finer_scale_does_not_shorten_an_outline() -> None:
    assert not is_outlined_large(TOO_LARGE, probe((200, 150, 95, 0.93)))


def test_without_a_sure_card_the_largest_of_the_scales_peaking_alike_wins() -> None:
    whole = probe((300, 250, 300, 0.66))
    weave = probe((100, 100, 40, 0.7), (300, 300, 40, 0.7))
    assert choose_length([whole, weave]) == 300


def test_without_a_sure_card_weave_the_verifier_does_not_cover_gives_way_to_a_card_peaking_lower() -> None:
    whole = probe((300, 250, 300, 0.48))
    weave = probe((100, 100, 22, 0.62), (300, 300, 22, 0.46))
    assert choose_length([whole, weave]) == 22  # by the peaks alone
    covered = {id(whole): 0.7, id(weave): 0.34}
    assert choose_length([whole, weave], cover=lambda p: covered[id(p)]) == 300


def test_scales_the_verifier_covers_alike_still_compete_by_their_peaks() -> None:
    # A card with its shadow read at a coarse scale and the card's index corners at a
    # fine one, each covered over half: the verifier says nothing here, the peaks decide.
    shadow = probe((300, 250, 490, 0.57))
    card = probe((300, 250, 420, 0.56))
    corners = probe((200, 150, 110, 0.68), (400, 350, 110, 0.6))
    covered = {id(shadow): 0.72, id(card): 0.94, id(corners): 0.58}
    assert choose_length([shadow, card, corners], cover=lambda p: covered[id(p)]) == 110


def test_when_the_verifier_covers_no_scale_the_peaks_decide_among_them_all() -> None:
    whole = probe((300, 250, 300, 0.48))
    weave = probe((100, 100, 22, 0.62))
    assert choose_length([whole, weave], cover=lambda p: 0.3) == 22


def test_a_sure_card_asks_the_verifier_nothing() -> None:
    def cover(p: Probe) -> float:
        raise AssertionError("asked about a scale with a sure card")

    assert choose_length([FAN, PIPS], cover=cover) == 300


def test_without_a_sure_card_a_group_does_not_win_the_tie() -> None:
    fan = probe((300, 250, 300, 0.7))
    apart = probe((230, 250, 200, 0.68), (300, 250, 200, 0.65), (370, 250, 200, 0.62))
    assert choose_length([fan, apart]) == 200


def test_no_card_at_any_scale_gives_no_length() -> None:
    assert choose_length([None, None]) is None


# A photo read at two lengths (``over_groups``): outlines as (cx, cy, length), with the
# verifier's coverage of each.
ROW = np.stack([card(300, 250, 300)])
ROW_APART = np.stack([card(230, 250, 200), card(300, 250, 200), card(370, 250, 200)])


def test_an_outline_over_a_row_of_cards_covered_worse_than_they_are_gives_way_to_them() -> None:
    assert over_groups(ROW, np.array([0.6]), ROW_APART, np.array([0.95, 0.5, 0.7])).tolist() == [True]


def test_an_outline_covered_better_than_the_cards_found_inside_it_is_one_card() -> None:
    # One card whose pips the finer reading outlines as small cards: the card is covered best.
    assert over_groups(ROW, np.array([0.95]), ROW_APART, np.array([0.9, 0.5, 0.7])).tolist() == [False]


def test_the_print_of_one_card_read_as_tiny_cards_makes_no_group() -> None:
    tiny = np.stack([card(260, 200, 110), card(340, 300, 110)])
    assert over_groups(ROW, np.array([0.5]), tiny, np.array([0.99, 0.99])).tolist() == [False]


def test_one_card_found_inside_an_outline_makes_no_group() -> None:
    inside_and_beside = np.stack([card(300, 250, 200), card(700, 250, 200)])
    assert over_groups(ROW, np.array([0.5]), inside_and_beside, np.array([0.99, 0.99])).tolist() == [False]


def test_only_the_outline_over_the_row_gives_way() -> None:
    coarse = np.stack([card(300, 250, 300), card(900, 250, 300)])
    assert over_groups(coarse, np.array([0.6, 0.6]), ROW_APART, np.array([0.95, 0.9, 0.9])).tolist() == [True, False]


def test_no_outlines_at_either_reading_make_no_group() -> None:
    assert over_groups(np.zeros((0, 4, 2)), np.zeros(0), ROW_APART, np.ones(3)).tolist() == []
    assert over_groups(ROW, np.array([0.6]), np.zeros((0, 4, 2)), np.zeros(0)).tolist() == [False]
