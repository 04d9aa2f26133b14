"""The Coiffeur and Differenzler settings of ``game_configured``: checked, each in its
own variant, and left out of the JSON at their defaults so a Schieber or Speck log
written now still reads in a build that does not know them (schema version 1)."""

from __future__ import annotations

import pytest

from scoring.events import EventError, GameConfigured, RoundStarted, event_to_dict, parse_event
from scoring.variants import Coiffeur, Differenzler, Schieber, Speck, variant_for

#: The keys a Schieber game_configured had before Coiffeur and Differenzler.
OLD_KEYS = {
    "type",
    "v",
    "players",
    "variant",
    "target",
    "multipliers",
    "end_order",
    "weis_one_per_player",
    "weis_needs_trick",
    "speck_games",
}


def test_a_schieber_and_a_speck_log_carry_no_new_field() -> None:
    assert set(event_to_dict(GameConfigured())) <= OLD_KEYS
    assert set(event_to_dict(GameConfigured(variant="speck"))) <= OLD_KEYS | {"prior_games"}
    assert "row" not in event_to_dict(RoundStarted(forehand=0, contract="rosen"))


def test_each_game_gets_its_variant_object() -> None:
    kinds = [type(variant_for(GameConfigured(variant=v))) for v in ("schieber", "speck", "coiffeur", "differenzler")]
    assert kinds == [Schieber, Speck, Coiffeur, Differenzler]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"variant": "schieber", "coiffeur_rows": [["rosen", 1]]}, "belongs to Coiffeur"),
        ({"variant": "coiffeur", "coiffeur_rows": []}, "non-empty list"),
        ({"variant": "coiffeur", "coiffeur_rows": [["trumpf", 1]]}, r"coiffeur_rows\[0\]"),
        ({"variant": "coiffeur", "coiffeur_rows": [["rosen", 0]]}, "positive whole number"),
        ({"variant": "coiffeur", "coiffeur_match_bonus": -1}, "coiffeur_match_bonus"),
        ({"variant": "schieber", "count_weis": False}, "Coiffeur and Differenzler setting"),
        ({"variant": "differenzler", "differenzler_rounds": 0}, "positive whole number"),
        ({"variant": "speck", "differenzler_rounds": 8}, "belongs to Differenzler"),
        ({"variant": "coiffeur", "prior_totals": [100, 0]}, "cannot be continued from paper"),
        ({"variant": "molotow"}, "variant must be one of"),
    ],
)
def test_a_wrong_setting_is_refused_naming_it(config: dict[str, object], message: str) -> None:
    with pytest.raises(EventError, match=message):
        parse_event({"type": "game_configured", **config})


def test_weis_counts_by_variant_and_setting() -> None:
    assert GameConfigured().weis_counts and not GameConfigured(variant="speck").weis_counts
    assert GameConfigured(variant="coiffeur").weis_counts
    assert not GameConfigured(variant="coiffeur", count_weis=False).weis_counts
    assert not GameConfigured(variant="differenzler").weis_counts
    assert GameConfigured(variant="differenzler", count_weis=True).weis_counts


def test_custom_rows_round_trip_through_json() -> None:
    config = parse_event(
        {"type": "game_configured", "variant": "coiffeur", "coiffeur_rows": [["misere", 3], ["slalom", 9]]}
    )
    assert isinstance(config, GameConfigured) and config.rows == (("misere", 3), ("slalom", 9))
    assert parse_event(event_to_dict(config)) == config
