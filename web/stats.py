"""The statistics page, its charts, the known players and the history exports.

Everything here is read from the event store through ``web.history.Summaries`` (each
game folded by the rules engine); the only thing written is the table's Bergpreis
setting, which needs the table PIN like every write. Reading is open like the rest of
the dashboard (the players' names are on every score sheet anyway).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, make_response, request

from scoring.events import VARIANTS
from scoring.statistics import GameSummary, TableStatistics, name_key, play_seconds, table_statistics
from web import charts
from web.auth import authorize
from web.common import download, language, render_page, store, table_settings
from web.errors import ApiError
from web.history import Summaries, anonymous, history_csv, matches, players_of
from web.i18n import STRINGS
from web.table_i18n import TABLE_STRINGS

blueprint = Blueprint("stats", __name__)

#: An SVG chart is a document of its own: opened directly it must run nothing.
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'"


def words(code: str) -> dict[str, str]:
    """The dashboard's words with this module's, in language ``code``."""
    return {**STRINGS[code], **TABLE_STRINGS[code]}


def _summaries() -> Summaries:
    found: Summaries = current_app.extensions["jasscam_summaries"]
    return found


def bergpreis_on() -> bool:
    """The table's setting: count the Bergpreis (on unless the table switched it off)."""
    return table_settings().bergpreis


def _variant() -> str | None:
    variant = request.args.get("variant") or None
    if variant is not None and variant not in VARIANTS:
        raise ApiError(f"variant must be one of {', '.join(VARIANTS)}")
    return variant


def _player() -> str | None:
    player = " ".join((request.args.get("player") or "").split())
    if len(player) > 60:
        raise ApiError("a player's name has at most 60 characters")
    return player or None


def chosen_games() -> list[GameSummary]:
    """The games the request asks for (``?player=`` and ``?variant=``), oldest first."""
    player, variant = _player(), _variant()
    games = []
    for s in _summaries().all():
        config = {"variant": s.variant, "players": list(s.players)}
        if not matches(config, player, variant):
            continue
        games.append(s if bergpreis_on() else _without_bergpreis(s))
    return games


def _without_bergpreis(s: GameSummary) -> GameSummary:
    return replace(s, bergpreis=None)


def statistics() -> TableStatistics:
    return table_statistics(chosen_games(), anonymous)


@blueprint.get("/stats")
def stats_page() -> str:
    return render_page("stats.html", words(language()), variants=VARIANTS, charts=list(charts.CHARTS))


@blueprint.get("/api/stats")
def api_stats() -> Response:
    """Per player, per pair and per game; ``?player=`` keeps the games that player was in."""
    stats = statistics()
    return jsonify(**stats.to_dict(), bergpreis=bergpreis_on())


@blueprint.get("/api/stats/<name>.svg")
def api_chart(name: str) -> Response:
    if name not in charts.CHARTS:
        raise ApiError(f"no chart {name!r}; there are {', '.join(charts.CHARTS)}", 404)
    stats = statistics()
    focus = _player()
    if focus is not None:  # the chosen player's figures first (their contracts chart)
        key = name_key(focus)
        stats = TableStatistics(
            tuple(sorted(stats.players, key=lambda f: name_key(f.names[0]) != key)), stats.pairs, stats.games
        )
    t = words(language())
    theme = request.args.get("theme", "dark")
    response = make_response(charts.render(name, stats, lambda k: t.get(k, k), theme))
    response.mimetype = "image/svg+xml"
    response.headers["Content-Security-Policy"] = SVG_POLICY
    return response


@blueprint.post("/api/stats/settings")
def api_stats_settings() -> Response:
    """The table switches the Bergpreis on or off (PIN)."""
    authorize()
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("bergpreis"), bool):
        raise ApiError('send {"bergpreis": true} or {"bergpreis": false}')
    try:
        table_settings().set_bergpreis(data["bergpreis"])
    except OSError as exc:
        raise ApiError(f"cannot save the setting: {exc}", 507) from None
    return jsonify(bergpreis=bergpreis_on())


@blueprint.get("/api/players")
def api_players() -> Response:
    """The names the table has played under, the latest game's first; and the latest table."""
    rows = store().catalog()
    latest = next((r["config"]["players"] for r in reversed(rows) if r.get("config")), None)
    return jsonify(players=players_of(rows), last_table=latest)


@blueprint.get("/api/history.csv")
def api_history_csv() -> Response:
    return download(history_csv(chosen_games()), "text/csv", "jass-history.csv")


@blueprint.get("/api/history.json")
def api_history_json() -> Response:
    body = {"games": [s.to_dict() for s in chosen_games()], "bergpreis": bergpreis_on()}
    return download(json.dumps(body, ensure_ascii=False, indent=1), "application/json", "jass-history.json")


def register_stats(app: Flask) -> None:
    """Mount the statistics on the dashboard ``app`` (inside ``web.app.create_app``)."""
    app.extensions["jasscam_summaries"] = Summaries(app.extensions["jasscam_store"])
    app.register_blueprint(blueprint)


def game_meta(store: Any, game_id: int) -> dict[str, Any]:
    """What an export of one game says about it: date, variant, players, time played."""
    row = next((r for r in store.catalog() if int(r["id"]) == game_id), None)
    config = (row or {}).get("config") or {}
    players = list(config.get("players", []))
    variant = config.get("variant", "schieber")
    return {
        "date": (row or {}).get("created"),
        "variant": variant,
        "players": players,
        "seconds": round(play_seconds(store.times(game_id))),
    }
