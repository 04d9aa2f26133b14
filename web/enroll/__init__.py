"""Deck enrolment on the dashboard: teach the appliance the table's own cards, choose the deck.

``/enroll`` guides the user: name the deck and its suit system, lay a row of cards under
the camera (or upload a photo), see what was captured, fix a wrong label, save. The
profile is built in the background (progress shown) and stored in the deck library
(``vision.enroll.DeckLibrary``, ``<state dir>/decks``), where the appliance's recogniser
picks it up once it is the table's active deck (``jasscam.decks.DeckAwareRecognizer``).

``/enroll/api/active`` and ``/enroll/cards/<card-id>.png`` give the active deck's own
suit names and card pictures (the built-in ones when no deck is enrolled), so the
dashboard can show the cards the table really plays with.

Writes need the table PIN, as everywhere on the dashboard.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from flask import Flask

from vision.enroll import DeckLibrary
from vision.enroll.enroller import DEFAULT_VIEWS
from web.enroll.routes import EnrollState, blueprint, deck_info

__all__ = ["register_enroll", "deck_info"]


def register_enroll(
    app: Flask,
    *,
    decks_dir: Path | str | None = None,
    frames: Callable[[], np.ndarray | None] | None = None,
    recognizer: Any | None = None,
    make_recognizer: Callable[[], Any] | None = None,
    table: str = "main",
    views: int = DEFAULT_VIEWS,
) -> None:
    """Mount the enrolment screens at ``/enroll`` on the dashboard ``app`` (again to add a camera).

    ``decks_dir``: the deck library (default: ``decks/`` beside the dashboard's settings
    file, i.e. the appliance's state directory). ``frames()``: the camera's latest BGR
    frame or None; without it the page offers photo upload only. ``recognizer``: an
    object with ``detect_quads`` and ``embed`` (``vision.recognizer.Recognizer``); loaded
    from the shipped models on first use if not given.
    """
    if decks_dir is None:
        guard = app.extensions.get("jasscam_pins")
        settings = getattr(guard, "settings_path", None)
        decks_dir = Path(settings).parent / "decks" if settings is not None else None
    old: EnrollState | None = app.extensions.get("enroll")
    state = EnrollState(
        library=DeckLibrary(decks_dir) if decks_dir is not None else None,
        frames=frames,
        recognizer=recognizer,
        make_recognizer=make_recognizer,
        table=table,
        views=views,
        session=old.session if old is not None else None,
    )
    app.extensions["enroll"] = state
    if "enroll" not in app.blueprints:  # the dashboard registers it; the appliance may call again with a camera
        app.register_blueprint(blueprint)
