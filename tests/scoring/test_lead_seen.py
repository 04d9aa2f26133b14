"""A lead the camera saw laid by another seat than the rightful leader (``CardPlayed.seat_seen``).

Speck 2.8.3: «Spielt irrtümlich der falsche Spieler aus, egal ob im ersten Stich oder
später im Spiel, zieht er die Karte zurück.» A table that did not call the card back and
played the trick round from it played that trick from that lead. More often the lead was
right and the camera misread a card of the trick before, so the rules gave that trick to
the wrong seat. Either way the trick is kept as played, and the table sees the flag.
"""

from __future__ import annotations

import pytest

from scoring.events import CardPlayed, Event, EventError, GameConfigured, RoundStarted, dumps, loads, parse_event
from scoring.game import fold


def _trick(seen: bool, seats: tuple[int, int, int, int] = (1, 2, 3, 0)) -> list[Event]:
    # Obenabe, forehand 0. Led by seat 1 with the Schellen Ass it wins; put back in turn
    # order from seat 0, the Eicheln 7 leads and seat 0 wins with it.
    cards = {1: "schellen-ass", 2: "schellen-6", 3: "eicheln-6", 0: "eicheln-7"}
    plays: list[Event] = [CardPlayed(seat=s, card=cards[s], seat_seen=seen and i == 0) for i, s in enumerate(seats)]
    return [GameConfigured(), RoundStarted(forehand=0, contract="obenabe"), *plays]


def test_a_lead_seen_laid_by_another_seat_keeps_the_trick_as_the_table_played_it() -> None:
    state = fold(_trick(seen=True))
    trick = state.rounds[0].tricks[0]
    assert [(c.seat, c.card) for c in trick.cards] == [
        (1, "schellen-ass"),
        (2, "schellen-6"),
        (3, "eicheln-6"),
        (0, "eicheln-7"),
    ]
    assert (trick.leader, trick.winner) == (1, 1)
    assert state.to_play == 1  # the next trick is led by its winner
    # The table is told that seat 1 led where seat 0 was to: one flag, on the lead alone.
    assert [(f.code, f.seat, f.other) for f in state.flags] == [("out_of_turn", 1, 0)]


def test_the_same_trick_with_its_lead_not_seen_is_put_back_in_turn_order() -> None:
    # Without what the camera saw, a first card from the wrong seat is a lead seen late.
    trick = fold(_trick(seen=False)).rounds[0].tricks[0]
    assert (trick.leader, trick.winner) == (0, 0)
    assert [c.seat for c in trick.cards] == [0, 1, 2, 3]


def test_a_lead_seen_from_another_seat_that_the_table_did_not_play_round_from_is_put_back() -> None:
    # Seat 1 was seen leading, but seat 3 then laid before seat 2: no trick played round
    # from seat 1, so the turn order from the rightful leader decides.
    trick = fold(_trick(seen=True, seats=(1, 3, 2, 0))).rounds[0].tricks[0]
    assert (trick.leader, trick.winner) == (0, 0)


def test_seat_seen_is_written_only_when_set_and_read_back() -> None:
    plain = CardPlayed(seat=1, card="rosen-6")
    assert "seat_seen" not in dumps(plain)  # a log without it reads in a build that does not know it
    seen = CardPlayed(seat=1, card="rosen-6", seat_seen=True)
    assert loads(dumps(seen)) == seen


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_seat_seen_that_is_not_true_or_false_is_refused(value: object) -> None:
    with pytest.raises(EventError, match="seat_seen must be true or false"):
        parse_event({"type": "card_played", "seat": 1, "card": "rosen-6", "seat_seen": value})


def test_an_out_of_turn_flag_says_whether_the_card_led_its_trick() -> None:
    # The lead's flag is marked, so a screen can tell the table to check the trick before;
    # a follower's flag is not.
    lead = fold(_trick(seen=True)).flags
    follower = fold(
        [
            GameConfigured(),
            RoundStarted(forehand=0, contract="obenabe"),
            CardPlayed(seat=0, card="eicheln-7"),
            CardPlayed(seat=2, card="eicheln-6"),
        ]
    ).flags
    assert [(f.code, f.lead) for f in lead] == [("out_of_turn", True)]
    assert [(f.code, f.lead) for f in follower] == [("out_of_turn", None)]
