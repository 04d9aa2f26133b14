"""The French decks drawn for training the identifier: varied, labelled, and apart from the measured decks."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scoring.cards import ALL_CARD_IDS
from vision.synth.assets import BACK, LEVEL_HEIGHTS
from vision.synth.train_decks import DECKS, FAMILY, RUN, french_deck, render_scene


def test_every_deck_has_all_36_faces_and_a_back_at_every_level() -> None:
    deck = french_deck(3)
    assert set(deck) == {*ALL_CARD_IDS, BACK}
    for card, levels in deck.items():
        assert [img.shape[0] for img in levels] == list(LEVEL_HEIGHTS), card
        assert levels[0].shape[2] == 4 and levels[0][0, 0, 3] == 0  # rounded, transparent corner


def test_the_cards_of_one_deck_differ_and_two_decks_draw_one_card_differently() -> None:
    a, b = french_deck(0), french_deck(1)
    faces = np.stack([a[c][1][..., :3].astype(np.int16) for c in ALL_CARD_IDS])
    diffs = [np.abs(faces[i] - faces[j]).mean() for i in range(36) for j in range(i + 1, 36)]
    assert min(diffs) > 0.3  # the closest pair, a 7 and an 8 of one suit, differs by one pip
    assert np.abs(a["rosen-7"][2].astype(np.int16) - b["rosen-7"][2]).mean() > 5.0


def test_a_scene_is_deterministic_and_marks_every_card_as_readable_either_way_up() -> None:
    one, two = render_scene(300_123), render_scene(300_123)
    assert np.array_equal(one.image, two.image)
    assert one.deck == FAMILY and one.cards
    assert all(t.symmetric for t in one.cards)


def test_training_decks_never_draw_the_measured_decks() -> None:
    source = (Path(__file__).resolve().parents[2] / "vision" / "synth" / "train_decks.py").read_text()
    code = source.split('"""', 2)[2]  # after the module docstring, which names what it keeps apart from
    assert "other_decks" not in code and "paris" not in code and "load_deck" not in code


def test_a_run_of_seeds_shares_a_deck_and_the_decks_cycle() -> None:
    def deck_of(seed: int) -> str:
        style = render_scene(seed, width=64, height=64).deck_style
        assert style is not None  # a rendered scene names the deck it drew
        return style.deck

    first = deck_of(300_000)
    assert deck_of(300_000 + RUN - 1) == first
    assert deck_of(300_000 + RUN) != first
    assert deck_of(300_000 + RUN * DECKS) == first


def test_half_the_edged_decks_have_coloured_edges_and_their_faces_show_them() -> None:
    from vision.synth.train_decks import edge_look

    kinds = [edge_look(k)[0] for k in range(DECKS)]
    assert 0.3 < np.mean([k > 0 for k in kinds]) < 0.7 and {1, 2, 3} <= set(kinds)
    for kind in (1, 2, 3):
        index = kinds.index(kind)
        _, size, colour = edge_look(index)
        face = french_deck(index, edges=True)["rosen-7"][0]
        assert not np.array_equal(face, french_deck(index)["rosen-7"][0])  # the shipped models' decks have none
        h, w = face.shape[:2]
        # a strip just inside the edge the band runs along is the band's colour, not the paper
        y, x = (int(h * size / 2), w // 2) if kind in (1, 2) else (h // 2, int(w * size / 2))
        assert np.abs(face[y, x, :3].astype(int) - colour).max() <= 2, (kind, face[y, x], colour)
        centre = face[h // 2, w // 2, :3].astype(int)
        assert np.abs(centre - colour).max() > 10  # and the card inside it is not
