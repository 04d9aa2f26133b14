"""The enrolled deck's detail head: a small convolutional classifier on the identifier's map,
trained at enrolment in numpy."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from tests.enroll.conftest import PARIS, table_photo
from vision.enroll import DeckProfile, Enroller, picture_from_image, read_image
from vision.enroll.detail_head import MAP_SHAPE, MAP_SIZE, DetailHead, fit_detail_head
from vision.enroll.detail_head import _forward_conv as forward_conv
from vision.enroll.enroller import clean_crop
from vision.enroll.head import DeckPrototypes, card_features
from vision.enroll.library import DeckLibrary
from vision.recognizer import Recognizer, RecognizerSettings
from vision.recognizer.prototypes import PrototypeError


def _crops(*stems: str) -> np.ndarray:
    return np.stack([clean_crop(picture_from_image(read_image(PARIS / f"{s}.png"))) for s in stems])


def _toy_maps(rng: np.random.Generator, labels: np.ndarray, noise: float) -> np.ndarray:
    """Maps where each label is one small bright patch at its own place and channel, in noise."""
    c, h, w = MAP_SHAPE
    maps = rng.random((len(labels), c, h, w)).astype(np.float32) * noise
    for i, lab in enumerate(labels):
        y, x = 2 + 3 * (lab % 3), 2 + 2 * (lab // 3)
        maps[i, 10 + lab, y : y + 2, x : x + 2] += 4.0
    return maps.reshape(len(labels), MAP_SIZE)


def test_the_shipped_identifier_gives_the_map_the_detail_head_reads(recognizer: Recognizer) -> None:
    crops = _crops("herz-7", "ecken-koenig")
    emb, flip, trunk = recognizer.embed_trunk(crops)
    assert trunk is not None and trunk.shape == (2, MAP_SIZE) == (2, 192 * 12 * 8) and trunk.dtype == np.float32
    assert (trunk >= 0).all() and (trunk > 0).any()  # after a ReLU
    plain_emb, plain_flip = recognizer.embed(crops)
    np.testing.assert_array_equal(emb, plain_emb)
    np.testing.assert_array_equal(flip, plain_flip)


@pytest.mark.slow  # trains the detail head in numpy
def test_the_numpy_training_learns_a_pattern_it_was_not_shown_in_those_maps() -> None:
    rng = np.random.default_rng(1)
    train_y = np.repeat(np.arange(6), 12)
    test_y = np.repeat(np.arange(6), 5)
    head = fit_detail_head(_toy_maps(rng, train_y, 0.3), train_y, 6, seed=3, epochs=30)
    assert head.labels == 6
    assert (head.logits(_toy_maps(rng, test_y, 0.3)).argmax(axis=1) == test_y).all()
    # the same seed trains the same head (a profile rebuilds identically), another seed another one
    again = fit_detail_head(_toy_maps(np.random.default_rng(1), train_y, 0.3), train_y, 6, seed=3, epochs=30)
    np.testing.assert_array_equal(again.fc, head.fc)
    other = fit_detail_head(_toy_maps(np.random.default_rng(1), train_y, 0.3), train_y, 6, seed=4, epochs=30)
    assert not np.array_equal(other.fc, head.fc)


def test_the_convolution_and_pool_are_what_they_say() -> None:
    """One channel in, one out: a 3x3 kernel with a 1 at its centre copies the map, then 2x2 blocks
    keep their maximum."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, MAP_SHAPE[1], MAP_SHAPE[2], MAP_SHAPE[0])).astype(np.float32)
    conv = np.zeros((9 * MAP_SHAPE[0], 2), np.float32)
    conv[4 * MAP_SHAPE[0] + 5, 0] = 1.0  # centre tap of input channel 5 -> output channel 0
    conv[0 * MAP_SHAPE[0] + 7, 1] = 1.0  # top-left tap of channel 7 -> output channel 1 (zero-padded)
    pooled, _, _ = forward_conv(x, conv, np.zeros(2, np.float32))
    relu = np.maximum(x[..., 5], 0)
    expect0 = relu.reshape(2, 6, 2, 4, 2).max(axis=(2, 4))
    np.testing.assert_allclose(pooled[..., 0], expect0)
    shifted = np.zeros_like(x[..., 7])
    shifted[:, 1:, 1:] = x[:, :-1, :-1, 7]
    np.testing.assert_allclose(pooled[..., 1], np.maximum(shifted, 0).reshape(2, 6, 2, 4, 2).max(axis=(2, 4)))


def test_weights_that_do_not_fit_the_map_are_refused() -> None:
    good = dict(
        conv=np.zeros((9 * MAP_SHAPE[0], 8), np.float32),
        conv_bias=np.zeros(8, np.float32),
        fc=np.zeros((6 * 4 * 8, 5), np.float32),
        fc_bias=np.zeros(5, np.float32),
    )
    assert DetailHead(**good).labels == 5 and DetailHead(**good).fits_map
    # weights made for an older identifier's 96-channel map load (so their profile loads and is
    # rebuilt) but are not used
    older = DetailHead(**{**good, "conv": np.zeros((9 * 96, 8), np.float32)})
    assert not older.fits_map
    with pytest.raises(ValueError, match="made for a 96-channel map"):
        older.logits(np.zeros((1, MAP_SIZE), np.float32))
    with pytest.raises(ValueError, match="do not fit"):
        DetailHead(**{**good, "conv": np.zeros((9 * 96 + 1, 8), np.float32)})
    with pytest.raises(ValueError, match="do not fit"):
        DetailHead(**{**good, "fc_bias": np.zeros(4, np.float32)})
    with pytest.raises(ValueError, match="one label per map"):
        fit_detail_head(np.zeros((3, MAP_SIZE), np.float32), np.zeros(2, np.int64), 2)


def test_an_enrolled_deck_trains_a_detail_head_that_names_its_cards(
    paris_profile: DeckProfile, recognizer: Recognizer
) -> None:
    protos = paris_profile.prototypes
    assert isinstance(protos, DeckPrototypes) and protos.detail is not None
    assert protos.detail.labels == len(protos.names)
    crops = _crops("herz-7", "kreuz-ass", "ecken-ober")
    emb, _, trunk = recognizer.embed_trunk(crops)
    assert trunk is not None
    with_detail = protos.scores(emb, crops, trunk)
    without = protos.scores(emb, crops)
    assert not np.allclose(with_detail, without)  # the detail term is added, not ignored
    names = [protos.names[k] for k in with_detail.argmax(axis=1)]
    assert names == ["rosen-7", "eicheln-ass", "schellen-ober"]
    # the head alone, without the others, still names the cards: it learnt this deck
    assert [protos.names[k] for k in protos.detail.logits(trunk).argmax(axis=1)] == names
    # with the weight at 0 the scores are those without it
    off = dataclasses.replace(protos, detail_weight=0.0)
    np.testing.assert_allclose(off.scores(emb, crops, trunk), without, rtol=1e-5, atol=1e-6)
    # several views of each card (the second look): each map is scored and the scores averaged
    views = np.stack([trunk, trunk], axis=1)
    np.testing.assert_allclose(
        protos.scores(emb, np.stack([crops, crops], axis=1), views), with_detail, rtol=1e-4, atol=1e-6
    )


def test_the_detail_head_survives_saving_and_a_wrong_one_is_refused(paris_profile: DeckProfile, tmp_path: Path) -> None:
    protos = paris_profile.prototypes
    assert isinstance(protos, DeckPrototypes) and protos.detail is not None
    protos.save(tmp_path / "p.npz")
    back = DeckPrototypes.load(tmp_path / "p.npz")
    assert back.detail is not None
    for key, value in protos.detail.arrays().items():
        np.testing.assert_array_equal(back.detail.arrays()[key], value)
    assert back.detail_weight == pytest.approx(protos.detail_weight)
    short = DetailHead(protos.detail.conv, protos.detail.conv_bias, protos.detail.fc[:, :3], protos.detail.fc_bias[:3])
    with pytest.raises(PrototypeError, match="detail head scores 3 labels"):
        dataclasses.replace(protos, detail=short)
    crops = _crops("herz-7")
    best = protos.similarities(np.ones((1, protos.vectors.shape[1]), np.float32))
    with pytest.raises(PrototypeError, match=f"reads the identifier's {MAP_SIZE}-value map, got 1152"):
        protos.logits(best, card_features(crops), np.ones((1, 1152), np.float32))
    # a damaged file says so
    with np.load(tmp_path / "p.npz") as z:
        arrays = {k: z[k] for k in z.files}
    arrays["detail_fc"] = arrays["detail_fc"][:10]
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(PrototypeError, match="bad.npz: detail head weights do not fit"):
        DeckPrototypes.load(tmp_path / "bad.npz")


def _head_for_the_older_map(protos: DeckPrototypes) -> DetailHead:
    """A detail head as sessions 14-15 trained it, on the 96x12x8 map after the identifier's sixth block."""
    rng = np.random.default_rng(5)
    n = len(protos.names)
    return DetailHead(
        rng.standard_normal((9 * 96, 64)).astype(np.float32),
        np.zeros(64, np.float32),
        rng.standard_normal((6 * 4 * 64, n)).astype(np.float32),
        np.zeros(n, np.float32),
    )


@pytest.mark.slow  # a deck rebuilt, twice
@pytest.mark.parametrize("before", ["the detail head", "its map moved"])
def test_a_profile_enrolled_before_the_detail_head_is_rebuilt(
    tmp_path: Path, paris_suit_profile: DeckProfile, recognizer: Recognizer, before: str
) -> None:
    protos = paris_suit_profile.prototypes
    assert isinstance(protos, DeckPrototypes)
    old = dataclasses.replace(protos, detail=None if before == "the detail head" else _head_for_the_older_map(protos))
    library = DeckLibrary(tmp_path / "decks")
    library.save(DeckProfile(**{**paris_suit_profile.__dict__, "prototypes": old}))
    profile = library.load("paris")
    loaded = profile.prototypes
    assert isinstance(loaded, DeckPrototypes)
    if before == "the detail head":
        assert loaded.detail is None
    else:
        # it loads, and reads the cards as a deck without a detail head would until it is rebuilt
        assert loaded.detail is not None and not loaded.detail.fits_map and not loaded.reads_trunk
        crops = _crops("herz-7", "herz-ass")
        emb, _, trunk = recognizer.embed_trunk(crops)
        np.testing.assert_array_equal(
            loaded.scores(emb, crops, trunk), dataclasses.replace(loaded, detail=None).scores(emb, crops, trunk)
        )
    enroller = Enroller(recognizer, views=paris_suit_profile.views)
    assert not enroller.is_current(profile)
    seen: list[tuple[float, str]] = []
    fresh = enroller.refresh(profile, lambda f, text: seen.append((f, text)))
    assert isinstance(fresh.prototypes, DeckPrototypes) and fresh.prototypes.detail is not None
    assert fresh.prototypes.detail.fits_map and fresh.prototypes.reads_trunk
    assert enroller.is_current(fresh)
    # one bar: the views, then the head's training, up to 1
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)
    assert any(text == "learning the deck" for _, text in seen)


class _OlderIdentifier:
    """The shipped recognizer as one whose identifier file gives another map (an older identifier's
    48x6x4) or none."""

    def __init__(self, rec: Recognizer, trunk: int | None) -> None:
        self.rec = rec
        self.trunk = trunk
        self.embed = rec.embed
        self.detect_quads = rec.detect_quads
        self.detect_outlines = rec.detect_outlines

    def embed_trunk(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        emb, flip = self.rec.embed(crops)
        return emb, flip, None if self.trunk is None else np.ones((len(crops), self.trunk), np.float32)


@pytest.mark.parametrize("trunk", [None, 1152])
def test_an_identifier_without_the_map_enrols_without_the_detail_head(
    recognizer: Recognizer, trunk: int | None
) -> None:
    from vision.enroll import scan_folder

    scan = scan_folder(PARIS, recognizer)
    samples = [s for s in scan.samples if s.label in ("rosen-7", "rosen-8", "eicheln-ass", "schilten-koenig")]
    older = _OlderIdentifier(recognizer, trunk)
    enroller = Enroller(older, views=4)
    assert not enroller.gives_trunk and Enroller(recognizer).gives_trunk
    profile, _ = enroller.build("part", scan.suits, samples)
    protos = profile.prototypes
    assert isinstance(protos, DeckPrototypes) and protos.has_head and protos.detail is None
    assert enroller.is_current(profile)  # nothing to rebuild for: this identifier gives no map to read
    crops = _crops("herz-8", "kreuz-ass")
    emb, _, trunk_now = recognizer.embed_trunk(crops)
    names = [protos.names[k] for k in protos.scores(emb, crops, trunk_now).argmax(axis=1)]
    assert names == ["rosen-8", "eicheln-ass"]
    # a profile with a detail head is rebuilt for an identifier that gives no map for it
    full, _ = Enroller(recognizer, views=4).build("part", scan.suits, samples)
    assert isinstance(full.prototypes, DeckPrototypes) and full.prototypes.detail is not None
    assert not enroller.is_current(full)


def test_the_maps_are_asked_for_only_when_the_prototypes_read_them(paris_profile: DeckProfile) -> None:
    rec = Recognizer(settings=RecognizerSettings(threads=1))
    assert not rec.prototypes.reads_trunk and paris_profile.prototypes.reads_trunk
    crops = _crops("herz-7")
    emb, flip, none = rec.embed_trunk(crops, maps=False)
    assert none is None
    full_emb, full_flip, maps = rec.embed_trunk(crops)
    assert maps is not None and maps.shape == (1, MAP_SIZE)
    np.testing.assert_array_equal(emb, full_emb)
    np.testing.assert_array_equal(flip, full_flip)
    asked: list[bool] = []
    embed = rec.embed_trunk

    def spy(crops: np.ndarray, maps: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        asked.append(maps)
        return embed(crops, maps)

    rec.embed_trunk = spy  # type: ignore[method-assign]
    # with the built-in prototypes never, with an enrolled deck's always
    photo = table_photo(["herz-7", "kreuz-ass"])
    rec.recognize(photo)
    assert asked and not any(asked)
    rec.prototypes = paris_profile.prototypes
    asked.clear()
    names = [d.card for d in rec.recognize(photo)]
    assert asked and all(asked)
    assert sorted(names) == ["eicheln-ass", "rosen-7"]


def test_a_deck_with_errors_is_reported_before_its_detail_head_is_trained(recognizer: Recognizer) -> None:
    from vision.enroll import scan_folder

    scan = scan_folder(PARIS, recognizer)
    samples = [s for s in scan.samples if s.label in ("rosen-7", "rosen-8", "eicheln-ass", "schilten-koenig")]
    enroller = Enroller(recognizer, views=4)
    seen: list[str] = []
    quick, report = enroller.build("part", scan.suits, samples, lambda f, text: seen.append(text), learn_if_wrong=False)
    assert not report.ok and any(i.kind == "missing" for i in report.issues)  # 32 cards are missing
    assert (
        isinstance(quick.prototypes, DeckPrototypes) and quick.prototypes.has_head and quick.prototypes.detail is None
    )
    assert "learning the deck" not in seen
    assert not enroller.is_current(quick)  # stored anyway, it would be rebuilt when next loaded
    # by default (and with --force) the head is trained whatever the report says, and the report is the same
    learning: list[str] = []
    full, again = enroller.build("part", scan.suits, samples, lambda f, text: learning.append(text))
    assert [i.message for i in again.issues] == [i.message for i in report.issues]
    assert isinstance(full.prototypes, DeckPrototypes) and full.prototypes.detail is not None
    assert "learning the deck" in learning and enroller.is_current(full)
    np.testing.assert_array_equal(full.prototypes.vectors, quick.prototypes.vectors)  # only the head differs
