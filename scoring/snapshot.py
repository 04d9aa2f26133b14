"""The folded game as the world sees it: ``GameState`` and ``RoundState`` from the fold.

The fold's working records (``scoring.round_play``) are mutable and hold what only the
fold needs; the state is frozen and holds what the dashboard, the sheet and the
statistics read, with a JSON form (``GameState.to_dict``). Differenzler forecasts stay
secret here: the state never holds one whose round is not over.
"""

from __future__ import annotations

from scoring.errors import RuleError
from scoring.folder import Folder
from scoring.round_play import RoundRecord
from scoring.score import declarer_of, round_score, weis_entries
from scoring.state import GameState, RoundState, SheetRow


def add4(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Per-seat points added seat by seat."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def game_state(folder: Folder, total: int, applied: int) -> GameState:
    """The frozen state of the folded game: every round, the Tafel row by row, the flags.

    ``total``: events in the list; ``applied``: how many were left after resolution.
    """
    cfg = folder.config
    if cfg is None:
        raise RuleError("no game_configured event: an empty game has no state")
    rounds = tuple(round_state(folder, r) for r in folder.rounds)
    sheet: list[SheetRow] = []
    totals = folder.variant.prior_blocks()
    ptot = folder.variant.prior_players()
    over = folder.game_over()
    for r in rounds:
        if not r.complete or r.abandoned:
            continue
        w = r.score.written
        totals = (totals[0] + w[0], totals[1] + w[1])
        ptot = add4(ptot, r.score.player_points)
        sheet.append(
            SheetRow(
                r.index,
                r.contract,
                r.multiplier,
                w,
                totals,
                r.score.match_team,
                r.score.last_trick_team,
                r.score.player_points,
                ptot,
                r.by_hand,
                r.row,
                r.forecasts,
                r.penalties,
            )
        )
    return GameState(
        config=cfg,
        variant=cfg.variant,
        events_total=total,
        events_applied=applied,
        round_index=rounds[-1].index if rounds else -1,
        round=rounds[-1] if rounds else None,
        rounds=rounds,
        sheet=tuple(sheet),
        totals=totals,
        player_totals=ptot,
        flags=tuple(folder.flags),
        game_over=over,
        next_forehand=folder.next_forehand(),
        pending_forecasts=(0 in folder.pending, 1 in folder.pending, 2 in folder.pending, 3 in folder.pending),
    )


def round_state(folder: Folder, r: RoundRecord) -> RoundState:
    """One round as the dashboard sees it; a Differenzler forecast only once the round is over."""
    cfg = folder.config
    assert cfg is not None
    score, _written, pen = round_score(r, folder.variant)
    entries, team = weis_entries(r, cfg, individual=folder.variant.individual)
    over = r.complete or r.abandoned
    forecasts = given = None
    if folder.variant.forecasts:
        # Secret until the round is over: the state never holds an open forecast.
        given = (0 in r.forecasts, 1 in r.forecasts, 2 in r.forecasts, 3 in r.forecasts)
        shown = [r.forecasts[s][0] if over and s in r.forecasts else None for s in range(4)]
        forecasts = (shown[0], shown[1], shown[2], shown[3])
    return RoundState(
        index=r.index,
        ref=r.ref,
        contract=r.contract,
        trump=r.trump,
        multiplier=r.multiplier,
        forehand=r.start.forehand,
        declarer=declarer_of(r.start),
        schoben=r.start.schoben,
        bodentrumpf=r.start.bodentrumpf,
        leader=None if r.complete else (r.open_trick[0].seat if r.open_trick else r.expected_seat()),
        to_play=None if r.abandoned else r.expected_seat(),
        trick=tuple(r.table),
        tricks=tuple(r.tricks),
        played=tuple(p.card for p in r.plays),
        complete=r.complete,
        abandoned=r.abandoned,
        weis=entries,
        weis_team=team,
        stoeck=r.stoeck.state(),
        score=score,
        by_hand=r.entered is not None,
        row=r.start.row,
        forecasts=forecasts,
        forecast_given=given,
        penalties=pen,
    )


__all__ = ["game_state", "round_state"]
