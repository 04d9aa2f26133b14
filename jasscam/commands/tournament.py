"""``jasscam tournament``: a Speck Jass tournament over MQTT.

``jasscam tournament publish --broker HOST --tournament NAME --table N --store FILE``
runs on each table's appliance and publishes the table's Punkteblatt (retained) after
every change; ``jasscam tournament ranking --broker HOST --tournament NAME`` runs next to
the broker and serves the live ranking page of all tables.
"""

from __future__ import annotations

import argparse
import sys
import threading

NAME = "tournament"
HELP = "Speck Jass tournament: publish a table's Punkteblatt to MQTT, or serve the live ranking"


def _broker(value: str) -> tuple[str, int]:
    host, _, port = value.rpartition(":") if ":" in value else (value, "", "1883")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"broker must be HOST or HOST:PORT, got {value!r}")
    return host, int(port)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    for name, help_ in (
        ("publish", "publish this table's Punkteblatt after every change"),
        ("ranking", "serve the live ranking page of all tables"),
    ):
        p = sub.add_parser(name, help=help_, description=help_)
        p.add_argument("--broker", type=_broker, required=True, metavar="HOST[:PORT]", help="MQTT broker (port 1883)")
        p.add_argument("--tournament", required=True, help="tournament name (one MQTT topic level)")
        if name == "publish":
            p.add_argument("--table", required=True, help="table number or name (one MQTT topic level)")
            p.add_argument("--store", required=True, help="the appliance's event store (SQLite file)")
            p.add_argument("--game", type=int, help="game id (default: the store's current game)")
            p.add_argument("--once", action="store_true", help="publish the current state once and exit")
        else:
            p.add_argument("--listen", default="0.0.0.0:8090", metavar="HOST:PORT", help="address of the page")
            p.add_argument("--title", help="heading of the page (default: the tournament name)")


def run(args: argparse.Namespace) -> int:
    from jasscam.tournament.topics import TopicError, check_name

    try:
        check_name(args.tournament, "tournament")
        if args.action == "publish":
            check_name(args.table, "table")
    except TopicError as exc:
        print(f"jasscam tournament: {exc}", file=sys.stderr)
        return 2
    return _publish(args) if args.action == "publish" else _ranking(args)


def _publish(args: argparse.Namespace) -> int:
    from pathlib import Path

    from jasscam.store import EventStore, StoreError
    from jasscam.tournament.publish import PublishError, TablePublisher, follow_store
    from scoring.game import fold
    from scoring.speck import NotSpeckError, punkteblatt

    path = Path(args.store)
    if not path.exists():
        print(f"jasscam tournament: no event store at {path}", file=sys.stderr)
        return 2
    host, port = args.broker
    try:
        with EventStore(path) as store:
            game = args.game if args.game is not None else store.current_game()
            if game is None:
                print(f"jasscam tournament: {path} holds no game yet", file=sys.stderr)
                return 2
            blatt = punkteblatt(fold(store.events(game)))
            with TablePublisher(host, port, tournament=args.tournament, table=args.table) as pub:
                if args.once:
                    pub.publish(game, blatt)
                    print(f"published table {args.table}: {blatt['games_played']} games, totals {blatt['totals']}")
                    return 0
                stop = threading.Event()
                try:
                    follow_store(store, game, pub, stop)
                except KeyboardInterrupt:
                    stop.set()
    except (StoreError, LookupError, NotSpeckError, PublishError) as exc:
        print(f"jasscam tournament: {exc}", file=sys.stderr)
        return 2
    return 0


def _ranking(args: argparse.Namespace) -> int:
    from jasscam.tournament.board import TournamentBoard
    from web.ranking import create_ranking_app
    from web.server import serve

    host, port = args.broker
    lhost, _, lport = args.listen.rpartition(":")
    if not lhost or not lport.isdigit():
        print(f"jasscam tournament: --listen must be HOST:PORT, got {args.listen!r}", file=sys.stderr)
        return 2
    try:
        board = TournamentBoard(host, port, tournament=args.tournament).start()
    except ConnectionError as exc:
        print(f"jasscam tournament: {exc}", file=sys.stderr)
        return 2
    handle = serve(create_ranking_app(board, title=args.title), lhost, int(lport))
    print(f"ranking of {args.tournament} at {handle.url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        handle.stop()
        board.stop()
    return 0
