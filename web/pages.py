"""The dashboard's pages: thin HTML shells the phones' scripts fill from the JSON API.

The start page carries a QR code of the address phones should open, the game page the
live score (``static/game.js`` over the SSE stream), the games page the list of games.
The language is the table's choice, kept in a cookie (``/lang/<code>``).
"""

from __future__ import annotations

import io
from typing import Any

import segno
from flask import Blueprint, Response, abort, current_app, make_response, redirect, request, url_for

from scoring.events import VARIANTS, GameConfigured
from web.common import known_game, language, pictures, render_page, store, table_settings
from web.errors import ApiError
from web.games import running_game
from web.hosts import lan_address, loopback
from web.i18n import LANGUAGES
from web.stats import words

blueprint = Blueprint("pages", __name__)

#: How long the language cookie lasts: the table's choice, not a phone's passing one.
LANGUAGE_COOKIE_S = 3600 * 24 * 365


def _listens_on_loopback() -> bool:
    return loopback(current_app.config.get("JASSCAM_LISTEN_HOST"))


def dashboard_url() -> str:
    """The address a phone should open: ``public_url`` if given, else the one this page was asked
    at; asked on the appliance's own screen (``localhost``), its address on the table's network."""
    public_url: str | None = current_app.config.get("JASSCAM_PUBLIC_URL")
    if public_url:
        return public_url
    url = request.host_url.rstrip("/") + "/"
    host = request.host.rsplit(":", 1)[0] if not request.host.startswith("[") else request.host
    if host in ("localhost", "127.0.0.1", "[::1]") and not _listens_on_loopback():
        # A phone cannot open "localhost", so the QR code gets the LAN address.
        lan = lan_address()
        if lan:
            port = request.host.rsplit(":", 1)[1] if ":" in request.host and not request.host.endswith("]") else ""
            url = f"{request.scheme}://{lan}{':' + port if port else ''}/"
    return url


def _qr_svg(url: str) -> str:
    qr = segno.make(url, error="m")
    buf = io.BytesIO()
    qr.save(buf, kind="svg", scale=6, border=2, dark="#000", light="#fff", xmldecl=False, svgns=True, omitsize=True)
    return buf.getvalue().decode()


def _page(template: str, **context: Any) -> str:
    return render_page(template, words(language()), **context)


@blueprint.get("/")
def start() -> str:
    url = dashboard_url()
    return _page(
        "start.html",
        current=store().current_game(),
        running=running_game(store()),
        enroll_url="/enroll/" if "enroll" in current_app.blueprints else None,
        local_only=_listens_on_loopback(),
        url=url,
        qr_svg=_qr_svg(url),
    )


@blueprint.get("/game/<int:game_id>")
def game_page(game_id: int) -> Any:
    events = known_game(game_id)
    config = events[0] if events else None
    if isinstance(config, GameConfigured) and config.variant == "speck" and "speck" in current_app.blueprints:
        return redirect(f"/speck/{game_id}")  # Speck Jass has its own screens (web.speck)
    return _page(
        "game.html", game_id=game_id, edge=table_settings().edge(game_id), pictures=pictures().frame_at is not None
    )


@blueprint.get("/live")
def live() -> Any:
    current = store().current_game()
    if current is None:
        return redirect(url_for("setup.page"))
    return redirect(url_for("pages.game_page", game_id=current))


@blueprint.get("/games")
def games_page() -> str:
    return _page("games.html", variants=VARIANTS)


@blueprint.get("/lang/<code>")
def set_language(code: str) -> Response:
    if code not in LANGUAGES:
        raise ApiError(f"language must be one of {', '.join(LANGUAGES)}")
    back = request.args.get("next", "/")
    if not back.startswith("/") or back.startswith("//"):
        back = "/"
    response = make_response(redirect(back))
    response.set_cookie("lang", code, max_age=LANGUAGE_COOKIE_S, samesite="Lax")
    return response


@blueprint.get("/favicon.ico")
def favicon() -> Response:
    abort(404)
