"""A player's own turn answered ahead, at the rules' level (issue 47; ``rules.principes.play.turn_ahead``): whole
self-played games where every seat answers every turn offered ahead (``paced_play(collect_turns=True)``), and
the previews they answer from.

- Replay equality: the game with turns answered ahead replays from its seed and records, and is the game in
  which each player clicked the same answers when asked (every answer given in turn was legal then).
- The previews show nobody anything hidden: no card id appears in a seat's view of a preview (or of any step of
  it the AI goes through) that its view of the real state does not show, and nobody else's view changes.
- The turns offered belong to their seats: a preview poses the seat's own decision of that very turn.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from rules.engine import ReplayRng, get_game
from rules.engine.pace import paced_play
from rules.engine.playout import replay, start, step
from rules.engine.turn_ahead import preview_after

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
