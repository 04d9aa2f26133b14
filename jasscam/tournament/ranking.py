"""The tournament's ranking from all tables' messages (pure).

2.9: by the total over all games played, ties broken by the best single game; players
still equal share the place. Each player is listed with the table and the games played,
so a table that is behind is visible; a table whose sheet does not add up (games x 157)
is named in ``problems`` for the Jassleitung (4.3).
"""

from __future__ import annotations

from typing import Any

from scoring.speck import ranking as rank_players


def tournament_ranking(tables: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """``tables``: table name -> its message (``jasscam.tournament.topics.table_message``)."""
    names: list[str] = []
    totals: list[int] = []
    best: list[int] = []
    who: list[dict[str, Any]] = []
    problems: list[str] = []
    summary: list[dict[str, Any]] = []
    for table in sorted(tables, key=_table_key):
        msg = tables[table]
        blatt = msg.get("blatt") or {}
        players = blatt.get("players") or []
        if len(players) != 4:
            problems.append(f"Tisch {table}: keine gültige Meldung")
            continue
        check = blatt.get("check", {})
        if not check.get("ok", False):
            problems.append(
                f"Tisch {table}: Kontrolle {check.get('games')} × 157 = {check.get('expected')}, "
                f"Total {check.get('actual')}"
            )
        summary.append(
            {
                "table": table,
                "games_played": blatt.get("games_played", 0),
                "games_planned": blatt.get("games_planned"),
                "complete": bool(blatt.get("complete")),
                "check_ok": bool(check.get("ok")),
                "updated": msg.get("updated"),
                "online": msg.get("online"),
            }
        )
        for seat, name in enumerate(players):
            names.append(name)
            totals.append(int(blatt["totals"][seat]))
            best.append(int(blatt["best"][seat]))
            who.append({"table": table, "seat": seat, "games": blatt.get("games_played", 0)})
    rows = rank_players(names, totals, best)
    for row in rows:
        row.update(who[row.pop("index")])
    return {"ranking": rows, "tables": summary, "problems": problems}


def _table_key(name: str) -> tuple[int, str]:
    return (int(name), "") if name.isdigit() else (1 << 30, name)
