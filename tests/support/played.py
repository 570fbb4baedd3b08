"""A game of every kind played to its end through the host, the quick way each game declares
(``Game.quick_game``: its players and AI level), as its ``/game export`` file holds it: what the suites that
serve every available game (verify, export and import, replays, ratings) start from."""

from __future__ import annotations

import json

from bot.host import Host
from rules.engine import get_game
from tests.conftest import ALICE


async def self_played(host: Host, key: str, seed: int | None = None, channel: str | None = None) -> dict:
    """A game between AI seats played to its end through the host, as its ``/game export`` file holds it."""
    players, level = get_game(key).quick_game()
    channel = channel or f"verify-{key}"
    info = await host.create_game("guild", channel, ALICE, key, seat_creator=False, seed=seed)
    for _ in range(players):
        await host.add_ai(channel, ALICE, level)
    await host.start(channel, ALICE)
    assert (await host.game_info(info.game_id)).status == "finished"
    return json.loads(json.dumps(await host.export_game(info.game_id), ensure_ascii=False))
