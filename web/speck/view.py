"""What the Speck screens show, derived from the event list (pure, no Flask).

Everything about the score and the rules comes from the engine (``scoring.game.fold``,
``scoring.speck``: the Punkteblatt, the deal, the cards a misplay ruling covers); this
module arranges it for a table to act on: the phase (waiting for the Bodentrumpf,
playing, finished), who deals and who leads the next game, the live points of the
running game, and the 2.8 misplays with the rule's text and the table's current ruling,
so the ruling buttons know what is already decided.
"""

from __future__ import annotations

from typing import Any

from scoring.events import Event, event_to_dict
from scoring.game import MISPLAY_CODES, GameState, fold, resolve
from scoring.speck import dealer_of, misplay_cards, next_forehand, punkteblatt
from web.speck.rules_text import rule


def misplays(state: GameState, events: list[Event]) -> list[dict[str, Any]]:
    """The 2.8 misplay flags, newest first, with the rule text and the rulings so far.

    ``cards`` lists what the table can rule on, as the engine says
    (``scoring.speck.misplay_cards``), each with the table's latest ruling.
    """
    ruled = resolve(events).rulings
    names = state.config.players
    out: list[dict[str, Any]] = []
    for i, f in enumerate(state.flags):
        if f.code not in MISPLAY_CODES:
            continue
        cards = [
            {"role": c.role, "ref": c.ref, "card": c.card, "ruling": ruled.get(c.ref)} for c in misplay_cards(state, f)
        ]
        out.append(
            {
                "id": i,
                "code": f.code,
                "message": f.message,
                "game": None if f.round is None else f.round + 1,
                "seat": f.seat,
                "name": names[f.seat] if f.seat is not None else None,
                "ref": f.ref,
                "evidence_ref": f.evidence_ref,
                "rule": rule(f.rule),
                "cards": cards,
                "decided": all(c["ruling"] is not None for c in cards),
            }
        )
    out.reverse()
    return out


def speck_view(game_id: int, events: list[Event], proposal: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole Speck screen of one game. ``proposal``: the camera's Bodentrumpf guess."""
    state = fold(events)
    cfg = state.config
    blatt = punkteblatt(state)
    cur = state.round
    if state.game_over is not None:
        phase = "over"
    elif cur is None or cur.complete or cur.abandoned:
        phase = "bodentrumpf"
    else:
        phase = "playing"
    view: dict[str, Any] = {
        "game": game_id,
        "count": len(events),
        "phase": phase,
        "players": list(cfg.players),
        "scorer": cfg.scorer,
        "blatt": blatt,
        "misplays": misplays(state, events),
        "other_flags": [
            {
                "code": f.code,
                "message": f.message,
                "rule": rule(f.rule),
                "game": None if f.round is None else f.round + 1,
            }
            for f in state.flags
            if f.code not in MISPLAY_CODES
        ],
        "next": None,
        "round": None,
        "proposal": proposal if phase == "bodentrumpf" else None,
        "last_event": event_to_dict(events[-1]) if events else None,
    }
    if phase == "bodentrumpf":
        fh = next_forehand(state)
        view["next"] = {"game": blatt["games_played"] + 1, "forehand": fh, "dealer": dealer_of(fh)}
    if cur is not None and not cur.abandoned:
        pts = list(cur.score.player_points)
        view["round"] = {
            "game": cfg.prior_games + cur.index + 1 - sum(1 for r in state.rounds[: cur.index] if r.abandoned),
            "bodentrumpf": cur.bodentrumpf,
            "trump": cur.contract,
            "forehand": cur.forehand,
            "dealer": dealer_of(cur.forehand),
            "to_play": cur.to_play,
            "trick": [{"seat": p.seat, "card": p.card, "ref": p.ref, "void": p.void} for p in cur.trick],
            "tricks": len(cur.tricks),
            "played": list(cur.played),
            "points": pts,
            "sum": sum(pts),
            "complete": cur.complete,
        }
    return view
