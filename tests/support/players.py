"""Players' settings for tests that script a game's every answer."""

from __future__ import annotations

from bot.host import Host
from bot.models import Actor


async def without_shipped_orders(host: Host, *players: Actor) -> None:
    """The players begin their next games with no standing orders (``/settings orders off``): a test that scripts
    every answer, or counts what each player is asked, plays the game as the rules ask it, as before issue 47's
    recommended orders were on by default."""
    for player in players:
        await host.set_setting(player.user_id, "orders", "off")
