"""The sections of the Speck Jass rules that the screens quote, word for word.

Copied from the tournament rules (``Speck Jass im Eidgenossen``, sections 2.5 and 2.8)
so that a flagged misplay shows the table exactly the text it has to decide by; the
table, not the appliance, applies the rule (4.1: «Konnten sich alle vier Jasser
selbstständig einigen, ist das Spiel gültig gemäss ihrer Einigung»).
"""

from __future__ import annotations

from typing import Final

#: section -> (title, text), German as in the rules.
RULES: Final[dict[str, tuple[str, str]]] = {
    "2.5.2": (
        "Punkte zählen",
        "Die Karten dürfen erst zusammengelegt werden, wenn das Total der aller Spieler 157 Punkte ergibt.",
    ),
    "2.5.3": (
        "Gesamtpunkte",
        "Der Schreiber zählt nach allen Spielen die Gesamtpunkte zusammen und kontrolliert, ob das Total "
        "aller Spieler korrekt ist (Anzahl Spiele x 157; bei 8 Spielen 1256 Punkte, bei 12 Spielen 1884 Punkte).",
    ),
    "2.8.3": (
        "Spieler spielt irrtümlich aus",
        "Wer der Stich gestochen hat, muss wieder ausspielen. Spielt irrtümlich der falsche Spieler aus, egal "
        "ob im ersten Stich oder später im Spiel, zieht er die Karte zurück. Der Spieler, welcher an der Reihe "
        "gewesen wäre, muss ausspielen. Die irrtümlich gespielte Karte verliert ihren Stichwert.",
    ),
    "2.8.4": (
        "Nicht farben (nicht leih halten)",
        "Bekennt ein Spieler irrtümlich nicht Farbe, verlieren die irrtümlich gespielte sowie die irrtümlich "
        "zurückbehaltene Karte ihren Stechwert. Die falsch gespielte Karte wird durch eine gültige Karte "
        "ausgetauscht, solange der Stich offen ist. Der fehlbare Jasser kann den Stich auf keinen Fall stechen. "
        "Das Spiel bleibt gültig. Wird irrtümlich bei einem Trumpf-Spiel kein Trumpf angegeben, verlieren alle "
        "Trümpfe vom fehlbaren Spieler ihre Stechwerte, ausser dem Trumpf-Puur. Verlieren Karten ihren "
        "Stechwert, behalten sie trotzdem ihre Zählwerte.",
    ),
    "2.8.5": (
        "Untertrumpfen",
        "Untertrumpfen ist nicht gestattet und wird gleich gehandhabt, wie das nicht farben. Ausnahme: man hat "
        "nur noch Trumpfkarten in den Händen.",
    ),
    "2.8.6": (
        "Zu früh gespielte Karte",
        "Eine zu früh gespielte Karte muss liegen bleiben und darf nicht mehr zurückgenommen werden. Ausser es "
        "muss gefarbt werden (siehe Regel zum «Nicht farben»).",
    ),
    "2.9.2": (
        "Rangierung bei Punktgleichheit",
        "Haben ein oder mehrere Spieler gleich viele Punkte, wird das Resultat des besten Spieles beigezogen. "
        "Wer mehr Punkte in dem besten Spiel hat, ist besser rangiert bei Punktgleichheit.",
    ),
}


def rule(section: str | None) -> dict[str, str] | None:
    """``{section, title, text}`` for a rule section, or None for an unknown/empty one."""
    if section is None or section not in RULES:
        return None
    title, text = RULES[section]
    return {"section": section, "title": title, "text": text}
