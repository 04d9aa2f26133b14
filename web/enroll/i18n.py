"""The enrolment screen's words (merged over the dashboard's own ``web.i18n.STRINGS``)."""

from __future__ import annotations

from typing import Final

ENROLL_STRINGS: Final[dict[str, dict[str, str]]] = {
    "de": {
        "enroll_title": "Kartenspiel",
        "enroll_decks": "Kartenspiele",
        "enroll_builtin": "Eingebautes Spiel (Schweizer Karten)",
        "enroll_active": "aktiv",
        "enroll_use": "Verwenden",
        "enroll_delete": "Löschen",
        "enroll_new": "Eigenes Spiel einlernen",
        "enroll_name": "Name des Spiels",
        "enroll_suits": "Farben",
        "enroll_swiss": "Deutschschweizer (Eicheln, Schilten, Rosen, Schellen)",
        "enroll_french": "Französisch (Kreuz, Schaufel, Herz, Ecken)",
        "enroll_start": "Beginnen",
        "enroll_lay": "Lege diese Karten nebeneinander unter die Kamera, von links nach rechts:",
        "enroll_capture": "Aufnehmen",
        "enroll_photo": "oder Foto hochladen",
        "enroll_progress": "Karten erfasst",
        "enroll_missing": "Fehlt noch",
        "enroll_captured": "Erfasst",
        "enroll_unlabelled": "— welche Karte? —",
        "enroll_finish": "Spiel speichern",
        "enroll_activate": "gleich verwenden",
        "enroll_building": "Spiel wird eingelernt …",
        "enroll_done": "Gespeichert",
        "enroll_cancel": "Abbrechen",
        "enroll_found": "Gefunden",
        "enroll_all_done": (
            "Alle 36 Karten erfasst: das Spiel kann gespeichert werden. Ein zweites Bild jeder Karte, "
            "an anderer Stelle oder in anderem Licht, liest das Spiel sicherer."
        ),
        "enroll_lay_again": (
            "Zweite Runde (empfohlen): lege diese Karten nochmals hin, an einer anderen Stelle oder in "
            "anderem Licht, von links nach rechts:"
        ),
        "enroll_twice_done": "Jede Karte zweimal erfasst: jetzt speichern.",
        "enroll_count_mismatch": "Anzahl stimmt nicht: bitte die Karten unten beschriften.",
    },
    "fr": {
        "enroll_title": "Jeu de cartes",
        "enroll_decks": "Jeux de cartes",
        "enroll_builtin": "Jeu intégré (cartes suisses)",
        "enroll_active": "actif",
        "enroll_use": "Utiliser",
        "enroll_delete": "Supprimer",
        "enroll_new": "Apprendre votre propre jeu",
        "enroll_name": "Nom du jeu",
        "enroll_suits": "Couleurs",
        "enroll_swiss": "Suisses allemandes (glands, écus, roses, grelots)",
        "enroll_french": "Françaises (trèfle, pique, cœur, carreau)",
        "enroll_start": "Commencer",
        "enroll_lay": "Posez ces cartes côte à côte sous la caméra, de gauche à droite :",
        "enroll_capture": "Capturer",
        "enroll_photo": "ou envoyer une photo",
        "enroll_progress": "cartes saisies",
        "enroll_missing": "Il manque",
        "enroll_captured": "Saisies",
        "enroll_unlabelled": "— quelle carte ? —",
        "enroll_finish": "Enregistrer le jeu",
        "enroll_activate": "l'utiliser tout de suite",
        "enroll_building": "Apprentissage du jeu …",
        "enroll_done": "Enregistré",
        "enroll_cancel": "Annuler",
        "enroll_found": "Trouvées",
        "enroll_all_done": (
            "Les 36 cartes sont saisies : le jeu peut être enregistré. Une deuxième image de chaque "
            "carte, ailleurs ou sous une autre lumière, le lit plus sûrement."
        ),
        "enroll_lay_again": (
            "Deuxième tour (conseillé) : reposez ces cartes, ailleurs sur la table ou sous une autre "
            "lumière, de gauche à droite :"
        ),
        "enroll_twice_done": "Chaque carte est saisie deux fois : enregistrez le jeu.",
        "enroll_count_mismatch": "Le nombre ne correspond pas : nommez les cartes ci-dessous.",
    },
    "en": {
        "enroll_title": "Card deck",
        "enroll_decks": "Card decks",
        "enroll_builtin": "Built-in deck (Swiss cards)",
        "enroll_active": "active",
        "enroll_use": "Use",
        "enroll_delete": "Delete",
        "enroll_new": "Teach your own deck",
        "enroll_name": "Deck name",
        "enroll_suits": "Suits",
        "enroll_swiss": "Swiss-German (acorns, shields, roses, bells)",
        "enroll_french": "French (clubs, spades, hearts, diamonds)",
        "enroll_start": "Start",
        "enroll_lay": "Lay these cards side by side under the camera, left to right:",
        "enroll_capture": "Capture",
        "enroll_photo": "or upload a photo",
        "enroll_progress": "cards captured",
        "enroll_missing": "Still missing",
        "enroll_captured": "Captured",
        "enroll_unlabelled": "— which card? —",
        "enroll_finish": "Save deck",
        "enroll_activate": "use it right away",
        "enroll_building": "Learning the deck …",
        "enroll_done": "Saved",
        "enroll_cancel": "Cancel",
        "enroll_found": "Found",
        "enroll_all_done": (
            "All 36 cards captured: the deck can be saved. A second picture of each card, elsewhere or "
            "in other light, reads it more surely."
        ),
        "enroll_lay_again": (
            "Second round (recommended): lay these cards again, elsewhere on the table or in other "
            "light, left to right:"
        ),
        "enroll_twice_done": "Every card captured twice: save the deck now.",
        "enroll_count_mismatch": "The count does not match: please label the cards below.",
    },
}
