"""The benchmark's rendered out-of-turn play: one card laid before its turn, which the rules flag alone."""

from __future__ import annotations

from scoring.events import CardPlayed
from scoring.game import fold
from tests.tracker.oracle import plant_out_of_turn
from vision.synth.game import simulate_game


def test_a_planted_card_out_of_turn_is_the_one_card_the_rules_flag() -> None:
    events = simulate_game(5020103)
    planted, (seat, card) = plant_out_of_turn(events, 3)
    assert sorted(map(repr, planted)) == sorted(map(repr, events))  # the same events, two swapped
    flags = [f for f in fold(planted).flags if f.code == "out_of_turn"]
    assert [(f.seat, f.cards) for f in flags] == [(seat, (card,))]
    ref = flags[0].ref
    assert ref is not None
    laid = planted[ref]
    assert isinstance(laid, CardPlayed) and laid.card == card
    assert fold(planted).totals == fold(events).totals  # the trick, laid in turn again by the rules, scores the same
