"""The dashboard's words in German (the language of the table), French and English.

One flat dict per language, one module each (web/i18n/de.py, fr.py, en.py), so a
translator works through one file; the templates and the JavaScript read the same dict
(it is embedded in each page as JSON), so a missing word is caught by one test
(``test_every_language_has_every_word``) instead of showing up as a blank button.
"""

from __future__ import annotations

from typing import Final

from web.i18n import de, en, fr

LANGUAGES: Final[tuple[str, ...]] = ("de", "fr", "en")
DEFAULT_LANGUAGE: Final[str] = "de"

STRINGS: Final[dict[str, dict[str, str]]] = {"de": de.WORDS, "fr": fr.WORDS, "en": en.WORDS}


def pick_language(requested: str | None) -> str:
    """The language to use: the table's explicit choice (a cookie), else German.

    The browser's Accept-Language is ignored on purpose: German is the language of the
    table, and one phone set to English should not make the screens differ.
    """
    return requested if requested in LANGUAGES else DEFAULT_LANGUAGE
