"""A card's seat is whose turn it is; where it lies and where the hand came from are
evidence only, and only clear evidence says a card was laid out of turn."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.events import CardPlayed, Event, GameConfigured, RoundStarted
from scoring.game import GameState, fold
from tests.tracker.table import CENTRE, EDGE, Table, run
from vision.tracker.reread import resolve_rereads
from vision.tracker.tracker import TrackerEvent

TRICK = [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-10")]  # rosen led, trump eicheln


def near(dx: float, dy: float) -> tuple[float, float]:
    return (CENTRE[0] + dx, CENTRE[1] + dy)


def folded(events: Sequence[TrackerEvent], forehand: int = 0, contract: str = "eicheln") -> GameState:
    head: list[Event] = [GameConfigured(), RoundStarted(forehand=forehand, contract=contract)]
    return fold([*head, *resolve_rereads(events, before=head)])


def plays(events: Sequence[TrackerEvent]) -> list[tuple[int, str]]:
    return [(e.seat, e.card) for e in events if isinstance(e, CardPlayed)]


def test_cards_laid_close_together_near_the_centre_take_the_seats_in_turn() -> None:
    # Each card lies nearer a neighbour's edge than its own player's, overlapping the
    # others, turned up to 25 degrees: by position alone every seat would be wrong.
    table = Table()
    spots = {0: (near(22, 12), 20.0), 1: (near(10, -22), 115.0), 2: (near(-20, -12), -25.0), 3: (near(-8, 20), 65.0)}
    for seat, card in TRICK:
        at, angle = spots[seat]
        table.lay(card, seat, at=at, angle=angle, rest=8)
    events = run(table)
    assert plays(events) == TRICK
    assert folded(events).flags == ()


def test_a_card_tossed_at_any_angle_onto_the_diagonal_is_whose_turn_it_is() -> None:
    table = Table()
    for (seat, card), angle in zip(TRICK, (45.0, 135.0, 10.0, 200.0), strict=True):
        # Tossed: first seen where it lands, no hand seen bringing it in.
        at = near(30.0 if seat % 2 else -30.0, 30.0)
        table.lay(card, seat, at=at, angle=angle, start=at, slide=1, rest=8)
    events = run(table)
    assert plays(events) == TRICK
    assert folded(events).flags == ()


def test_a_hand_coming_in_from_another_edge_is_reported_as_that_players_card_out_of_turn() -> None:
    table = Table()
    table.lay("rosen-6", 0, at=near(0, 20), rest=8)
    table.lay("eicheln-9", 2, at=near(5, -15), rest=8)  # seat 2 lays before seat 1
    table.lay("rosen-ass", 1, at=near(20, 0), rest=8)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (2, "eicheln-9"), (1, "rosen-ass")]
    flags = [f for f in folded(events).flags if f.code == "out_of_turn"]
    # The rules engine flags it (and, its turn having moved on, the card after it).
    assert flags and flags[0].seat == 2 and flags[0].ref == 3 and "an der Reihe war Platz 1" in flags[0].message


def test_a_card_lying_squarely_in_front_of_another_player_is_flagged_out_of_turn() -> None:
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    # Seat 1's turn, but a card appears (no hand seen) far out in front of seat 3.
    at = near(-95, 3)
    table.lay("rosen-10", 3, at=at, start=at, slide=1, rest=8)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (3, "rosen-10")]


def test_a_card_only_somewhat_towards_another_player_is_whose_turn_it_is() -> None:
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    at = near(-45, 10)  # towards seat 3, but not far out: no evidence
    table.lay("rosen-ass", 1, at=at, start=at, slide=1, rest=8)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass")]
    assert folded(events).flags == ()


def test_a_hand_seen_coming_from_whose_turn_it_is_wins_over_where_the_card_lies() -> None:
    table = Table()
    table.lay("rosen-6", 0, rest=8)
    # Seat 1 reaches across and lays its card far out on seat 2's side.
    table.lay("rosen-ass", 1, at=near(10, -90), start=EDGE[1], rest=8)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass")]
    assert folded(events).flags == ()


def test_two_cards_laid_almost_together_take_their_turn_seats_whichever_settles_first() -> None:
    table = Table()
    table.lay("rosen-6", 0, at=near(0, 25), rest=8)
    # Seat 1 and seat 2 lay at once; seat 2's card (a shorter way in) settles first.
    start1, start2 = EDGE[1], (CENTRE[0], CENTRE[1] - 120)
    spot1, spot2 = near(28, -4), near(-4, -28)
    for k in range(6):
        f1, f2 = min(1.0, k / 5), min(1.0, k / 2)
        for card, start, spot, f, angle in (
            ("rosen-ass", start1, spot1, f1, 95.0),
            ("eicheln-9", start2, spot2, f2, 10.0),
        ):
            pos = (start[0] + (spot[0] - start[0]) * f, start[1] + (spot[1] - start[1]) * f)
            table.cards[card] = type(table.cards["rosen-6"])(card, pos, angle)
        table.step()
    table.step(10)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9")]
    assert folded(events).flags == ()
