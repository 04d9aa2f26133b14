"""Prototype sets: how cards (and enrolled decks) are named from embeddings."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.recognizer import PrototypeError, Prototypes, build_prototypes
from vision.recognizer.runtime import MODELS_DIR, PROTOTYPES_FILE


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def test_build_averages_each_label_and_names_the_nearest() -> None:
    rng = np.random.default_rng(0)
    centres = unit(rng.normal(size=(3, 16)))
    emb = unit(np.repeat(centres, 4, axis=0) + rng.normal(scale=0.05, size=(12, 16)))
    labels = ["rosen-6"] * 4 + ["eicheln-ass"] * 4 + ["back"] * 4
    protos = build_prototypes(emb, labels)
    assert protos.names == ("rosen-6", "eicheln-ass", "back")
    probs = protos.scores(centres)
    assert probs.shape == (3, 3)
    assert list(probs.argmax(axis=1)) == [0, 1, 2]
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(protos.vectors, axis=1), 1.0, rtol=1e-5)


def test_a_label_with_several_prototypes_scores_by_its_best_one() -> None:
    v = np.eye(4, dtype=np.float32)
    protos = Prototypes(("a", "a", "b", "c"), v)
    assert protos.names == ("a", "b", "c")
    assert protos.scores(v[1:2]).argmax() == 0  # matches the second "a" prototype


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    protos = build_prototypes(np.eye(3, dtype=np.float32), ["x", "y", "z"], temperature=9.0)
    protos.save(tmp_path / "p.npz")
    back = Prototypes.load(tmp_path / "p.npz")
    assert back.labels == protos.labels and back.temperature == 9.0
    np.testing.assert_array_equal(back.vectors, protos.vectors)


def test_bad_prototypes_are_refused_with_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PrototypeError, match="one embedding per label"):
        build_prototypes(np.zeros((2, 8)), ["a"])
    with pytest.raises(PrototypeError, match="labels"):
        Prototypes(("a", "b"), np.zeros((3, 8), np.float32))
    with pytest.raises(PrototypeError, match="not found"):
        Prototypes.load(tmp_path / "missing.npz")


def test_the_built_in_deck_overrules_a_back_only_when_all_but_certain() -> None:
    builtin = Prototypes.load(MODELS_DIR / PROTOTYPES_FILE)
    names = list(builtin.names)
    certain = np.eye(len(names))[names.index("schellen-10")]
    fairly_sure = np.full(len(names), 0.05 / (len(names) - 1))
    fairly_sure[names.index("schellen-10")] = 0.95
    assert builtin.overrules_back(certain)
    assert not builtin.overrules_back(fairly_sure)
    assert not builtin.overrules_back(np.eye(len(names))[names.index("back")])
    no_back = Prototypes(
        tuple(n for n in builtin.labels if n != "back"), builtin.vectors[[lab != "back" for lab in builtin.labels]]
    )
    assert not no_back.overrules_back(np.eye(len(no_back.names))[0])  # it could never have said "back"


def test_which_cards_the_verifier_may_drop_survives_save_and_load(tmp_path: Path) -> None:
    from vision.enroll.head import DeckPrototypes

    v = np.eye(3, dtype=np.float32)
    for verified in (None, frozenset(), frozenset({"x", "z"})):
        for kind in (Prototypes, DeckPrototypes):
            kind(("x", "y", "z"), v, verified=verified).save(tmp_path / "p.npz")
            back = kind.load(tmp_path / "p.npz")
            assert back.verified == verified, (kind, verified)
    marked = Prototypes(("x", "y", "z"), v, verified=frozenset({"x"}))
    assert marked.verifies("x") and not marked.verifies("y")
    # unknown (an older file, prototypes built by hand): the verifier drops nothing
    assert not Prototypes(("x", "y", "z"), v).verifies("x")


def test_the_built_in_deck_lets_the_verifier_drop_any_of_its_cards() -> None:
    builtin = Prototypes.load(MODELS_DIR / PROTOTYPES_FILE)
    assert all(builtin.verifies(name) for name in builtin.names)
