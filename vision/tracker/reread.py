"""The tracker's second thoughts: a card it reported that a later, clearer read disproved.

Why a type of its own: the tracker knows the card it reported, not where the event landed
in whichever log keeps it (the appliance's store holds contracts, Weis and phone presses
between the camera's events; a replay keeps the camera's events alone). The keeper of the
log turns a ``CardReread`` into the schema's ``card_corrected`` pointing at that card's
``card_played`` (``scoring.game.card_position``), so everything stored stays in the one
event schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.events import CardCorrected, Event
from scoring.game import card_position


@dataclass(frozen=True)
class CardReread:
    """The card this tracker reported as ``was`` in the round under way is really ``card``
    (laid by ``seat``, when that changed too)."""

    was: str
    card: str
    t: float | None = None
    seat: int | None = None
    type: str = field(default="card_reread", init=False)


def correction(log: Sequence[Event], reread: CardReread) -> CardCorrected | None:
    """The ``card_corrected`` for ``reread`` in ``log``; None when the card is not there
    (the store refused it, or the table already corrected it)."""
    ref = card_position(log, reread.was)
    return None if ref is None else CardCorrected(ref=ref, card=reread.card, seat=reread.seat, t=reread.t)


def resolve_rereads(events: Sequence[Event | CardReread], before: Sequence[Event] = ()) -> list[Event]:
    """A tracker's output as schema events alone, each reread made a ``card_corrected``.

    The returned events are meant to follow ``before`` in one log (``jasscam replay``
    keeps the camera's events alone: ``before`` is empty); refs are positions in that log.
    """
    log: list[Event] = list(before)
    for ev in events:
        if isinstance(ev, CardReread):
            fix = correction(log, ev)
            if fix is not None:
                log.append(fix)
        else:
            log.append(ev)
    return log[len(before) :]
