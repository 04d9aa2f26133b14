"""One variant object per game: what Schieber, Speck Jass, Coiffeur and Differenzler
change in the fold (``scoring.variants.base.Variant`` says which questions those are)."""

from __future__ import annotations

from scoring.events import GameConfigured
from scoring.variants.base import DoneRound, Taken, Variant, VariantRuleError, Written
from scoring.variants.coiffeur import Coiffeur
from scoring.variants.differenzler import Differenzler
from scoring.variants.schieber import Schieber
from scoring.variants.speck import Speck

VARIANT_CLASSES: dict[str, type[Variant]] = {cls.name: cls for cls in (Schieber, Speck, Coiffeur, Differenzler)}


def variant_for(config: GameConfigured) -> Variant:
    """The variant object of a game, from its ``game_configured``."""
    return VARIANT_CLASSES[config.variant](config)


__all__ = [
    "Coiffeur",
    "Differenzler",
    "DoneRound",
    "Schieber",
    "Speck",
    "Taken",
    "VARIANT_CLASSES",
    "Variant",
    "VariantRuleError",
    "Written",
    "variant_for",
]
