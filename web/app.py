"""The phone dashboard: a Flask app over the event store.

Pages are thin HTML shells; ``static/app.js`` renders them from the game view (see
web.view) that it gets as an SSE snapshot and keeps current with deltas. Every write is
one event, checked by the rules engine inside ``store.append``: a refused event leaves
nothing behind and the request gets a 400 with the engine's message.

Writes need the table PIN (header ``X-Table-Pin``) once per phone, which then holds a
session cookie; reading never does. The PIN is never shown on a page (see web.auth for
how the table learns it and how guessing is slowed down). Requests naming a host that is
not the appliance's are refused (DNS rebinding), and so are writes from another origin.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import segno
from flask import Flask, Response, abort, g, jsonify, make_response, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from scoring.differenzler import hidden_positions, redact
from scoring.events import (
    BLOCKS,
    CONTRACTS,
    DEFAULT_COIFFEUR_ROWS,
    MULTIPLIER_TABLES,
    VARIANTS,
    EventError,
    GameConfigured,
    event_to_dict,
    parse_event,
)
from web.auth import COOKIE, SESSION_MAX_AGE_S, PinGuard, authorize, check_pin, signed_in
from web.enroll import register_enroll
from web.errors import ApiError, error_response
from web.games import end_running, game_status, running_game
from web.history import matches as history_matches
from web.history import players_of
from web.hosts import HostCheck, lan_address
from web.i18n import LANGUAGES, STRINGS, pick_language
from web.live import Hub, TooManyClients
from web.rounds import register_rounds
from web.speck import register_speck
from web.stats import game_meta, register_stats, words
from web.store import EventStore
from web.trickshot import FrameAt, Seen, annotate, card_namer, jpeg
from web.view import fold_state, game_view, sheet_csv

#: Event types a phone may write; ``game_configured`` only through the set-up form.
WRITABLE = frozenset(
    {
        "round_started",
        "card_played",
        "trick_collected",
        "weis_declared",
        "stoeck_called",
        "card_corrected",
        "event_voided",
        "misplay_ruled",
        "round_entered",
    }
)

#: Button presses the engine would record but not count (a late Stöck, a late Weis) are
#: refused instead, with the engine's reason: at the table a refused button is the answer.
REFUSE_IF_FLAGGED = frozenset({"stoeck_called", "weis_declared"})

#: The largest body a JSON write may have (a set-up form is well under 2 KB).
MAX_JSON_BYTES = 64 * 1024
#: The largest body at all: a phone photo for deck enrolment (web.enroll checks it again).
MAX_UPLOAD_BYTES = 20 * 1024 * 1024 + 64 * 1024

EDGES = ("bottom", "right", "top", "left")
#: The variants this set-up starts (Speck Jass has its own, web.speck) and the settings of theirs it passes on.
SETUP_VARIANTS = ("schieber", "coiffeur", "differenzler")
SETUP_VARIANT_KEYS = ("coiffeur_rows", "coiffeur_match_bonus", "count_weis", "differenzler_rounds")
END_ORDERS = (("weis", "stoeck", "tricks"), ("stoeck", "weis", "tricks"), ("tricks", "stoeck", "weis"))


class BadRequest(Exception):
    """A request the dashboard refuses; becomes ``{"error": message}`` with ``status``."""

    def __init__(self, message: str, status: int = 400, flag: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.flag = flag  # the engine's flag behind a refused button, for the phone to word


def camera_status(status: Mapping[str, Any]) -> dict[str, Any]:
    """The part of the appliance status a phone shows: is the camera live, and if not why; and whether the
    table's deck is being relearnt for new models (``jasscam.decks``) or cannot be used.

    Only states, never counters, so the SSE status event fires on changes, not every
    second. A replay that reached its end (``ended``) is not a fault.
    """
    source = status.get("source") or {}
    state = str(source.get("state", "starting"))  # no source yet: the pipeline is starting
    error = source.get("error") or status.get("error")
    ok = state in ("live", "opening", "ended", "starting") and not status.get("error")
    out: dict[str, Any] = {
        "ok": ok,
        "camera": state,
        "source": source.get("name"),
        "message": None if ok else (error or state),
    }
    warnings = []
    if (status.get("store") or {}).get("disk_full"):
        warnings.append("the disk is full: the score goes on in the store's reserve; free some space (old recordings)")
    problem = (status.get("recorder") or {}).get("problem")
    if problem:
        warnings.append(f"recording stopped: {problem}")
    if warnings:
        out["warning"] = "; ".join(warnings)
    deck = status.get("deck") or {}
    if deck.get("rebuilding") or deck.get("error"):  # the table's deck is being relearnt, or cannot be used
        out["deck"] = {k: deck.get(k) for k in ("rebuilding", "name", "progress", "error")} | {
            "reading": deck.get("deck")
        }
    return out


def loopback(host: str | None) -> bool:
    """Whether the server listens on this machine only (``--host 127.0.0.1``): then a
    phone cannot reach it at the LAN address, and the QR code must not offer that."""
    return host in ("127.0.0.1", "localhost", "::1") or bool(host and host.startswith("127."))


def _json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _rule_error() -> type[Exception]:
    try:
        from scoring.game import RuleError
    except ImportError:  # pragma: no cover - the engine lands with the store
        return EventError
    return RuleError


def refuse_if_flagged(events: list[Any], event: Any) -> None:
    """Raise BadRequest with the engine's reason if it would flag ``event`` right away."""
    from scoring.game import RuleError, fold

    try:
        state = fold([*events, event])
    except (EventError, RuleError) as exc:
        raise BadRequest(str(exc)) from None
    for flag in state.to_dict()["flags"]:
        if flag["ref"] == len(events):
            raise BadRequest(flag["message"], flag=flag)


def config_from_form(data: dict[str, Any]) -> tuple[GameConfigured, str]:
    """Turn the set-up form's JSON into a GameConfigured and the camera edge of seat 0."""
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 4:
        raise BadRequest("players must be a list of four names, seat 1 first")
    edge = data.get("edge", "bottom")
    if edge not in EDGES:
        raise BadRequest(f"edge must be one of {', '.join(EDGES)}")
    # Seat 0 sits at ``edge``, the others follow counter-clockwise (as the set-up shows).
    seat_edges = [EDGES[(EDGES.index(edge) + seat) % 4] for seat in range(4)]
    raw: dict[str, Any] = {"type": "game_configured", "players": players, "seat_edges": seat_edges}
    for key in (
        "variant",
        "target",
        "target_rule",
        "multipliers",
        "custom_multipliers",
        "end_order",
        "prior_totals",
        *SETUP_VARIANT_KEYS,
    ):
        if data.get(key) is not None:
            raw[key] = data[key]
    for flag in ("weis_one_per_player", "weis_needs_trick", "weis_card_once"):
        if flag in data:
            raw[flag] = data[flag]
    if isinstance(raw.get("target"), str):
        if not raw["target"].strip().isdigit():
            raise BadRequest("target must be a positive whole number of points")
        raw["target"] = int(raw["target"])
    if raw.get("variant", "schieber") not in SETUP_VARIANTS:
        raise BadRequest(f"this set-up starts {', '.join(SETUP_VARIANTS)}; Speck Jass has its own at /speck/setup")
    try:
        config = parse_event(raw)
    except EventError as exc:
        raise BadRequest(str(exc)) from None
    assert isinstance(config, GameConfigured)
    return config, edge


def create_app(
    store: EventStore,
    *,
    pin: str | None = None,
    settings_path: str | Path | None = None,
    public_url: str | None = None,
    max_clients: int = 256,
    max_per_client: int = 8,
    queue_size: int = 32,
    heartbeat: float = 15.0,
    status: Callable[[], Mapping[str, Any]] | None = None,
    allowed_hosts: tuple[str, ...] = (),
    frame_at: FrameAt | None = None,
    recognize: Callable[[Any], Sequence[Seen]] | None = None,
) -> Flask:
    """The dashboard app over ``store``.

    ``pin``: the table PIN (else the one saved in ``settings_path``, else a random one
    that the appliance prints on its console, and the first set-up may choose another;
    see web.auth). ``allowed_hosts``: names besides the machine's own and IP addresses
    that phones may use in the URL (web.hosts). ``public_url``: the address phones should open (for the
    QR code); default: the address the start page was requested at. ``status``: the
    appliance's status (``Pipeline.status()``: ``{"source": {"name", "state", "error"}}``),
    polled once a second; phones see a banner while the camera is not live.
    ``frame_at(game, position)``: the recorded frame at that event's time, and
    ``recognize(frame)``: the recogniser, for the Verlauf's pictures (web.trickshot).
    """
    app = Flask(__name__)
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = 3600  # card pictures, CSS, JS: phones revalidate hourly
    app.config["JSON_AS_ASCII"] = False
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    # The largest body anything accepts: a phone photo for deck enrolment. JSON writes are
    # capped far lower per request (``limits``), so nobody makes the server parse 50 MB.
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    app.config["MAX_FORM_MEMORY_SIZE"] = MAX_JSON_BYTES
    hosts = HostCheck(public_url, allowed_hosts)
    guard = PinGuard(pin, Path(settings_path) if settings_path is not None else None)

    def view_of(game_id: int, events: list[Any]) -> dict[str, Any]:
        """The game view with the store's record of who wrote what and whether it was abandoned."""
        return game_view(game_id, events, store.by_hand(game_id), store.abandoned(game_id))

    hub = Hub(
        store,
        view_of,
        queue_size=queue_size,
        max_clients=max_clients,
        max_per_client=max_per_client,
        heartbeat=heartbeat,
        status=(lambda: camera_status(status())) if status is not None else None,
    )
    write_lock = threading.Lock()
    app.extensions["jasscam_write_lock"] = write_lock  # web.rounds writes under the same lock
    RuleError = _rule_error()
    app.extensions["jasscam_hub"] = hub
    app.extensions["jasscam_store"] = store
    app.extensions["jasscam_pins"] = guard

    # -- helpers ---------------------------------------------------------------------

    def lang() -> str:
        return pick_language(request.cookies.get("lang"))

    def page(template: str, **context: Any) -> str:
        code = lang()
        return render_template(
            template,
            lang=code,
            t=words(code),
            strings_json=json.dumps(words(code), ensure_ascii=False),
            languages=[(c, STRINGS[c]["lang_name"]) for c in LANGUAGES],
            **context,
        )

    def known_game(game_id: int) -> list[Any]:
        try:
            return store.events(game_id)
        except LookupError:
            raise BadRequest(f"no game {game_id}", 404) from None

    def dashboard_url() -> str:
        if public_url:
            return public_url
        url = request.host_url.rstrip("/") + "/"
        host = request.host.rsplit(":", 1)[0] if not request.host.startswith("[") else request.host
        if host in ("localhost", "127.0.0.1", "[::1]") and not loopback(app.config.get("JASSCAM_LISTEN_HOST")):
            # The appliance's own screen asked: a phone cannot open "localhost", so the
            # QR code gets the address this machine has on the table's network.
            lan = lan_address()
            if lan:
                port = request.host.rsplit(":", 1)[1] if ":" in request.host and not request.host.endswith("]") else ""
                url = f"{request.scheme}://{lan}{':' + port if port else ''}/"
        return url

    @app.errorhandler(BadRequest)
    def bad_request(exc: BadRequest) -> Response:
        response = jsonify(error=exc.message, **({"flag": exc.flag} if exc.flag else {}))
        response.status_code = exc.status
        return response

    app.register_error_handler(ApiError, error_response)

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge) -> Response:
        limit = request.max_content_length or MAX_UPLOAD_BYTES
        return error_response(ApiError(f"the request is larger than {limit // 1024} KB", 413))

    @app.before_request
    def limits() -> None:
        if not hosts.host_allowed(request.host):
            raise BadRequest(hosts.refusal(request.host), 421)
        if not hosts.write_allowed(
            request.method,
            request.host,
            request.scheme,
            request.headers.get("Origin"),
            request.headers.get("Sec-Fetch-Site"),
        ):
            raise BadRequest("a write from another web site is refused", 403)
        if request.mimetype != "multipart/form-data":
            request.max_content_length = MAX_JSON_BYTES

    @app.after_request
    def session_cookie(response: Response) -> Response:
        token = g.pop("jasscam_session", None)
        if token is not None:
            response.set_cookie(COOKIE, token, max_age=SESSION_MAX_AGE_S, httponly=True, samesite="Strict", path="/")
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        response = jsonify(error=exc.description or exc.name)
        response.status_code = exc.code or 500
        return response

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    # -- pages -----------------------------------------------------------------------

    @app.get("/")
    def start() -> str:
        current = store.current_game()
        url = dashboard_url()
        qr = segno.make(url, error="m")
        buf = io.BytesIO()
        qr.save(buf, kind="svg", scale=6, border=2, dark="#000", light="#fff", xmldecl=False, svgns=True, omitsize=True)
        return page(
            "start.html",
            current=current,
            running=running_game(store),
            enroll_url="/enroll/" if "enroll" in app.blueprints else None,
            local_only=loopback(app.config.get("JASSCAM_LISTEN_HOST")),
            url=url,
            qr_svg=buf.getvalue().decode(),
        )

    @app.get("/setup")
    def setup() -> str:
        return page(
            "setup.html",
            contracts=CONTRACTS,
            tables=MULTIPLIER_TABLES,
            end_orders=[",".join(o) for o in END_ORDERS],
            blocks=BLOCKS,
            edges=EDGES,
            running=running_game(store),
            speck_url="/speck/setup" if "speck" in app.blueprints else None,
            coiffeur_rows=DEFAULT_COIFFEUR_ROWS,
        )

    @app.get("/game/<int:game_id>")
    def game_page(game_id: int) -> Any:
        events = known_game(game_id)
        config = events[0] if events else None
        if isinstance(config, GameConfigured) and config.variant == "speck" and "speck" in app.blueprints:
            return redirect(f"/speck/{game_id}")  # Speck Jass has its own screens (web.speck)
        return page("game.html", game_id=game_id, edge=guard.edge(game_id), pictures=frame_at is not None)

    @app.get("/live")
    def live() -> Any:
        current = store.current_game()
        if current is None:
            return redirect(url_for("setup"))
        return redirect(url_for("game_page", game_id=current))

    @app.get("/games")
    def games_page() -> str:
        return page("games.html", variants=VARIANTS)

    @app.get("/lang/<code>")
    def set_language(code: str) -> Response:
        if code not in LANGUAGES:
            raise BadRequest(f"language must be one of {', '.join(LANGUAGES)}")
        back = request.args.get("next", "/")
        if not back.startswith("/") or back.startswith("//"):
            back = "/"
        response = make_response(redirect(back))
        response.set_cookie("lang", code, max_age=3600 * 24 * 365, samesite="Lax")
        return response

    # -- API: reading ----------------------------------------------------------------

    @app.get("/api/games")
    def api_games() -> Response:
        """Every game, oldest first; ``?player=`` and ``?variant=`` keep the games with that player, of that variant."""
        out = []
        player, variant = request.args.get("player"), request.args.get("variant")
        rows = store.games()
        for summary in rows:
            if not history_matches(summary.get("config"), player, variant):
                continue
            row = dict(summary)
            row["status"] = game_status(row)
            try:
                state = fold_state(store.events(int(row["id"])))
                row["totals"] = state.get("totals")
                row["player_totals"] = state.get("player_totals")
                row["penalties"] = (state.get("differenzler") or {}).get("penalty_totals")
                row["game_over"] = state.get("game_over")
                row["rounds"] = len(state.get("sheet", []))
            except Exception as exc:  # one unreadable game must not hide the others
                row["error"] = str(exc)
            out.append(row)
        return jsonify(games=out, current=store.current_game(), players=players_of(rows))

    @app.get("/api/games/<int:game_id>")
    def api_game(game_id: int) -> Response:
        view = view_of(game_id, known_game(game_id))
        view["edge"] = guard.edge(game_id)
        return jsonify(view)

    @app.get("/api/camera")
    def api_camera() -> Response:
        """Is the camera running (and if not, why), and is there a live picture (web.mounting's, behind the PIN)."""
        return jsonify(status=hub.read_status(), picture="mounting" in app.extensions)

    @app.get("/api/games/<int:game_id>/frame/<int:position>.jpg")
    def api_frame(game_id: int, position: int) -> Response:
        """The recorded picture at the time of event ``position``, the cards read outlined and named.

        It shows the table, so like the live picture (web.mounting) it needs the table PIN.
        """
        authorize()
        events = known_game(game_id)
        if not 0 <= position < len(events):
            raise BadRequest(f"game {game_id} has no event {position}", 404)
        frame = frame_at(game_id, position) if frame_at is not None else None
        if frame is None:
            raise BadRequest("no recorded picture of this moment", 404)
        try:
            on_table = {pc["card"] for pc in (fold_state(events[: position + 1]).get("round") or {}).get("trick", [])}
        except Exception:  # a game a newer engine rejects: the picture still helps
            on_table = set()
        seen = recognize(frame) if recognize is not None else []
        picture = annotate(frame, seen, card_namer(STRINGS[lang()]), on_table)
        response = make_response(jpeg(picture))
        response.mimetype = "image/jpeg"
        response.headers["Cache-Control"] = "private, max-age=3600"  # a recorded moment never changes
        return response

    @app.get("/api/games/<int:game_id>/stream")
    def api_stream(game_id: int) -> Response:
        known_game(game_id)
        try:
            body = hub.open(game_id, request.remote_addr or "?")
        except TooManyClients as exc:
            response = jsonify(error=str(exc))
            response.status_code = 503
            response.headers["Retry-After"] = "5"
            return response
        response = Response(body, mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache, no-transform"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    @app.get("/api/games/<int:game_id>/export.json")
    def export_json(game_id: int) -> Response:
        events = known_game(game_id)
        hidden = hidden_positions(events)  # a forecast stays secret in the export too until its round ends
        rows = [redact(event_to_dict(e)) if i in hidden else event_to_dict(e) for i, e in enumerate(events)]
        body = {"game": game_id, **game_meta(store, game_id), "events": rows, "state": fold_state(events)}
        response = make_response(json.dumps(body, ensure_ascii=False, indent=1))
        response.mimetype = "application/json"
        response.headers["Content-Disposition"] = f'attachment; filename="jass-{game_id}.json"'
        return response

    @app.get("/api/games/<int:game_id>/export.csv")
    def export_csv(game_id: int) -> Response:
        response = make_response(
            sheet_csv(fold_state(known_game(game_id)), {"game": game_id, **game_meta(store, game_id)})
        )
        response.mimetype = "text/csv"
        response.headers["Content-Disposition"] = f'attachment; filename="jass-{game_id}.csv"'
        return response

    # -- API: writing ----------------------------------------------------------------

    @app.post("/api/pin")
    def api_pin() -> Response:
        """Sign a phone in: the right PIN in ``X-Table-Pin`` gets it a session cookie."""
        authorize()
        return jsonify(ok=True)

    @app.get("/api/session")
    def api_session() -> Response:
        """Whether this phone is signed in, and whether the appliance still waits for its first set-up."""
        return jsonify(signed_in=signed_in(), claimed=guard.claimed)

    @app.get("/api/running")
    def api_running() -> Response:
        """The game that still runs (set-up asks before a new game ends it), or null."""
        return jsonify(running=running_game(store))

    @app.post("/api/games")
    def api_new_game() -> Response:
        data = _json_body()
        new_pin = data.get("new_pin")
        if new_pin not in (None, ""):
            check_pin(new_pin)
        if guard.claimed or new_pin in (None, ""):
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
        config, edge = config_from_form(data)
        with write_lock:
            try:
                end_running(store, data.get("end_running"))
                game_id = store.new_game(config)
            except (EventError, RuleError) as exc:
                raise BadRequest(str(exc)) from None
            except OSError as exc:  # the disk is full and the store's reserve used up
                raise BadRequest(str(exc), 507) from None
        guard.set_edge(game_id, edge)
        if new_pin not in (None, ""):
            g.jasscam_session = guard.set_pin(str(new_pin))  # this phone stays signed in, the others sign in again
        return jsonify(game=game_id, url=url_for("game_page", game_id=game_id))

    @app.post("/api/games/<int:game_id>/events")
    def api_append(game_id: int) -> Response:
        authorize()
        data = _json_body()
        kind = data.get("type")
        if kind == "forecast_made":
            raise BadRequest(
                "a forecast is made with POST /api/games/<id>/forecast, so only its phone is shown it back"
            )
        if kind not in WRITABLE:
            raise BadRequest(
                f"type must be one of {', '.join(sorted(WRITABLE))}; a new game is set up with POST /api/games"
            )
        try:
            event = parse_event(data)
        except EventError as exc:
            raise BadRequest(str(exc)) from None
        expect = request.headers.get("X-Expect-Count")
        with write_lock:
            events = known_game(game_id)
            count = len(events)
            if expect is not None and expect != str(count):
                raise ApiError(
                    f"the game changed meanwhile ({count} events, you saw {expect}); look again and retry",
                    409,
                    "changed",
                )
            if kind in REFUSE_IF_FLAGGED:
                refuse_if_flagged(events, event)
            try:
                position = store.append(game_id, event, by_hand=True)
            except (EventError, RuleError) as exc:
                raise BadRequest(str(exc)) from None
            except OSError as exc:  # the disk is full and the store's reserve used up
                raise BadRequest(str(exc), 507) from None
        return jsonify(position=position, event=event_to_dict(event))

    @app.delete("/api/games/<int:game_id>")
    def api_delete_game(game_id: int) -> Response:
        """The table deletes a game for good (a test game, a mistaken start)."""
        authorize()
        with write_lock:
            known_game(game_id)
            try:
                store.delete_game(game_id)
            except OSError as exc:  # the disk is full and the store's reserve used up
                raise BadRequest(str(exc), 507) from None
        return jsonify(deleted=game_id)

    @app.get("/healthz")
    def healthz() -> Response:
        return jsonify(ok=True, live_clients=hub.client_count(), dropped=hub.dropped_total, status=hub.read_status())

    @app.get("/favicon.ico")
    def favicon() -> Response:
        abort(404)

    register_stats(app)  # statistics, known players and the history exports
    register_rounds(app)  # Coiffeur rows, Differenzler forecasts, rounds entered by hand
    register_speck(app)  # Speck Jass tournament screens at /speck
    register_enroll(app)  # deck enrolment and the active deck's card pictures at /enroll
    return app
