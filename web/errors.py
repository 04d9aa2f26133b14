"""The one shape every JSON endpoint refuses a request with: ``{"error": message}`` and a status.

``code`` names a refusal the phones word in their own language (``err_<code>``); the
message stays English for logs and scripts. ``flag`` is the rules engine's flag behind
a refused button (a late Stöck), which the phones word like every other flag.

Why one place: the dashboard, the Speck screens and deck enrolment share the phones'
JavaScript, which shows ``error`` to the player whatever screen it came from.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge


class ApiError(Exception):
    """A request refused with ``message`` (shown to the player) and HTTP ``status``."""

    def __init__(
        self, message: str, status: int = 400, code: str | None = None, flag: dict[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code  # the phones say it in their language: ``err_<code>`` in web.i18n
        self.flag = flag


def error_response(exc: ApiError) -> Response:
    extra: dict[str, Any] = {}
    if exc.code:
        extra["code"] = exc.code
    if exc.flag:
        extra["flag"] = exc.flag
    response = jsonify(error=exc.message, **extra)
    response.status_code = exc.status
    return response


def _too_large(exc: RequestEntityTooLarge) -> Response:
    limit = request.max_content_length or current_app.config.get("MAX_CONTENT_LENGTH") or 0
    return error_response(ApiError(f"the request is larger than {limit // 1024} KB", 413))


def _http_error(exc: HTTPException) -> Response:
    return error_response(ApiError(exc.description or exc.name, exc.code or 500))


def answer_errors_as_json(app: Flask) -> None:
    """Have every view of ``app`` (its blueprints' too) answer refusals and HTTP errors as JSON."""
    app.register_error_handler(ApiError, error_response)
    app.register_error_handler(RequestEntityTooLarge, _too_large)
    app.register_error_handler(HTTPException, _http_error)
