"""What a host's deliveries show everyone but one player, comparable across two games of the same script (the
tests of answers given ahead play a game answered ahead beside the game of the same clicks)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from bot.models import Delivery


def unnumbered(text: str, game_id: int) -> str:
    """The text without the game's number and its sealed commits and nonces (the two games compared are two
    games of the host, each sealing with its own secrets)."""
    return re.sub(r"\b[0-9a-f]{32,}\b", "<hex>", text.replace(f"#{game_id}", "#N"))


def seen_by_others(deliveries: list[Delivery], owner_id: str) -> list[tuple[Any, ...]]:
    """What everyone but the user ``owner_id`` gets: the channel's messages and the other players' DMs, their
    texts, prompts and views, without the game's number."""
    return [
        (
            d.kind,
            d.channel_id is None,
            d.user_id,
            unnumbered(d.text, d.game_id),
            d.view,
            d.prompt and replace(d.prompt, game_id=0, text=unnumbered(d.prompt.text, d.game_id)),
        )
        for d in deliveries
        if d.user_id != owner_id
    ]
