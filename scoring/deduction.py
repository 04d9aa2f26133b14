"""The card the camera never saw, filled in: from the table, or deduced from the round.

A ``trick_collected`` with ``unseen`` leaves a ``Gap`` per seat (``scoring.folder``).
Its card becomes known either from the table (a ``card_corrected`` of that trick) or, once the
round's other cards are all known, as the one card nobody else played; with two or
three gaps, as the one way of handing out the unplayed cards under which everybody
followed suit. Either way the card is put back where its seat's turn was and the whole
fold runs again, so the lead, the winner, the next lead, Stöck and the follow rules all
see the card where it was laid. Each pass is a fresh fold: no state survives between.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from scoring.cards import CARD_INDEX
from scoring.errors import RuleError
from scoring.events import CardPlayed, Event
from scoring.folder import Folder
from scoring.legality import ILLEGAL
from scoring.resolution import Resolved
from scoring.round_play import Fill

#: Rounds with this many tricks whose card was never seen (or fewer, but more than one)
#: are filled in by trying every way to hand the unplayed cards to those seats.
MAX_DEDUCED_GAPS = 3


def folded(res: Resolved) -> Folder:
    """Fold the resolved list; while a trick's unseen card becomes known, put it back and fold again."""
    seq = list(res.events)
    while True:
        folder = fold_seq(seq, res.rulings)
        fill = next_fill(folder, res.fills) or deduce_several(folder, seq, res.rulings)
        if fill is None:
            return folder
        seq = insert(seq, fill)


def fold_seq(seq: Sequence[tuple[int, Event]], rulings: dict[int, str]) -> Folder:
    """One pass of the fold over resolved (position, event) pairs, from scratch."""
    folder = Folder(rulings)
    for pos, ev in seq:
        folder.apply(pos, ev)
    return folder


def insert(seq: list[tuple[int, Event]], fill: Fill) -> list[tuple[int, Event]]:
    """``seq`` with the filled-in card placed where its seat laid it (``Gap.anchor``)."""
    (anchor, after), pos, card = fill
    at = next(i for i, (p, ev) in enumerate(seq) if p == anchor and isinstance(ev, CardPlayed))
    return [*seq[: at + after], (pos, card), *seq[at + after :]]


def deduce_several(folder: Folder, seq: list[tuple[int, Event]], rulings: dict[int, str]) -> Fill | None:
    """A round over with two or three cards never seen: the one way of handing the unplayed
    cards to those seats under which every seat followed suit, if there is exactly one.

    Each way is tried by putting its cards back one trick at a time (each at its seat's
    turn, as the winner of the trick before says) and counting the follow-rule flags the
    round then raises; a way with fewer than every other is taken. Players do revoke now
    and then, so a tie (or one way as bad as another) is left to the table.
    """
    for r in folder.rounds:
        gaps = [g for g in folder.gaps if g.round == r.index]
        left = sorted(set(CARD_INDEX) - {p.card for p in r.plays}, key=CARD_INDEX.__getitem__)
        if not 2 <= len(gaps) <= MAX_DEDUCED_GAPS or len(r.tricks) < 9 or len(left) != len(gaps):
            continue
        counts: list[tuple[int, tuple[str, ...]]] = []
        for way in itertools.permutations(left):
            trial = seq
            try:
                for gap, card in zip(gaps, way, strict=True):
                    now = next(g for g in fold_seq(trial, rulings).gaps if (g.ref, g.seat) == (gap.ref, gap.seat))
                    trial = insert(
                        trial,
                        (now.anchor(), gap.ref, CardPlayed(seat=gap.seat, card=card, t=gap.event.t, source="deduced")),
                    )
                flags = fold_seq(trial, rulings).flags
            except RuleError:
                continue
            counts.append((sum(1 for f in flags if f.code in ILLEGAL and f.round == r.index), way))
        counts.sort()
        if not counts or (len(counts) > 1 and counts[0][0] == counts[1][0]):
            continue
        first = gaps[0]
        return (
            first.anchor(),
            first.ref,
            CardPlayed(seat=first.seat, card=counts[0][1][0], t=first.event.t, source="deduced"),
        )
    return None


def next_fill(folder: Folder, fills: dict[tuple[int, int], tuple[int, CardPlayed]]) -> Fill | None:
    """The first trick with an unseen card whose card is now known: where it goes
    (``Gap.anchor``), its position and the card.

    Known from the table (``fills``), or as the one card of 36 nobody else played,
    once the round's nine tricks are collected and this is its only gap.
    """
    for gap in folder.gaps:
        r = folder.rounds[gap.round]
        card: tuple[int, CardPlayed] | None = fills.get((gap.ref, gap.seat))
        if card is None:
            others = [g for g in folder.gaps if g.round == gap.round]
            left = set(CARD_INDEX) - {p.card for p in r.plays}
            if len(others) != 1 or len(r.tricks) < 9 or len(r.plays) != 35 or len(left) != 1:
                continue
            card = (gap.ref, CardPlayed(seat=gap.seat, card=left.pop(), t=gap.event.t, source="deduced"))
        return gap.anchor(), card[0], card[1]
    return None


__all__ = ["MAX_DEDUCED_GAPS", "deduce_several", "fold_seq", "folded", "insert", "next_fill"]
