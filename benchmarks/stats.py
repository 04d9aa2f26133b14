"""How long the statistics page's data takes over a table's history: the first request
after a start folds every stored game; later ones fold only games that changed.

``BENCH_STATS_GAMES`` (default 40) simulated Schieber games are imported into a fresh
SQLite store; reported are the cold ``/api/stats`` (every game folded), a warm one, one
after a new round in one game, and a chart.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from pathlib import Path

from jasscam.store import EventStore
from scoring.events import RoundEntered
from scoring.simulate import random_game_events
from web.app import create_app

NAMES = ("Anna", "Beat", "Claudia", "Dario", "Eva", "Fritz", "Gina", "Hans")


def main() -> int:
    games = int(os.environ.get("BENCH_STATS_GAMES", "40"))
    rng = random.Random(33)
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "events.sqlite")
        events = 0
        for game in range(1, games + 1):
            players = tuple(rng.sample(NAMES, 4))
            log = random_game_events(random.Random(game), players=players)
            store.import_game(game, None, log[:-40])  # the last round still running, so a round can be added
            events += len(log) - 40
        client = create_app(store, pin="471108", settings_path=Path(tmp) / "d.json").test_client()

        def timed(url: str) -> float:
            t0 = time.perf_counter()
            assert client.get(url).status_code == 200, url
            return time.perf_counter() - t0

        cold = timed("/api/stats")
        warm = timed("/api/stats")
        store.append(games, RoundEntered(contract="rosen", team=0, points=100), by_hand=True)
        changed = timed("/api/stats")
        chart = timed("/api/stats/players.svg")
        store.close()
    print(f"{games} games, {events} events")
    print(f"/api/stats cold (every game folded): {cold * 1000:.0f} ms")
    print(f"/api/stats warm: {warm * 1000:.0f} ms")
    print(f"/api/stats after a round in one game: {changed * 1000:.0f} ms")
    print(f"/api/stats/players.svg warm: {chart * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
