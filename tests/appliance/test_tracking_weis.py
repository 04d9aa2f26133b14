"""A Weis declared on the dashboard reaches the tracker: a declared card counts in the
seat of the player who declared it."""

from __future__ import annotations

from pathlib import Path

from jasscam.store import EventStore
from jasscam.tracking import GameTracker
from scoring.events import CardPlayed, GameConfigured, RoundStarted
from tests.tracker.table import Table
from tests.tracker.test_declared_weis import LEAD, WEIS, laid_together
from vision.tracker import TrickTracker
from vision.tracker.reread import CardReread, CardWithdrawn


def test_a_weis_declared_on_the_dashboard_during_the_trick_seats_its_card_when_two_are_laid_together(
    tmp_path: Path,
) -> None:
    with EventStore(tmp_path / "games.db") as store:
        game = store.new_game(GameConfigured())
        store.append(game, RoundStarted(forehand=2, contract="rosen"))
        glue = GameTracker(store, lambda _game: TrickTracker(), game=lambda: game)
        table = Table()
        laid_together(table)
        for i, frame in enumerate(table.frames):
            if i == 12:
                store.append(game, WEIS)  # entered on a phone while the lead lies there
            for event in glue(frame):
                assert not isinstance(event, (CardReread, CardWithdrawn))  # none in this trick
                store.append(game, event)
        played = [(e.seat, e.card) for e in store.events(game) if isinstance(e, CardPlayed)]
        assert played == [LEAD, (3, "eicheln-8"), (0, "schellen-7")]
