"""The Punkteblatt as CSV and as a PDF (reportlab), for the organisers.

Both are built from :func:`scoring.speck.punkteblatt` only, so the printout, the CSV
and the screen can never disagree. The PDF is A4 portrait with one line per game, the
totals, the check games x 157, the ranking and a field for the Jassleitung's visum
(2.5.3: «Ist ein Visum … erforderlich, darf dieses nur durch die Jassleitung … notiert
werden»).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from scoring.sheet import CONTRACT_LABEL


def card_label(card: str | None) -> str:
    """``rosen-under`` -> ``Rosen Under`` (German card names as on the sheet)."""
    if not card:
        return ""
    suit, rank = card.split("-", 1)
    ranks = {"under": "Under", "ober": "Ober", "koenig": "König", "ass": "Ass"}
    return f"{CONTRACT_LABEL.get(suit, suit)} {ranks.get(rank, rank)}"


def blatt_csv(blatt: dict[str, Any], *, title: str = "") -> str:
    """One line per game (points per player, sum, check), then totals, best game and ranking."""
    names = blatt["players"]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    if title:
        w.writerow(["Punkteblatt", title])
    w.writerow(["Spiel", "Geber", "Bodentrumpf", *names, "Summe", "Kontrolle"])
    for g in blatt["games"]:
        w.writerow(
            [
                g["game"],
                names[g["dealer"]],
                card_label(g["bodentrumpf"]),
                *g["points"],
                g["sum"],
                "ok" if g["ok"] else "FEHLER",
            ]
        )
    check = blatt["check"]
    w.writerow(["Total", "", "", *blatt["totals"], check["actual"], "ok" if check["ok"] else "FEHLER"])
    w.writerow(["Bestes Spiel", "", "", *blatt["best"], "", ""])
    w.writerow(
        [
            "Kontrolle",
            f"{check['games']} Spiele x 157",
            "",
            "",
            "",
            "",
            "",
            check["expected"],
            "ok" if check["ok"] else "FEHLER",
        ]
    )
    w.writerow([])
    w.writerow(["Rang", "Name", "Total", "Bestes Spiel"])
    for r in blatt["ranking"]:
        w.writerow([r["place"], r["name"], r["total"], r["best"]])
    return out.getvalue()


def blatt_pdf(blatt: dict[str, Any], *, title: str = "", compress: bool = True) -> bytes:
    """The Punkteblatt as an A4 PDF. ``compress=False`` keeps the page text readable in
    the file (the tests look for the names and numbers in it)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    buf = io.BytesIO()
    doc = SimpleDocTemplate(
        buf,
        pagesize=A4,
        leftMargin=14 * mm,
        rightMargin=14 * mm,
        topMargin=14 * mm,
        bottomMargin=14 * mm,
        title="Punkteblatt Speck Jass",
        author="jasscam",
        invariant=True,
        pageCompression=1 if compress else 0,
    )
    styles = getSampleStyleSheet()
    names: list[str] = blatt["players"]
    scorer = blatt.get("scorer")
    story: list[Any] = [Paragraph("Punkteblatt Speck Jass" + (f" – {title}" if title else ""), styles["Title"])]
    info = f"{blatt['games_played']} von {blatt['games_planned']} Spielen"
    if scorer is not None:
        info += f" · Schreiber: {names[scorer]}"
    story += [Paragraph(info, styles["Normal"]), Spacer(1, 4 * mm)]

    head = ["Spiel", "Geber", "Bodentrumpf", *names, "Summe"]
    rows: list[list[Any]] = [head]
    bad: list[int] = []
    for g in blatt["games"]:
        rows.append(
            [
                str(g["game"]),
                names[g["dealer"]],
                card_label(g["bodentrumpf"]),
                *map(str, g["points"]),
                str(g["sum"]) + ("" if g["ok"] else " FEHLER"),
            ]
        )
        if not g["ok"]:
            bad.append(len(rows) - 1)
    check = blatt["check"]
    rows.append(["Total", "", "", *map(str, blatt["totals"]), str(check["actual"])])
    rows.append(["Bestes Spiel", "", "", *map(str, blatt["best"]), ""])
    table = Table(rows, repeatRows=1, hAlign="LEFT")
    style = [
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
        ("FONT", (0, 1), (-1, -1), "Helvetica", 8),
        ("FONT", (0, -2), (-1, -1), "Helvetica-Bold", 8),
        ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
        ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
        ("LINEABOVE", (0, -2), (-1, -2), 1.2, colors.black),
    ]
    style += [("TEXTCOLOR", (0, r), (-1, r), colors.red) for r in bad]
    table.setStyle(TableStyle(style))
    story += [table, Spacer(1, 4 * mm)]
    verdict = "stimmt" if check["ok"] else "FEHLER"
    story.append(
        Paragraph(
            f"Kontrolle: {check['games']} Spiele × 157 = {check['expected']}; Total aller Spieler {check['actual']} "
            f"({verdict}).",
            styles["Normal"],
        )
    )
    story.append(Spacer(1, 4 * mm))
    story.append(Paragraph("Rangliste (bei Punktgleichheit entscheidet das beste Spiel, 2.9.2)", styles["Heading3"]))
    rank_rows = [["Rang", "Name", "Total", "Bestes Spiel"]] + [
        [str(r["place"]), r["name"], str(r["total"]), str(r["best"])] for r in blatt["ranking"]
    ]
    rank = Table(rank_rows, hAlign="LEFT")
    rank.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 9),
                ("FONT", (0, 1), (-1, -1), "Helvetica", 9),
                ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
                ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
            ]
        )
    )
    story += [rank, Spacer(1, 12 * mm)]
    story.append(
        Paragraph(
            "Unterschrift Schreiber: ______________________    Visum Jassleitung: ______________________",
            styles["Normal"],
        )
    )
    doc.build(story)
    return buf.getvalue()
