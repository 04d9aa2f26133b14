"""The dashboard's view of a game: the rules engine's state plus the raw event list.

web/ never computes rules. Everything about the score (tricks, Weis judgement, Stöck
window, totals, who won and by which block) comes from
``scoring.game.fold(events).to_dict()``; this module only adds what a screen needs that
is not a rule: the game id, the event count (the SSE ``id``), and the events themselves
with their positions, so a card can be tapped and corrected by position and the history
can show every correction.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from scoring.events import CardCorrected, CardPlayed, Event, TrickCollected, event_to_dict


def fold_state(events: list[Event]) -> dict[str, Any]:
    """``scoring.game.fold(events).to_dict()`` (imported here: the engine is a sibling package)."""
    from scoring.game import fold

    state: dict[str, Any] = fold(events).to_dict()
    return state


#: Camera reads below this confidence are marked on the phones, for the table to confirm
#: or correct with one tap: a wrong read must not look like a sure one.
UNSURE_BELOW = 0.6


def _written_by_hand(event: Event) -> bool:
    """Who wrote an event stored before the store kept it: the camera writes cards it saw and
    collections, the phones everything else (a reread correction from the camera looks
    like a phone's; such old games are the only place the guess is made)."""
    if isinstance(event, CardPlayed):
        return event.source == "manual"
    return not isinstance(event, TrickCollected)


def event_rows(events: list[Event], by_hand: list[bool | None] | None = None) -> list[dict[str, Any]]:
    """Each event as JSON with ``pos``, ``voided``, ``by_hand`` and the positions of its corrections.

    ``by_hand``: per position whether a phone wrote it (the store's record); missing or
    None entries are guessed from the event type.
    """
    from scoring.differenzler import hidden_positions, redact
    from scoring.game import voided_positions

    voided = voided_positions(events)
    try:
        hidden = hidden_positions(events)
    except Exception:  # a game the engine rejects: hide every forecast rather than show one
        hidden = {i for i, e in enumerate(events) if e.type == "forecast_made"}
    marks = by_hand or []
    rows = [
        {
            "pos": i,
            **(redact(event_to_dict(e)) if i in hidden else event_to_dict(e)),
            "voided": i in voided,
            "by_hand": marks[i] if i < len(marks) and marks[i] is not None else _written_by_hand(e),
        }
        for i, e in enumerate(events)
    ]
    for i, e in enumerate(events):
        if isinstance(e, CardCorrected) and 0 <= e.ref < len(rows) and i not in voided:
            rows[e.ref].setdefault("corrected_by", []).append(i)
    for row, e in zip(rows, events, strict=True):
        # A camera read the table should look at: below UNSURE_BELOW and nobody confirmed
        # or corrected it yet (a confirmation is a correction to the same card).
        if isinstance(e, CardPlayed) and e.confidence is not None and e.confidence < UNSURE_BELOW:
            row["unsure"] = not row.get("corrected_by") and not row["voided"]
    return rows


def contract_factors(config: dict[str, Any]) -> dict[str, int]:
    """The engine's multiplier for each contract under this game's table (for the buttons)."""
    from scoring.events import CONTRACTS
    from scoring.multipliers import multiplier

    table = config.get("multipliers", "default")
    return {c: multiplier(c, table, config.get("custom_multipliers")) for c in CONTRACTS}


def undo_target(rows: list[dict[str, Any]]) -> int | None:
    """The position ↶ takes back: the table's last action by hand that still counts.

    Camera events are never its target (a card or a collection the camera logged after a
    correction must not vanish by surprise; the history voids one explicitly), nor an
    undo itself (pressing ↶ twice steps back twice; the history restores a voided row).
    """
    for row in reversed(rows):
        if row["by_hand"] and not row["voided"] and row["type"] not in ("event_voided", "game_configured"):
            return int(row["pos"])
    return None


def game_view(
    game_id: int, events: list[Event], by_hand: list[bool | None] | None = None, abandoned: str | None = None
) -> dict[str, Any]:
    """The whole view of one game, as the snapshot the dashboard renders.

    ``state`` is the fold's ``to_dict()`` without ``rounds`` (every trick of every
    finished round): the screens need the current ``round`` and the ``sheet``, and
    leaving the rest out keeps each SSE frame small. The JSON export has everything.
    ``abandoned``: when the table ended this game unfinished (the store's record).
    """
    rows = event_rows(events, by_hand)
    view: dict[str, Any] = {
        "game": game_id,
        "count": len(events),
        "events": rows,
        "undo": undo_target(rows),
        "abandoned": abandoned,
    }
    try:
        state = fold_state(events)
        view["factors"] = contract_factors(state["config"])
        state.pop("rounds", None)
        view["state"] = state
        view["error"] = None
    except Exception as exc:  # a stored game that a newer engine rejects: show why, keep the events
        view["state"] = None
        view["error"] = f"{type(exc).__name__}: {exc}"
    return view


SHEET_COLUMNS = ["round", "contract", "multiplier", "match_team"] + [
    f"team{team}_{part}" for team in ("A", "B") for part in ("weis", "stoeck", "tricks", "round", "total")
]


def spreadsheet_text(text: str) -> str:
    """A name as a CSV cell a spreadsheet shows as text: a leading ``= + - @`` (or tab,
    return) would make it a formula (CSV injection), so such a cell starts with ``'``."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


#: Appended to every line, so each line of a file that was passed on still says which game it is.
META_COLUMNS = ["game", "date", "variant", "teamA_players", "teamB_players"]


def sheet_csv(state: dict[str, Any], meta: dict[str, Any] | None = None) -> str:
    """The Jasstafel as CSV: one line per written round, both teams' blocks side by side.

    ``round`` is 1-based as on a paper Jasstafel; ``match_team`` is A, B or empty. A game
    continued from paper starts with a line ``prior`` carrying the teams' totals. A last
    line ``winner`` names the winning team and the block that decided. ``meta`` (game,
    date, variant, players: ``web.stats.game_meta``) fills the columns ``META_COLUMNS``
    on every line.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    players = list((meta or {}).get("players") or state.get("config", {}).get("players") or [])
    players += [""] * (4 - len(players))
    tail = [
        (meta or {}).get("game", ""),
        (meta or {}).get("date") or "",
        (meta or {}).get("variant") or state.get("config", {}).get("variant", "schieber"),
        spreadsheet_text(f"{players[0]} & {players[2]}"),
        spreadsheet_text(f"{players[1]} & {players[3]}"),
    ]
    writer.writerow(SHEET_COLUMNS + META_COLUMNS)
    prior = state.get("config", {}).get("prior_totals")
    if prior:
        writer.writerow(["prior", "", "", ""] + [v for team in (0, 1) for v in ("", "", "", "", prior[team])] + tail)
    for row in state.get("sheet", []):
        match = row.get("match_team")
        line: list[Any] = [row["round"] + 1, row["contract"], row["multiplier"], "" if match is None else "AB"[match]]
        for team in (0, 1):
            written, total = row["written"][team], row["totals"][team]
            line += [written["weis"], written["stoeck"], written["tricks"], written["total"], total["total"]]
        writer.writerow(line + tail)
    over = state.get("game_over")
    if over:
        winner = "" if over.get("winner") is None else "AB"[over["winner"]]
        writer.writerow(["winner", winner, over.get("deciding_block") or "", ""] + [""] * 10 + tail)
    return out.getvalue()
