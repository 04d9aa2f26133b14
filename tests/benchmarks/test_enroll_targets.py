"""How the enrolment benchmark states its accuracies and judges issue 8's targets."""

from __future__ import annotations

import pytest

from benchmarks.enroll import interval95, targets


def test_the_interval_of_a_count_holds_its_rate_and_narrows_with_more_cards() -> None:
    lo, hi = interval95(249, 253)
    assert lo < 249 / 253 < hi
    assert lo < 0.99 < hi  # 4 wrong of 253 cannot say whether the deck reads 99 %
    lo4, hi4 = interval95(996, 1012)
    assert hi4 - lo4 < (hi - lo) / 1.8
    assert interval95(10, 10)[1] == pytest.approx(1.0) and interval95(0, 10)[0] == pytest.approx(0.0)


def test_the_interval_of_no_cards_says_nothing() -> None:
    assert interval95(0, 0) == (0.0, 1.0)


def _result(identity: dict[str, float], tricks: dict[str, float] | None = None) -> dict:
    out: dict = {deck: {"identity_accuracy": acc} for deck, acc in identity.items()}
    if tricks is not None:
        out["tricks"] = {deck: {"trick_accuracy": acc} for deck, acc in tricks.items()}
    return out


def test_a_deck_under_99_percent_misses_the_identity_target() -> None:
    met = targets(_result({"paris": 1.0, "flat": 0.9842}), ("paris", "flat"))
    assert met == {"identity paris": True, "identity flat": False}


def test_trick_accuracy_is_judged_against_the_builtin_decks_within_one_point() -> None:
    result = _result({"paris": 0.995}, {"swiss-xvii": 0.98, "paris": 0.971})
    assert targets(result, ("paris",))["tricks paris"]
    result["tricks"]["paris"]["trick_accuracy"] = 0.969
    assert not targets(result, ("paris",))["tricks paris"]


@pytest.mark.parametrize("acc", [0.99, 0.995])
def test_exactly_99_percent_meets_the_identity_target(acc: float) -> None:
    assert targets(_result({"paris": acc}), ("paris",))["identity paris"]


def test_with_several_enrolment_seeds_the_pooled_count_is_judged() -> None:
    result = _result({"flat": 0.996})
    result["flat"]["over_seeds"] = {"identity_accuracy": 0.985}
    assert not targets(result, ("flat",))["identity flat"]
