"""Images name the players: the host adds the seats' names to every view it renders, and each renderer draws
them where it used to write "Seat N"."""

from __future__ import annotations

import pytest

from bot.host import Host
from render import principes, render_view
from rules.engine import available_games
from tests.conftest import ALICE, BOB
from tests.render.pixels import drawn_texts

#: games whose image shows every seat (a panel or a reserve per seat); the others name the player to move
EVERY_SEAT = {"pharaoh", "the-prince", "principes"}


@pytest.mark.parametrize("game", available_games())
async def test_the_players_names_reach_the_image(host: Host, game: str) -> None:
    await host.create_game("guild", f"chan-{game}", ALICE, game, {})
    await host.join(f"chan-{game}", BOB)
    deliveries = await host.start(f"chan-{game}", ALICE, order="given")
    views = [delivery.view for delivery in deliveries if delivery.view is not None]
    assert views, "the start posts an image"
    for view in views:
        assert view["seat_names"] == ["alice", "bob"]  # what the renderer receives
        principes.clear_caches()  # draw the PRINCIPES panel's sections again, not from their cache
        with drawn_texts() as texts:
            render_view(game, view)
        drawn = " ".join(texts)
        named = [name for name in ("alice", "bob") if name in drawn]
        assert named == ["alice", "bob"] if game in EVERY_SEAT else named, (
            f"{game}: {sorted(set(texts))[:20]}"
        )
        assert "Seat 1" not in drawn and "seat 1" not in drawn
