"""Random legal Jass rounds and games, for tests, demos and the game renderer.

Everything is driven by a caller-supplied ``random.Random`` so a seed reproduces the same
deal and play. The players are not clever: each plays a uniformly random legal card
(:func:`scoring.rules.legal_cards`), declares every Weis it holds and calls Stöck on time.
That is enough to exercise every rule path, which is what the callers need.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from scoring.cards import ALL_CARD_IDS
from scoring.events import (
    CONTRACTS,
    CardPlayed,
    Event,
    ForecastMade,
    GameConfigured,
    RoundStarted,
    StoeckCalled,
    TrickCollected,
)
from scoring.rules import card_suit, legal_cards, next_seat, play_contract, trick_winner, trump_suit


def deal(rng: random.Random) -> list[list[str]]:
    """Shuffle the 36 cards and give nine to each seat (seat 0 first)."""
    deck = list(ALL_CARD_IDS)
    rng.shuffle(deck)
    return [sorted(deck[i * 9 : (i + 1) * 9], key=ALL_CARD_IDS.index) for i in range(4)]


#: How a simulated player picks its card: (seat, the cards it still holds, its legal cards).
Chooser = Callable[[int, list[str], list[str]], str]


def play_round(
    rng: random.Random, hands: list[list[str]], contract: str, forehand: int, choose: Chooser | None = None
) -> list[tuple[int, str]]:
    """Play the dealt ``hands`` out; returns (seat, card) in play order.

    Each seat plays a random legal card unless ``choose`` picks one (tests script plays).
    """
    remaining = [list(h) for h in hands]
    plays: list[tuple[int, str]] = []
    leader = forehand
    for n in range(9):
        trick: list[str] = []
        seats: list[int] = []
        seat = leader
        for _ in range(4):
            allowed = set(legal_cards(remaining[seat], trick, contract))
            # In the order of the hand as dealt, so a seed always plays the same game.
            legal = [c for c in remaining[seat] if c in allowed]
            card = choose(seat, remaining[seat], legal) if choose else rng.choice(legal)
            remaining[seat].remove(card)
            trick.append(card)
            seats.append(seat)
            plays.append((seat, card))
            seat = next_seat(seat)
        leader = seats[trick_winner(trick, contract, trick=n)]
    return plays


def random_round(rng: random.Random, contract: str, forehand: int) -> tuple[list[list[str]], list[tuple[int, str]]]:
    """Deal 36 cards and play one whole legal round.

    Returns ``(hands, plays)``: the four dealt hands (index = seat) and the 36 plays as
    ``(seat, card)`` in play order, forehand leading the first trick.
    """
    hands = deal(rng)
    return hands, play_round(rng, hands, contract, forehand)


def round_events(
    rng: random.Random,
    contract: str,
    forehand: int,
    *,
    weis: bool = True,
    stoeck: bool = True,
    collect: bool = True,
    bodentrumpf: str | None = None,
    row: int | None = None,
    forecasts: tuple[int, int, int, int] | None = None,
) -> list[Event]:
    """Events of one random round: ``round_started`` (Coiffeur: with its ``row``), the
    Differenzler ``forecasts``, Weis, cards, Stöck calls, collects."""
    from scoring.events import WeisDeclared
    from scoring.weis import find_weis

    hands, plays = random_round(rng, contract, forehand)
    events: list[Event] = [RoundStarted(forehand=forehand, contract=contract, bodentrumpf=bodentrumpf, row=row)]
    if forecasts is not None:
        events += [ForecastMade(seat=seat, points=points) for seat, points in enumerate(forecasts)]
    played_by: dict[int, list[str]] = {s: [] for s in range(4)}
    trump = trump_suit(play_contract(contract))
    trick: list[tuple[int, str]] = []
    for n, (seat, card) in enumerate(plays):
        second = (
            stoeck
            and trump is not None
            and card in (f"{trump}-koenig", f"{trump}-ober")
            and {f"{trump}-koenig", f"{trump}-ober"} <= {*played_by[seat], card}
        )
        last = n == len(plays) - 1
        if second and last:
            # The round is counted with its last card: «Stöck» is said as it goes down.
            events.append(StoeckCalled(seat=seat))
        events.append(CardPlayed(seat=seat, card=card, source="manual"))
        if weis and not played_by[seat]:
            found = find_weis(hands[seat])
            if found:
                events.append(WeisDeclared(seat=seat, weis=tuple(w.cards for w in found)))
        played_by[seat].append(card)
        if second and not last:
            events.append(StoeckCalled(seat=seat))
        trick.append((seat, card))
        if len(trick) == 4:
            if collect:
                winner = trick[trick_winner([c for _, c in trick], contract, trick=n // 4)][0]
                events.append(TrickCollected(seat=winner))
            trick = []
    return events


def random_game_events(
    rng: random.Random,
    *,
    variant: str = "schieber",
    max_rounds: int = 60,
    contracts: tuple[str, ...] = CONTRACTS,
    weis: bool = True,
    stoeck: bool = True,
    collect: bool = True,
    **config: Any,
) -> list[Event]:
    """The event list of a whole random game, from ``game_configured`` to game over.

    Schieber: rounds with random contracts until the fold says the game is over (or
    ``max_rounds``). Speck: ``speck_games`` games with a random Bodentrumpf. Extra keyword
    arguments go into :class:`GameConfigured` (target, multipliers, ...).
    """
    from scoring.game import fold

    events: list[Event] = [GameConfigured(variant=variant, **config)]
    if variant in ("coiffeur", "differenzler"):
        return events + _rounds_of(rng, events[0], weis=weis, stoeck=stoeck, collect=collect)  # type: ignore[arg-type]
    speck = variant == "speck"
    n_games = events[0].speck_games - events[0].prior_games if isinstance(events[0], GameConfigured) else 12
    forehand = rng.randrange(4)
    for _ in range(n_games if speck else max_rounds):
        if speck:
            bottom = rng.choice(ALL_CARD_IDS)
            events += round_events(
                rng, card_suit(bottom), forehand, weis=False, stoeck=False, collect=collect, bodentrumpf=bottom
            )
        else:
            events += round_events(rng, rng.choice(contracts), forehand, weis=weis, stoeck=stoeck, collect=collect)
            if fold(events).game_over:
                break
        forehand = next_seat(forehand)
    return events


def _rounds_of(rng: random.Random, config: GameConfigured, *, weis: bool, stoeck: bool, collect: bool) -> list[Event]:
    """Coiffeur: every row once per team, the declaring team taking a random open row;
    Differenzler: its rounds, each with four random forecasts."""
    forehand = rng.randrange(4)
    events: list[Event] = []
    if config.variant == "coiffeur":
        open_rows = [list(range(len(config.rows))), list(range(len(config.rows)))]
        while open_rows[0] or open_rows[1]:
            team = forehand % 2
            if not open_rows[team]:
                forehand = next_seat(forehand)
                continue
            row = open_rows[team].pop(rng.randrange(len(open_rows[team])))
            events += round_events(
                rng, config.rows[row][0], forehand, weis=weis, stoeck=stoeck, collect=collect, row=row
            )
            forehand = next_seat(forehand)
        return events
    for _ in range(config.differenzler_rounds):
        guess = (rng.randrange(158), rng.randrange(158), rng.randrange(158), rng.randrange(158))
        events += round_events(
            rng, rng.choice(CONTRACTS), forehand, weis=weis, stoeck=stoeck, collect=collect, forecasts=guess
        )
        forehand = next_seat(forehand)
    return events
