"""The statistics drawn as SVG charts on the server (pygal), so a phone needs no chart code.

Why pygal: a well-kept library from PyPI that writes plain SVG with no run-time
download; names in the charts are escaped by its XML writer. The phones show a chart as
an ``<img>`` (web.stats also sends it with a Content-Security-Policy that runs no
script), so pygal's tooltip script never runs and a player's name can never become code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import pygal
from pygal.style import Style

from scoring.events import CONTRACTS
from scoring.statistics import Figures, GameSummary, TableStatistics

#: At most this many players or pairs in one chart (the ones with the most games).
MAX_BARS: Final[int] = 10
#: The per-game charts show the latest games.
MAX_GAMES: Final[int] = 20

THEMES: Final[dict[str, Style]] = {
    "dark": Style(
        background="transparent",
        plot_background="transparent",
        foreground="#d9dee3",
        foreground_strong="#f2f4f6",
        foreground_subtle="#8a949e",
        colors=("#4fa3ff", "#ff8f4f", "#5fd08a", "#d8c04f", "#c07cf0", "#ef6f8f"),
        font_family="system-ui, sans-serif",
        label_font_size=13,
        major_label_font_size=13,
        legend_font_size=14,
        title_font_size=16,
        value_font_size=12,
    ),
    "light": Style(
        background="transparent",
        plot_background="transparent",
        foreground="#2a2f35",
        foreground_strong="#101418",
        foreground_subtle="#6a737c",
        colors=("#1f6fd0", "#d05f1f", "#2f9a5a", "#a08a10", "#8a4cc0", "#c03f60"),
        font_family="system-ui, sans-serif",
        label_font_size=13,
        major_label_font_size=13,
        legend_font_size=14,
        title_font_size=16,
        value_font_size=12,
    ),
}


def _chart(kind: Any, title: str, theme: str, height: int) -> Any:
    return kind(
        title=title,
        style=THEMES.get(theme, THEMES["dark"]),
        js=[],
        width=520,
        height=height,
        disable_xml_declaration=True,
        explicit_size=False,
        legend_at_bottom=True,
        print_values=True,
        print_zeroes=False,
        margin=12,
        truncate_label=24,
        no_data_text="–",
    )


def _svg(chart: Any) -> bytes:
    return str(chart.render(is_unicode=True)).encode("utf-8")


def _whole_numbers(chart: Any, values: Sequence[int]) -> None:
    """Counts get whole-number axis labels (no «1.2 games»), about eight of them."""
    top = max([1, *values])
    step = max(1, -(-top // 8))
    chart.y_labels = list(range(0, top + step, step))


def _who(f: Figures) -> str:
    return " & ".join(f.names)


def _bars(figures: Sequence[Figures]) -> list[Figures]:
    """The most-played first, and drawn top to bottom in that order."""
    return list(reversed(figures[:MAX_BARS]))


def games_and_wins(figures: Sequence[Figures], t: Callable[[str], str], theme: str, title: str) -> bytes:
    """Horizontal bars per player (or pair): games, finished games, wins, Bergpreise."""
    shown = _bars(figures)
    chart = _chart(pygal.HorizontalBar, title, theme, 120 + 48 * max(1, len(shown)))
    chart.x_labels = [_who(f) for f in shown]
    chart.add(t("st_games"), [f.games for f in shown])
    chart.add(t("st_wins"), [f.wins for f in shown])
    chart.add(t("st_bergpreise"), [f.bergpreise for f in shown])
    _whole_numbers(chart, [f.games for f in shown])
    return _svg(chart)


def matches(figures: Sequence[Figures], t: Callable[[str], str], theme: str) -> bytes:
    """Matches made and received per player (team games)."""
    shown = _bars(figures)
    chart = _chart(pygal.HorizontalBar, t("st_matches"), theme, 120 + 40 * max(1, len(shown)))
    chart.x_labels = [_who(f) for f in shown]
    chart.add(t("st_matches_made"), [f.matches_made for f in shown])
    chart.add(t("st_matches_received"), [f.matches_received for f in shown])
    _whole_numbers(chart, [max(f.matches_made, f.matches_received) for f in shown])
    return _svg(chart)


def contract_points(figures: Sequence[Figures], t: Callable[[str], str], theme: str) -> bytes:
    """Average card points per contract, one series per player (the first few)."""
    contracts = [c for c in CONTRACTS if any(f.points.get(c) for f in figures)]
    extra = sorted({c for f in figures for c in f.points} - set(CONTRACTS))
    contracts += extra
    chart = _chart(pygal.Bar, t("st_points_per_contract"), theme, 380)
    chart.x_labels = [t(c) for c in contracts]
    for f in figures[:4]:
        chart.add(_who(f), [round(sum(v) / len(v)) if (v := f.points.get(c)) else None for c in contracts])
    return _svg(chart)


def time_played(figures: Sequence[Figures], t: Callable[[str], str], theme: str) -> bytes:
    """Hours played per player."""
    shown = _bars(figures)
    chart = _chart(pygal.HorizontalBar, t("st_time_played"), theme, 100 + 36 * max(1, len(shown)))
    chart.x_labels = [_who(f) for f in shown]
    chart.value_formatter = lambda h: f"{h:.1f} h"
    chart.add(t("st_hours"), [round(f.seconds / 3600, 1) for f in shown])
    return _svg(chart)


def game_times(games: Sequence[GameSummary], t: Callable[[str], str], theme: str) -> bytes:
    """Minutes per game, the latest games, oldest left."""
    shown = list(games)[-MAX_GAMES:]
    chart = _chart(pygal.Bar, t("st_game_minutes"), theme, 320)
    chart.x_labels = [f"#{g.game}" for g in shown]
    chart.x_label_rotation = 0 if len(shown) <= 8 else 45
    chart.add(t("st_minutes"), [round(g.seconds / 60) for g in shown])
    return _svg(chart)


def render(name: str, stats: TableStatistics, t: Callable[[str], str], theme: str) -> bytes:
    """Chart ``name`` (one of ``CHARTS``); KeyError for another name."""
    return CHARTS[name](stats, t, theme)


CHARTS: Final[dict[str, Callable[[TableStatistics, Callable[[str], str], str], bytes]]] = {
    "players": lambda s, t, theme: games_and_wins(s.players, t, theme, t("st_players")),
    "pairs": lambda s, t, theme: games_and_wins(s.pairs, t, theme, t("st_pairs")),
    "matches": lambda s, t, theme: matches(s.players, t, theme),
    "contracts": lambda s, t, theme: contract_points(s.players, t, theme),
    "time": lambda s, t, theme: time_played(s.players, t, theme),
    "games": lambda s, t, theme: game_times(s.games, t, theme),
}
