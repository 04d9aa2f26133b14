"""Who leads the next round and who chose the contract: the engine says, the screens show.

001 points to «Austeilen, Schieben, Trumpf ansagen»: forehand (the seat after the
dealer) leads, the deal moves one seat on each round; after Schieben forehand's partner
chooses the contract. Speck 2.6.1: «Der Schreiber verteilt zum ersten Spiel aus.»
"""

from __future__ import annotations

import random

from scoring.events import Event, RoundStarted
from scoring.game import declarer_of, fold
from scoring.simulate import random_round
from tests.scoring.support import configured, round_events


def one_round(forehand: int, seed: int = 1) -> list[Event]:
    _, plays = random_round(random.Random(seed), "rosen", forehand)
    return round_events(plays, "rosen", forehand)


def test_the_next_round_is_led_by_the_seat_after_the_last_forehand() -> None:
    assert fold(configured()).next_forehand is None  # the first round: any seat
    state = fold(configured() + one_round(3))
    assert state.next_forehand == 0
    assert fold(configured() + one_round(3) + one_round(0)).to_dict()["next_forehand"] == 1


def test_a_round_left_unfinished_is_dealt_again_with_the_same_forehand() -> None:
    events = configured() + one_round(0) + one_round(1)[:12]
    assert fold(events).next_forehand == 1  # a new round now would abandon this one
    redeal = fold([*events, RoundStarted(forehand=1, contract="eicheln")])
    assert [f.code for f in redeal.flags] == ["round_abandoned"]
    wrong = fold([*events, RoundStarted(forehand=2, contract="eicheln")])
    assert [f.code for f in wrong.flags] == ["round_abandoned", "forehand_order"]


def test_after_schieben_the_partner_of_forehand_is_the_declarer() -> None:
    assert declarer_of(RoundStarted(forehand=1, contract="rosen", schoben=True)) == 3
    assert declarer_of(RoundStarted(forehand=1, contract="rosen")) == 1
    state = fold([*configured(), RoundStarted(forehand=2, contract="obenabe", schoben=True)])
    assert state.round is not None and state.round.declarer == 0
