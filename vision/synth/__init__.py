"""Synthetic Jass table scenes and rendered games, with exact ground truth.

Used to train and test the recogniser and to render demo recordings; never imported by
the appliance at run time (the recording format it shares lives in ``vision.recording``).
Entry points: ``vision.synth.scene.render_scene`` and ``vision.synth.game.render_game``.
"""
