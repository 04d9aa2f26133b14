"""Speck Jass tournaments: each table's results over MQTT and the tournament's ranking.

The Bodentrumpf read from the camera is :mod:`vision.bodentrumpf`.

- :mod:`jasscam.tournament.publish`: each table's appliance publishes its Punkteblatt
  as a retained JSON message on ``jasscam/tournament/<tournament>/table/<table>``.
- :mod:`jasscam.tournament.ranking`: combine the tables into one ranking (pure).
- :mod:`jasscam.tournament.board`: subscribe to all tables of a tournament.
- :mod:`web.ranking`: the ranking page (live over SSE), served by ``jasscam tournament ranking``.
"""
