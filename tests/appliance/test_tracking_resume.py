"""The tracker glue resumes a round under way from the store after a restart."""

from __future__ import annotations

import random
from pathlib import Path

from jasscam.store import EventStore
from jasscam.tracking import GameTracker
from scoring.events import CardCorrected, CardPlayed, GameConfigured, RoundStarted, TrickCollected
from scoring.rules import trick_winner
from scoring.simulate import random_round
from vision.tracker import TrickTracker


def stored_round(
    store: EventStore, tricks: int, on_table: int, unseen_in: int | None = None, unseen: tuple[int, ...] = (1,)
) -> tuple[int, list[tuple[int, str]]]:
    """A game whose round has ``tricks`` collected and ``on_table`` cards of the next laid;
    in trick ``unseen_in`` the ``unseen`` cards (by their place in it) were never seen."""
    _, plays = random_round(random.Random(4), "schellen", 2)
    game = store.new_game(GameConfigured())
    store.append(game, RoundStarted(forehand=2, contract="schellen"))
    for k in range(tricks):
        trick = plays[4 * k : 4 * k + 4]
        for n, (seat, card) in enumerate(trick):
            if k == unseen_in and n in unseen:
                continue
            store.append(game, CardPlayed(seat=seat, card=card))
        winner = trick[trick_winner([c for _, c in trick], "schellen")][0]
        missed = tuple(trick[n][0] for n in unseen) if k == unseen_in else ()
        store.append(game, TrickCollected(seat=winner, unseen=missed))
    for seat, card in plays[4 * tricks : 4 * tricks + on_table]:
        store.append(game, CardPlayed(seat=seat, card=card))
    return game, plays


def test_a_restart_mid_round_resumes_the_tricks_already_collected(tmp_path: Path) -> None:
    with EventStore(tmp_path / "games.db") as store:
        game, plays = stored_round(store, tricks=5, on_table=2, unseen_in=3)
        glue = GameTracker(store, lambda _game: TrickTracker(), game=lambda: game)
        glue._follow()
        tracker = glue.tracker
        assert isinstance(tracker, TrickTracker)
        assert tracker.tricks_done == 5
        last = plays[16:20]
        assert tracker.leader == last[trick_winner([c for _, c in last], "schellen")][0]
        assert tracker.current_trick == []  # the camera will see the two cards on the table again
        assert glue.resumed_cards == {c for _, c in plays[:22]} - {plays[13][1]}


def test_a_restart_after_a_trick_that_lost_two_cards_resumes_the_tricks_already_collected(tmp_path: Path) -> None:
    # Two cards of the fourth trick were never seen; then the table enters one of them.
    with EventStore(tmp_path / "games.db") as store:
        game, plays = stored_round(store, tricks=5, on_table=2, unseen_in=3, unseen=(1, 2))
        for entered in (False, True):
            if entered:
                gap = next(i for i, e in enumerate(store.events(game)) if isinstance(e, TrickCollected) and e.unseen)
                store.append(game, CardCorrected(ref=gap, card=plays[14][1], seat=plays[14][0]))
            glue = GameTracker(store, lambda _game: TrickTracker(), game=lambda: game)
            glue._follow()
            tracker = glue.tracker
            assert isinstance(tracker, TrickTracker)
            assert tracker.tricks_done == 5, entered
            assert tracker.current_trick == []
            missing = {plays[13][1]} if entered else {plays[13][1], plays[14][1]}
            assert glue.resumed_cards == {c for _, c in plays[:22]} - missing


def test_a_new_game_that_ends_the_running_one_gives_a_clean_tracker(tmp_path: Path) -> None:
    with EventStore(tmp_path / "games.db") as store:
        old, plays = stored_round(store, tricks=3, on_table=2)
        glue = GameTracker(store, lambda _game: TrickTracker())  # follows the store's current game
        glue._follow()
        assert isinstance(glue.tracker, TrickTracker) and glue.tracker.tricks_done == 3
        store.abandon(old)
        new = store.new_game(GameConfigured())
        glue._follow()
        assert glue.game_id == new
        assert isinstance(glue.tracker, TrickTracker)
        assert glue.tracker.tricks_done == 0 and glue.tracker.current_trick == []
        assert glue.resumed_cards == set()  # nothing of the old round is carried over
