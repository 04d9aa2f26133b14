"""Punkteblatt exports: CSV for spreadsheets, an A4 PDF for the organisers."""

from __future__ import annotations

import csv
import io

from scoring.game import fold
from scoring.speck import punkteblatt
from tests.speck.conftest import PLAYERS, speck_events
from web.speck.export import blatt_csv, blatt_pdf, card_label


def test_csv_has_one_line_per_game_then_totals_check_and_ranking() -> None:
    blatt = punkteblatt(fold(speck_events(seed=7, scorer=0)))
    rows = list(csv.reader(io.StringIO(blatt_csv(blatt, title="Eidgenossen Tisch 3"))))
    assert rows[0] == ["Punkteblatt", "Eidgenossen Tisch 3"]
    assert rows[1] == ["Spiel", "Geber", "Bodentrumpf", *PLAYERS, "Summe", "Kontrolle"]
    games = rows[2:14]
    assert [int(r[0]) for r in games] == list(range(1, 13))
    assert [[int(x) for x in r[3:7]] for r in games] == [g["points"] for g in blatt["games"]]
    assert all(r[7] == "157" and r[8] == "ok" for r in games)
    assert rows[14][0] == "Total" and [int(x) for x in rows[14][3:7]] == blatt["totals"] and rows[14][7] == "1884"
    assert rows[15][0] == "Bestes Spiel" and [int(x) for x in rows[15][3:7]] == blatt["best"]
    assert rows[16][0] == "Kontrolle" and rows[16][7] == "1884" and rows[16][8] == "ok"
    ranking = rows[19:23]
    assert [r[1] for r in ranking] == [r["name"] for r in blatt["ranking"]]


def test_pdf_is_an_a4_document_with_names_totals_and_the_check() -> None:
    blatt = punkteblatt(fold(speck_events(seed=7, scorer=0)))
    pdf = blatt_pdf(blatt, title="Tisch 3", compress=False)
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [ 0 0 595.2756 841.8898 ]" in pdf  # A4 portrait
    for name in PLAYERS:
        assert name.encode() in pdf
    assert b"1884" in pdf and b"Punkteblatt Speck Jass" in pdf
    for total in blatt["totals"]:
        assert f"({total})".encode() in pdf
    assert blatt_pdf(blatt).startswith(b"%PDF-")  # compressed, for download


def test_card_labels_are_german_card_names() -> None:
    assert card_label("rosen-under") == "Rosen Under"
    assert card_label("schellen-koenig") == "Schellen König"
    assert card_label(None) == ""
