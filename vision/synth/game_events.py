"""The untimed events of a random legal game to render: what is played, before
``vision.synth.game`` decides how it looks and when."""

from __future__ import annotations

import random

from scoring.events import CONTRACTS, ROUND_CONTRACTS, Event, GameConfigured
from scoring.rules import next_seat

VARIANTS = ("schieber", "speck", "coiffeur", "differenzler")


# ---------------------------------------------------------------- the game itself


def simulate_game(seed: int, *, rounds: int = 1, contract: str | None = None, variant: str = "schieber") -> list[Event]:
    """The untimed events of a random legal game: ``game_configured`` then ``rounds`` rounds, or
    fewer where a team reaches the target before."""
    from scoring import simulate
    from scoring.game import fold

    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {rounds}")
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    allowed = ROUND_CONTRACTS if variant == "coiffeur" else CONTRACTS
    if contract is not None and contract not in allowed:
        raise ValueError(f"contract must be one of {', '.join(allowed)}, got {contract!r}")
    rng = random.Random(seed)
    if variant == "speck":
        return simulate.random_game_events(rng, variant="speck", speck_games=rounds)
    config = GameConfigured(variant=variant, differenzler_rounds=rounds if variant == "differenzler" else 12)
    events: list[Event] = [config]
    forehand = rng.randrange(4)
    played: set[tuple[int, int]] = set()  # Coiffeur: (team, row) already played
    for k in range(rounds):
        if k and fold(events).game_over is not None:
            break  # a team reached the target: the game ends there, as a table's would
        if variant == "coiffeur":
            # The declaring team takes the row of ``contract``, else a random row still open.
            team = forehand % 2
            rows = [i for i, (c, _f) in enumerate(config.rows) if (team, i) not in played and contract in (None, c)]
            if not rows:
                raise ValueError(
                    f"team {team + 1} has no open Coiffeur row{' for ' + contract if contract else ''} left"
                )
            row = rng.choice(rows)
            played.add((team, row))
            events += simulate.round_events(rng, config.rows[row][0], forehand, row=row)
        elif variant == "differenzler":
            guess = (rng.randrange(158), rng.randrange(158), rng.randrange(158), rng.randrange(158))
            events += simulate.round_events(
                rng, contract or rng.choice(CONTRACTS), forehand, weis=False, stoeck=False, forecasts=guess
            )
        else:
            events += simulate.round_events(rng, contract or rng.choice(CONTRACTS), forehand)
        forehand = next_seat(forehand)
    return events
