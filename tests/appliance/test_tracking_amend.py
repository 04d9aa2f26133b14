"""The table's correction of a card reaches the tracker: who leads next follows it."""

from __future__ import annotations

from pathlib import Path

from jasscam.store import EventStore
from jasscam.tracking import GameTracker
from scoring.events import CardCorrected, CardPlayed, EventVoided, GameConfigured, RoundStarted, TrickCollected
from scoring.game import fold
from tests.tracker.table import CENTRE, Table
from vision.tracker import TrickTracker
from vision.tracker.reread import CardReread, CardWithdrawn

# Eicheln trumps: seat 2's Eicheln 9 wins the trick. Read as the Rosen 9, seat 1's ace would.
TRICK = [(0, "rosen-6"), (1, "rosen-ass"), (2, "eicheln-9"), (3, "rosen-10")]


def new_round(store: EventStore) -> tuple[int, GameTracker]:
    """A game whose round (seat 0 leads, Eicheln trumps) has just begun, and the glue
    following it with a fresh tracker, as the appliance has it."""
    game = store.new_game(GameConfigured())
    store.append(game, RoundStarted(forehand=0, contract="eicheln"))
    return game, GameTracker(store, lambda _game: TrickTracker(), game=lambda: game)


def feed(glue: GameTracker, store: EventStore, game: int, table: Table, start: int) -> int:
    """The frames ``table`` recorded since ``start`` through the glue, storing what the
    camera reports as the pipeline does; returns where it got to."""
    for frame in table.frames[start:]:
        for event in glue(frame):
            assert not isinstance(event, (CardReread, CardWithdrawn))
            store.append(game, event)
    return len(table.frames)


def test_a_card_the_table_corrects_in_the_last_trick_moves_the_lead_to_its_true_winner(tmp_path: Path) -> None:
    with EventStore(tmp_path / "games.db") as store:
        game, glue = new_round(store)
        table = Table()
        table.reads_as["eicheln-9"] = ("rosen-9", 0.9, ())  # the camera misreads seat 2's card
        for seat, card in TRICK:
            table.lay(card, seat, rest=8)
        table.sweep(2)  # seat 2 takes the trick it won
        table.step(5)
        done = feed(glue, store, game, table, 0)
        events = store.events(game)
        misread = next(i for i, e in enumerate(events) if isinstance(e, CardPlayed) and e.card == "rosen-9")
        assert sum(isinstance(e, TrickCollected) for e in events) == 1
        # The table puts the card right on the dashboard: seat 2 won the trick and leads.
        store.append(game, CardCorrected(ref=misread, card="eicheln-9"))
        # Seat 2 lays the next lead near the middle, its hand not seen: nothing but the
        # turn says whose card it is.
        table.lay("schellen-6", 2, slide=1, at=(CENTRE[0], CENTRE[1] - 20), start=(CENTRE[0], CENTRE[1] - 20), rest=10)
        feed(glue, store, game, table, done)
        lead = [e for e in store.events(game) if isinstance(e, CardPlayed)][-1]
        assert (lead.seat, lead.card) == (2, "schellen-6")
        state = fold(store.events(game))
        assert [f.code for f in state.flags] == []


def test_a_card_the_table_takes_out_of_the_trick_on_the_table_gives_its_turn_back(tmp_path: Path) -> None:
    with EventStore(tmp_path / "games.db") as store:
        game, glue = new_round(store)
        table = Table()
        table.lay("rosen-6", 0, rest=8)
        # Something on the table that is no card (a coaster) is read as one, and counted.
        table.lay("schilten-koenig", 1, slide=1, at=(420.0, 300.0), start=(420.0, 300.0), rest=8)
        done = feed(glue, store, game, table, 0)
        events = store.events(game)
        ghost = next(i for i, e in enumerate(events) if isinstance(e, CardPlayed) and e.card == "schilten-koenig")
        store.append(game, EventVoided(ref=ghost))  # the table takes it out on the dashboard
        # Seat 1 lays its real card near the middle; the coaster still lies there.
        table.lay("rosen-ass", 1, slide=1, at=(CENTRE[0] + 25, CENTRE[1]), start=(CENTRE[0] + 25, CENTRE[1]), rest=10)
        feed(glue, store, game, table, done)
        state = fold(store.events(game))
        assert state.round is not None
        assert [(c.seat, c.card) for c in state.round.trick] == [(0, "rosen-6"), (1, "rosen-ass")]
        assert [f.code for f in state.flags] == []
