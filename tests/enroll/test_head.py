"""The enrolled deck's own scoring: features read either way up, the detector's "back" overruled only when sure."""

from __future__ import annotations

import numpy as np

from tests.enroll.conftest import PARIS
from vision.enroll import DeckProfile, picture_from_image, read_image
from vision.enroll.enroller import clean_crop
from vision.enroll.head import DeckPrototypes, card_features
from vision.recognizer import Recognizer


def test_features_read_a_card_the_same_either_way_up() -> None:
    crop = clean_crop(picture_from_image(read_image(PARIS / "herz-7.png")))
    turned = np.ascontiguousarray(crop[::-1, ::-1])
    np.testing.assert_allclose(card_features(crop[None]), card_features(turned[None]), atol=1e-5)
    other = clean_crop(picture_from_image(read_image(PARIS / "ecken-7.png")))
    assert not np.allclose(card_features(crop[None]), card_features(other[None]), atol=1e-2)


def test_an_enrolled_deck_that_knows_its_back_overrules_the_detector(paris_profile: DeckProfile, recognizer: Recognizer) -> None:
    protos = paris_profile.prototypes
    assert isinstance(protos, DeckPrototypes) and protos.knows_back
    names = list(protos.names)
    sure_face = np.full(len(names), 0.01 / (len(names) - 1))
    sure_face[names.index("rosen-7")] = 0.99
    unsure = np.full(len(names), 1.0 / len(names))
    back = np.zeros(len(names))
    back[names.index("back")] = 1.0
    assert protos.overrules_back(sure_face)
    assert not protos.overrules_back(unsure) and not protos.overrules_back(back)


def test_an_enrolled_deck_reads_its_flat_pictures_with_the_head(paris_profile: DeckProfile, recognizer: Recognizer) -> None:
    cards = ["rosen-7", "schellen-7", "eicheln-ass", "schilten-ass", "rosen-ober", "schellen-koenig"]
    stems = {"rosen": "herz", "schellen": "ecken", "eicheln": "kreuz", "schilten": "schaufel"}
    crops = np.stack([clean_crop(picture_from_image(read_image(PARIS / f"{stems[c.split('-')[0]]}-{c.split('-')[1]}.png"))) for c in cards])
    emb, _ = recognizer.embed(crops)
    probs = paris_profile.prototypes.scores(emb, crops)
    assert [paris_profile.prototypes.names[k] for k in probs.argmax(axis=1)] == cards
