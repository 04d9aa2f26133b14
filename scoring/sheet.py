"""The Jasstafel: the score sheet of a folded game, as a dict (JSON) and as text.

Schieber: a first row «Übertrag» with the totals carried over from paper (if the game
was continued from the Jasstafel), then per round the contract, multiplier, the three
blocks (Weis, Stöck, Stiche) per team as written (after the multiplier), Match, running
totals, and at the end the winner with the block that decided. Speck Jass: per game the points of each player,
the 157 check per game and games x 157 for the sheet, and the ranking.
"""

from __future__ import annotations

from typing import Any

from scoring.coiffeur import tafel
from scoring.differenzler import sheet as differenzler_sheet
from scoring.events import INDIVIDUAL_VARIANTS
from scoring.game import SPECK_GAME_POINTS, GameState
from scoring.variants.coiffeur import ROW_LABEL

#: How a contract is written on the sheet: the Coiffeur rows' names, one spelling for both.
CONTRACT_LABEL = ROW_LABEL
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
        "flags": [{k: v for k, v in vars(f).items() if v is not None} for f in state.flags],
        "game_over": None,
    }
    for row in state.sheet:
        entry: dict[str, Any] = {
            "round": row.round + 1,
            "contract": row.contract,
            "multiplier": row.multiplier,
            "by_hand": row.by_hand,
        }
        if row.row is not None:
            entry["row"] = row.row
        if cfg.variant == "differenzler":
            entry["forecasts"] = list(row.forecasts or ())
            entry["penalties"] = list(row.penalties or ())
        if cfg.variant in INDIVIDUAL_VARIANTS:
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
    if cfg.variant == "coiffeur":
        out["coiffeur"] = tafel(state).to_dict()
    elif cfg.variant == "differenzler":
        out["differenzler"] = differenzler_sheet(state).to_dict()
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
    text = {"speck": _speck_text, "coiffeur": _coiffeur_text, "differenzler": _differenzler_text}
    return text.get(state.config.variant, _schieber_text)(state)


def _schieber_text(state: GameState) -> str:
    cfg = state.config
    p = cfg.players
    lines = [
        f"Jasstafel Schieber · Ziel {cfg.target} · Faktoren {cfg.multipliers} · "
        f"Schluss {'-'.join(BLOCK_LABEL[b] for b in cfg.end_order)}",
        f"Team 1: {p[0]} & {p[2]}    Team 2: {p[1]} & {p[3]}",
        "",
    ]
    blocks = f"{'Weis':>5}{'Stöck':>6}{'Stiche':>7}{'Total':>7}"
    head = f"{'Runde':<6}{'Trumpf':<10}{'×':>2} │ {blocks} │ {blocks} │ Match"
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
        lead = f"{row.round + 1:<6}{CONTRACT_LABEL[row.contract]:<10}{row.multiplier:>2}"
        lines.append(f"{lead} │ {cells[0]} │ {cells[1]} │ {match}" + _by_hand(row.by_hand))
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
            + _by_hand(row.by_hand)
        )
    lines.append("─" * len(head))
    total = sum(state.player_totals)
    games = cfg.prior_games + len(state.sheet)
    expect = games * SPECK_GAME_POINTS
    lines.append(f"{'Total':<16}" + "".join(f"{v:>11}" for v in state.player_totals) + f"{total:>8}")
    lines.append(f"Kontrolle: {games} Spiele × 157 = {expect} ({'stimmt' if total == expect else 'FEHLER'})")
    if state.game_over is not None:
        over = state.game_over
        lines.append(
            "Rangliste: " + ", ".join(f"{p}. {cfg.players[s]}" for p, s in zip(over.places, over.ranking, strict=True))
        )
    return "\n".join(lines + _flag_lines(state)) + "\n"


def _by_hand(by_hand: bool) -> str:
    return "  (von Hand)" if by_hand else ""


def _coiffeur_text(state: GameState) -> str:
    p = state.config.players
    grid = tafel(state)
    lines = [
        f"Coiffeur · {len(grid.rows)} Zeilen",
        f"Team 1: {p[0]} & {p[2]}    Team 2: {p[1]} & {p[3]}",
        "",
        f"{'Zeile':<10}{'×':>3} │ {'Team 1':>18} │ {'Team 2':>18}",
    ]
    lines.append("─" * len(lines[-1]))
    for row in grid.rows:
        cells = []
        for cell in row.cells:
            if cell is None:
                cells.append(f"{'offen':>18}")
            else:
                note = (" M" if cell.match else "") + (" H" if cell.by_hand else "")
                cells.append(f"{f'{cell.taken} → {cell.written}{note}':>18}")
        lines.append(f"{row.label:<10}{row.factor:>3} │ {cells[0]} │ {cells[1]}")
    lines.append("─" * len(lines[3]))
    lines.append(f"{'Total':<13} │ {grid.totals[0]:>18} │ {grid.totals[1]:>18}")
    lines.append(
        f"Differenz: {abs(grid.difference)}" + (f" für Team {grid.leader + 1}" if grid.leader is not None else "")
    )
    lines.append("M = Match, H = von Hand eingetragen")
    if state.game_over is not None:
        lines.append(f"Spielende: {state.game_over.reason}")
    return "\n".join(lines + _flag_lines(state)) + "\n"


def _differenzler_text(state: GameState) -> str:
    cfg = state.config
    table = differenzler_sheet(state)
    names = [n[:10] for n in cfg.players]
    head = f"{'Runde':<6}{'Trumpf':<10}" + "".join(f"{n:>16}" for n in names)
    lines = [f"Differenzler · {cfg.differenzler_rounds} Runden · Prognose/Punkte/Differenz", "", head, "─" * len(head)]
    for line in table.rounds:
        cells = "".join(
            f"{f'{f if f is not None else 0}/{pts}/{pen}':>16}"
            for f, pts, pen in zip(line.forecasts, line.points, line.penalties, strict=True)
        )
        lines.append(f"{line.round + 1:<6}{CONTRACT_LABEL[line.contract]:<10}{cells}" + _by_hand(line.by_hand))
    lines.append("─" * len(head))
    lines.append(f"{'Strafpunkte':<16}" + "".join(f"{v:>16}" for v in table.penalty_totals))
    if state.game_over is not None:
        over = state.game_over
        lines.append(
            "Rangliste: " + ", ".join(f"{p}. {cfg.players[s]}" for p, s in zip(over.places, over.ranking, strict=True))
        )
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
