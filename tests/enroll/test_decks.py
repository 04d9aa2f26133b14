"""Deck profiles on the appliance: the active deck per table, restarts, the built-in deck untouched."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from jasscam.decks import DeckAwareRecognizer, open_library
from tests.enroll.conftest import PARIS
from vision.enroll import BUILTIN, DeckLibrary, DeckProfile, Enroller, picture_from_image, read_image
from vision.enroll.enroller import clean_crop
from vision.enroll.head import DeckPrototypes
from vision.recognizer import Recognizer
from vision.synth.scene import render_scene


def frames(n: int = 3) -> list[np.ndarray]:
    return [render_scene(42_000_000 + k, style="clean").image for k in range(n)]


def test_the_active_deck_survives_a_restart(tmp_path: Path, paris_profile: DeckProfile, recognizer: Recognizer) -> None:
    library = open_library(tmp_path)
    assert library.active() == BUILTIN  # the built-in deck is the default
    library.save(paris_profile)
    library.set_active("paris")
    library.set_active(BUILTIN, table="second")
    restarted = open_library(tmp_path)  # a new process: nothing kept but the files
    assert restarted.active() == "paris" and restarted.active("second") == BUILTIN
    rec = DeckAwareRecognizer(recognizer, restarted)
    try:
        assert rec.deck == "paris"
        np.testing.assert_allclose(recognizer.prototypes.vectors, paris_profile.prototypes.vectors, atol=1e-6)
    finally:
        recognizer.prototypes = rec.builtin
    restarted.delete("paris")
    assert open_library(tmp_path).active() == BUILTIN


def test_enrolling_a_deck_leaves_the_builtin_reading_unchanged(
    tmp_path: Path, paris_profile: DeckProfile, recognizer: Recognizer
) -> None:
    images = frames()
    builtin = recognizer.prototypes
    before = [recognizer.recognize(f) for f in images]
    library = DeckLibrary(tmp_path / "decks")
    rec = DeckAwareRecognizer(recognizer, library, check_s=0.0)
    library.save(paris_profile)  # enrolled but not selected
    assert [rec.recognize(f) for f in images] == before
    library.set_active("paris")
    rec.recognize(images[0])
    assert rec.deck == "paris" and recognizer.prototypes is not builtin
    library.set_active(BUILTIN)
    assert [rec.recognize(f) for f in images] == before
    assert recognizer.prototypes is builtin


@pytest.mark.slow  # a deck rebuilt
def test_a_profile_from_another_identifier_is_rebuilt_from_its_pictures(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer
) -> None:
    library = DeckLibrary(tmp_path / "decks")
    stale = DeckProfile(
        **{**paris_suit_profile.__dict__, "probe": -paris_suit_profile.probe}
    )  # as if made by another model
    library.save(stale)
    library.set_active("paris")
    rec = DeckAwareRecognizer(recognizer, library)
    try:
        assert rec.deck == "paris" and rec.error is None
        fresh = library.load("paris")
        assert Enroller(recognizer).is_current(fresh)
    finally:
        recognizer.prototypes = rec.builtin


@pytest.mark.slow  # a deck rebuilt
def test_a_profile_whose_deck_head_reads_older_features_is_rebuilt(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer
) -> None:
    protos = paris_suit_profile.prototypes
    assert isinstance(protos, DeckPrototypes) and protos.head_weights is not None and protos.head_mean is not None
    # a head fitted on a shorter feature vector, as the enroller before session 5 saved them
    old = dataclasses.replace(protos, head_weights=protos.head_weights[:912], head_mean=protos.head_mean[:912])
    assert not old.has_head
    crops = np.stack([clean_crop(picture_from_image(read_image(PARIS / f"{c}.png"))) for c in ("herz-7", "kreuz-ass")])
    emb, _ = recognizer.embed(crops)
    assert old.scores(emb, crops).shape == (2, len(old.names))  # read by the embedding alone, not a crash
    library = DeckLibrary(tmp_path / "decks")
    library.save(DeckProfile(**{**paris_suit_profile.__dict__, "prototypes": old}))
    library.set_active("paris")
    rec = DeckAwareRecognizer(recognizer, library)
    try:
        assert rec.deck == "paris" and rec.error is None
        fresh = library.load("paris")
        assert isinstance(fresh.prototypes, DeckPrototypes) and fresh.prototypes.has_head
        assert Enroller(recognizer).is_current(fresh)
    finally:
        recognizer.prototypes = rec.builtin


def test_a_damaged_profile_leaves_the_table_on_the_builtin_deck(
    tmp_path: Path, paris_profile: DeckProfile, recognizer: Recognizer
) -> None:
    library = DeckLibrary(tmp_path / "decks")
    library.save(paris_profile)
    library.set_active("paris")
    (library.root / "paris" / "prototypes.npz").write_bytes(b"not a numpy file")
    (library.root / "paris" / "probe.npy").write_bytes(b"nor this")
    rec = DeckAwareRecognizer(recognizer, library)
    assert rec.deck == BUILTIN and rec.error is not None and "paris" in rec.error
    assert recognizer.prototypes is rec.builtin
