"""The enrolled deck's own scoring: features read either way up, the detector's "back" overruled only when sure."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.enroll.conftest import PARIS
from vision.enroll import DeckProfile, picture_from_image, read_image
from vision.enroll.enroller import clean_crop
from vision.enroll.head import DeckPrototypes, card_features
from vision.recognizer import Recognizer, RecognizerSettings
from vision.synth.other_decks import write_deck
from vision.synth.scene import render_scene


def test_features_read_a_card_the_same_either_way_up() -> None:
    crop = clean_crop(picture_from_image(read_image(PARIS / "herz-7.png")))
    turned = np.ascontiguousarray(crop[::-1, ::-1])
    np.testing.assert_allclose(card_features(crop[None]), card_features(turned[None]), atol=1e-5)
    other = clean_crop(picture_from_image(read_image(PARIS / "ecken-7.png")))
    assert not np.allclose(card_features(crop[None]), card_features(other[None]), atol=1e-2)


def test_the_head_tells_two_fills_of_one_drawing_apart_under_coloured_light(tmp_path: Path) -> None:
    write_deck("flat-swiss", str(tmp_path))
    crop = {
        c: clean_crop(picture_from_image(read_image(tmp_path / f"{c}.png"))) for c in ("eicheln-ober", "schellen-ober")
    }
    # brown and golden Ober: one figure, two fills; lit by a warm lamp and a little dim
    warm = np.clip(crop["eicheln-ober"].astype(np.float32) * np.array([0.55, 0.8, 1.1]), 0, 255).astype(np.uint8)
    f = card_features(np.stack([crop["eicheln-ober"], crop["schellen-ober"], warm]))
    assert float(f[2] @ f[0]) > float(f[2] @ f[1])


def test_an_enrolled_deck_that_knows_its_back_overrules_the_detector(
    paris_profile: DeckProfile, recognizer: Recognizer
) -> None:
    protos = paris_profile.prototypes
    assert isinstance(protos, DeckPrototypes) and protos.knows_back
    names = list(protos.names)
    sure_face = np.full(len(names), 0.01 / (len(names) - 1))
    sure_face[names.index("rosen-7")] = 0.99
    unsure = np.full(len(names), 1.0 / len(names))
    back = np.zeros(len(names))
    back[names.index("back")] = 1.0
    # not sure which face, but sure it is not this deck's back: a face the tracker reads again
    two_faces = np.zeros(len(names))
    two_faces[[names.index("rosen-koenig"), names.index("rosen-ober"), names.index("back")]] = (0.6, 0.38, 0.02)
    maybe_back = two_faces.copy()
    maybe_back[[names.index("rosen-ober"), names.index("back")]] = (0.35, 0.05)
    assert protos.overrules_back(sure_face) and protos.overrules_back(two_faces)
    assert (
        not protos.overrules_back(unsure) and not protos.overrules_back(back) and not protos.overrules_back(maybe_back)
    )


def test_an_enrolled_deck_reads_its_flat_pictures_with_the_head(
    paris_profile: DeckProfile, recognizer: Recognizer
) -> None:
    cards = ["rosen-7", "schellen-7", "eicheln-ass", "schilten-ass", "rosen-ober", "schellen-koenig"]
    stems = {"rosen": "herz", "schellen": "ecken", "eicheln": "kreuz", "schilten": "schaufel"}
    crops = np.stack(
        [
            clean_crop(picture_from_image(read_image(PARIS / f"{stems[c.split('-')[0]]}-{c.split('-')[1]}.png")))
            for c in cards
        ]
    )
    emb, _ = recognizer.embed(crops)
    probs = paris_profile.prototypes.scores(emb, crops)
    assert [paris_profile.prototypes.names[k] for k in probs.argmax(axis=1)] == cards


def test_several_views_of_a_card_are_read_by_their_mean_features(
    paris_profile: DeckProfile, recognizer: Recognizer
) -> None:
    protos = paris_profile.prototypes
    assert isinstance(protos, DeckPrototypes)
    crop = clean_crop(picture_from_image(read_image(PARIS / "schaufel-ober.png")))
    views = np.stack([crop, np.roll(crop, 3, axis=0), np.roll(crop, -3, axis=1)])[None]  # (1, 3, H, W, 3)
    emb, _ = recognizer.embed(crop[None])
    mean = card_features(views[0]).mean(axis=0, keepdims=True)
    z = protos.logits(protos.similarities(emb), mean)
    expected = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
    np.testing.assert_allclose(protos.scores(emb, views), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(protos.scores(emb, views[:, :1]), protos.scores(emb, crop[None]), rtol=1e-5, atol=1e-6)


def test_a_second_look_at_every_card_of_an_enrolled_deck_reads_the_table(paris_profile: DeckProfile) -> None:
    rec = Recognizer(settings=RecognizerSettings(second_look_below=1.0))
    rec.prototypes = paris_profile.prototypes
    for seed in (43_000_000, 43_000_001):
        scene = render_scene(seed, style="clean", deck="paris")
        cards = {t.card for t in scene.cards if t.visible >= 0.9 and t.card != "back"}
        assert cards and cards <= {d.card for d in rec.recognize(scene.image)}
