"""Resolution: the event list as it counts, after undo, corrections and rulings.

The fold never sees an ``event_voided``, ``card_corrected`` or ``misplay_ruled``: they
are applied here by position first (a void removes its target, a correction replaces a
card, a ruling attaches to a card), so replay, undo and a correction are one path. The
dashboard's history and the camera's rereads ask the same questions of the list
(``voided_positions``, ``card_position``), so they are answered here once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from scoring.errors import RuleError
from scoring.events import CardCorrected, CardPlayed, Event, EventVoided, MisplayRuled, RoundStarted, TrickCollected


@dataclass(frozen=True)
class Resolved:
    """The list after voids and corrections: (position, event) pairs and the rulings.

    ``fills``: the table's card for a trick collected with unseen cards, by the position
    of that ``trick_collected`` and the seat: (position of the correction, the card).
    """

    events: tuple[tuple[int, Event], ...]
    rulings: dict[int, str]
    fills: dict[tuple[int, int], tuple[int, CardPlayed]] = field(default_factory=dict)

    def fills_of(self, ref: int) -> list[CardPlayed]:
        """The cards the table entered for the unseen seats of the ``trick_collected`` at ``ref``."""
        return [card for (at, _), (_, card) in sorted(self.fills.items()) if at == ref]


def voided_positions(events: Sequence[Event]) -> set[int]:
    """Positions that an ``event_voided`` takes out.

    Read from the end backwards, so a void that is itself voided takes nothing out:
    voiding a void restores its target (redo). The one place this is decided; the
    dashboard's history crosses out what this returns.
    """
    voided: set[int] = set()
    for pos in range(len(events) - 1, -1, -1):
        ev = events[pos]
        if pos not in voided and isinstance(ev, EventVoided):
            voided.add(ev.ref)
    return voided


def resolve(events: Sequence[Event]) -> Resolved:
    """Apply ``event_voided``, ``card_corrected`` and ``misplay_ruled`` by position.

    Voids are taken from the end backwards, so voiding a void restores its target (redo).
    A correction replaces the card (and seat, if given) of a ``card_played``; the latest
    correction wins. Voided corrections and rulings have no effect. A correction of a
    ``trick_collected`` with ``unseen`` seats supplies a card of one of them
    (``Resolved.fills``): the correction's ``seat``, which may be left out when only one
    seat's card was unseen.
    """
    for pos, ev in enumerate(events):
        if isinstance(ev, (EventVoided, CardCorrected, MisplayRuled)):
            if ev.ref >= pos:
                raise RuleError(f"ref {ev.ref} must point to an earlier event", pos)
            target = events[ev.ref]
            fills_gap = isinstance(ev, CardCorrected) and isinstance(target, TrickCollected) and bool(target.unseen)
            if isinstance(ev, (CardCorrected, MisplayRuled)) and not isinstance(target, CardPlayed) and not fills_gap:
                what = (
                    "a card_played or a trick_collected with an unseen card"
                    if isinstance(ev, CardCorrected)
                    else "a card_played"
                )
                raise RuleError(f"ref {ev.ref} is a {target.type}, not {what}", pos)
            if isinstance(ev, CardCorrected) and isinstance(target, TrickCollected):
                if ev.seat is None and len(target.unseen) > 1:
                    raise RuleError(
                        f"cards of seats {', '.join(map(str, target.unseen))} were never seen in that trick: "
                        "say whose card this is (seat)",
                        pos,
                    )
                if ev.seat is not None and ev.seat not in target.unseen:
                    seats = " and ".join(map(str, target.unseen))
                    raise RuleError(f"the cards never seen in that trick are seat {seats}'s, not seat {ev.seat}'s", pos)
    voided = voided_positions(events)
    corrected: dict[int, CardPlayed] = {}
    rulings: dict[int, str] = {}
    fills: dict[tuple[int, int], tuple[int, CardPlayed]] = {}
    for pos, ev in enumerate(events):
        if pos in voided:
            continue
        gap = events[ev.ref] if isinstance(ev, CardCorrected) else None
        if isinstance(ev, CardCorrected) and isinstance(gap, TrickCollected) and gap.unseen:
            seat = gap.unseen[0] if ev.seat is None else ev.seat
            fills[ev.ref, seat] = (pos, CardPlayed(seat=seat, card=ev.card, t=gap.t, source="manual"))
        elif isinstance(ev, CardCorrected):
            target = corrected.get(ev.ref, events[ev.ref])
            assert isinstance(target, CardPlayed)
            corrected[ev.ref] = replace(target, card=ev.card, seat=target.seat if ev.seat is None else ev.seat)
        elif isinstance(ev, MisplayRuled):
            rulings[ev.ref] = ev.ruling
    out = tuple(
        (pos, corrected.get(pos, ev))
        for pos, ev in enumerate(events)
        if pos not in voided and not isinstance(ev, (EventVoided, CardCorrected, MisplayRuled))
    )
    return Resolved(out, rulings, fills)


def card_position(events: Sequence[Event], card: str) -> int | None:
    """Position of the ``card_played`` that shows ``card`` in the round under way, after
    undo and corrections; None when this round has no such card.

    Why: the camera may reconsider a card it reported (a later, clearer read shows it was
    another card). It names the card it reported; a ``card_corrected`` must point at that
    event's position in this log, whatever else (contracts, Weis, phones) was stored
    between. Each card is played once per round, so the card names the event; should it
    appear twice (a misread the table has not fixed yet), the latest one is meant.
    """
    found: int | None = None
    for pos, ev in resolve(events).events:
        if isinstance(ev, RoundStarted):
            found = None
        elif isinstance(ev, CardPlayed) and ev.card == card:
            found = pos
    return found


__all__ = ["Resolved", "card_position", "resolve", "voided_positions"]
