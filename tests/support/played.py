"""A game of every kind played to its end through the host, the quick way each game declares
(``Game.quick_game``: its players and AI level), as its ``/game export`` file holds it: what the suites that
serve every available game (verify, export and import, replays, ratings) start from; and a game its people play
to the end with the first choice offered (the leagues' tests)."""

from __future__ import annotations

import json
from collections.abc import Mapping

from bot.host import Host
from bot.models import Actor
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


async def play_first_choices(host: Host, game_id: int, names: Mapping[str, str]) -> None:
    """Every pending player (by user id, named in ``names``) answers with the first choice offered, to the game's
    end."""
    for _ in range(2_000):
        info = await host.game_info(game_id)
        if info.status != "active":
            return
        user = info.pending_users[0]
        prompt = await host.prompt_of(game_id, user)
        assert prompt is not None
        await host.act(game_id, Actor(user, names[user]), prompt.choices[0].action, prompt.decision_id)
    raise AssertionError(f"game {game_id} did not end")
