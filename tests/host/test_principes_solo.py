"""Solo PRINCIPES through the host: one person against AI principalities (resolution 40)."""

from __future__ import annotations

import random

from bot.host import Host
from tests.conftest import ALICE

CHANNEL = "solo-1"
FREE_VERBS = ("give", "sell", "support")  # any-time conversions: not needed to finish the game


async def test_resolution_40_solo_one_person_against_two_ai_principalities(host: Host) -> None:
    """The rulebook's own solo mode is unfinished; solo play is a person and AI seats, played to the end
    through the host like any other game, the AI answering every decision of its seats."""
    info = await host.create_game("guild", CHANNEL, ALICE, "principes", {})
    await host.add_ai(CHANNEL, ALICE, "strong")
    await host.add_ai(CHANNEL, ALICE, "strong")
    deliveries = await host.start(CHANNEL, ALICE, order="given")
    game_id = deliveries[0].game_id
    rng = random.Random(40)
    for _ in range(3000):
        if (await host.game_info(game_id)).status == "finished":
            break
        prompt = await host.prompt_of(game_id, ALICE.user_id)
        assert prompt is not None, "the game waits on nobody: the AI seats must have answered"
        actions = [
            c.action for c in prompt.choices if c.action != "undo" and not c.action.startswith(FREE_VERBS)
        ]
        await host.act(
            game_id, ALICE, rng.choice(actions or [c.action for c in prompt.choices]), prompt.decision_id
        )
    final = await host.game_info(game_id)
    assert final.status == "finished" and final.result is not None
    assert await host.replay_state(game_id) == (await host.games.load(game_id)).state
    assert info.game_id == game_id
