"""One game to take home: ``export.json`` (every event and the final state) and ``export.csv``
(the score sheet, for a spreadsheet). The whole table's history is exported by web.stats.

A Differenzler forecast stays secret in the export too until its round is over
(``scoring.differenzler``), as on every other screen.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response

from scoring.differenzler import hidden_positions, redact
from scoring.events import event_to_dict
from web.common import download, known_game, store
from web.stats import game_meta
from web.view import fold_state, sheet_csv

blueprint = Blueprint("exports", __name__, url_prefix="/api/games")


@blueprint.get("/<int:game_id>/export.json")
def export_json(game_id: int) -> Response:
    events = known_game(game_id)
    hidden = hidden_positions(events)
    rows = [redact(event_to_dict(e)) if i in hidden else event_to_dict(e) for i, e in enumerate(events)]
    body = {"game": game_id, **game_meta(store(), game_id), "events": rows, "state": fold_state(events)}
    return download(json.dumps(body, ensure_ascii=False, indent=1), "application/json", f"jass-{game_id}.json")


@blueprint.get("/<int:game_id>/export.csv")
def export_csv(game_id: int) -> Response:
    state = fold_state(known_game(game_id))
    meta = {"game": game_id, **game_meta(store(), game_id)}
    return download(sheet_csv(state, meta), "text/csv", f"jass-{game_id}.csv")
