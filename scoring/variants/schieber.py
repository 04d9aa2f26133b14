"""The Schieber: two teams, six contracts with the table's factors, to a target (001).

Every answer is the base class's (``scoring.variants.base.Variant``): the Schieber is
the game the others are told as changes of.
"""

from __future__ import annotations

from typing import ClassVar

from scoring.variants.base import Variant


class Schieber(Variant):
    name: ClassVar[str] = "schieber"
