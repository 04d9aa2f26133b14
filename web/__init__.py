"""The phone dashboard: live score over Server-Sent Events, buttons for Weis, Stöck,
contracts and corrections, the Jasstafel, history and export.

Use from the appliance (web/ never imports jasscam/; the store is passed in)::

    from web.app import create_app
    from web.server import serve

    app = create_app(store, pin="4711", settings_path=state_dir / "dashboard.json")
    handle = serve(app, "0.0.0.0", 8080)   # waitress in a background thread
    ...
    handle.stop()

``store`` is anything shaped like :class:`web.store.EventStore` (``jasscam.store``).
All game state comes from ``scoring.game.fold(events).to_dict()``; see web.view.
"""
