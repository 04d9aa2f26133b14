"""Ranking players by points, with shared places (competition ranking: 1, 1, 3, 4).

Speck Jass 2.9: the higher total ranks first; equal totals are separated by the better
best single game (2.9.2). Players still equal after that share the place, as on a
paper sheet, and the next place is skipped (two second places, then fourth). Works for
any number of players: a table of four, or a whole tournament.

Order of the result: best first; among players sharing a place, by their position in
the input (seat order at a table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Ranked:
    """One player's line: ``index`` into the input, ``place`` (1 = first), the numbers ranked."""

    index: int
    place: int
    total: int
    best: int


def rank(totals: Sequence[int], best: Sequence[int]) -> tuple[Ranked, ...]:
    """Rank players by ``totals``, ties broken by ``best`` (each player's best single game)."""
    if len(totals) != len(best):
        raise ValueError("totals and best must have one entry per player")
    order = sorted(range(len(totals)), key=lambda i: (-totals[i], -best[i], i))
    out: list[Ranked] = []
    for n, i in enumerate(order):
        same = out and (out[-1].total, out[-1].best) == (totals[i], best[i])
        out.append(Ranked(i, out[-1].place if same else n + 1, totals[i], best[i]))
    return tuple(out)
