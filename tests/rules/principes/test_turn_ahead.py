"""A player's own turn answered ahead, at the rules' level (issue 47; ``rules.principes.play.turn_ahead``): whole
self-played games where every seat answers every turn offered ahead (``paced_play(collect_turns=True)``), and
the previews they answer from.

- Replay equality: the game with turns answered ahead replays from its seed and records, and is the game in
  which each player clicked the same answers when asked (every answer given in turn was legal then).
- The previews show nobody anything hidden: no card id appears in a seat's view of a preview (or of any step of
  it the AI goes through) that its view of the real state does not show, and nobody else's view changes.
- The turns offered belong to their seats: a preview poses the seat's own decision of that very turn.
- Each family's own promise: a Movement goes on past its moves into the mover's choices before any die; the
  extra-card windows come with Masovia's reroll on the dice as rolled; a Princess sent home draws her card from the
  deck chosen ahead, no card shown; the Princeps's direction comes with nothing random between, its holder's only.
"""

from __future__ import annotations

import functools
import json
import random
import re
from typing import Any

from rules.engine import Decision, Game, ReplayRng, get_game
from rules.engine.pace import paced_play
from rules.engine.playout import replay, start, step
from rules.engine.turn_ahead import preview_after, with_own_answer
from rules.principes.play.common import active, capital, principality_of
from rules.principes.play.history import QUEUED_ICONS
from rules.principes.play.turn_ahead import OWN_ACTIONS, action_slot

GAME = get_game("principes")
PLAYERS = 4
SEEDS = (1, 2)
#: a card instance id as the state spells it (``C05b``, ``N04``, ``B02a``)
CARD_ID = re.compile(r'"([CBN]\d{2}[a-z]?)"')


def _cards_seen(view: Any) -> set[str]:
    return set(CARD_ID.findall(json.dumps(view)))


def test_games_with_turns_answered_ahead_replay_as_clicks() -> None:
    for seed in SEEDS:
        paced = paced_play(
            GAME, PLAYERS, seed, "strong", autopass=True, collect_ahead=True, collect_turns=True
        )
        playout = paced.playout
        assert paced.by_ahead, "no answer was given ahead"
        assert replay(GAME, PLAYERS, {}, playout.setup_draws, playout.records) == playout.state
        clicked = start(GAME, PLAYERS, {}, seed)
        for record in playout.records:
            assert record.action in GAME.legal_actions(clicked.state, record.seat), record
            step(GAME, clicked, record.seat, record.action)
        assert clicked.state == playout.state


def test_previews_show_nobody_anything_hidden() -> None:
    playout = paced_play(GAME, PLAYERS, SEEDS[0], "basic").playout
    state = start(GAME, PLAYERS, {}, SEEDS[0]).state
    chooser = random.Random(0)
    previews = 0
    for record in playout.records:
        for seat, turns in GAME.turn_ahead(state).items():
            seen = _cards_seen(GAME.view(state, seat))
            others = {other: GAME.view(state, other) for other in range(PLAYERS) if other != seat}
            for turn in turns:
                preview = GAME.turn_ahead_state(state, seat, turn.id)
                while preview is not None:
                    previews += 1
                    decision = GAME.pending(preview)[seat]
                    assert GAME.turn_slot(GAME.view(preview, seat), seat, decision) == turn.id
                    assert _cards_seen(GAME.view(preview, seat)) <= seen, turn.id
                    legal = [
                        a for a in GAME.legal_actions(preview, seat) if not GAME.is_free(preview, seat, a)
                    ]
                    if not legal:
                        break
                    preview = preview_after(GAME, preview, seat, turn.id, chooser.choice(legal))
            # the real state is untouched, and so are the others' views of it
            assert all(GAME.view(state, other) == view for other, view in others.items())
        state = GAME.apply(state, record.seat, record.action, ReplayRng(list(record.draws))).state
    assert previews > 100


# ---- the turns that go past a Movement's moves, and the turns of a battle's reroll, a Princess and the Princeps --

#: a Movement's own choices after its moves and before any die (resolutions 11-13)
AFTER_MOVES = {"clergy_penalty", "destroy", "battle_order"}


@functools.cache
def _keen_steps(seed: int) -> list[tuple[Any, int, Decision, str]]:
    """A keen 4-player game (every turn offered answered ahead): each answer's state, seat, decision and source."""
    steps: list[tuple[Any, int, Decision, str]] = []
    paced_play(
        GAME,
        PLAYERS,
        seed,
        "strong",
        autopass=True,
        collect_ahead=True,
        collect_turns=True,
        watch=lambda state, seat, decision, _action, source: steps.append((state, seat, decision, source)),
    )
    return steps


def _offered(state: Any, kind: str) -> list[tuple[int, Decision]]:
    return [
        (seat, turn) for seat, turns in GAME.turn_ahead(state).items() for turn in turns if turn.kind == kind
    ]


def test_a_movement_answered_ahead_goes_on_into_the_movers_choices_before_any_die() -> None:
    given = 0
    for seed in SEEDS:
        for state, seat, decision, source in _keen_steps(seed):
            play = state["play"]
            if decision.kind not in AFTER_MOVES or play["battle"] is not None:
                continue
            code = principality_of(state, seat)
            assert play["action"]["who"] == code
            slot = action_slot(state["round"], play["slot"], code)
            assert GAME.turn_slot(GAME.view(state, seat), seat, decision) == slot
            given += source == "ahead"
    assert given, "no Clergy penalty, destruction or battle order was given ahead"


def test_the_extra_card_windows_come_with_masovias_reroll_on_the_dice_as_rolled() -> None:
    offered = 0
    for seed in SEEDS:
        for state, _seat, decision, _source in _keen_steps(seed):
            if decision.kind != "reroll":
                continue
            fight = state["play"]["battle"]
            sides = {side: fight["sides"][side] for side in ("A", "D")}
            expected = {
                state["players"][code]["seat"]: f"battle{fight['no']}-extra-{side}"
                for side, code in sides.items()
                if code != "MAS" and code in state["seats"] and active(state, code)
            }
            windows = {seat: turn.id for seat, turn in _offered(state, "extra_cards")}
            assert windows == expected
            for seat, slot in windows.items():
                preview = GAME.turn_ahead_state(state, seat, slot)
                if preview is None:
                    continue  # that side's window does not open (no unit left to play for, Night March)
                offered += 1
                assert GAME.pending(preview)[seat].kind == "extra_cards"
                assert preview["play"]["battle"]["dice"] == fight["dice"]  # the reroll declined: no new die
    assert offered


def test_a_princess_sent_home_ahead_draws_when_her_mission_comes_and_shows_no_card() -> None:
    given = 0
    for seed in SEEDS:
        for state, _seat, decision, source in _keen_steps(seed):
            if decision.kind == "princess_draw" and state["round"] % 2 == 1:
                given += source == "ahead"
            for later, turn in _offered(state, "princess_draw"):
                preview = GAME.turn_ahead_state(state, later, turn.id)
                if preview is None:
                    continue  # another player's decision comes first there (a hand over its limit)
                code = principality_of(state, later)
                assert preview["players"][code]["princess"] == capital(code)
                assert preview["decks"] == state["decks"]
                legal = GAME.legal_actions(preview, later)
                assert (
                    preview_after(GAME, preview, later, turn.id, legal[0]) is None
                )  # the card drawn is hidden
    assert given, "no Princess's draw at home was given ahead"


def test_the_direction_is_offered_to_the_princeps_with_nothing_random_between_and_only_to_the_holder() -> (
    None
):
    given = 0
    for seed in SEEDS:
        for state, seat, decision, source in _keen_steps(seed):
            holder = state["princeps"]["holder"]
            for offered_seat, turn in _offered(state, "direction"):
                assert principality_of(state, offered_seat) == holder
                event = state["play"].get("event")
                if event is not None:
                    assert all(icon in QUEUED_ICONS for icon in [event["icon"], *event["icons"]])
                preview = GAME.turn_ahead_state(state, offered_seat, turn.id)
                assert preview is not None and GAME.pending(preview)[offered_seat].kind == "direction"
            if decision.kind != "direction":
                continue
            given += source == "ahead"
            # should the token have changed hands, the new holder's direction is another turn: the answer given
            # ahead by the old holder is never given for it
            other = next(code for code in state["seats"] if code != holder)
            moved = Game.copy_state(state)
            moved["princeps"]["holder"] = other
            other_seat = state["players"][other]["seat"]
            slot = GAME.turn_slot(GAME.view(moved, other_seat), other_seat, decision)
            assert slot is not None and slot != GAME.turn_slot(GAME.view(state, seat), seat, decision)
    assert given, "no direction was given ahead"


# ---- a player's own actions offered as it seals its plan ------------------------------------------------------


def _sealings(seed: int) -> list[tuple[Any, Any, int]]:
    """Each seal of a plan while others still plan, in the keen game: (the plan phase's state before anyone sealed,
    the state after this seal as the bench plays it (earlier sealers' plans set), the sealing seat)."""
    steps, found, opened = _keen_steps(seed), [], None
    for (state, seat, decision, _source), (after, *_rest) in zip(steps, steps[1:], strict=False):
        if decision.kind != "plan":
            opened = None
            continue
        opened = opened or state
        if after["play"]["phase"] == "plan":
            found.append((opened, after, seat))
    return found


def test_own_actions_offered_at_sealing_show_none_of_the_others_plans() -> None:
    """The seat that has just sealed gets its plan's own actions in sight; each preview is the same whether built
    from the host's state (only its own plan applied, ``with_own_answer``) or the bench's (earlier sealers' plans
    set), and shows none of the others' plans, in the state or in the seat's view."""
    previews = 0
    for seed in SEEDS:
        for opened, after, seat in _sealings(seed):
            code = principality_of(after, seat)
            plan = after["players"][code]["plan"]
            host = with_own_answer(GAME, opened, seat, "plan " + " ".join(plan))
            assert host is not None
            own = [kind for kind in plan if kind in OWN_ACTIONS]
            turns = GAME.turn_ahead(host).get(seat, [])
            assert [turn.kind for turn in turns] == own
            assert [turn.id for turn in GAME.turn_ahead(after).get(seat, [])] == [turn.id for turn in turns]
            for turn in turns:
                preview = GAME.turn_ahead_state(after, seat, turn.id)
                from_host = GAME.turn_ahead_state(host, seat, turn.id)
                assert (preview is None) == (from_host is None), turn.id
                if preview is None or from_host is None:
                    continue
                previews += 1
                assert GAME.view(preview, seat) == GAME.view(from_host, seat)
                seen = json.dumps(GAME.view(preview, seat))
                for other, player in preview["players"].items():
                    if other != code:
                        assert player["plan"] is None and f"plan:{other}:" not in seen
    assert previews > 10
