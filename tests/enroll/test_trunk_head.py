"""The enrolled deck's trunk head: a ridge classifier on the identifier's trunk features, fitted at enrolment."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from tests.enroll.conftest import PARIS
from vision.enroll import DeckProfile, Enroller, picture_from_image, read_image
from vision.enroll.enroller import clean_crop
from vision.enroll.head import DeckPrototypes, card_features
from vision.enroll.library import DeckLibrary
from vision.recognizer import Recognizer
from vision.recognizer.prototypes import PrototypeError


def _crops(*stems: str) -> np.ndarray:
    return np.stack([clean_crop(picture_from_image(read_image(PARIS / f"{s}.png"))) for s in stems])


def test_the_shipped_identifier_gives_its_trunk_features(recognizer: Recognizer) -> None:
    crops = _crops("herz-7", "ecken-koenig")
    emb, flip, trunk = recognizer.embed_trunk(crops)
    assert trunk is not None and trunk.shape == (2, 1152) and trunk.dtype == np.float32
    plain_emb, plain_flip = recognizer.embed(crops)
    np.testing.assert_array_equal(emb, plain_emb)
    np.testing.assert_array_equal(flip, plain_flip)


def test_an_enrolled_deck_fits_a_trunk_head_that_scores_its_cards(paris_profile: DeckProfile, recognizer: Recognizer) -> None:
    protos = paris_profile.prototypes
    assert isinstance(protos, DeckPrototypes)
    assert protos.trunk_weights is not None and protos.trunk_mean is not None
    assert protos.trunk_weights.shape == (1152, len(protos.names))
    crops = _crops("herz-7", "kreuz-ass", "ecken-ober")
    emb, _, trunk = recognizer.embed_trunk(crops)
    assert trunk is not None
    with_trunk = protos.scores(emb, crops, trunk)
    without = protos.scores(emb, crops)
    assert not np.allclose(with_trunk, without)  # the trunk term is added, not ignored
    names = [protos.names[k] for k in with_trunk.argmax(axis=1)]
    assert names == ["rosen-7", "eicheln-ass", "schellen-ober"]
    # the term alone, without the others, still names the cards: it learnt this deck
    z = (trunk / np.linalg.norm(trunk, axis=1, keepdims=True) - protos.trunk_mean) @ protos.trunk_weights
    assert [protos.names[k] for k in z.argmax(axis=1)] == names
    # with the weight at 0 the scores are those without it
    off = dataclasses.replace(protos, trunk_weight=0.0)
    np.testing.assert_allclose(off.scores(emb, crops, trunk), without, rtol=1e-5, atol=1e-6)


def test_the_trunk_head_survives_saving_and_a_wrong_one_is_refused(paris_profile: DeckProfile, tmp_path: Path) -> None:
    protos = paris_profile.prototypes
    assert isinstance(protos, DeckPrototypes) and protos.trunk_weights is not None
    protos.save(tmp_path / "p.npz")
    back = DeckPrototypes.load(tmp_path / "p.npz")
    assert back.trunk_weights is not None and back.trunk_mean is not None
    np.testing.assert_array_equal(back.trunk_weights, protos.trunk_weights)
    np.testing.assert_array_equal(back.trunk_mean, protos.trunk_mean)
    assert back.trunk_weight == pytest.approx(protos.trunk_weight)
    with pytest.raises(PrototypeError, match="trunk_weights and trunk_mean"):
        dataclasses.replace(protos, trunk_mean=None)
    with pytest.raises(PrototypeError, match="trunk head"):
        dataclasses.replace(protos, trunk_weights=protos.trunk_weights[:, :3])
    crops = _crops("herz-7")
    feats = card_features(crops)
    best = protos.similarities(np.ones((1, protos.vectors.shape[1]), np.float32))
    with pytest.raises(PrototypeError, match="reads 1152 features, got 10"):
        protos.logits(best, feats, np.ones((1, 10), np.float32))


def test_a_profile_enrolled_before_the_trunk_head_is_rebuilt(
    tmp_path: Path, paris_profile: DeckProfile, recognizer: Recognizer
) -> None:
    protos = paris_profile.prototypes
    assert isinstance(protos, DeckPrototypes)
    old = dataclasses.replace(protos, trunk_weights=None, trunk_mean=None)
    library = DeckLibrary(tmp_path / "decks")
    library.save(DeckProfile(**{**paris_profile.__dict__, "prototypes": old}))
    profile = library.load("paris")
    assert isinstance(profile.prototypes, DeckPrototypes) and profile.prototypes.trunk_weights is None
    enroller = Enroller(recognizer, views=paris_profile.views)
    assert not enroller.is_current(profile)
    fresh = enroller.refresh(profile)
    assert isinstance(fresh.prototypes, DeckPrototypes) and fresh.prototypes.trunk_weights is not None
    assert enroller.is_current(fresh)


class _OlderIdentifier:
    """The shipped recognizer as one whose identifier file gives no trunk features (made before session 10)."""

    def __init__(self, rec: Recognizer) -> None:
        self.rec = rec
        self.embed = rec.embed
        self.detect_quads = rec.detect_quads
        self.detect_outlines = rec.detect_outlines

    def embed_trunk(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, None]:
        emb, flip = self.rec.embed(crops)
        return emb, flip, None


def test_an_identifier_without_trunk_features_enrols_without_the_trunk_head(recognizer: Recognizer) -> None:
    from vision.enroll import scan_folder

    scan = scan_folder(PARIS, recognizer)
    samples = [s for s in scan.samples if s.label in ("rosen-7", "rosen-8", "eicheln-ass", "schilten-koenig")]
    older = _OlderIdentifier(recognizer)
    enroller = Enroller(older, views=4)
    assert not enroller.gives_trunk and Enroller(recognizer).gives_trunk
    profile, _ = enroller.build("part", scan.suits, samples)
    protos = profile.prototypes
    assert isinstance(protos, DeckPrototypes) and protos.has_head and protos.trunk_weights is None
    assert enroller.is_current(profile)  # nothing to rebuild for: this identifier gives no trunk
    crops = _crops("herz-8", "kreuz-ass")
    emb, _, trunk = recognizer.embed_trunk(crops)
    names = [protos.names[k] for k in protos.scores(emb, crops, trunk).argmax(axis=1)]
    assert names == ["rosen-8", "eicheln-ass"]
