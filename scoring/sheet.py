"""The Jasstafel: the score sheet of a folded game, as a dict (JSON) and as text.

Schieber: a first row «Übertrag» with the totals carried over from paper (if the game
was continued from the Jasstafel), then per round the contract, multiplier, the three
blocks (Weis, Stöck, Stiche) per team as written (after the multiplier), Match, running
totals, and at the end the winner with the block that decided. Speck Jass: per game the points of each player,
the 157 check per game and games x 157 for the sheet, and the ranking.
"""

from __future__ import annotations

from typing import Any

from scoring.game import SPECK_GAME_POINTS, GameState

CONTRACT_LABEL = {
    "eicheln": "Eicheln",
    "schilten": "Schilten",
    "rosen": "Rosen",
    "schellen": "Schellen",
    "obenabe": "Obenabe",
    "undenufe": "Undenufe",
}
BLOCK_LABEL = {"weis": "Weis", "stoeck": "Stöck", "tricks": "Stiche"}


def sheet_dict(state: GameState) -> dict[str, Any]:
    """The sheet as plain JSON data (smaller than ``GameState.to_dict``)."""
    cfg = state.config
    out: dict[str, Any] = {
        "variant": cfg.variant,
        "players": list(cfg.players),
        "target": cfg.target,
        "multipliers": cfg.multipliers,
        "end_order": list(cfg.end_order),
        "target_rule": cfg.target_rule,
        "prior_totals": None if cfg.prior_totals is None else list(cfg.prior_totals),
        "rounds": [],
        "flags": [
            {k: v for k, v in vars(f).items() if v is not None} for f in state.flags
        ],
        "game_over": None,
    }
    for row in state.sheet:
        entry: dict[str, Any] = {"round": row.round + 1, "contract": row.contract, "multiplier": row.multiplier}
        if cfg.variant == "speck":
            entry["points"] = list(row.player_points)
            entry["sum"] = sum(row.player_points)
            entry["totals"] = list(row.player_totals)
        else:
            entry["teams"] = [b.to_dict() for b in row.written]
            entry["totals"] = [b.to_dict() for b in row.totals]
            entry["match_team"] = row.match_team
        out["rounds"].append(entry)
    if cfg.variant == "speck":
        games = len(state.sheet)
        out["player_totals"] = list(state.player_totals)
        games += cfg.prior_games
        out["prior_games"] = cfg.prior_games
        out["sum_check"] = {
            "games": games,
            "expected": games * SPECK_GAME_POINTS,
            "actual": sum(state.player_totals),
            "ok": sum(state.player_totals) == games * SPECK_GAME_POINTS,
        }
    else:
        out["totals"] = [b.to_dict() for b in state.totals]
    if state.game_over is not None:
        over = state.game_over
        out["game_over"] = {
            "round": over.round + 1,
            "winner": over.winner,
            "deciding_block": over.deciding_block,
            "reason": over.reason,
            "ranking": list(over.ranking),
            "places": list(over.places),
        }
    return out


def format_sheet(state: GameState) -> str:
    """A readable Jasstafel (German labels) for the terminal."""
    return _speck_text(state) if state.config.variant == "speck" else _schieber_text(state)


def _schieber_text(state: GameState) -> str:
    cfg = state.config
    p = cfg.players
    lines = [
        f"Jasstafel Schieber · Ziel {cfg.target} · Faktoren {cfg.multipliers} · "
        f"Schluss {'-'.join(BLOCK_LABEL[b] for b in cfg.end_order)}",
        f"Team 1: {p[0]} & {p[2]}    Team 2: {p[1]} & {p[3]}",
        "",
    ]
    head = f"{'Runde':<6}{'Trumpf':<10}{'×':>2} │ {'Weis':>5}{'Stöck':>6}{'Stiche':>7}{'Total':>7} │ {'Weis':>5}{'Stöck':>6}{'Stiche':>7}{'Total':>7} │ Match"
    lines += [f"{'':<18} │ {'Team 1':^25} │ {'Team 2':^25} │", head, "─" * len(head)]
    if cfg.prior_totals is not None:
        team_a, team_b = cfg.prior_totals
        lines.append(f"{'Übertrag':<18} │ {'':>18}{team_a:>7} │ {'':>18}{team_b:>7} │")
    for row in state.sheet:
        cells = []
        for team in (0, 1):
            b = row.written[team]
            cells.append(f"{b.weis:>5}{b.stoeck:>6}{b.tricks:>7}{row.totals[team].total:>7}")
        match = f"Team {row.match_team + 1}" if row.match_team is not None else ""
        lines.append(f"{row.round + 1:<6}{CONTRACT_LABEL[row.contract]:<10}{row.multiplier:>2} │ {cells[0]} │ {cells[1]} │ {match}")
    lines.append("─" * len(head))
    tot = state.totals
    lines.append(
        f"{'Summe':<18} │ {tot[0].weis:>5}{tot[0].stoeck:>6}{tot[0].tricks:>7}{tot[0].total:>7} │ "
        f"{tot[1].weis:>5}{tot[1].stoeck:>6}{tot[1].tricks:>7}{tot[1].total:>7} │"
    )
    over = state.game_over
    if over is not None:
        if over.winner is None:
            lines.append(f"Spielende nach Runde {over.round + 1}: unentschieden ({over.reason})")
        else:
            block = BLOCK_LABEL.get(over.deciding_block or "", "?")
            lines.append(f"Sieger: Team {over.winner + 1} nach Runde {over.round + 1}, entschieden im Block {block}")
    elif state.round is not None and not state.round.complete:
        lines.append(f"Runde {state.round.index + 1} läuft ({len(state.round.played)} von 36 Karten)")
    return "\n".join(lines + _flag_lines(state)) + "\n"


def _speck_text(state: GameState) -> str:
    cfg = state.config
    names = [n[:10] for n in cfg.players]
    head = f"{'Spiel':<6}{'Trumpf':<10}" + "".join(f"{n:>11}" for n in names) + f"{'Summe':>8}"
    lines = [f"Speck Jass · {cfg.speck_games} Spiele", "", head, "─" * len(head)]
    if cfg.prior_totals is not None:
        label = f"Übertrag {cfg.prior_games} Sp."
        lines.append(f"{label:<16}" + "".join(f"{v:>11}" for v in cfg.prior_totals) + f"{sum(cfg.prior_totals):>8}")
    for n, row in enumerate(state.sheet):
        s = sum(row.player_points)
        mark = "" if s == SPECK_GAME_POINTS else "  ≠157!"
        lines.append(
            f"{cfg.prior_games + n + 1:<6}{CONTRACT_LABEL[row.contract]:<10}"
            + "".join(f"{v:>11}" for v in row.player_points)
            + f"{s:>8}{mark}"
        )
    lines.append("─" * len(head))
    total = sum(state.player_totals)
    games = cfg.prior_games + len(state.sheet)
    expect = games * SPECK_GAME_POINTS
    lines.append(f"{'Total':<16}" + "".join(f"{v:>11}" for v in state.player_totals) + f"{total:>8}")
    lines.append(f"Kontrolle: {games} Spiele × 157 = {expect} ({'stimmt' if total == expect else 'FEHLER'})")
    if state.game_over is not None:
        over = state.game_over
        lines.append("Rangliste: " + ", ".join(f"{p}. {cfg.players[s]}" for p, s in zip(over.places, over.ranking, strict=True)))
    return "\n".join(lines + _flag_lines(state)) + "\n"


def _flag_lines(state: GameState) -> list[str]:
    if not state.flags:
        return []
    out = ["", "Hinweise für den Tisch:"]
    for f in state.flags:
        where = f"Runde {f.round + 1}, " if f.round is not None else ""
        ref = f"Ereignis {f.ref}" if f.ref is not None else ""
        rule = f" (Regel {f.rule})" if f.rule else ""
        out.append(f"  {where}{ref}: {f.message}{rule} [{f.code}]")
    return out
