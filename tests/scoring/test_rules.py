"""Card points, trick ranking, legal cards, seats: the card-level rules."""

from __future__ import annotations

import pytest

from scoring.cards import ALL_CARD_IDS, SUITS
from scoring.events import CONTRACTS
from scoring.multipliers import multiplier
from scoring.rules import (
    UnknownContractError,
    card_points,
    is_trump_contract,
    legal_cards,
    next_seat,
    partner_of,
    team_of,
    trick_points,
    trick_winner,
    trump_suit,
)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_deck_is_worth_152_in_every_contract(contract: str) -> None:
    assert sum(card_points(c, contract) for c in ALL_CARD_IDS) == 152


def test_trump_under_20_and_nine_14_plain_under_2_and_nine_0() -> None:
    assert card_points("rosen-under", "rosen") == 20
    assert card_points("rosen-9", "rosen") == 14
    assert card_points("eicheln-under", "rosen") == 2
    assert card_points("eicheln-9", "rosen") == 0
    assert [card_points(f"schellen-{r}", "eicheln") for r in ("ass", "koenig", "ober", "10", "8")] == [11, 4, 3, 10, 0]


def test_obenabe_eight_counts_8_and_no_under_or_nine_bonus() -> None:
    assert card_points("rosen-8", "obenabe") == 8
    assert card_points("rosen-ass", "obenabe") == 11
    assert card_points("rosen-under", "obenabe") == 2
    assert card_points("rosen-9", "obenabe") == 0
    assert card_points("rosen-6", "obenabe") == 0


def test_undenufe_six_counts_11_and_ass_nothing() -> None:
    assert card_points("schilten-6", "undenufe") == 11
    assert card_points("schilten-ass", "undenufe") == 0
    assert card_points("schilten-8", "undenufe") == 8


def test_trump_contracts_and_suits() -> None:
    assert all(is_trump_contract(s) and trump_suit(s) == s for s in SUITS)
    assert not is_trump_contract("obenabe") and trump_suit("undenufe") is None
    with pytest.raises(UnknownContractError, match="expected one of"):
        is_trump_contract("slalom")


def test_trump_ranking_under_nine_ass_koenig_ober_10_8_7_6() -> None:
    order = ["under", "9", "ass", "koenig", "ober", "10", "8", "7", "6"]
    for hi, lo in zip(order, order[1:], strict=False):
        assert trick_winner([f"rosen-{lo}", f"rosen-{hi}"], "rosen") == 1
        assert trick_winner([f"rosen-{hi}", f"rosen-{lo}"], "rosen") == 0


def test_lowest_trump_beats_plain_ass() -> None:
    assert trick_winner(["eicheln-ass", "eicheln-koenig", "rosen-6", "eicheln-10"], "rosen") == 2


def test_off_suit_discard_never_wins() -> None:
    assert trick_winner(["eicheln-6", "schellen-ass", "schilten-ass", "rosen-ass"], "obenabe") == 0


def test_undenufe_lowest_of_led_suit_wins() -> None:
    assert trick_winner(["eicheln-8", "eicheln-6", "eicheln-7", "schellen-6"], "undenufe") == 1


def test_obenabe_highest_of_led_suit_wins() -> None:
    assert trick_winner(["eicheln-8", "eicheln-ass", "eicheln-koenig", "schellen-ass"], "obenabe") == 1


def test_void_card_cannot_win() -> None:
    cards = ["eicheln-6", "rosen-under", "eicheln-ass", "eicheln-7"]
    assert trick_winner(cards, "rosen") == 1
    assert trick_winner(cards, "rosen", void=[False, True, False, False]) == 2


def test_last_trick_adds_five() -> None:
    cards = ["eicheln-ass", "eicheln-10", "eicheln-6", "eicheln-7"]
    assert trick_points(cards, "rosen") == 21
    assert trick_points(cards, "rosen", last=True) == 26


def test_must_follow_suit_but_may_trump() -> None:
    hand = ["eicheln-6", "eicheln-ass", "rosen-7", "schellen-ass"]
    assert legal_cards(hand, ["eicheln-10"], "rosen") == ["eicheln-6", "eicheln-ass", "rosen-7"]


def test_without_the_suit_anything_goes() -> None:
    hand = ["rosen-7", "schellen-ass"]
    assert legal_cards(hand, ["eicheln-10"], "rosen") == deck(hand)


def test_trump_under_alone_need_not_follow_trump() -> None:
    hand = ["rosen-under", "eicheln-6", "schellen-9"]
    assert legal_cards(hand, ["rosen-6"], "rosen") == deck(hand)


def test_trump_under_with_other_trumps_must_follow_trump() -> None:
    hand = ["rosen-under", "rosen-7", "eicheln-6"]
    assert legal_cards(hand, ["rosen-6"], "rosen") == ["rosen-7", "rosen-under"]


def test_no_undertrumping_after_trumped_plain_lead() -> None:
    hand = ["rosen-6", "rosen-9", "eicheln-7", "schellen-ass"]
    # Eicheln led, Rosen Ober trumped: Rosen 6 would undertrump, Rosen 9 overtrumps.
    assert legal_cards(hand, ["eicheln-10", "rosen-ober"], "rosen") == ["eicheln-7", "rosen-9"]
    assert legal_cards(["rosen-6", "schellen-ass"], ["eicheln-10", "rosen-ober"], "rosen") == ["schellen-ass"]


def test_undertrumping_allowed_with_only_trumps_in_hand() -> None:
    hand = ["rosen-6", "rosen-7"]
    assert legal_cards(hand, ["eicheln-10", "rosen-ober"], "rosen") == deck(hand)


def test_obenabe_follow_suit_only() -> None:
    hand = ["eicheln-6", "rosen-7"]
    assert legal_cards(hand, ["eicheln-ass"], "obenabe") == ["eicheln-6"]
    assert legal_cards(["rosen-7"], ["eicheln-ass"], "obenabe") == ["rosen-7"]


def test_lead_any_card() -> None:
    hand = ["eicheln-6", "rosen-under"]
    assert legal_cards(hand, [], "rosen") == deck(hand)


def test_seats_play_counter_clockwise_and_teams_are_opposite() -> None:
    assert [next_seat(s) for s in range(4)] == [1, 2, 3, 0]
    assert [team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    with pytest.raises(ValueError):
        next_seat(4)


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("default", [1, 1, 2, 2, 3, 4]),
        ("common", [1, 1, 2, 2, 3, 3]),
        ("ascending", [1, 2, 3, 4, 5, 6]),
    ],
)
def test_multiplier_tables(table: str, expected: list[int]) -> None:
    order = ["eicheln", "rosen", "schellen", "schilten", "obenabe", "undenufe"]
    assert [multiplier(c, table) for c in order] == expected


def test_custom_multiplier_table() -> None:
    custom = dict.fromkeys(CONTRACTS, 7)
    assert multiplier("obenabe", "custom", custom) == 7
    with pytest.raises(ValueError):
        multiplier("obenabe", "custom", None)


def deck(cards: list[str]) -> list[str]:
    return sorted(cards, key=ALL_CARD_IDS.index)


def test_legal_cards_come_in_deck_order_whatever_the_order_of_the_hand() -> None:
    hand = ["schellen-ass", "rosen-7", "eicheln-ass", "rosen-under", "eicheln-6"]
    for order in (hand, list(reversed(hand))):
        assert legal_cards(order, [], "rosen") == ["eicheln-6", "eicheln-ass", "rosen-7", "rosen-under", "schellen-ass"]
        assert legal_cards(order, ["eicheln-10"], "rosen") == ["eicheln-6", "eicheln-ass", "rosen-7", "rosen-under"]
