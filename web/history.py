"""The table's history: every stored game summarised for the statistics, the filtered
game list and the history exports.

Each game is folded by the rules engine (``scoring.statistics.summarize``) when it is
asked for; the result is kept in memory only while the game's events, and whether it was
abandoned, are unchanged, so a correction or a new round is seen at the next request and
nothing is ever kept as a second truth beside the store.
"""

from __future__ import annotations

import csv
import io
import threading
from collections.abc import Iterable, Mapping
from typing import Any

from scoring.events import GameConfigured, parse_event
from scoring.statistics import GameSummary, known_players, name_key, summarize
from web.i18n import STRINGS
from web.store import EventStore
from web.view import spreadsheet_text

#: The names a seat has when nobody typed one: the engine's default and the set-up's
#: placeholder in each language («Spieler 3»). They are nobody in particular.
PLACEHOLDERS: frozenset[str] = frozenset(
    name_key(f"{word} {seat}")
    for word in {"Spieler", *(strings["player"] for strings in STRINGS.values())}
    for seat in range(1, 5)
)


def anonymous(name: str) -> bool:
    """A seat left at its placeholder name."""
    return name_key(name) in PLACEHOLDERS


class Summaries:
    """Game summaries of one store, each folded again only when its game changed."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._lock = threading.Lock()
        # game -> ((event count, abandoned, created), summary): a game id the store gives
        # again after a deletion has another creation time
        self._cache: dict[int, tuple[tuple[int, bool, str], GameSummary]] = {}

    def all(self) -> list[GameSummary]:
        """Every game that still folds, oldest first (one the engine rejects is left out)."""
        out: list[GameSummary] = []
        rows = self.store.catalog()
        with self._lock:
            alive = {int(row["id"]) for row in rows}
            for gone in set(self._cache) - alive:
                del self._cache[gone]
            for row in rows:
                summary = self._summary(row)
                if summary is not None:
                    out.append(summary)
        return out

    def _summary(self, row: Mapping[str, Any]) -> GameSummary | None:
        game = int(row["id"])
        key = (int(row["events"]), bool(row.get("abandoned")), str(row.get("created")))
        cached = self._cache.get(game)
        if cached is not None and cached[0] == key:
            return cached[1]
        try:
            events = self.store.events(game)
            summary = summarize(game, events, self.store.times(game), created=row.get("created"), abandoned=key[1])
        except Exception:  # a game a newer engine rejects: the games list shows its error
            return None
        self._cache[game] = (key, summary)
        return summary


def players_of(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """The players the table has had, most recent first, from the games' configurations."""
    configs: list[tuple[int, GameConfigured]] = []
    for row in rows:
        config = row.get("config")
        if not config:
            continue
        try:
            parsed = parse_event(config)
        except Exception:  # an unreadable game must not hide the others' players
            continue
        if isinstance(parsed, GameConfigured):
            configs.append((int(row["id"]), parsed))
    return known_players(configs, anonymous)


def matches(config: Mapping[str, Any] | None, player: str | None, variant: str | None) -> bool:
    """Whether a game (its ``game_configured`` as JSON) has ``player`` and is of ``variant``."""
    if not config:
        return not player and not variant
    if variant and config.get("variant", "schieber") != variant:
        return False
    return not player or name_key(player) in {name_key(p) for p in config.get("players", [])}


HISTORY_COLUMNS = [
    "game",
    "date",
    "variant",
    "status",
    "players",
    "side1",
    "side2",
    "side3",
    "side4",
    "total1",
    "total2",
    "total3",
    "total4",
    "winner",
    "rounds",
    "minutes",
    "bergpreis",
]


def history_csv(summaries: Iterable[GameSummary]) -> str:
    """One line per game: date, variant, players, sides, totals, winner, time, Bergpreis.

    Sides are the teams (``Anna & Claudia``) or, in games of each for themselves, the
    players; ``total1..`` belong to the sides in the same order.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HISTORY_COLUMNS)
    for s in summaries:
        data = s.to_dict()
        sides = [spreadsheet_text(" & ".join(side)) for side in data["sides"]]
        status = "finished" if s.finished else "abandoned" if s.abandoned else "running"
        writer.writerow(
            [
                s.game,
                s.created or "",
                s.variant,
                status,
                spreadsheet_text(", ".join(s.players)),
                *(sides + [""] * 4)[:4],
                *(list(s.totals) + [""] * 4)[:4],
                spreadsheet_text(" / ".join(" & ".join(w) for w in data["winners"])),
                s.rounds,
                round(s.seconds / 60),
                spreadsheet_text(" & ".join(data["bergpreis"] or [])),
            ]
        )
    return out.getvalue()
