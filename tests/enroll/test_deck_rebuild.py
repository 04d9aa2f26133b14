"""On the appliance a profile made for older models is rebuilt in the background, never blocking frames.

Real shipped ONNX models, a real deck library on disk, the real rebuild (views, tables,
detail head) in its real thread. The rebuild is held at its first progress report until
the test has looked at the table, so what is read meanwhile is checked, not raced.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest

from jasscam.decks import DeckAwareRecognizer
from vision.enroll import BUILTIN, DeckLibrary, DeckProfile, Enroller, ProfileError
from vision.enroll.head import DeckPrototypes
from vision.recognizer import Recognizer
from vision.synth.scene import render_scene


class Hold:
    """A progress hook that keeps the rebuild at its first report until released."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.release = threading.Event()
        self.seen: list[float] = []

    def __call__(self, fraction: float, text: str) -> None:
        self.seen.append(fraction)
        self.reached.set()
        assert self.release.wait(120.0), "the test never released the rebuild"


@pytest.fixture
def hold() -> Iterator[Hold]:
    h = Hold()
    yield h
    h.release.set()  # a failing test must not leave the thread waiting


def frame() -> np.ndarray:
    return render_scene(42_000_000, style="clean").image


def stale(profile: DeckProfile) -> DeckProfile:
    """The profile as if another identifier had made it."""
    return DeckProfile(**{**profile.__dict__, "probe": -profile.probe})


@contextmanager
def table_of(
    root: Path, recognizer: Recognizer, hold: Hold, *profiles: DeckProfile
) -> Iterator[tuple[DeckLibrary, DeckAwareRecognizer]]:
    """A library holding ``profiles`` with "paris" chosen, read as the appliance does; once its rebuild
    reached ``hold``, and afterwards the rebuilds are let go and waited for, the built-in deck restored."""
    library = DeckLibrary(root / "decks")
    for profile in profiles:
        library.save(profile)
    library.set_active("paris")
    rec = DeckAwareRecognizer(recognizer, library, background=True, on_progress=hold)
    try:
        assert hold.reached.wait(60.0)
        yield library, rec
    finally:
        hold.release.set()
        rec.wait(120.0)
        rec.wait(120.0)  # a deck chosen during the first rebuild
        recognizer.prototypes = rec.builtin


@pytest.mark.slow  # a deck rebuilt
def test_a_profile_for_other_models_is_rebuilt_while_the_table_reads_the_builtin_deck(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer, hold: Hold
) -> None:
    with table_of(tmp_path, recognizer, hold, stale(paris_suit_profile)) as (library, rec):
        # start-up did not wait: the table reads the built-in deck, and says why
        assert rec.deck == BUILTIN and recognizer.prototypes is rec.builtin and rec.error is None
        assert rec.status() == {"deck": BUILTIN, "rebuilding": "paris", "name": "Paris", "progress": 0.0, "error": None}
        assert isinstance(rec.recognize(frame()), list)  # frames go on being read
        assert not Enroller(recognizer).is_current(library.load("paris"))
        hold.release.set()
        assert rec.wait(120.0)
        assert rec.deck == "paris" and recognizer.prototypes is not rec.builtin
        assert rec.status()["rebuilding"] is None and rec.error is None
        assert Enroller(recognizer).is_current(library.load("paris"))  # stored: rebuilt once, not at every start
        assert hold.seen == sorted(hold.seen) and hold.seen[-1] == pytest.approx(1.0)


@pytest.mark.slow  # a deck rebuilt
def test_a_profile_this_identifier_made_is_read_as_it_was_until_it_is_rebuilt(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer, hold: Hold
) -> None:
    protos = paris_suit_profile.prototypes
    assert isinstance(protos, DeckPrototypes)
    old = DeckProfile(
        **{**paris_suit_profile.__dict__, "prototypes": dataclasses.replace(protos, detail=None)}
    )  # before the detail head
    with table_of(tmp_path, recognizer, hold, old) as (_, rec):
        assert rec.deck == "paris" and rec.status()["rebuilding"] == "paris"
        meanwhile = recognizer.prototypes
        assert isinstance(meanwhile, DeckPrototypes) and meanwhile.detail is None
        hold.release.set()
        assert rec.wait(120.0)
        fresh = recognizer.prototypes
        assert rec.deck == "paris" and isinstance(fresh, DeckPrototypes) and fresh.detail is not None


@pytest.mark.slow  # a deck rebuilt
def test_a_rebuild_ending_after_the_deck_was_enrolled_anew_keeps_the_new_enrolment(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer, hold: Hold
) -> None:
    with table_of(tmp_path, recognizer, hold, stale(paris_suit_profile)) as (library, rec):
        # meanwhile the user enrols the deck again on the dashboard (its files are newer)
        kept = dict(list(paris_suit_profile.pictures.items())[:-1])  # one picture fewer, to tell it by
        library.save(DeckProfile(**{**paris_suit_profile.__dict__, "pictures": kept}), replace=True)
        stamp = library.stamp("paris")
        hold.release.set()
        assert rec.wait(120.0)
        assert library.stamp("paris") == stamp  # the rebuild did not write over it
        assert rec.deck == "paris" and len(library.load("paris").cards) == len(paris_suit_profile.cards) - 1


def test_replace_if_unchanged_refuses_a_profile_written_or_deleted_since(
    tmp_path: Path, paris_suit_profile: DeckProfile
) -> None:
    library = DeckLibrary(tmp_path / "decks")
    library.save(paris_suit_profile)
    stamp = library.stamp("paris")
    assert library.replace_if_unchanged(paris_suit_profile, stamp)
    newer = library.stamp("paris")
    assert not library.replace_if_unchanged(paris_suit_profile, stamp)  # written since
    assert library.stamp("paris") == newer
    library.delete("paris")
    assert not library.replace_if_unchanged(paris_suit_profile, newer)  # deleted since
    assert not library.exists("paris")
    with pytest.raises(ProfileError, match="no deck 'paris'"):
        library.stamp("paris")


@pytest.mark.slow  # a deck rebuilt
def test_a_deck_chosen_during_another_decks_rebuild_is_rebuilt_after_it(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer, hold: Hold
) -> None:
    other = DeckProfile(**{**stale(paris_suit_profile).__dict__, "name": "Paris B"})
    with table_of(tmp_path, recognizer, hold, stale(paris_suit_profile), other) as (library, rec):
        library.set_active("paris-b")  # the table changes its mind while "paris" is relearnt
        assert rec.sync() == BUILTIN and rec.status()["rebuilding"] == "paris"  # one rebuild at a time
        hold.release.set()
        rec.wait(120.0)  # "paris" is done and stored; the table's deck is looked at again
        assert rec.status()["rebuilding"] == "paris-b"
        assert rec.wait(120.0)
        assert rec.deck == "paris-b"
        assert all(Enroller(recognizer).is_current(library.load(s)) for s in ("paris", "paris-b"))
