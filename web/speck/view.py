"""What the Speck screens show, derived from the event list (pure, no Flask).

Everything about the score comes from the rules engine (``scoring.game.fold``) and
:func:`web.speck.blatt.punkteblatt`; this module adds what a table needs to act: the
phase (waiting for the Bodentrumpf, playing, finished), who deals and who leads the next
game, the live points of the running game, and the 2.8 misplays with the rule's text and
the table's current ruling, so the ruling buttons know what is already decided.
"""

from __future__ import annotations

from typing import Any

from scoring.events import Event, EventVoided, MisplayRuled, event_to_dict
from scoring.game import GameState, PlayedCard, fold
from web.speck.blatt import dealer_of, next_forehand, punkteblatt
from web.speck.rules_text import rule

#: Flags that are misplays under section 2.8 (the table rules on them).
MISPLAY_CODES = frozenset({"out_of_turn", "not_following_suit", "not_following_trump", "undertrump"})


def voided_positions(events: list[Event]) -> set[int]:
    """Positions taken out by ``event_voided`` (read from the end: a void of a void restores)."""
    out: set[int] = set()
    for pos in range(len(events) - 1, -1, -1):
        ev = events[pos]
        if pos not in out and isinstance(ev, EventVoided):
            out.add(ev.ref)
    return out


def rulings(events: list[Event]) -> dict[int, dict[str, Any]]:
    """The table's latest ruling per card position: ``{ref: {ruling, pos}}``."""
    voided = voided_positions(events)
    out: dict[int, dict[str, Any]] = {}
    for pos, ev in enumerate(events):
        if isinstance(ev, MisplayRuled) and pos not in voided:
            out[ev.ref] = {"ruling": ev.ruling, "pos": pos}
    return out


def _card_at(events: list[Event], ref: int | None) -> str | None:
    if ref is None or not 0 <= ref < len(events):
        return None
    return getattr(events[ref], "card", None)


def _other_trumps(state: GameState, round_index: int | None, seat: int | None, skip: set[int]) -> list[PlayedCard]:
    """The seat's trumps laid in that round so far, except the Puur (2.8.4, trump revoke)."""
    if round_index is None or seat is None or not 0 <= round_index < len(state.rounds):
        return []
    rnd = state.rounds[round_index]
    if rnd.trump is None:
        return []
    laid = {c.ref: c for t in rnd.tricks for c in t.cards} | {c.ref: c for c in rnd.trick}
    return [
        c for c in laid.values()
        if c.seat == seat and c.ref not in skip and c.card.startswith(rnd.trump + "-") and c.card != f"{rnd.trump}-under"
    ]


def misplays(state: GameState, events: list[Event]) -> list[dict[str, Any]]:
    """The 2.8 misplay flags, newest first, with the rule text and the rulings so far.

    ``cards`` lists what the table can rule on: the misplayed card (``ref``) and, for
    2.8.4/2.8.5, the kept-back card that proved it (``evidence_ref``); both lose their
    trick value under the rule. A trump revoke (not following trump) adds every other
    trump the player has laid in that game except the Puur (``role: trump``): 2.8.4
    takes the trick value of all of them.
    """
    ruled = rulings(events)
    names = state.config.players
    out: list[dict[str, Any]] = []
    for i, f in enumerate(state.flags):
        if f.code not in MISPLAY_CODES:
            continue
        cards = []
        for role, ref in (("played", f.ref), ("kept", f.evidence_ref)):
            if ref is None:
                continue
            r = ruled.get(ref)
            cards.append({"role": role, "ref": ref, "card": _card_at(events, ref),
                          "ruling": r["ruling"] if r else None})
        if f.code == "not_following_trump":
            skip = {r for r in (f.ref, f.evidence_ref) if r is not None}
            for c in _other_trumps(state, f.round, f.seat, skip):
                r = ruled.get(c.ref)
                cards.append({"role": "trump", "ref": c.ref, "card": c.card, "ruling": r["ruling"] if r else None})
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
            {"code": f.code, "message": f.message, "rule": rule(f.rule), "game": None if f.round is None else f.round + 1}
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
            "game": cur.index + 1 - sum(1 for r in state.rounds[: cur.index] if r.abandoned),
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
