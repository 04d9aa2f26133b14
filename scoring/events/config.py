"""Checking a ``game_configured``: the table rules a whole game is folded under.

The largest event by far, and the one whose mistakes cost most: a wrong target or a
prior total past it would end the game on the first round. So every setting is checked
here against the others (a Coiffeur setting only in Coiffeur, prior totals below the
target, Speck games on paper adding up to 157 each) before the first card is laid.
"""

from __future__ import annotations

from typing import Any

from scoring.ending import TARGET_RULES, over_target
from scoring.events.fields import as_seat, as_whole
from scoring.events.schema import (
    BLOCKS,
    CONTRACTS,
    IMAGE_EDGES,
    MAX_NAME,
    MULTIPLIER_TABLES,
    ROUND_CONTRACTS,
    VARIANTS,
    EventError,
    GameConfigured,
)


def check_config(out: dict[str, Any]) -> None:
    """Check and normalise a ``game_configured`` in place: players, the table rules, the
    variant's own settings and a game continued from paper."""
    players = out.get("players", GameConfigured.players)
    if (
        not isinstance(players, (list, tuple))
        or len(players) != 4
        or not all(isinstance(p, str) and p.strip() for p in players)
    ):
        raise EventError("players must be a list of four non-empty names, seat 0 first")
    out["players"] = tuple(p.strip() for p in players)
    for seat, name in enumerate(out["players"]):
        if len(name) > MAX_NAME:
            raise EventError(f"the name of seat {seat} is longer than {MAX_NAME} characters")
    if out.get("variant", "schieber") not in VARIANTS:
        raise EventError(f"variant must be one of {', '.join(VARIANTS)}, got {out.get('variant')!r}")
    target = out.get("target", 1000)
    if isinstance(target, bool) or not isinstance(target, int) or target <= 0:
        raise EventError(f"target must be a positive whole number of points, got {target!r}")
    if out.get("multipliers", "default") not in MULTIPLIER_TABLES:
        raise EventError(f"multipliers must be one of {', '.join(MULTIPLIER_TABLES)}, got {out.get('multipliers')!r}")
    custom = out.get("custom_multipliers")
    if out.get("multipliers") == "custom":
        if (
            not isinstance(custom, dict)
            or set(custom) != set(CONTRACTS)
            or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in custom.values())
        ):
            raise EventError("custom_multipliers must give a positive whole factor for each of " + ", ".join(CONTRACTS))
    elif custom is not None:
        raise EventError("custom_multipliers is only allowed with multipliers 'custom'")
    order = tuple(out.get("end_order", BLOCKS))
    if sorted(order) != sorted(BLOCKS):
        raise EventError(f"end_order must order the blocks {', '.join(BLOCKS)}, got {list(order)!r}")
    out["end_order"] = order
    if out.get("target_rule", "reached") not in TARGET_RULES:
        raise EventError(f"target_rule must be one of {', '.join(TARGET_RULES)}, got {out.get('target_rule')!r}")
    for flag in ("weis_one_per_player", "weis_needs_trick", "weis_card_once"):
        if flag in out and not isinstance(out[flag], bool):
            raise EventError(f"{flag} must be true or false")
    games = out.get("speck_games", 12)
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise EventError(f"speck_games must be a positive whole number, got {games!r}")
    for key in ("scorer", "dealer"):
        if out.get(key) is not None:
            out[key] = as_seat(out[key], key)
    variant_settings(out)
    if out.get("prior_totals") is not None:
        if out.get("variant") in ("coiffeur", "differenzler"):
            raise EventError(f"prior_totals: a {out['variant']} game cannot be continued from paper")
        out["prior_totals"] = prior_totals(out)
    if "prior_games" in out or out.get("variant") == "speck":
        out["prior_games"] = prior_games(out)
    edges = out.get("seat_edges")
    if edges is not None:
        if not isinstance(edges, (list, tuple)) or sorted(edges) != sorted(IMAGE_EDGES):
            raise EventError(
                f"seat_edges must name each image edge ({', '.join(IMAGE_EDGES)}) once, seat 0 first, got {edges!r}"
            )
        out["seat_edges"] = tuple(edges)


def prior_totals(config: dict[str, Any]) -> tuple[int, ...]:
    """Prior totals: whole points >= 0, one per team (Schieber) or per seat (Speck), and
    in the Schieber below the target, checked as the target is: a game already won on
    paper is not continued."""
    speck = config.get("variant", "schieber") == "speck"
    want = 4 if speck else 2
    prior = config["prior_totals"]
    if (
        not isinstance(prior, (list, tuple))
        or len(prior) != want
        or not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in prior)
    ):
        who = "four whole numbers >= 0, one per seat" if speck else "two whole numbers >= 0, team 1 first"
        raise EventError(f"prior_totals must be {who}, got {prior!r}")
    if not speck:
        target, rule = config.get("target", 1000), config.get("target_rule", "reached")
        done = [i + 1 for i, p in enumerate(prior) if over_target(p, target, rule)]
        if done:
            word = "reaches" if rule == "reached" else "exceeds"
            raise EventError(
                f"prior_totals: team {done[0]} already {word} the target {target} ({prior[done[0] - 1]}); "
                "that game is over, start a new one"
            )
    return tuple(prior)


def prior_games(config: dict[str, Any]) -> int:
    """Speck games played on paper: fewer than the series, and their points add up to
    157 each (2.5.3, the check games x 157), or the sheet they come from has a mistake."""
    prior = config.get("prior_games", 0)
    if isinstance(prior, bool) or not isinstance(prior, int) or prior < 0:
        raise EventError(f"prior_games must be a whole number >= 0, got {prior!r}")
    if config.get("variant", "schieber") != "speck":
        if prior:
            raise EventError("prior_games belongs to Speck Jass (a Schieber game carries only prior_totals)")
        return 0
    games = config.get("speck_games", 12)
    if prior >= games:
        raise EventError(f"prior_games: {prior} of {games} games already played on paper; the series is over")
    points = sum(config.get("prior_totals") or ())
    if points != prior * 157:
        raise EventError(
            f"prior_totals add up to {points}, but {prior} games played on paper make {prior} x 157 = {prior * 157} "
            "(2.5.3); check the sheet" + ("" if prior else ", and give prior_games, the number of games on it")
        )
    return prior


def variant_settings(out: dict[str, Any]) -> None:
    """The Coiffeur and Differenzler settings: each only in its own variant, in range."""
    variant = out.get("variant", "schieber")
    rows = out.get("coiffeur_rows")
    if rows is not None:
        if variant != "coiffeur":
            raise EventError("coiffeur_rows belongs to Coiffeur")
        if not isinstance(rows, (list, tuple)) or not rows:
            raise EventError("coiffeur_rows must be a non-empty list of [contract, factor] pairs")
        parsed: list[tuple[str, int]] = []
        for i, row in enumerate(rows):
            if not isinstance(row, (list, tuple)) or len(row) != 2 or row[0] not in ROUND_CONTRACTS:
                raise EventError(
                    f"coiffeur_rows[{i}] must be [contract, factor] with a contract of {', '.join(ROUND_CONTRACTS)}"
                )
            factor = row[1]
            if isinstance(factor, bool) or not isinstance(factor, int) or factor <= 0:
                raise EventError(f"coiffeur_rows[{i}]: the factor must be a positive whole number, got {factor!r}")
            parsed.append((row[0], factor))
        out["coiffeur_rows"] = tuple(parsed)
    if "coiffeur_match_bonus" in out:
        if variant != "coiffeur" and out["coiffeur_match_bonus"] != 100:
            raise EventError("coiffeur_match_bonus belongs to Coiffeur")
        out["coiffeur_match_bonus"] = as_whole(out["coiffeur_match_bonus"], "coiffeur_match_bonus")
    if out.get("count_weis") is not None:
        if variant not in ("coiffeur", "differenzler"):
            raise EventError(
                "count_weis is a Coiffeur and Differenzler setting (the Schieber counts Weis, Speck never)"
            )
        if not isinstance(out["count_weis"], bool):
            raise EventError("count_weis must be true or false")
    if "differenzler_rounds" in out:
        rounds = out["differenzler_rounds"]
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds <= 0:
            raise EventError(f"differenzler_rounds must be a positive whole number, got {rounds!r}")
        if variant != "differenzler" and rounds != 12:
            raise EventError("differenzler_rounds belongs to Differenzler")


__all__ = ["check_config", "prior_games", "prior_totals", "variant_settings"]
