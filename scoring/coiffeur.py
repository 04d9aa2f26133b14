"""The Coiffeur Tafel: every row, both teams, which rows are still open, the totals and
the difference; and the ``round_started`` of a chosen row.

The rules are in ``scoring.variants.coiffeur``; this module arranges what the fold wrote
into the grid a table keeps on paper, so the dashboard, the CLI and the export show the
same grid. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring.events import RoundStarted
from scoring.rules import partner_of
from scoring.state import GameState
from scoring.variants.coiffeur import ROW_LABEL


class NotCoiffeurError(ValueError):
    """A Coiffeur Tafel or row was asked for a game that is not Coiffeur."""


@dataclass(frozen=True)
class Cell:
    """A played row of one team: the round, the points that count (``taken``: the
    team's card points with the last trick and any Match bonus, Weis and Stöck; Misère:
    what it did not take), the row's value after the factor (``written``)."""

    round: int
    taken: int
    written: int
    match: bool
    by_hand: bool


@dataclass(frozen=True)
class Row:
    index: int
    contract: str
    label: str
    factor: int
    cells: tuple[Cell | None, Cell | None]


@dataclass(frozen=True)
class Tafel:
    """The Coiffeur grid. ``open``: per team the row indexes still to play; ``difference``:
    team 1 minus team 2; ``leader``: the team ahead (None when level); ``playing``: the
    (row, team) of the round under way, still open until it is complete."""

    rows: tuple[Row, ...]
    open: tuple[tuple[int, ...], tuple[int, ...]]
    totals: tuple[int, int]
    difference: int
    leader: int | None
    complete: bool
    playing: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": [
                {
                    "index": r.index,
                    "contract": r.contract,
                    "label": r.label,
                    "factor": r.factor,
                    "cells": [None if c is None else vars(c).copy() for c in r.cells],
                }
                for r in self.rows
            ],
            "open": [list(o) for o in self.open],
            "totals": list(self.totals),
            "difference": self.difference,
            "leader": self.leader,
            "complete": self.complete,
            "playing": None if self.playing is None else {"row": self.playing[0], "team": self.playing[1]},
        }


def tafel(state: GameState) -> Tafel:
    """The Coiffeur grid of a folded Coiffeur game."""
    cfg = state.config
    if cfg.variant != "coiffeur":
        raise NotCoiffeurError(f"a Coiffeur Tafel is kept for Coiffeur, this game is {cfg.variant}")
    cells: dict[tuple[int, int], Cell] = {}
    for row in state.sheet:
        if row.row is None:
            continue
        rnd = next(r for r in state.rounds if r.index == row.round)
        team = rnd.declarer % 2
        factor = row.multiplier
        written = row.written[team].total
        cells[(row.row, team)] = Cell(row.round, written // factor, written, row.match_team == team, row.by_hand)
    rows = tuple(
        Row(i, contract, ROW_LABEL[contract], factor, (cells.get((i, 0)), cells.get((i, 1))))
        for i, (contract, factor) in enumerate(cfg.rows)
    )
    open_rows = tuple(tuple(r.index for r in rows if r.cells[t] is None) for t in (0, 1))
    totals = (
        sum(c.written for (_r, team), c in cells.items() if team == 0),
        sum(c.written for (_r, team), c in cells.items() if team == 1),
    )
    diff = totals[0] - totals[1]
    r = state.round
    playing = (
        (r.row, r.declarer % 2) if r is not None and r.row is not None and not r.complete and not r.abandoned else None
    )
    return Tafel(
        rows,
        (open_rows[0], open_rows[1]),
        totals,
        diff,
        None if diff == 0 else (0 if diff > 0 else 1),
        not open_rows[0] and not open_rows[1],
        playing,
    )


def row_round(state: GameState, row: int, *, schoben: bool = False, forehand: int | None = None) -> RoundStarted:
    """The ``round_started`` for the team whose turn it is playing ``row``.

    Forehand is the engine's next forehand (``GameState.next_forehand``; any seat, here 0,
    before the first round) unless given; after Schieben the partner chose the row. The
    fold checks that the row is still open for that team.
    """
    cfg = state.config
    if cfg.variant != "coiffeur":
        raise NotCoiffeurError(f"rows belong to Coiffeur, this game is {cfg.variant}")
    if not 0 <= row < len(cfg.rows):
        raise NotCoiffeurError(f"row {row} does not exist: this game has {len(cfg.rows)} rows (0..{len(cfg.rows) - 1})")
    seat = forehand if forehand is not None else (state.next_forehand if state.next_forehand is not None else 0)
    return RoundStarted(
        forehand=seat,
        contract=cfg.rows[row][0],
        schoben=schoben,
        declarer=partner_of(seat) if schoben else seat,
        row=row,
    )
