"""Helpers to write rounds for the rule tests: fixed hands, a predictable player, calls.

``scripted_round`` deals the given cards (the rest of each hand filled from a seeded
shuffle) and plays every seat's cards in the order listed, taking the first card that is
legal; so a test controls who holds what and, mostly, when it is laid.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from scoring.cards import ALL_CARD_IDS
from scoring.events import (
    CardPlayed,
    Event,
    GameConfigured,
    RoundStarted,
    StoeckCalled,
    TrickCollected,
    WeisDeclared,
)
from scoring.rules import trick_winner
from scoring.simulate import play_round


def fill_hands(fixed: Mapping[int, Sequence[str]], seed: int = 0) -> list[list[str]]:
    """Four hands of nine: the ``fixed`` cards first (in the given order), the rest shuffled."""
    taken = [c for cards in fixed.values() for c in cards]
    assert len(set(taken)) == len(taken), "a card given to two seats"
    rest = [c for c in ALL_CARD_IDS if c not in taken]
    random.Random(seed).shuffle(rest)
    hands = []
    for seat in range(4):
        hand = list(fixed.get(seat, ()))
        need = 9 - len(hand)
        hand += rest[:need]
        rest = rest[need:]
        hands.append(hand)
    return hands


def play_in_order(
    hands: list[list[str]],
    contract: str,
    forehand: int,
    choose: Callable[[int, list[str], list[str]], str] | None = None,
) -> list[tuple[int, str]]:
    """Play out ``hands``; each seat lays the first legal card in its listed order."""
    return play_round(random.Random(0), hands, contract, forehand, choose or (lambda _seat, _hand, legal: legal[0]))


def round_events(
    plays: Sequence[tuple[int, str]],
    contract: str,
    forehand: int,
    *,
    weis: Sequence[tuple[int, Sequence[str]]] = (),
    stoeck: bool = False,
    collect: bool = True,
    **start: object,
) -> list[Event]:
    """Events for a played round: Weis right after the seat's first card, Stöck in time."""
    events: list[Event] = [RoundStarted(forehand=forehand, contract=contract, **start)]  # type: ignore[arg-type]
    laid: dict[int, list[str]] = {s: [] for s in range(4)}
    trick: list[tuple[int, str]] = []
    for n, (seat, card) in enumerate(plays):
        events.append(CardPlayed(seat=seat, card=card))
        if not laid[seat]:
            for wseat, cards in weis:
                if wseat == seat:
                    events.append(WeisDeclared(seat=seat, cards=tuple(sorted(cards, key=ALL_CARD_IDS.index))))
        laid[seat].append(card)
        pair = {f"{contract}-koenig", f"{contract}-ober"}
        if stoeck and card in pair and pair <= set(laid[seat]):
            events.append(StoeckCalled(seat=seat))
        trick.append((seat, card))
        if len(trick) == 4:
            if collect:
                events.append(
                    TrickCollected(seat=trick[trick_winner([c for _, c in trick], contract, trick=n // 4)][0])
                )
            trick = []
    return events


def scripted_round(
    fixed: Mapping[int, Sequence[str]],
    contract: str,
    forehand: int = 0,
    *,
    seed: int = 0,
    weis: Sequence[tuple[int, Sequence[str]]] = (),
    stoeck: bool = False,
    collect: bool = True,
) -> list[Event]:
    hands = fill_hands(fixed, seed)
    return round_events(
        play_in_order(hands, contract, forehand), contract, forehand, weis=weis, stoeck=stoeck, collect=collect
    )


def configured(**config: object) -> list[Event]:
    return [GameConfigured(**config)]  # type: ignore[arg-type]


def index_of(events: Sequence[Event], pred: Callable[[Event], bool]) -> int:
    return next(i for i, e in enumerate(events) if pred(e))


def card_event(events: Sequence[Event], card: str) -> int:
    return index_of(events, lambda e: isinstance(e, CardPlayed) and e.card == card)
