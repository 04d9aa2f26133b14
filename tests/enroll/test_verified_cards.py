"""Which of an enrolled deck's cards the outline verifier may drop: it is asked about each on the enrolment tables."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from jasscam.decks import DeckAwareRecognizer
from tests.enroll.conftest import enrol_flat
from vision.enroll import DeckLibrary, DeckProfile, Enroller, scan_folder
from vision.enroll.tables import COVER_MIN_VIEWS, COVER_TRUST, known_to_verifier
from vision.recognizer import Recognizer


def test_a_card_is_known_when_nine_in_ten_of_its_tables_covered_it() -> None:
    good = np.full(10, COVER_TRUST + 0.3, np.float32)
    one_bad = good.copy()
    one_bad[0] = 0.0  # one table in ten where the detector missed it: still known
    two_bad = good.copy()
    two_bad[:3] = 0.0
    labels = ["rosen-6", "rosen-7", "rosen-8", "back"]
    known = known_to_verifier(labels, [good, one_bad, two_bad, good[: COVER_MIN_VIEWS - 1]])
    assert known == frozenset({"rosen-6", "rosen-7"})
    # two pictures of one card are pooled
    assert known_to_verifier(["rosen-6", "rosen-6"], [good[:5], two_bad[:5]]) == frozenset()
    assert known_to_verifier(labels, None) == frozenset()


@pytest.mark.slow  # a deck enrolled
def test_a_flat_decks_framed_court_cards_are_kept_from_the_verifier(tmp_path: Path, recognizer: Recognizer) -> None:
    # The flat benchmark deck's court cards are a figure in an inner frame on a coloured
    # card: the verifier takes the frame for the card. Its number cards it covers.
    keep = {"eicheln-koenig", "rosen-koenig", "schellen-koenig", "schilten-8", "eicheln-8", "schilten-6"}
    profile = enrol_flat(tmp_path / "flat", recognizer, keep)
    scan = scan_folder(tmp_path / "flat", recognizer)
    verified = profile.prototypes.verified
    assert verified is not None
    assert {"schilten-8", "eicheln-8", "schilten-6"} <= verified
    assert not verified & {"eicheln-koenig", "rosen-koenig", "schellen-koenig"}
    # without views there are no tables to ask about: nothing is dropped on its word
    plain, _ = Enroller(recognizer, views=0).build("Flat", scan.suits, scan.samples)
    assert plain.prototypes.verified == frozenset()


@pytest.mark.slow  # a deck rebuilt
def test_a_profile_enrolled_before_the_verifier_was_asked_is_rebuilt(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer
) -> None:
    assert paris_suit_profile.prototypes.verified  # the paris cards are all ones it covers
    library = DeckLibrary(tmp_path / "decks")
    old = dataclasses.replace(paris_suit_profile.prototypes, verified=None)
    library.save(DeckProfile(**{**paris_suit_profile.__dict__, "prototypes": old}))
    library.set_active("paris")
    assert not Enroller(recognizer).is_current(library.load("paris"))
    rec = DeckAwareRecognizer(recognizer, library)
    try:
        assert rec.deck == "paris" and rec.error is None
        fresh = library.load("paris")
        assert fresh.prototypes.verified and Enroller(recognizer).is_current(fresh)
    finally:
        recognizer.prototypes = rec.builtin


@pytest.mark.slow  # a deck rebuilt
def test_a_profile_whose_tables_other_outline_networks_cut_is_rebuilt(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer
) -> None:
    assert paris_suit_profile.outlines == recognizer.outlines_digest != ""
    library = DeckLibrary(tmp_path / "decks")
    library.save(
        DeckProfile(**{**paris_suit_profile.__dict__, "outlines": "0123456789abcdef"})
    )  # as if another refiner cut it
    assert library.load("paris").outlines == "0123456789abcdef"  # kept on disk
    assert not Enroller(recognizer).is_current(library.load("paris"))
    library.set_active("paris")
    rec = DeckAwareRecognizer(recognizer, library)
    try:
        assert rec.deck == "paris" and rec.error is None
        fresh = library.load("paris")
        assert fresh.outlines == recognizer.outlines_digest and Enroller(recognizer).is_current(fresh)
    finally:
        recognizer.prototypes = rec.builtin
