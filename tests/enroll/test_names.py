"""Card names in file names and on screen: Swiss, French, German and English words."""

from __future__ import annotations

import pytest

from vision.enroll import CardNameError, display_name, own_id, parse_label
from vision.enroll.names import label_from_filename


@pytest.mark.parametrize(
    ("text", "card", "system"),
    [
        ("rosen-10", "rosen-10", "swiss"),
        ("Kreuz-7", "eicheln-7", "french"),
        ("schaufel_ober", "schilten-ober", "french"),
        ("herz king", "rosen-koenig", "french"),
        ("ecken-bube", "schellen-under", "french"),
        ("diamonds-ace", "schellen-ass", "french"),
        ("back", "back", None),
    ],
)
def test_card_names_in_any_spelling_become_canonical_swiss_ids(text: str, card: str, system: str | None) -> None:
    assert parse_label(text) == (card, system)


def test_file_names_may_carry_a_suffix_after_the_card() -> None:
    assert label_from_filename("kreuz-7-photo2") == ("eicheln-7", "french")
    assert label_from_filename("back-2") == ("back", None)


def test_a_name_that_is_no_card_is_refused_with_the_name() -> None:
    with pytest.raises(CardNameError, match="joker"):
        label_from_filename("joker")
    with pytest.raises(CardNameError, match="kreuz-11"):
        parse_label("kreuz-11")


def test_a_french_deck_shows_its_own_suit_names() -> None:
    assert own_id("eicheln-7", "french") == "kreuz-7"
    assert display_name("schellen-under", "french") == "Ecken Bube"
    assert display_name("rosen-ober", "french", "en") == "Hearts Queen"
    assert display_name("rosen-ober", "swiss") == "Rosen Ober"
