"""The Discord front-end: turns interactions into host calls and host deliveries into Discord messages.

It holds no game logic. ``app.run_bot(config)`` is what ``python -m bot`` runs; ``app.PrincesBot`` is the
``commands.Bot`` the tests drive against a fake Discord on loopback.
"""
