"""The tracker's second thoughts on a card it reported: a later, clearer read disproved
it (``CardReread``), or the card was taken back before the next card (``CardWithdrawn``).

Why types of their own: the tracker knows the card it reported, not where the event
landed in whichever log keeps it (the appliance's store holds contracts, Weis and phone
presses between the camera's events; a replay keeps the camera's events alone). The
keeper of the log turns a ``CardReread`` into the schema's ``card_corrected`` and a
``CardWithdrawn`` into an ``event_voided``, each pointing at that card's
``card_played`` (``scoring.game.card_position``), so everything stored stays in the one
event schema and the table sees it, and can undo it, like any correction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.events import CardCorrected, Event, EventVoided
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


@dataclass(frozen=True)
class CardWithdrawn:
    """The card this tracker reported as ``card`` in the round under way was laid by
    mistake and taken back before the next card: it does not count."""

    card: str
    t: float | None = None
    type: str = field(default="card_withdrawn", init=False)


#: A tracker's second thought on a card it reported.
SecondThought = CardReread | CardWithdrawn


def correction(log: Sequence[Event], thought: SecondThought) -> CardCorrected | EventVoided | None:
    """The ``card_corrected`` (or, for a withdrawn card, ``event_voided``) for ``thought``
    in ``log``; None when the card is not there (the store refused it, or the table
    already corrected it)."""
    if isinstance(thought, CardWithdrawn):
        ref = card_position(log, thought.card)
        return None if ref is None else EventVoided(ref=ref, t=thought.t)
    ref = card_position(log, thought.was)
    return None if ref is None else CardCorrected(ref=ref, card=thought.card, seat=thought.seat, t=thought.t)


def resolve_rereads(events: Sequence[Event | SecondThought], before: Sequence[Event] = ()) -> list[Event]:
    """A tracker's output as schema events alone, each reread made a ``card_corrected``
    and each withdrawal an ``event_voided``.

    The returned events are meant to follow ``before`` in one log (``jasscam replay``
    keeps the camera's events alone: ``before`` is empty); refs are positions in that log.
    """
    log: list[Event] = list(before)
    for ev in events:
        if isinstance(ev, (CardReread, CardWithdrawn)):
            fix = correction(log, ev)
            if fix is not None:
                log.append(fix)
        else:
            log.append(ev)
    return log[len(before) :]
