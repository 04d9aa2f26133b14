"""The next lead laid beside a full trick still lying counts, even named as a card counted before.

The winner often leads before anyone gathers the trick: the lead lies beside the full
trick, waits until it goes, and then counts. When an earlier card of the round was
misread as that very card, the lead's read names a card already played. A track that was
there before the trick was collected was then taken for a card of a pile and never
counted: the round's next tricks were each one card off (rendered game 5,000,738 lost
three tricks so). A card that showed up after the trick was full, and is named as none
of that trick's cards, is a new card: it counts, and the rules engine or a reread sorts
out which of the two reads was wrong.
"""

from __future__ import annotations

from scoring.events import CardPlayed, TrickCollected
from tests.tracker.table import EDGE, Table, run
from vision.tracker.tracker import TrackerEvent

#: Beside the trick (its cards lie at the table's usual spots), towards seat 0.
BESIDE = (430.0, 360.0)


def _gather(table: Table, cards: list[str], seat: int, frames: int = 3) -> None:
    """Only the trick's ``cards`` are swept towards ``seat``'s edge; the rest stays."""
    starts = {c: table.cards[c].pos for c in cards}
    end = EDGE[seat]
    for i in range(1, frames + 1):
        f = i / (frames + 1)
        for c in cards:
            s = starts[c]
            table.cards[c].pos = (s[0] + (end[0] - s[0]) * f, s[1] + (end[1] - s[1]) * f)
        table.step()
    for c in cards:
        del table.cards[c]
    table.step()


def _round_with_an_early_misread(table: Table) -> None:
    # Trick 0: seat 1's Rosen 6 is read as the Schellen 6 throughout; seat 0's Ass wins.
    table.reads_as["rosen-6"] = ("schellen-6", 0.9, ())
    first = [(0, "schellen-ass"), (1, "rosen-6"), (2, "schellen-7"), (3, "schellen-8")]
    for seat, card in first:
        table.lay(card, seat, rest=8)
    _gather(table, [c for _, c in first], 0)
    table.step(5)
    # Trick 1: seat 0's König wins; seat 0 leads the real Schellen 6 beside the trick.
    second = [(0, "schellen-koenig"), (1, "rosen-7"), (2, "schellen-10"), (3, "schellen-9")]
    for seat, card in second:
        table.lay(card, seat, rest=8)
    table.lay("schellen-6", 0, at=BESIDE, rest=12)
    _gather(table, [c for _, c in second], 0)
    table.step(15)


def _lead_of_trick_two(events: list[TrackerEvent]) -> list[tuple[int, str]]:
    collected = 0
    out = []
    for e in events:
        if isinstance(e, TrickCollected):
            collected += 1
        elif isinstance(e, CardPlayed) and collected == 2:
            out.append((e.seat, e.card))
    return out


def test_a_lead_laid_beside_the_full_trick_counts_though_an_earlier_card_was_read_as_it() -> None:
    table = Table()
    _round_with_an_early_misread(table)
    events = run(table, forehand=0, contract="eicheln")
    assert sum(isinstance(e, TrickCollected) for e in events) == 2
    lead = _lead_of_trick_two(events)
    # Counted, the winner's, unsure: the rules engine flags the Schellen 6 played twice.
    assert len(lead) == 1 and lead[0][0] == 0
