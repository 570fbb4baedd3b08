"""The extra-card windows offered while Masovia is asked her battle-die reroll, answered ahead through the host
(issue 47; ``rules.principes.play.turn_ahead``: each side of the battle that is not Masovia answers its
``extra_cards`` window on the dice as they stand, the reroll declined; slot ``battle<N>-extra-<A|D>``).

Masovia is seated in 4-player games only, and the 3-player game of ``tests/host/test_turns_ahead.py`` has no such
moment: scripted 4-player games have one, Masovia attacking in one and defending in the other. As there, two host
games on the same seed follow the script: in one the window's player answers its window ahead by clicks on the
offer; in the other it clicks the same answers when asked. The offer reaches that player alone, by private
message, while Masovia is asked; until its turn nobody else gets anything different; Masovia rerolls, and the
answer given ahead is given on the new die, as the click: the two games are the same game (state, events, log),
which replays from its seed and stored actions. An answer no longer legal when the window opens leaves the player
asked."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import pytest

from bot.host import Host
from bot.hosting.turns import step_slot
from bot.models import AHEAD_KIND, Actor, Delivery
from rules.engine import ReplayRng, get_game
from rules.engine.pace import paced_play
from rules.engine.playout import Playout, start
from rules.engine.standing import turn_key, turn_steps
from rules.engine.turn_ahead import preview_after
from rules.principes.play.battle import REROLLER
from tests.conftest import ALICE, BOB, CAROL
from tests.support import answered_ahead as scripted

GAME = get_game("principes")
DAVE = Actor("400", "dave")
PLAYERS = (ALICE, BOB, CAROL, DAVE)  # Masovia is seated in 4-player games only
#: the scripted games' seeds, by who attacks: in battle 6 of seed 6, Masovia attacks Polonia Maior (seat 0),
#: rerolls a coin into a sword and passes her own extra cards before the defender's window; in battle 1 of seed
#: 58, Polonia Maior attacks Masovia, who rerolls, and the attacker's window comes at once
SEEDS = {"Masovia attacks": 6, "Masovia defends": 58}
#: the game whose window's player holds two Battle cards: spending the one answered ahead leaves it the other
FALLBACK_SEED = 58


@functools.cache
def _playout(seed: int) -> Playout:
    return paced_play(GAME, len(PLAYERS), seed, "basic").playout


@functools.cache
def _states(seed: int) -> list[dict[str, Any]]:
    """The state before each record of the scripted game, and the last."""
    state = start(GAME, len(PLAYERS), {}, seed).state
    states = [state]
    for record in _playout(seed).records:
        state = GAME.apply(state, record.seat, record.action, ReplayRng(list(record.draws))).state
        states.append(state)
    return states


@dataclass(frozen=True)
class Window:
    """An extra-card window offered while Masovia is asked her reroll, and how the script plays it."""

    asked: int  # the record of Masovia's answer: before it, she is asked and the window is offered
    seat: int  # the window's player
    slot: str
    turn: int  # the record of the window's first answer
    given: tuple[str, ...]  # the script's answers of the window that its preview lets the player give ahead


def _masovia_seat(seed: int) -> int:
    return int(_states(seed)[0]["players"][REROLLER]["seat"])


def _window_answers(seed: int, asked: int, seat: int, slot: str) -> tuple[int, tuple[str, ...]] | None:
    """The seat's window's first record after ``asked`` and the script's answers there that the preview offered
    at ``asked`` lets it give ahead, in a row; None if the window is passed for it (the auto-pass) or its first
    answer could not be given ahead."""
    records, states = _playout(seed).records, _states(seed)
    turn = next(index for index in range(asked, len(records)) if records[index].seat == seat)
    if GAME.auto_pass(states[turn], seat) is not None:
        return None
    preview, given = GAME.turn_ahead_state(states[asked], seat, slot), []
    for index in range(turn, len(records)):
        window = GAME.pending(states[index]).get(seat)
        in_window = (
            window is not None and GAME.turn_slot(GAME.view(states[index], seat), seat, window) == slot
        )
        action = records[index].action
        if preview is None or not in_window or records[index].seat != seat:
            break
        if action not in GAME.legal_actions(preview, seat) or GAME.is_free(preview, seat, action):
            break
        given.append(action)
        preview = preview_after(GAME, preview, seat, slot, action)
    return (turn, tuple(given)) if given else None


@functools.cache
def _window(seed: int) -> Window:
    """The script's first moment Masovia is asked her reroll while another side's extra-card window, offered
    with it, is answerable ahead and not passed for its player at its turn."""
    for asked, state in enumerate(_states(seed)[:-1]):
        masovia = GAME.pending(state).get(_masovia_seat(seed))
        if masovia is None or masovia.kind != "reroll":
            continue
        for seat, turns in GAME.turn_ahead(state).items():
            for turn in turns:
                answers = _window_answers(seed, asked, seat, turn.id) if turn.kind == "extra_cards" else None
                if answers is not None:
                    return Window(asked, seat, turn.id, *answers)
    raise AssertionError(f"seed {seed} has no extra-card window answerable ahead while Masovia is asked")


@pytest.mark.parametrize("seed", SEEDS.values(), ids=SEEDS.keys())
def test_the_script_rerolls_before_a_window_answerable_ahead(seed: int) -> None:
    """The scripted moment: Masovia is asked her reroll and rerolls (a new die); the other side's window comes
    after, answered in the script as the preview offered at the reroll allowed."""
    window, states, records = _window(seed), _states(seed), _playout(seed).records
    fight = states[window.asked]["play"]["battle"]
    other_side = "D" if fight["sides"]["A"] == REROLLER else "A"
    assert window.slot == f"battle{fight['no']}-extra-{other_side}"
    assert records[window.asked].seat == _masovia_seat(seed) and records[window.asked].action == "reroll"
    assert states[window.turn]["play"]["battle"]["dice"] != fight["dice"]  # the die rerolled
    assert GAME.pending(states[window.turn])[window.seat].kind == "extra_cards"


def test_the_scripted_games_have_masovia_on_either_side() -> None:
    attackers = {
        _states(seed)[_window(seed).asked]["play"]["battle"]["sides"]["A"] for seed in SEEDS.values()
    }
    assert REROLLER in attackers and len(attackers) == 2


async def _start(host: Host, channel: str, seed: int) -> int:
    return await scripted.start_scripted(host, channel, "principes", PLAYERS, seed)


async def _play(host: Host, game_id: int, seed: int, upto: int, begin: int = 0) -> list[Delivery]:
    return await scripted.play_records(host, game_id, PLAYERS, _playout(seed).records[begin:upto])


async def _state(host: Host, game_id: int) -> Any:
    return (await host.games.load(game_id)).state


def _offers(delivered: list[Delivery]) -> list[Delivery]:
    return [d for d in delivered if d.prompt is not None and d.prompt.kind == AHEAD_KIND]


def _offers_of(delivered: list[Delivery], slot: str) -> list[Delivery]:
    """The offers of the turn of ``slot`` (its first step's buttons)."""
    return [
        d for d in _offers(delivered) if d.prompt is not None and d.prompt.decision_id == step_slot(slot, 0)
    ]


@pytest.mark.parametrize("seed", SEEDS.values(), ids=SEEDS.keys())
async def test_the_offer_reaches_the_windows_player_alone_while_masovia_is_asked(
    host: Host, seed: int
) -> None:
    """The window's offer comes with the record that asks Masovia her reroll, to its player alone, by private
    message, and once."""
    window = _window(seed)
    owner = PLAYERS[window.seat].user_id
    game_id = await _start(host, "reroll-offer", seed)
    await _play(host, game_id, seed, window.asked - 1)
    asking = await _play(host, game_id, seed, window.asked, window.asked - 1)
    assert await _state(host, game_id) == _states(seed)[window.asked]
    masovia = await host.prompt_of(game_id, PLAYERS[_masovia_seat(seed)].user_id)
    assert masovia is not None and masovia.kind == "reroll"
    offers = _offers_of(asking, window.slot)
    assert len(offers) == 1 and offers[0].user_id == owner and offers[0].channel_id is None
    assert "coming after Masovia's reroll" in offers[0].text
    assert all(d.user_id == owner for d in _offers(asking))  # nobody else is offered anything then
    # never twice (defending, Masovia is then offered her own window while the attacker is asked his)
    assert _offers_of(await _play(host, game_id, seed, window.turn, window.asked), window.slot) == []


@pytest.mark.parametrize("seed", SEEDS.values(), ids=SEEDS.keys())
async def test_extra_cards_answered_ahead_while_masovia_rerolls_are_the_clicks(
    host: Host, clock: Any, seed: int
) -> None:
    window = _window(seed)
    owner = PLAYERS[window.seat]
    ahead_game = await _start(host, "reroll-ahead", seed)
    clicked_game = await _start(host, "reroll-clicked", seed)
    await _play(host, ahead_game, seed, window.asked)
    await _play(host, clicked_game, seed, window.asked)
    await scripted.answer_by_clicks(host, ahead_game, owner, window.slot, window.given)
    # Masovia rerolls (and attacking, passes her own window): nobody but the owner gets anything different
    ahead_seen = await _play(host, ahead_game, seed, window.turn, window.asked)
    clicked_seen = await _play(host, clicked_game, seed, window.turn, window.asked)
    await scripted.assert_nothing_else_differs(
        host, GAME, window.seat, (ahead_game, ahead_seen), (clicked_game, clicked_seen), PLAYERS
    )
    # the window opens on the new die: the answers given ahead are given, as the clicks
    fired = await scripted.give_answers_ahead(host, clock, ahead_game, len(window.given))
    await _play(host, clicked_game, seed, window.turn + len(window.given), window.turn)
    assert any("your answer given ahead" in d.text and d.user_id == owner.user_id for d in fired)
    after = _states(seed)[window.turn + len(window.given)]
    assert await _state(host, ahead_game) == await _state(host, clicked_game) == after
    await scripted.assert_the_same_game(
        host, GAME, seed, len(PLAYERS), ("reroll-ahead", ahead_game), ("reroll-clicked", clicked_game)
    )


async def test_an_answer_spent_before_the_window_leaves_the_player_asked(host: Host, clock: Any) -> None:
    """Masovia's reroll changes nothing the extra-card answers depend on (the hand, the units, a Night March), so
    an answer given ahead is still legal whatever her new die; but the player may spend the card it answered with
    before the window opens (sold, a free action of its own): then the answer is not given and it is asked, its
    other Battle card still offered."""
    window = _window(FALLBACK_SEED)
    owner = PLAYERS[window.seat]
    game_id = await _start(host, "reroll-spent", FALLBACK_SEED)
    await _play(host, game_id, FALLBACK_SEED, window.asked)
    await scripted.answer_by_clicks(host, game_id, owner, window.slot, window.given)
    await host.act(game_id, owner, "sell " + window.given[0].split()[1])
    await _play(host, game_id, FALLBACK_SEED, window.turn, window.asked)  # Masovia rerolls: the window opens
    live = await host.games.load(game_id)
    held = turn_steps(live.orders[owner.user_id].get(turn_key(window.slot)), window.slot)
    assert [action for _kind, action in held] == list(window.given)  # still held, though the card is sold
    events = len(await host.store.events(game_id, 0))
    clock.advance(130)  # past the answer given ahead's random moment, short of the window's deadline
    fired = await host.fire_due_timers()
    assert not any("your answer given ahead" in d.text for d in fired)
    assert len(await host.store.events(game_id, 0)) == events
    asked = await host.prompt_of(game_id, owner.user_id)
    assert asked is not None and asked.kind == "extra_cards"
    offered = [choice.action for choice in asked.choices]
    assert window.given[0] not in offered and any(action.startswith("extra ") for action in offered)
