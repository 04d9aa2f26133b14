"""The one shape every JSON endpoint refuses a request with: ``{"error": message}`` and a status.

Why one place: the dashboard, the Speck screens and deck enrolment share the phones'
JavaScript, which shows ``error`` to the player whatever screen it came from.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify


class ApiError(Exception):
    """A request refused with ``message`` (shown to the player) and HTTP ``status``."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def error_response(exc: ApiError) -> Response:
    response = jsonify(error=exc.message)
    response.status_code = exc.status
    return response


def answer_errors_as_json(blueprint: Blueprint) -> None:
    """Have ``blueprint`` answer every ``ApiError`` its views raise as JSON."""
    blueprint.register_error_handler(ApiError, error_response)
