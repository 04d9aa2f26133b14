"""The tracker benchmark's summary: the tricks lost apart by cause, and per habit."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from benchmarks.tracker import GameResult, summarise, summarise_file


def games() -> list[GameResult]:
    return [
        GameResult(
            5_000_400, "clean", tricks=9, tricks_right=7, lost_unread=1, habits={"together": [3, 1], "none": [4, 0]}
        ),
        GameResult(5_000_401, "hard", tricks=9, tricks_right=9, habits={"together": [2, 0], "take_back": [1, 0]}),
        GameResult(5_000_402, "clean", error="ran past 900 s", habits={"together": [9, 9]}),
    ]


def test_the_summary_counts_lost_tricks_by_cause_and_by_habit_over_the_games_that_ran() -> None:
    summary = summarise(games(), "oracle")
    assert summary["tricks"] == 18 and summary["tricks_right"] == 16
    assert summary["tricks_lost_unread"] == 1
    assert summary["habits"] == {
        "none": {"tricks": 4, "lost": 0},
        "take_back": {"tricks": 1, "lost": 0},
        "together": {"tricks": 5, "lost": 1},
    }


def test_a_results_file_sums_up_the_same_as_the_run(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(asdict(g)) + "\n" for g in games()), encoding="utf-8")
    assert summarise_file(path, "oracle") == summarise(games(), "oracle")


def test_no_habit_counts_without_habits() -> None:
    assert "habits" not in summarise([GameResult(5_000_100, "clean", tricks=9, tricks_right=9)], "recognizer")
