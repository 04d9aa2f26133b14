"""``jasscam score GAME.jsonl``: the sheet as text and JSON, clear errors with line numbers."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import pytest

from jasscam.commands import score
from scoring.events import dumps
from scoring.simulate import random_game_events


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser()
    score.add_arguments(parser)
    rc = score.run(parser.parse_args(list(argv)))
    out, err = capsys.readouterr()
    return rc, out, err


def write_game(path: Path, seed: int = 7, **config: object) -> list[str]:
    lines = [dumps(e) for e in random_game_events(random.Random(seed), **config)]  # type: ignore[arg-type]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines


def test_prints_schieber_sheet_with_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.jsonl"
    write_game(game, target=1000, players=["Anna", "Beat", "Chris", "Dora"])
    rc, out, _ = run(capsys, str(game))
    assert rc == 0
    assert "Team 1: Anna & Chris" in out and "Sieger: Team" in out and "Stöck" in out


def test_json_sheet_totals_match_rounds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.jsonl"
    write_game(game, target=1000)
    rc, out, _ = run(capsys, str(game), "--json")
    data = json.loads(out)
    assert rc == 0 and data["game_over"]["winner"] in (0, 1)
    for team in (0, 1):
        assert data["totals"][team]["total"] == sum(r["teams"][team]["total"] for r in data["rounds"])


def test_speck_sheet_checks_games_times_157(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "speck.jsonl"
    write_game(game, variant="speck", speck_games=8)
    rc, out, _ = run(capsys, str(game))
    assert rc == 0 and "8 Spiele × 157 = 1256 (stimmt)" in out and "Rangliste" in out
    rc, out, _ = run(capsys, str(game), "--json")
    assert json.loads(out)["sum_check"] == {"games": 8, "expected": 1256, "actual": 1256, "ok": True}


def test_bad_json_line_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.jsonl"
    lines = write_game(game, target=1000)
    lines[4] = '{"type": "card_played", "seat": 7, "card": "rosen-6"}'
    game.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rc, _, err = run(capsys, str(game))
    assert rc == 2 and f"{game}:5:" in err and "seat" in err


def test_event_that_cannot_apply_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.jsonl"
    game.write_text(
        '{"type": "game_configured"}\n\n{"type": "card_played", "seat": 0, "card": "rosen-6"}\n', encoding="utf-8"
    )
    rc, _, err = run(capsys, str(game))
    assert rc == 2 and f"{game}:3:" in err and "before any round_started" in err


def test_missing_file_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(capsys, str(tmp_path / "nope.jsonl"))
    assert rc == 2 and "cannot read" in err


def test_prior_totals_from_paper_are_the_first_row_and_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game continued from the Jasstafel: ``--prior`` adds the written totals."""
    game = tmp_path / "game.jsonl"
    write_game(game, target=5000, max_rounds=3)  # the log of three rounds: it ends below the target
    _, plain, _ = run(capsys, str(game), "--json")
    rc, out, _ = run(capsys, str(game), "--json", "--prior", "640,710")
    assert rc == 0
    before, after = json.loads(plain), json.loads(out)
    assert after["prior_totals"] == [640, 710]
    assert [t["total"] for t in after["totals"]] == [
        before["totals"][0]["total"] + 640,
        before["totals"][1]["total"] + 710,
    ]
    rc, text, _ = run(capsys, str(game), "--prior", "640,710")
    assert rc == 0 and any(
        line.startswith("Übertrag") and "640" in line and "710" in line for line in text.splitlines()
    )


def test_prior_totals_at_the_target_or_malformed_are_refused_with_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """001: «Ein Jass-Match endet, sobald eine Mannschaft die vereinbarte Zielpunktzahl überschreitet.»"""
    game = tmp_path / "game.jsonl"
    write_game(game, target=1000)
    rc, out, err = run(capsys, str(game), "--prior", "1000,0")
    assert rc == 2 and not out and f"{game}:1:" in err and "already reaches the target 1000" in err
    rc, _, err = run(capsys, str(game), "--prior", "640;710")
    assert rc == 2 and "whole numbers separated by commas" in err
    rc, _, err = run(capsys, str(game), "--prior", "640")
    assert rc == 2 and "two whole numbers" in err


def test_speck_prior_totals_with_their_games_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """002 2.5.3: the Punkteblatt is checked against games x 157, those on paper included."""
    game = tmp_path / "speck.jsonl"
    write_game(game, variant="speck", speck_games=2)
    rc, out, err = run(capsys, str(game), "--json", "--prior", "300,0,157,14", "--prior-games", "3")
    assert rc == 2 and "the series is over" in err  # 3 of a series of 2
    game.write_text(game.read_text().replace('"speck_games": 2', '"speck_games": 5'), encoding="utf-8")
    rc, out, err = run(capsys, str(game), "--json", "--prior", "300,0,157,14", "--prior-games", "3")
    assert rc == 0, err
    assert json.loads(out)["sum_check"] == {"games": 5, "expected": 785, "actual": 785, "ok": True}
    rc, _, err = run(capsys, str(game), "--prior", "300,0,157,14")
    assert rc == 2 and "give prior_games" in err
    rc, _, err = run(capsys, str(game), "--prior-games", "3")
    assert rc == 2 and "--prior-games needs --prior" in err
