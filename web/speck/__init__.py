"""Speck Jass tournament screens: a Flask blueprint on top of the dashboard.

Set-up (four players with first and last name, Schreiber, 12 or 8 games, first dealer),
the Bodentrumpf (proposed by the camera, confirmed or entered by button), live points
per player with the 157 check, the 2.8 misplays with the rule's text and the table's
ruling, and the Punkteblatt (page, print, CSV, PDF).

It uses the dashboard's store, PIN guard and live stream (``app.extensions``), so it is
registered inside ``web.app.create_app`` with :func:`register_speck`. Every write is one
event checked by the rules engine in ``store.append``, as on the dashboard.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask

from web.speck.routes import BodentrumpfSource, blueprint

__all__ = ["register_speck", "BodentrumpfSource"]


def register_speck(app: Flask, *, bodentrumpf: BodentrumpfSource | None = None, title: str | None = None) -> None:
    """Mount the Speck screens at ``/speck`` on the dashboard ``app``.

    ``bodentrumpf(game_id)`` returns the camera's current Bodentrumpf proposal
    (``{"card", "confidence"}``) or None; the appliance passes
    ``vision.bodentrumpf.BodentrumpfWatcher.proposal``. ``title``: the
    tournament and table, printed on the Punkteblatt.
    """
    source: Callable[[int], dict[str, Any] | None] = bodentrumpf or (lambda _game: None)
    app.extensions["speck_bodentrumpf"] = source
    app.extensions["speck_title"] = title or ""
    if "speck" not in app.blueprints:  # the dashboard registers it; the appliance may call again with a camera
        app.register_blueprint(blueprint)
