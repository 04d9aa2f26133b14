"""The Differenzler sheet, and keeping each forecast secret until its round ends.

The rules are in ``scoring.variants.differenzler``; this module arranges what the fold
wrote into the sheet (per round each player's forecast, points and penalty; the penalty
totals and the ranking, lowest first) and answers the two questions a server needs to
keep a forecast from the other players' phones: which events to show without their
points (:func:`hidden_positions`) and what each seat forecast for the round under way
(:func:`open_forecasts`, for the phone that made it). Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.events import Event, ForecastMade
from scoring.ranking import rank
from scoring.state import GameState


class NotDifferenzlerError(ValueError):
    """A Differenzler sheet was asked for a game that is not Differenzler."""


@dataclass(frozen=True)
class SheetLine:
    round: int
    contract: str
    forecasts: tuple[int | None, ...]
    points: tuple[int, ...]
    penalties: tuple[int, ...]
    by_hand: bool


@dataclass(frozen=True)
class DifferenzlerSheet:
    """Rounds played, the penalty totals per seat, who has forecast for the round under
    way, and the ranking by the lowest total penalty (equal totals share the place)."""

    rounds: tuple[SheetLine, ...]
    penalty_totals: tuple[int, int, int, int]
    rounds_planned: int
    forecast_given: tuple[bool, bool, bool, bool]
    ranking: tuple[int, ...]
    places: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": [
                {
                    "round": line.round,
                    "contract": line.contract,
                    "forecasts": list(line.forecasts),
                    "points": list(line.points),
                    "penalties": list(line.penalties),
                    "by_hand": line.by_hand,
                }
                for line in self.rounds
            ],
            "penalty_totals": list(self.penalty_totals),
            "rounds_planned": self.rounds_planned,
            "rounds_played": len(self.rounds),
            "forecast_given": list(self.forecast_given),
            "ranking": list(self.ranking),
            "places": list(self.places),
        }


def sheet(state: GameState) -> DifferenzlerSheet:
    """The Differenzler sheet of a folded Differenzler game."""
    cfg = state.config
    if cfg.variant != "differenzler":
        raise NotDifferenzlerError(f"a Differenzler sheet is kept for Differenzler, this game is {cfg.variant}")
    lines = tuple(
        SheetLine(
            row.round,
            row.contract,
            row.forecasts or (None,) * 4,
            row.player_points,
            row.penalties or (0,) * 4,
            row.by_hand,
        )
        for row in state.sheet
    )
    totals = [sum(line.penalties[s] for line in lines) for s in range(4)]
    ranked = rank([-t for t in totals], [0, 0, 0, 0])
    r = state.round
    running = r is not None and not r.complete and not r.abandoned and r.forecast_given is not None
    given = r.forecast_given if running and r is not None and r.forecast_given is not None else state.pending_forecasts
    return DifferenzlerSheet(
        lines,
        (totals[0], totals[1], totals[2], totals[3]),
        cfg.differenzler_rounds,
        given,
        tuple(x.index for x in ranked),
        tuple(x.place for x in ranked),
    )


def hidden_positions(events: Sequence[Event]) -> set[int]:
    """Positions of ``forecast_made`` events whose round is not over yet: every screen
    and export shows them without their points (``scoring.game.hidden_forecasts``)."""
    from scoring.game import hidden_forecasts

    return hidden_forecasts(events)


def open_forecasts(events: Sequence[Event]) -> dict[int, int]:
    """Each seat's forecast for the round about to be played or under way (seat -> points):
    the latest of the seat's forecasts still hidden and not undone."""
    from scoring.game import voided_positions

    voided = voided_positions(events)
    out: dict[int, int] = {}
    for i in sorted(hidden_positions(events)):
        e = events[i]
        if i not in voided and isinstance(e, ForecastMade):
            out[e.seat] = e.points
    return out


def redact(row: dict[str, Any]) -> dict[str, Any]:
    """An event's JSON with a hidden forecast's points taken out (``hidden: true`` instead)."""
    out = {k: v for k, v in row.items() if k != "points"}
    out["hidden"] = True
    return out
