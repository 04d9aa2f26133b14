"""Setting up a game: the set-up page, and the form's ``POST /api/games`` that starts it.

The form names the four players (seat 1 first, the others counter-clockwise), the camera
edge seat 1 sits at, the variant (Schieber, Coiffeur, Differenzler; Speck Jass has its own
set-up, web.speck) and its rules. It becomes one ``game_configured`` that the rules engine
checks; a refused form starts nothing.

The first set-up of an unclaimed appliance may choose the table PIN (``new_pin``); after
that a new PIN needs the old one, and every other phone signs in again (web.auth).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify, url_for

from scoring.events import (
    BLOCKS,
    CONTRACTS,
    DEFAULT_COIFFEUR_ROWS,
    MULTIPLIER_TABLES,
    GameConfigured,
)
from web.auth import authorize, check_pin, current_guard
from web.common import json_body, language, parsed, render_page, store, table_settings
from web.errors import ApiError
from web.games import running_game, start_game
from web.settings import EDGES
from web.stats import words

blueprint = Blueprint("setup", __name__)

#: The variants this set-up starts (Speck Jass has its own, web.speck) and the settings of theirs it passes on.
SETUP_VARIANTS = ("schieber", "coiffeur", "differenzler")
SETUP_VARIANT_KEYS = ("coiffeur_rows", "coiffeur_match_bonus", "count_weis", "differenzler_rounds")
END_ORDERS = (("weis", "stoeck", "tricks"), ("stoeck", "weis", "tricks"), ("tricks", "stoeck", "weis"))
#: The form's keys passed on to ``game_configured`` as they are (the engine checks them).
PASSED_ON = (
    "variant",
    "target",
    "target_rule",
    "multipliers",
    "custom_multipliers",
    "end_order",
    "prior_totals",
    *SETUP_VARIANT_KEYS,
)
WEIS_RULES = ("weis_one_per_player", "weis_needs_trick", "weis_card_once")


def config_from_form(data: dict[str, Any]) -> tuple[GameConfigured, str]:
    """Turn the set-up form's JSON into a GameConfigured and the camera edge of seat 0."""
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 4:
        raise ApiError("players must be a list of four names, seat 1 first")
    edge = data.get("edge", "bottom")
    if edge not in EDGES:
        raise ApiError(f"edge must be one of {', '.join(EDGES)}")
    # Seat 0 sits at ``edge``, the others follow counter-clockwise (as the set-up shows).
    seat_edges = [EDGES[(EDGES.index(edge) + seat) % 4] for seat in range(4)]
    raw: dict[str, Any] = {"type": "game_configured", "players": players, "seat_edges": seat_edges}
    raw |= {key: data[key] for key in PASSED_ON if data.get(key) is not None}
    raw |= {rule: data[rule] for rule in WEIS_RULES if rule in data}
    if isinstance(raw.get("target"), str):
        if not raw["target"].strip().isdigit():
            raise ApiError("target must be a positive whole number of points")
        raw["target"] = int(raw["target"])
    if raw.get("variant", "schieber") not in SETUP_VARIANTS:
        raise ApiError(f"this set-up starts {', '.join(SETUP_VARIANTS)}; Speck Jass has its own at /speck/setup")
    config = parsed(raw)
    assert isinstance(config, GameConfigured)
    return config, edge


@blueprint.get("/setup")
def page() -> str:
    return render_page(
        "setup.html",
        words(language()),
        contracts=CONTRACTS,
        tables=MULTIPLIER_TABLES,
        end_orders=[",".join(o) for o in END_ORDERS],
        blocks=BLOCKS,
        edges=EDGES,
        running=running_game(store()),
        speck_url="/speck/setup" if "speck" in current_app.blueprints else None,
        coiffeur_rows=DEFAULT_COIFFEUR_ROWS,
    )


@blueprint.get("/api/running")
def api_running() -> Response:
    """The game that still runs (set-up asks before a new game ends it), or null."""
    return jsonify(running=running_game(store()))


def _authorize_setup(new_pin: Any) -> None:
    """The set-up's PIN check: an unclaimed appliance lets the set-up that chooses a PIN through."""
    guard = current_guard()
    if not guard.claimed and new_pin not in (None, ""):
        return
    try:
        authorize()
    except ApiError as exc:
        if not guard.claimed and exc.status == 403:
            raise ApiError(
                "this appliance has no table PIN yet: choose one in the set-up form, "
                "or enter the one shown on the appliance's console",
                403,
            ) from None
        raise


@blueprint.post("/api/games")
def api_new_game() -> Response:
    data = json_body()
    new_pin = data.get("new_pin")
    if new_pin not in (None, ""):
        check_pin(new_pin)
    _authorize_setup(new_pin)
    config, edge = config_from_form(data)
    game_id = start_game(config, data.get("end_running"))
    table_settings().set_edge(game_id, edge)
    if new_pin not in (None, ""):
        g.jasscam_session = current_guard().set_pin(
            str(new_pin)
        )  # this phone stays signed in, the others sign in again
    return jsonify(game=game_id, url=url_for("pages.game_page", game_id=game_id))
