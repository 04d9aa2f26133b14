"""A card read only as cards already played this round, none still to come.

Mostly that is a card of a trick gone by passing under a hand, or a shape between
overlapping cards that the detector outlines a moment; now and then a new card whose
true read comes once the hand has left it. Counted at once (as the old card, for the
rules engine to flag), it took the seat whose turn it was, and the real card took the
next: every later card of the trick one seat off. Such a card now waits longer
(``TrackerConfig.old_read_frames``, four times the usual budget) for a read of a card
still to come; a real card read so the whole time still counts, as the old card.
"""

from __future__ import annotations

from tests.tracker.table import Table, _Card, plays, run
from vision.tracker.config import TrackerConfig

# Eicheln trump, forehand 0: seat 2's König takes the first trick, seat 3's Ass the second.
FIRST = [(0, "eicheln-ober"), (1, "schilten-8"), (2, "eicheln-koenig"), (3, "rosen-6")]
SECOND = [(2, "schellen-9"), (3, "schellen-ass"), (0, "schellen-6"), (1, "schellen-7")]
THIRD = [(3, "rosen-ass"), (0, "rosen-7"), (1, "rosen-9"), (2, "rosen-10")]
OLD_READ = (300.0, 270.0)  # near the middle, where no card of the third trick lies


def two_tricks() -> Table:
    table = Table()
    for trick, winner in ((FIRST, 2), (SECOND, 3)):
        for seat, card in trick:
            table.lay(card, seat, rest=8)
        table.sweep(winner)
        table.step(6)
    table.lay(THIRD[0][1], THIRD[0][0], rest=8)
    return table


def test_a_shape_read_only_as_an_old_card_while_a_hand_is_in_takes_no_seat() -> None:
    # While seat 0's arm is in, a shape reads unsurely as the Schilten 8 of the first
    # trick for a second and a half, then goes; seat 0's card comes after it.
    frames = 15
    assert TrackerConfig().maximum_decision_frames < frames < TrackerConfig().old_read_frames
    table = two_tricks()
    table.arms = {"bottom"}
    table.cards["schilten-8"] = _Card("schilten-8", OLD_READ, 30.0)
    table.unsure["schilten-8"] = (0.6, ())
    table.step(frames)
    del table.cards["schilten-8"]
    table.arms = set()
    for seat, card in THIRD[1:]:
        table.lay(card, seat, rest=8)
    assert plays(run(table, forehand=0, contract="eicheln")) == [*FIRST, *SECOND, *THIRD]


def test_a_card_read_only_as_an_old_card_for_longer_than_the_wait_still_counts() -> None:
    # Seat 0's card is read as the Schilten 8 in every frame: once the longer wait is
    # over it counts for seat 0, as the old card, for the rules engine to flag and the
    # table to name.
    table = two_tricks()
    table.arms = {"bottom"}
    table.reads_as["rosen-7"] = ("schilten-8", 0.9, ())
    table.lay("rosen-7", 0, rest=2)
    table.arms = set()
    table.step(TrackerConfig().old_read_frames + 4)
    assert plays(run(table, forehand=0, contract="eicheln"))[-2:] == [(3, "rosen-ass"), (0, "schilten-8")]
