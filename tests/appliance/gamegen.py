"""Legal Schieber rounds as event lists, for store and pipeline tests.

Hands are dealt from a seeded shuffle and every card is chosen with
``scoring.rules.legal_cards``, so the rules engine accepts the events as they are.
"""

from __future__ import annotations

import random

from scoring.cards import ALL_CARD_IDS
from scoring.events import CONTRACTS, CardPlayed, Event, GameConfigured, RoundStarted, TrickCollected
from scoring.rules import legal_cards, trick_winner


def config() -> GameConfigured:
    return GameConfigured(players=("Anna", "Beat", "Carla", "Dani"), target=1000)


def round_events(seed: int, forehand: int = 0, t0: float = 0.0) -> list[Event]:
    """round_started, then 9 tricks of 4 card_played and a trick_collected each."""
    rng = random.Random(seed)
    deck = list(ALL_CARD_IDS)
    rng.shuffle(deck)
    hands = [deck[i * 9 : (i + 1) * 9] for i in range(4)]
    contract = CONTRACTS[seed % len(CONTRACTS)]
    t = t0
    events: list[Event] = [RoundStarted(forehand=forehand, contract=contract, declarer=forehand, t=t)]
    leader = forehand
    for _ in range(9):
        trick: list[str] = []
        for i in range(4):
            seat = (leader + i) % 4
            allowed = set(legal_cards(hands[seat], trick, contract))
            card = rng.choice([c for c in hands[seat] if c in allowed])  # hand order: a seed plays one game
            hands[seat].remove(card)
            trick.append(card)
            t += 1.0
            events.append(CardPlayed(seat=seat, card=card, t=t, confidence=0.99))
        winner = (leader + trick_winner(trick, contract)) % 4
        t += 1.0
        events.append(TrickCollected(seat=winner, t=t))
        leader = winner
    return events
