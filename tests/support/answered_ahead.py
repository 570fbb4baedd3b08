"""Steps of the tests that play a scripted game through the host twice, once with a player's turn answered ahead
(issue 47) and once with the same answers clicked when asked, and compare the two games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.host import Host
from bot.hosting.turns import read_step_slot
from bot.models import AHEAD_KIND, Actor, Delivery
from rules.engine import Game
from rules.engine.playout import Record, start, step
from tests.support.deliveries import seen_by_others
from tests.support.players import without_shipped_orders


async def start_scripted(host: Host, channel: str, key: str, players: Sequence[Actor], seed: int) -> int:
    """A game of ``key`` on ``seed``, its players seated in the given order without standing orders (every answer
    scripted, each asked as the rules ask it)."""
    await without_shipped_orders(host, *players)
    info = await host.create_game("g", channel, players[0], key, {}, seed=seed)
    for player in players[1:]:
        await host.join(channel, player)
    await host.start(channel, players[0], order="given")
    return info.game_id


async def play_records(
    host: Host, game_id: int, players: Sequence[Actor], records: Sequence[Record]
) -> list[Delivery]:
    """The script's records played by their seats' players, as clicks; what the host delivered meanwhile."""
    delivered: list[Delivery] = []
    for record in records:
        delivered += await host.act(game_id, players[record.seat], record.action)
    return delivered


async def answer_by_clicks(host: Host, game_id: int, player: Actor, slot: str, given: Sequence[str]) -> None:
    """The player answers its turn of ``slot`` ahead as a player does: the offer's buttons, then each next
    step's."""
    for number, action in enumerate(given):
        prompt = await host.turn_step_prompt(game_id, player)
        assert prompt is not None and prompt.kind == AHEAD_KIND
        assert read_step_slot(prompt.decision_id) == (slot, number)
        assert action in [choice.action for choice in prompt.choices]
        told = await host.answer_ahead_slot(game_id, player, prompt.decision_id, action)
        assert "Answered ahead" in told


async def assert_nothing_else_differs(
    host: Host,
    game: Game,
    owner: int,
    ahead: tuple[int, list[Delivery]],
    clicked: tuple[int, list[Delivery]],
    players: Sequence[Actor],
) -> None:
    """Until its turn, nobody but the seat ``owner`` (who answered ahead in one game) gets anything different in
    the two games (game id, deliveries): the channel, the other players' DMs, every other seat's view and the
    public view."""
    (ahead_game, ahead_seen), (clicked_game, clicked_seen) = ahead, clicked
    owner_id = players[owner].user_id
    assert seen_by_others(ahead_seen, owner_id) == seen_by_others(clicked_seen, owner_id)
    ahead_state = (await host.games.load(ahead_game)).state
    clicked_state = (await host.games.load(clicked_game)).state
    for other in [seat for seat in range(len(players)) if seat != owner] + [None]:
        assert game.view(ahead_state, other) == game.view(clicked_state, other)


async def assert_the_same_game(
    host: Host, game: Game, seed: int, players: int, ahead: tuple[str, int], clicked: tuple[str, int]
) -> None:
    """The two games (channel, game id) are the same game: the same events, by the same users, and the same log;
    and the game replays from its seed and stored actions."""
    (ahead_channel, ahead_game), (clicked_channel, clicked_game) = ahead, clicked
    ahead_events = [(e.seat, e.action, e.user_id) for e in await host.store.events(ahead_game, 0)]
    clicked_events = [(e.seat, e.action, e.user_id) for e in await host.store.events(clicked_game, 0)]
    assert ahead_events == clicked_events
    assert await host.log(ahead_channel, 500) == await host.log(clicked_channel, 500)
    replayed = start(game, players, {}, seed)
    for event_seat, action, _user in ahead_events:
        if event_seat is not None:
            step(game, replayed, event_seat, action)
    assert replayed.state == (await host.games.load(ahead_game)).state


async def give_answers_ahead(host: Host, clock: Any, game_id: int, count: int) -> list[Delivery]:
    """The answers given ahead, played one by one at the auto-pass's random moments."""
    fired: list[Delivery] = []
    for _ in range(count):
        clock.advance(121)
        fired += await host.fire_due_timers()
    return fired
