"""The game as a fold over its event list: ``fold(events) -> GameState``.

Replay, undo and crash recovery are one path: :func:`fold` first *resolves* the list
(``event_voided`` removes an event, ``card_corrected`` replaces a card, ``misplay_ruled``
attaches a ruling to a card), then folds the remaining events in order. The result is a
frozen :class:`GameState` with a JSON form (:meth:`GameState.to_dict`) for the dashboard.

Two kinds of problems, kept strictly apart:

**Errors** (:class:`RuleError`, a ``ValueError``): the event cannot apply at all, so the
store must reject it whole: anything before ``game_configured`` or a second one; a
``card_played``/``weis_declared``/``trick_collected`` with no round running; a 37th card
in a round (a trick closes by itself after four cards, so a "fifth card" is the next
trick's lead; only the 37th card has nowhere to go); a seat laying a second card in the
same trick; collecting a trick that is not complete (unless the camera names the one seat
whose card it never saw); a new round after the game is over;
a ``ref`` that points forward or at an event of the wrong type; declared Weis cards that
form no Weis; a Speck round whose contract is not its Bodentrumpf's suit.

**Flags** (:class:`Flag` in ``GameState.flags``): the event is recorded, the game goes
on, and the table decides (usually with a ``card_corrected``, ``event_voided`` or
``misplay_ruled`` event): card out of turn, card already played this round, illegal card
(not following suit, not following trump, undertrumping; detected as soon as the same
hand later shows the card it kept back), Stöck too early/late/by the wrong seat/without
trump, Weis late or not in the hand, trick collected by someone other than the winner,
an unfinished round abandoned by a new ``round_started``, a Speck game not summing to 157,
a trick collected with a card the camera never saw (and, when the rest of the round
showed which card it was, that it was filled in).

**A card the camera never saw.** A ``trick_collected`` with ``unseen`` closes a trick of
three cards (or two, with two seats unseen): the trick waits for its missing cards while
the round goes on, counted provisionally from those seen (winner, points) and flagged
``card_unseen`` per seat. A card comes from the table (a ``card_corrected`` whose ``ref``
is that ``trick_collected``, naming the seat when two were unseen) or, once
the round's other 35 cards are known, it is the one card nobody else played
(``card_deduced``); with two or three missing, the one way of handing out the unplayed
cards under which everybody followed suit (``scoring.deduction.deduce_several``).
Either way it is put back where its seat's turn was, and the fold runs again, so the
lead suit, the winner, the next trick's lead, Stöck and the legality checks all see the
card where it was laid.

Seats play 0, 1, 2, 3 (counter-clockwise); teams are 0+2 and 1+3.

This module is the engine's front door; the fold's parts each have a module of their
own: ``scoring.resolution`` (voids, corrections, rulings), ``scoring.folder`` (the
event handlers) over ``scoring.round_play`` (a round as it is built),
``scoring.legality`` (follow rules, Weis in the hand), ``scoring.deduction`` (the
unseen card), ``scoring.score`` (what a round gave and how it is written) and
``scoring.snapshot`` (the frozen state).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from scoring.deduction import MAX_DEDUCED_GAPS, folded
from scoring.errors import RuleError
from scoring.events import BLOCKS, Event, EventError, ForecastMade, GameConfigured, parse_event
from scoring.resolution import Resolved, card_position, resolve, voided_positions
from scoring.score import declarer_of, score_round, weis_entries
from scoring.snapshot import game_state
from scoring.state import (
    Blocks,
    Flag,
    GameOver,
    GameState,
    PlayedCard,
    RoundScore,
    RoundState,
    SheetRow,
    Trick,
    WeisEntry,
)
from scoring.variants import variant_for
from scoring.variants.speck import SPECK_RULE, speck_standings

SPECK_GAME_POINTS = 157

#: Flag codes that are misplays under Speck Jass section 2.8: the table rules on each
#: (``misplay_ruled``); see ``scoring.speck.misplay_cards`` for the cards a ruling covers.
MISPLAY_CODES: frozenset[str] = frozenset(SPECK_RULE)


def fold(events: Sequence[Event]) -> GameState:
    """Fold the whole event list into the game state; raises RuleError/EventError on a bad event.

    Each call starts from scratch (no hidden state), so replay, undo (``event_voided``),
    correction and crash recovery are all the same call.
    """
    res = resolve(events)
    return game_state(folded(res), len(events), len(res.events))


def check_append(events: Sequence[Event], new: Event) -> GameState:
    """The state after appending ``new``; raises RuleError if it cannot apply (for the store)."""
    return fold([*events, new])


def parse_events(records: Iterable[dict[str, Any]]) -> list[Event]:
    """Parse JSON objects into events; an EventError names the position of the bad one."""
    out: list[Event] = []
    for i, rec in enumerate(records):
        try:
            out.append(parse_event(rec))
        except EventError as exc:
            raise EventError(f"event {i}: {exc}") from None
    return out


def hidden_forecasts(events: Sequence[Event]) -> set[int]:
    """Positions of ``forecast_made`` events whose round is not over: shown without points.

    A forecast belongs to the first round that ends after it (it is refused once its
    round's first card is down), so it stays hidden until that round is complete,
    entered by hand or abandoned. Voided forecasts count too: undoing a forecast must
    not reveal the number it took back.
    """
    forecasts = [i for i, ev in enumerate(events) if isinstance(ev, ForecastMade)]
    if not forecasts:
        return set()
    ends = sorted(r.ended for r in folded(resolve(events)).rounds if r.ended is not None)
    return {i for i in forecasts if not any(end > i for end in ends)}


def prior_blocks(cfg: GameConfigured) -> tuple[Blocks, Blocks]:
    """The Schieber totals the game starts from: the teams' ``prior_totals``, else 0."""
    return variant_for(cfg).prior_blocks()


def prior_players(cfg: GameConfigured) -> tuple[int, int, int, int]:
    """The Speck totals per seat the game starts from: ``prior_totals``, else 0."""
    return variant_for(cfg).prior_players()


def speck_ranking(games: Sequence[Sequence[int]], prior: Sequence[int] = (0, 0, 0, 0)) -> tuple[int, ...]:
    """The seats of :func:`speck_standings`, best first (equal seats in seat order)."""
    return tuple(r.index for r in speck_standings(games, prior))


__all__ = [
    "BLOCKS",
    "MAX_DEDUCED_GAPS",
    "MISPLAY_CODES",
    "SPECK_GAME_POINTS",
    "Blocks",
    "Flag",
    "GameOver",
    "GameState",
    "PlayedCard",
    "Resolved",
    "RoundScore",
    "RoundState",
    "RuleError",
    "SheetRow",
    "Trick",
    "WeisEntry",
    "card_position",
    "check_append",
    "declarer_of",
    "fold",
    "hidden_forecasts",
    "parse_events",
    "prior_blocks",
    "prior_players",
    "resolve",
    "score_round",
    "speck_ranking",
    "speck_standings",
    "voided_positions",
    "weis_entries",
]
