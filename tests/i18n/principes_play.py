"""Issue 23: what a self-played PRINCIPES game shows people, gathered through the Host for the pseudo-locale
checks (``test_principes_play.py``): every delivery with its prompt and button labels, each player's ``/hand``
text, refusals of unreadable moves, ``/log`` and ``/game status``; the views sent (for the board images) and
each decision with the deciding seat's own view (for the guided DM forms).

Each seat is played by the ``basic`` AI on the view it was sent; several seats may be asked at once (sealed
plans, Councils), so each round of the loop asks every player for their open decision afresh."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.host import Host
from bot.models import Actor, Delivery, HostError, Prompt
from rules.engine.registry import get_game

NAMES = ("alice", "bob", "carol", "dave")
#: the words of an unreadable move the refusal quotes back
WRONG = "banana"


@dataclass
class Played:
    texts: list[str] = field(default_factory=list)
    views: list[dict[str, Any]] = field(default_factory=list)
    decisions: list[tuple[Prompt, dict[str, Any]]] = field(default_factory=list)


async def play_principes(
    database: Path, players: int, seed: int, options: dict[str, str] | None = None, max_actions: int = 5000
) -> Played:
    host = await Host.open(database, clock=lambda: 1_900_000_000.0)
    actors = [Actor(str(index + 1), NAMES[index]) for index in range(players)]
    game, rng, played = get_game("principes"), random.Random(seed), Played()
    channel = f"c{seed}"

    def take(deliveries: list[Delivery]) -> None:
        for delivery in deliveries:
            played.texts.append(delivery.text)
            if delivery.view is not None:
                played.views.append(delivery.view)
            if delivery.prompt:
                played.texts.append(delivery.prompt.text)
                played.texts.extend(choice.label for choice in delivery.prompt.choices)

    try:
        info = await host.create_game("g", channel, actors[0], "principes", options or {}, seed=seed)
        for actor in actors[1:]:
            played.texts.append((await host.join(channel, actor)).lobby_text())
        take(await host.start(channel, actors[0]))
        actions = 0
        while actions < max_actions and (await host.game_info(info.game_id)).status == "active":
            moved = False
            for actor in actors:
                prompt = await host.prompt_of(info.game_id, actor.user_id)
                if prompt is None:
                    continue
                if rng.random() < 0.03:
                    try:
                        await host.act(info.game_id, actor, WRONG, prompt.decision_id)
                    except HostError as error:
                        played.texts.append(str(error))
                hand = await host.hand(channel, actor)
                played.texts.append(hand.text)
                played.decisions.append((prompt, hand.view))
                legal = [choice.action for choice in prompt.choices]
                action = game.choose_action(hand.view, prompt.seat, legal, "basic", rng)
                take(await host.act(info.game_id, actor, action, prompt.decision_id))
                actions += 1
                moved = True
            if not moved:
                break
        played.texts += [await host.log(channel), await host.status(channel)]
    finally:
        await host.close()
    return played
