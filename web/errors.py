"""The one shape every JSON endpoint refuses a request with: ``{"error": message}`` and a status.

``code`` names a refusal the phones word in their own language (``err_<code>``); the
message stays English for logs and scripts.

Why one place: the dashboard, the Speck screens and deck enrolment share the phones'
JavaScript, which shows ``error`` to the player whatever screen it came from.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify


class ApiError(Exception):
    """A request refused with ``message`` (shown to the player) and HTTP ``status``."""

    def __init__(self, message: str, status: int = 400, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code  # the phones say it in their language: ``err_<code>`` in web.i18n


def error_response(exc: ApiError) -> Response:
    response = jsonify(error=exc.message, **({"code": exc.code} if exc.code else {}))
    response.status_code = exc.status
    return response


def answer_errors_as_json(blueprint: Blueprint) -> None:
    """Have ``blueprint`` answer every ``ApiError`` its views raise as JSON."""
    blueprint.register_error_handler(ApiError, error_response)
