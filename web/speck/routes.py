"""The Speck blueprint's pages and JSON API (see web.speck for the overview)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from scoring.cards import ALL_CARD_IDS, RANKS, SUITS
from scoring.events import Event, GameConfigured, MisplayRuled, event_to_dict
from scoring.game import fold
from scoring.speck import NotSpeckError, next_game, punkteblatt
from web.auth import authorize
from web.common import append, download, json_body, known_game, language, parsed, render_page
from web.errors import ApiError
from web.games import start_game
from web.i18n import STRINGS
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


def _events(game_id: int) -> list[Any]:
    """The events of a Speck Jass game; 404 for a game of another variant."""
    events = known_game(game_id)
    if not events or getattr(events[0], "variant", None) != "speck":
        raise ApiError(f"game {game_id} is not a Speck Jass game", 404)
    return events


def _page(template: str, **context: Any) -> str:
    code = language()
    return render_page(template, {**STRINGS[code], **SPECK_STRINGS[code]}, suits=SUITS, ranks=RANKS, **context)


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


def _append(game_id: int, event: Event) -> int:
    """Append a Speck event (the table's, not a correction by hand) under the app's write lock."""
    position, _ = append(game_id, lambda _events: event, by_hand=False, events_of=_events)
    return position


def config_from_setup(data: dict[str, Any]) -> GameConfigured:
    """The set-up form's JSON -> a Speck ``game_configured``; ApiError names the fault.

    ``players``: four ``{first, last}`` in seat order (counter-clockwise), ``scorer``
    and ``dealer`` seats, ``games`` 12 or 8; optionally ``prior_totals`` (per seat) and
    ``prior_games`` for a series continued from paper.
    """
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 4:
        raise ApiError("players must be four {first, last} names in seat order")
    names: list[str] = []
    for seat, p in enumerate(players):
        if not isinstance(p, dict):
            raise ApiError(f"seat {seat + 1}: expected {{first, last}}")
        first, last = p.get("first"), p.get("last")
        if not isinstance(first, str) or not first.strip() or not isinstance(last, str) or not last.strip():
            raise ApiError(f"seat {seat + 1}: first and last name are both needed (2.5.1)")
        name = f"{' '.join(first.split())} {' '.join(last.split())}"
        if len(name) > NAME_MAX * 2:
            raise ApiError(f"seat {seat + 1}: name too long")
        names.append(name)
    if len(set(names)) != 4:
        raise ApiError("two seats have the same name")
    games = data.get("games", 12)
    if games not in GAME_COUNTS or isinstance(games, bool):
        raise ApiError(f"games must be 12 or 8, got {games!r}")
    scorer, dealer = data.get("scorer"), data.get("dealer", data.get("scorer"))
    for key, value in (("scorer", scorer), ("dealer", dealer)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
            raise ApiError(f"{key} must be a seat 0..3, got {value!r}")
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
    config = parsed(raw)
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
    authorize()
    body = json_body()
    config = config_from_setup(body)
    game_id = start_game(config, body.get("end_running"))
    return jsonify(game=game_id, url=f"/speck/{game_id}", config=event_to_dict(config))


@blueprint.get("/api/games/<int:game_id>")
def api_view(game_id: int) -> Response:
    return jsonify(speck_view(game_id, _events(game_id), _proposal(game_id)))


@blueprint.post("/api/games/<int:game_id>/bodentrumpf")
def api_bodentrumpf(game_id: int) -> Response:
    """Start the next game with this Bodentrumpf: its suit is trump, forehand is the seat
    after the dealer (``scoring.speck.next_game`` works out whose deal it is)."""
    authorize()
    card = json_body().get("card")
    if card not in ALL_CARD_IDS:
        raise ApiError(f"card must be a card id such as 'rosen-10', got {card!r}")
    view = speck_view(game_id, _events(game_id))
    if view["phase"] != "bodentrumpf":
        what = "all games are played" if view["phase"] == "over" else "the current game is still running"
        raise ApiError(f"no Bodentrumpf now: {what}", 409)
    event = next_game(fold(_events(game_id)), card)
    pos = _append(game_id, event)
    return jsonify(position=pos, event=event_to_dict(event))


@blueprint.post("/api/games/<int:game_id>/ruling")
def api_ruling(game_id: int) -> Response:
    """The table's decision on a flagged card (2.8): ``penalty`` or ``ignore``."""
    authorize()
    data = json_body()
    ref, ruling = data.get("ref"), data.get("ruling")
    if ruling not in ("penalty", "ignore"):
        raise ApiError("ruling must be 'penalty' or 'ignore'")
    events = _events(game_id)
    open_refs = {c["ref"] for m in speck_view(game_id, events)["misplays"] for c in m["cards"]}
    if not isinstance(ref, int) or isinstance(ref, bool) or ref not in open_refs:
        raise ApiError(f"event {ref!r} is not a card flagged as a misplay")
    event = MisplayRuled(ref=ref, ruling=ruling)
    pos = _append(game_id, event)
    return jsonify(position=pos, event=event_to_dict(event))


def _no_store(response: Response) -> Response:
    """A Punkteblatt changes with every game: never kept by a cache."""
    response.headers["Cache-Control"] = "no-store"
    return response


def _blatt(game_id: int) -> dict[str, Any]:
    try:
        return punkteblatt(fold(_events(game_id)))
    except NotSpeckError as exc:
        raise ApiError(str(exc), 404) from None


@blueprint.get("/api/games/<int:game_id>/blatt.json")
def blatt_json(game_id: int) -> Response:
    return jsonify(_blatt(game_id))


@blueprint.get("/api/games/<int:game_id>/blatt.csv")
def blatt_csv_download(game_id: int) -> Response:
    title = current_app.extensions.get("speck_title", "")
    return _no_store(download(blatt_csv(_blatt(game_id), title=title), "text/csv", f"punkteblatt-{game_id}.csv"))


@blueprint.get("/api/games/<int:game_id>/blatt.pdf")
def blatt_pdf_download(game_id: int) -> Response:
    title = current_app.extensions.get("speck_title", "")
    pdf = blatt_pdf(_blatt(game_id), title=title)
    return _no_store(download(pdf, "application/pdf", f"punkteblatt-{game_id}.pdf"))
