"""The Speck blueprint's pages and JSON API (see web.speck for the overview)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, make_response, render_template, request

from scoring.cards import ALL_CARD_IDS, RANKS, SUITS
from scoring.events import EventError, GameConfigured, MisplayRuled, event_to_dict, parse_event
from scoring.game import RuleError, fold
from scoring.speck import NotSpeckError, next_game, punkteblatt
from web.auth import authorize
from web.errors import ApiError, answer_errors_as_json
from web.games import end_running
from web.i18n import LANGUAGES, STRINGS, pick_language
from web.speck.export import blatt_csv, blatt_pdf, card_label
from web.speck.i18n import SPECK_STRINGS
from web.speck.view import speck_view

#: The camera's Bodentrumpf proposal for a game: ``{"card", "confidence"}`` or None.
BodentrumpfSource = Callable[[int], "dict[str, Any] | None"]

GAME_COUNTS = (12, 8)
NAME_MAX = 30

blueprint = Blueprint(
    "speck",
    __name__,
    url_prefix="/speck",
    template_folder="templates",
    static_folder="static",
    static_url_path="/static",
)
_write_lock = threading.Lock()


class SpeckError(ApiError):
    """A request the Speck screens refuse: ``{"error": message}`` with ``status``."""


answer_errors_as_json(blueprint)


# -- helpers ---------------------------------------------------------------------------


def _store() -> Any:
    return current_app.extensions["jasscam_store"]


def _check_pin() -> None:
    """The dashboard's session or table PIN (web.auth: 403/429 with its message)."""
    try:
        authorize()
    except ApiError as exc:  # re-raised in this blueprint's own shape
        raise SpeckError(exc.message, exc.status) from None


def _events(game_id: int) -> list[Any]:
    try:
        events: list[Any] = _store().events(game_id)
    except LookupError:
        raise SpeckError(f"no game {game_id}", 404) from None
    if not events or getattr(events[0], "variant", None) != "speck":
        raise SpeckError(f"game {game_id} is not a Speck Jass game", 404)
    return events


def _strings() -> tuple[str, dict[str, str]]:
    code = pick_language(request.cookies.get("lang"))
    return code, {**STRINGS[code], **SPECK_STRINGS[code]}


def _page(template: str, **context: Any) -> str:
    code, t = _strings()
    return render_template(
        template,
        lang=code,
        t=t,
        strings_json=json.dumps(t, ensure_ascii=False),
        languages=[(c, STRINGS[c]["lang_name"]) for c in LANGUAGES],
        suits=SUITS,
        ranks=RANKS,
        **context,
    )


def _body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise SpeckError("the request body must be a JSON object")
    return data


def _proposal(game_id: int) -> dict[str, Any] | None:
    source = current_app.extensions.get("speck_bodentrumpf")
    if source is None:
        return None
    found = source(game_id)
    if found is None:
        return None
    card = found.get("card")
    if card not in ALL_CARD_IDS:
        return None
    return {"card": card, "confidence": found.get("confidence"), "label": card_label(card)}


def _append(game_id: int, event: Any) -> int:
    """Append under the lock, honouring ``X-Expect-Count`` (409 if the game moved on)."""
    expect = request.headers.get("X-Expect-Count")
    with _write_lock:
        count = len(_events(game_id))
        if expect is not None and expect != str(count):
            raise SpeckError(f"the game changed meanwhile ({count} events, you saw {expect}); look again", 409)
        try:
            return int(_store().append(game_id, event))
        except (EventError, RuleError) as exc:
            raise SpeckError(str(exc)) from None


def config_from_setup(data: dict[str, Any]) -> GameConfigured:
    """The set-up form's JSON -> a Speck ``game_configured``; SpeckError names the fault.

    ``players``: four ``{first, last}`` in seat order (counter-clockwise), ``scorer``
    and ``dealer`` seats, ``games`` 12 or 8; optionally ``prior_totals`` (per seat) and
    ``prior_games`` for a series continued from paper.
    """
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 4:
        raise SpeckError("players must be four {first, last} names in seat order")
    names: list[str] = []
    for seat, p in enumerate(players):
        if not isinstance(p, dict):
            raise SpeckError(f"seat {seat + 1}: expected {{first, last}}")
        first, last = p.get("first"), p.get("last")
        if not isinstance(first, str) or not first.strip() or not isinstance(last, str) or not last.strip():
            raise SpeckError(f"seat {seat + 1}: first and last name are both needed (2.5.1)")
        name = f"{' '.join(first.split())} {' '.join(last.split())}"
        if len(name) > NAME_MAX * 2:
            raise SpeckError(f"seat {seat + 1}: name too long")
        names.append(name)
    if len(set(names)) != 4:
        raise SpeckError("two seats have the same name")
    games = data.get("games", 12)
    if games not in GAME_COUNTS or isinstance(games, bool):
        raise SpeckError(f"games must be 12 or 8, got {games!r}")
    scorer, dealer = data.get("scorer"), data.get("dealer", data.get("scorer"))
    for key, value in (("scorer", scorer), ("dealer", dealer)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
            raise SpeckError(f"{key} must be a seat 0..3, got {value!r}")
    raw: dict[str, Any] = {
        "type": "game_configured",
        "players": names,
        "variant": "speck",
        "speck_games": games,
        "scorer": scorer,
        "dealer": dealer,
    }
    # A series continued from paper: the engine checks the totals against games x 157.
    for key in ("prior_totals", "prior_games"):
        if data.get(key) is not None:
            raw[key] = data[key]
    try:
        config = parse_event(raw)
    except EventError as exc:
        raise SpeckError(str(exc)) from None
    assert isinstance(config, GameConfigured)
    return config


# -- pages -----------------------------------------------------------------------------


@blueprint.get("/")
@blueprint.get("/setup")
def setup_page() -> str:
    return _page("speck/setup.html", games=GAME_COUNTS)


@blueprint.get("/<int:game_id>")
def live_page(game_id: int) -> str:
    _events(game_id)
    return _page("speck/live.html", game_id=game_id)


@blueprint.get("/<int:game_id>/blatt")
def blatt_page(game_id: int) -> str:
    blatt = punkteblatt(fold(_events(game_id)))
    return _page(
        "speck/blatt.html",
        game_id=game_id,
        blatt=blatt,
        card_label=card_label,
        title=current_app.extensions.get("speck_title", ""),
    )


# -- API -------------------------------------------------------------------------------


@blueprint.post("/api/games")
def api_new_game() -> Response:
    _check_pin()
    body = _body()
    config = config_from_setup(body)
    end_running(_store(), body.get("end_running"))
    try:
        game_id = int(_store().new_game(config))
    except (EventError, RuleError) as exc:
        raise SpeckError(str(exc)) from None
    return jsonify(game=game_id, url=f"/speck/{game_id}", config=event_to_dict(config))


@blueprint.get("/api/games/<int:game_id>")
def api_view(game_id: int) -> Response:
    return jsonify(speck_view(game_id, _events(game_id), _proposal(game_id)))


@blueprint.post("/api/games/<int:game_id>/bodentrumpf")
def api_bodentrumpf(game_id: int) -> Response:
    """Start the next game with this Bodentrumpf: its suit is trump, forehand is the seat
    after the dealer (``scoring.speck.next_game`` works out whose deal it is)."""
    _check_pin()
    card = _body().get("card")
    if card not in ALL_CARD_IDS:
        raise SpeckError(f"card must be a card id such as 'rosen-10', got {card!r}")
    view = speck_view(game_id, _events(game_id))
    if view["phase"] != "bodentrumpf":
        what = "all games are played" if view["phase"] == "over" else "the current game is still running"
        raise SpeckError(f"no Bodentrumpf now: {what}", 409)
    event = next_game(fold(_events(game_id)), card)
    pos = _append(game_id, event)
    return jsonify(position=pos, event=event_to_dict(event))


@blueprint.post("/api/games/<int:game_id>/ruling")
def api_ruling(game_id: int) -> Response:
    """The table's decision on a flagged card (2.8): ``penalty`` or ``ignore``."""
    _check_pin()
    data = _body()
    ref, ruling = data.get("ref"), data.get("ruling")
    if ruling not in ("penalty", "ignore"):
        raise SpeckError("ruling must be 'penalty' or 'ignore'")
    events = _events(game_id)
    open_refs = {c["ref"] for m in speck_view(game_id, events)["misplays"] for c in m["cards"]}
    if not isinstance(ref, int) or isinstance(ref, bool) or ref not in open_refs:
        raise SpeckError(f"event {ref!r} is not a card flagged as a misplay")
    event = MisplayRuled(ref=ref, ruling=ruling)
    pos = _append(game_id, event)
    return jsonify(position=pos, event=event_to_dict(event))


def _download(body: bytes | str, mimetype: str, filename: str) -> Response:
    response = make_response(body)
    response.mimetype = mimetype
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _blatt(game_id: int) -> dict[str, Any]:
    try:
        return punkteblatt(fold(_events(game_id)))
    except NotSpeckError as exc:
        raise SpeckError(str(exc), 404) from None


@blueprint.get("/api/games/<int:game_id>/blatt.json")
def blatt_json(game_id: int) -> Response:
    return jsonify(_blatt(game_id))


@blueprint.get("/api/games/<int:game_id>/blatt.csv")
def blatt_csv_download(game_id: int) -> Response:
    title = current_app.extensions.get("speck_title", "")
    return _download(blatt_csv(_blatt(game_id), title=title), "text/csv", f"punkteblatt-{game_id}.csv")


@blueprint.get("/api/games/<int:game_id>/blatt.pdf")
def blatt_pdf_download(game_id: int) -> Response:
    title = current_app.extensions.get("speck_title", "")
    return _download(blatt_pdf(_blatt(game_id), title=title), "application/pdf", f"punkteblatt-{game_id}.pdf")
