"""Reads of a card while the next card lies across part of it count for less.

Players lay a trick close about the centre, each card partly over the one before. The
card underneath then shows only part of its pips and index: a 9 with a row of pips under
the next card reads as a 6. When that happens before the first card has counted, those
reads outvoted the few frames it lay whole, the trick was counted with a 6 that nobody
played, and the next trick's cards were taken as the rest of this one (rendered game
5,000,727 lost six tricks from it). The card laid later lies on top; the tracker weighs
the reads of the card under it by ``TrackerConfig.covered_vote_weight``.
"""

from __future__ import annotations

from scoring.events import RoundStarted
from tests.tracker.table import CENTRE, Table, corners, plays, run
from vision.tracker import TrickTracker
from vision.tracker.config import TrackerConfig
from vision.tracker.tracks import covered_share

LEAD_AT = (CENTRE[0], CENTRE[1] + 20)
#: Seat 1's card, turned towards it and laid across the right half of the lead.
OVER_AT = (CENTRE[0] + 25, CENTRE[1])


def _lead_then_covered(table: Table) -> None:
    """Seat 0 leads the Eicheln 9: read as a 7 in the hand's blur, whole and right for two
    frames at rest, then, with seat 1's card across it, as the 6 its uncovered pips show."""
    table.reads_as["eicheln-9"] = ("eicheln-7", 0.6, ())
    table.lay("eicheln-9", 0, at=LEAD_AT, slide=3)
    del table.reads_as["eicheln-9"]
    table.cards["eicheln-9"].confidence = 0.85
    table.step(2)
    table.lay("rosen-9", 1, at=OVER_AT, slide=1)
    table.reads_as["eicheln-9"] = ("eicheln-6", 0.8, ())
    table.step(12)
    table.lay("eicheln-koenig", 2, rest=8)
    table.lay("eicheln-ass", 3, rest=8)


def test_a_lead_read_as_a_six_under_the_next_card_counts_as_the_nine_it_showed_whole() -> None:
    table = Table()
    _lead_then_covered(table)
    assert plays(run(table)) == [(0, "eicheln-9"), (1, "rosen-9"), (2, "eicheln-koenig"), (3, "eicheln-ass")]


def test_with_covered_reads_counting_in_full_the_six_would_win() -> None:
    """The scripted reads are the ones that misled the tracker: counted in full, the reads
    under the next card name the lead."""
    table = Table()
    _lead_then_covered(table)
    tracker = TrickTracker(config=TrackerConfig(covered_vote_weight=1.0))
    tracker.start_round(RoundStarted(forehand=0, contract="eicheln"))
    events = [e for frame in table.frames for e in tracker.update(frame)] + tracker.finish()
    assert plays(events)[0] == (0, "eicheln-6")


def test_the_next_card_laid_across_the_lead_covers_it_and_a_card_apart_covers_nothing() -> None:
    table = Table()
    _lead_then_covered(table)
    under, over = table.cards["eicheln-9"], table.cards["rosen-9"]
    lead, next_card = corners(under.pos, under.angle), corners(over.pos, over.angle)
    assert covered_share(lead, next_card) >= TrackerConfig().covered_share
    # Apart, or only touching: nothing covered.
    assert covered_share(lead, corners((CENTRE[0] + 120, CENTRE[1]), 90.0)) == 0.0
