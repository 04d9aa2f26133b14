"""The arm that brought a card in (``FrameDetections.arms``) as evidence of who laid it.

A hand hides the card it lays until it lets go near the centre, so the card is first seen
where it comes to rest and neither its path nor its place says whose it is; the arm does.
One other seat's arm alone is clear evidence of a card laid out of turn when the card lies
on that seat's side of the centre; the arm of the player whose turn it is, seen at all,
settles it the other way, since other arms are often in view at the same time (the
previous player's withdrawing, the winner's sweeping, the next player's reaching early).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from scoring.events import CardPlayed
from tests.tracker.table import CENTRE, Table, _Card, detection, run
from tests.tracker.test_turn_order import TRICK, folded, plays
from vision.tracker.config import TrackerConfig

EDGE = {0: "bottom", 1: "right", 2: "top", 3: "left"}


def near(dx: float, dy: float) -> tuple[float, float]:
    return (CENTRE[0] + dx, CENTRE[1] + dy)


#: Where each seat's card comes to rest: close about the centre, no evidence by place.
AT = {0: near(4, 22), 1: near(22, -4), 2: near(-4, -22), 3: near(-22, 4)}


def lay_by_hand(
    table: Table, card: str, seat: int, arms: Iterable[str], *, before: int = 5, on: int = 2, rest: int = 8
) -> None:
    """``arms`` reach in for ``before`` frames while the hand hides the card, which is then
    first seen where it comes to rest, the hand still on it for ``on`` frames."""
    table.arms = set(arms)
    table.step(before)
    table.lay(card, seat, at=AT[seat], start=AT[seat], slide=1, rest=on)
    table.arms = set()
    table.step(rest)


def out_of_turn(table: Table) -> list[int | None]:
    return [f.seat for f in folded(run(table)).flags if f.code == "out_of_turn"]


def test_a_card_brought_in_by_another_players_arm_alone_is_that_players_card_out_of_turn() -> None:
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    lay_by_hand(table, "eicheln-9", 2, {"top"})  # seat 2 lays before seat 1
    lay_by_hand(table, "rosen-ass", 1, {"right"})
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (2, "eicheln-9"), (1, "rosen-ass")]
    flags = [f for f in folded(events).flags if f.code == "out_of_turn"]
    assert flags and flags[0].seat == 2 and "an der Reihe war Platz 1" in flags[0].message


def test_another_players_arm_alone_names_nobody_for_a_card_on_the_turns_side_of_the_centre() -> None:
    # Seat 1's card comes to rest on seat 1's side while only seat 2's arm is in view (seat
    # 2 reaching early for its own card, seat 1's hand gone before the card showed): the
    # arm did not lay a card lying on another player's side, so the turn keeps it.
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    lay_by_hand(table, "rosen-ass", 1, {"top"})
    lay_by_hand(table, "eicheln-9", 2, {"top"})
    assert plays(run(table)) == TRICK[:3]
    assert out_of_turn(table) == []


def test_without_an_arm_seen_the_same_card_is_whose_turn_it_is() -> None:
    table = Table()
    lay_by_hand(table, "rosen-6", 0, set())
    lay_by_hand(table, "eicheln-9", 2, set())
    lay_by_hand(table, "rosen-ass", 1, set())
    assert plays(run(table)) == [(0, "rosen-6"), (1, "eicheln-9"), (2, "rosen-ass")]


def test_a_trick_laid_in_turn_by_the_players_arms_raises_no_flag() -> None:
    table = Table()
    for seat, card in TRICK:
        lay_by_hand(table, card, seat, {EDGE[seat]})
    events = run(table)
    assert plays(events) == TRICK
    assert folded(events).flags == ()


def test_the_previous_players_arm_still_withdrawing_is_no_evidence() -> None:
    # Seat 0's arm is still on its way out while seat 1's comes in, and while seat 2's card
    # comes in seat 1's is (its arm not seen at all: the previous player's alone).
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"}, rest=0)
    lay_by_hand(table, "rosen-ass", 1, {"bottom", "right"}, rest=0)
    lay_by_hand(table, "eicheln-9", 2, {"right"})
    lay_by_hand(table, "rosen-10", 3, {"left"})
    events = run(table)
    assert plays(events) == TRICK
    assert folded(events).flags == ()


def test_the_arm_of_the_player_whose_turn_it_is_settles_it_beside_another_arm() -> None:
    # Seat 1 lays its card while seat 3 reaches across (for a glass, to point): both seen.
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    lay_by_hand(table, "rosen-ass", 1, {"right", "left"})
    assert plays(run(table)) == TRICK[:2]
    assert out_of_turn(table) == []


def test_a_hand_path_from_another_edge_overrules_the_expected_players_arm() -> None:
    # The card is seen sliding in from the top edge (seat 2's way in) while the only arm
    # seen is seat 1's: seat 1 withdrawing from the card it laid unseen, the arm stage a
    # frame or two late to see seat 2's. The card came in seat 2's hand, flagged for the
    # table as laid out of turn. (Counted in turn, the lead of a rendered game's trick,
    # hidden at once under the next player's card carried in from the bottom edge while
    # the leader's arm was in view, swapped seats with it.)
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    table.arms = {"right"}
    table.lay("rosen-ass", 1, at=AT[1], start=(320.0, 10.0), slide=5, rest=2)
    table.arms = set()
    table.step(8)
    assert plays(run(table)) == [(0, "rosen-6"), (2, "rosen-ass")]
    assert out_of_turn(table) == [2]


def test_an_arm_reaching_in_after_the_card_came_to_rest_is_no_evidence_for_it() -> None:
    # Seat 1's arm is not seen; seat 2 reaches in for its own card once seat 1's lies still.
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    table.lay("rosen-ass", 1, at=AT[1], start=AT[1], slide=1, rest=3)
    table.arms = {"top"}
    table.step(4)
    table.lay("eicheln-9", 2, at=AT[2], start=AT[2], slide=1, rest=2)
    table.arms = set()
    table.step(8)
    assert plays(run(table)) == TRICK[:3]
    assert out_of_turn(table) == []


def test_another_edge_seen_in_one_frame_only_is_no_evidence() -> None:
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    lay_by_hand(table, "rosen-ass", 1, {"left"}, before=0, on=0)  # the frame it showed
    assert plays(run(table)) == TRICK[:2]


def test_an_arm_long_before_the_card_showed_is_no_evidence_for_it() -> None:
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    table.arms = {"top"}
    table.step(5)
    table.arms = set()
    table.step(int(TrackerConfig().arm_lead * table.fps) + 2)
    table.lay("rosen-ass", 1, at=AT[1], start=AT[1], slide=1, rest=8)
    assert plays(run(table)) == TRICK[:2]


def test_the_arm_of_a_player_who_has_laid_already_names_nobody() -> None:
    # Seat 0 nudges its card as seat 1's comes in unseen: seat 0 cannot lay twice.
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    lay_by_hand(table, "rosen-ass", 1, {"bottom"})
    assert plays(run(table)) == TRICK[:2]


@pytest.mark.parametrize(("field", "value"), [("arm_lead", 0.0), ("arm_lead", -1.0), ("arm_min_frames", 0)])
def test_arm_evidence_settings_out_of_range_are_refused(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        TrackerConfig(**{field: value})  # type: ignore[arg-type]


def test_an_arm_that_came_only_after_the_card_was_first_seen_did_not_bring_it() -> None:
    # Seat 1's card is seen sliding in before any arm shows (its hand not seen); seat 3
    # reaches in while it still moves.
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    start, (x, y) = near(60, -4), AT[1]
    for i in range(5):
        table.cards["rosen-ass"] = _Card("rosen-ass", (start[0] + (x - start[0]) * i / 4, y), 90.0)
        table.step()
        table.arms = {"left"}
    table.step(3)
    table.arms = set()
    table.step(8)
    assert plays(run(table)) == TRICK[:2]
    assert out_of_turn(table) == []


def test_a_card_first_seen_under_the_next_players_arm_is_still_whose_turn_reached_in_for_it() -> None:
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    # Seat 1 reaches in and lays its card, but a hand stays over it: it is first seen only
    # seconds later, just as seat 2 reaches in for the next card.
    table.arms = {"right"}
    table.step(5)
    table.arms = set()
    table.step(10)
    table.arms = {"top"}
    table.step(5)
    table.lay("rosen-ass", 1, at=AT[1], start=AT[1], slide=1, rest=2)
    table.arms = set()
    table.step(8)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass")]
    assert out_of_turn(table) == []


def test_a_card_laid_out_of_turn_stays_its_players_while_it_waits_for_a_clear_read_and_the_next_arm_comes() -> None:
    # Seat 2 lays before seat 1, its arm alone bringing the card; the card reads unsurely,
    # so it waits, and meanwhile seat 1 reaches in for their own card. That arm came after
    # the card showed: it did not bring it.
    table = Table()
    lay_by_hand(table, "rosen-6", 0, {"bottom"})
    table.unsure["eicheln-9"] = (0.45, (("eicheln-8", 0.3),))
    lay_by_hand(table, "eicheln-9", 2, {"top"}, rest=2)
    table.arms = {"right"}
    table.step(4)
    table.arms = set()
    table.step(8)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (2, "eicheln-9")]
    assert out_of_turn(table) == [2]


def test_after_a_lead_brought_by_another_players_arm_the_turn_goes_round_from_that_lead() -> None:
    # Seat 1's arm alone brings the lead where seat 0 was to lead: a wrong lead nobody
    # called back, or (more often) the camera misread the trick before and seat 1 won it.
    # The table plays round from it; the next cards, their arms unseen, are seats 2, 3, 0,
    # and the trick keeps the order it was played in: Rosen led, seat 2's Ass wins it (put
    # back in turn from seat 0, the Schellen Ass would lead and win).
    table = Table()
    lay_by_hand(table, "rosen-6", 1, {"right"})
    lay_by_hand(table, "rosen-ass", 2, set())
    lay_by_hand(table, "schellen-7", 3, set())
    lay_by_hand(table, "schellen-ass", 0, set())
    events = run(table)
    assert plays(events) == [(1, "rosen-6"), (2, "rosen-ass"), (3, "schellen-7"), (0, "schellen-ass")]
    assert [e.seat_seen for e in events if isinstance(e, CardPlayed)] == [True, False, False, False]
    state = folded(events)
    trick = state.round.tricks[0] if state.round is not None else state.rounds[0].tricks[0]
    assert (trick.leader, trick.winner) == (1, 2)
    assert [(f.code, f.seat) for f in state.flags] == [("out_of_turn", 1)]


def test_a_lead_glimpsed_under_its_own_hand_stays_the_leaders_when_the_next_arm_is_in_as_it_shows_whole() -> None:
    # Seat 0 leads; its arm shows in one frame only (too few to count). The card is first
    # glimpsed in part, read unsurely as another card, while the hand still covers it; the
    # detector then outlines it whole, tracked apart from the glimpse, just as seat 1
    # reaches in to lay the next card. That arm came after the card was first seen: it is
    # no evidence that seat 1 led (taken for it, the whole trick went round from seat 1).
    table = Table()
    table.arms = {"bottom"}
    table.step()
    table.arms = set()
    x, y = AT[0]
    for _ in range(3):
        table.extra.append(detection("schellen-ass", (x, y + 18.0), 0.0, 0.43, scale=0.6))
        table.step()
    table.arms = {"right"}
    table.cards["rosen-6"] = _Card("rosen-6", AT[0], 0.0)
    table.rest_times["rosen-6"] = round(table.t, 6)
    table.step(8)
    lay_by_hand(table, "rosen-ass", 1, {"right"}, before=0)
    events = run(table)
    assert plays(events) == [(0, "rosen-6"), (1, "rosen-ass")]
    assert [e.seat_seen for e in events if isinstance(e, CardPlayed)] == [False, False]
    assert out_of_turn(table) == []
