"""Speck Jass tournaments: a table's Bodentrumpf from the camera, its results over MQTT,
and the tournament's live ranking page.

- :mod:`jasscam.tournament.bodentrumpf`: propose the Bodentrumpf from the detections
  of a single face-up card lying alone on the table before the first card is played.
- :mod:`jasscam.tournament.publish`: each table's appliance publishes its Punkteblatt
  as a retained JSON message on ``jasscam/tournament/<tournament>/table/<table>``.
- :mod:`jasscam.tournament.ranking`: combine the tables into one ranking (pure).
- :mod:`jasscam.tournament.board`: subscribe to all tables of a tournament.
- :mod:`jasscam.tournament.server`: the ranking page (live over SSE).
"""
