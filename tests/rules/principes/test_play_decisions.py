"""The decisions table (issue 21): one entry per decision kind, and ``parse`` that tells unreadable text
(``InvalidAction``) from readable text the rules forbid (``IllegalAction`` from ``apply``, with the reason the
refusals give)."""

from __future__ import annotations

import random

import pytest

from rules.engine import IllegalAction, InvalidAction, playout
from rules.principes import GAME
from rules.principes.play import decisions, legal_actions, parse, pending
from rules.principes.play.decisions import FREE, KINDS, VERBS
from rules.principes.play.labels import LABELS
from rules.principes.play.notation import problem

from .scenario import act, new_state, open_action, seat

#: seeded games that between them ask most kinds (both variants, every player count)
GAMES = [(2, 3, {}), (3, 4, {"neutrals": "active"}), (4, 5, {"gold_supply": "limited"}), (4, 13, {})]


def _walk(players: int, seed: int, options: dict[str, str]) -> list[tuple[dict, int, str]]:
    """(state, seat, action) for every action a seeded random game plays (each seat picks any legal action)."""
    seen: list[tuple[dict, int, str]] = []
    played = playout.start(GAME, players, options, seed)
    rng = random.Random(seed)
    while GAME.pending(played.state):
        who = min(GAME.pending(played.state))
        action = rng.choice(GAME.legal_actions(played.state, who))
        seen.append((played.state, who, action))
        playout.step(GAME, played, who, action)
    return seen


@pytest.fixture(scope="module")
def walked() -> list[tuple[dict, int, str]]:
    return [step for players, seed, options in GAMES for step in _walk(players, seed, options)]


def test_every_legal_action_reads_as_its_verb_and_answers_with_its_kinds_verbs(walked: list) -> None:
    kinds_seen = set()
    for state, _, _ in walked[::3]:
        for who, decision in pending(state).items():
            kinds_seen.add(decision.kind)
            kind = KINDS[decision.kind]
            answers = decisions.answers(state, state["seats"][who], decision.kind)
            words_of_kind = {verb.word for verb in kind.verbs}
            for action in legal_actions(state, who):
                words = action.split()
                assert words[0] in VERBS, action
                assert problem(words, VERBS[words[0]], []) is None, (
                    action,
                    problem(words, VERBS[words[0]], []),
                )
                if action in answers:
                    assert words[0] in words_of_kind, (decision.kind, action)
                else:
                    assert words[0] in {verb.word for verb in FREE}, (decision.kind, action)
    assert len(kinds_seen) >= 25, sorted(kinds_seen)


def test_every_played_action_parses_to_itself(walked: list) -> None:
    for state, who, action in walked[::7]:
        assert parse(state, who, action) == action
        assert parse(state, who, f"  {action.upper()} ") == action


def test_a_prompt_has_the_timing_and_secrecy_of_its_kind(walked: list) -> None:
    for state, _, _ in walked:
        for decision in pending(state).values():
            kind = KINDS[decision.kind]
            assert (decision.timing, decision.sealed) == (kind.timing, kind.sealed), decision.kind


def test_the_table_is_the_one_place_of_a_kind() -> None:
    """Every kind has its refusal name, answers, application, default and verbs; every label is of a verb."""
    for name, kind in KINDS.items():
        assert kind.name == name and kind.deciding and kind.verbs
        assert kind.timing in ("turn", "window")
        assert not kind.auto_pass or kind.timing == "window"
    assert set(LABELS) <= set(VERBS)
    words = {"plan", "direction", "move", "done", "pass", "give", "sell", "support", "standing", "play"}
    assert words <= set(VERBS)


# ---- unreadable text: InvalidAction from parse ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("move knight nowhere atlantis", "'nowhere' is not a land or area of PRINCIPES."),
        ("move knight posnania atlantis", "'atlantis' is not a land of PRINCIPES."),
        ("move dragon posnania gnesna", "'dragon' is not a unit of PRINCIPES."),
        ("move knight posnania gnesna srem", "'move knight posnania gnesna srem' has too many words"),
        ("move", "'move' is incomplete: for example 'move "),
        ("move knight posnania", "'move knight posnania' is incomplete: for example 'move knight posnania "),
        ("ask", "'ask' is incomplete"),
        ("done now", "'done now' has too many words: write 'done'."),
        ("sell", "'sell' is incomplete: for example 'sell "),
        ("sell b04a b05a", "'sell b04a b05a' has too many words: write 'sell <card>'."),
        ("sell xyz", "'xyz' is not a card of PRINCIPES."),
        ("give pmi lots", "'lots' is not a number."),
        ("give atlantis 2", "'atlantis' is not a player (pma, mas, pmi or sil)."),
        ("standing pmi maybe", "'maybe' is not a standing answer."),
        (
            "plan taxes movement",
            "'plan taxes movement' is incomplete: write 'plan <action> <action> <action>'.",
        ),
        ("plan taxes movement sleep", "'sleep' is not an action (progress, taxes, movement"),
        ("direction up", "'up' is not a direction (cw or ccw)."),
        ("extra b04a axe", "'axe' is not a corner symbol (sword or shield) of PRINCIPES."),
        ("destroy gnesna", "'destroy gnesna' is incomplete"),
        (
            "combined fly ger",
            "'combined fly ger' does not read as an action: write 'combined assemble <faction>'",
        ),
        ("allow sometimes", "'allow sometimes' does not read as an action: write 'allow' or 'allow always'."),
        ("frobnicate", "'frobnicate' is not a PRINCIPES action word"),
    ],
)
def test_unreadable_text_is_refused_by_parse(text: str, sentence: str) -> None:
    state = open_action(new_state(2), "PMA", "movement")
    with pytest.raises(InvalidAction) as caught:
        parse(state, seat(state, "PMA"), text)
    assert str(caught.value).startswith(sentence), str(caught.value)


def test_unreadable_text_that_reaches_apply_is_refused_with_the_same_sentence() -> None:
    """``apply`` stays the judge of any text (a host may skip ``parse``): the same sentence, as IllegalAction."""
    state = open_action(new_state(2), "PMA", "movement")
    with pytest.raises(IllegalAction, match="'nowhere' is not a land or area of PRINCIPES."):
        act(state, "PMA", "move knight nowhere atlantis")


# ---- readable but forbidden: parse lets it through, apply refuses it with the reason ---------------------------


def _forbidden(state: dict, code: str, text: str) -> str:
    action = parse(state, seat(state, code), text)
    assert action == text
    with pytest.raises(IllegalAction) as caught:
        act(state, code, action)
    return str(caught.value)


def test_a_move_across_no_border_reads_but_is_refused() -> None:
    state = open_action(new_state(2), "PMA", "movement")
    reason = _forbidden(state, "PMA", "move knight posnania cracovia")
    assert reason == "Posnania does not border Cracovia: units cross one border at a time."


def test_a_knight_without_gold_reads_but_is_refused() -> None:
    state = new_state(2)
    state["players"]["PMA"]["gold"] = 0
    state = open_action(state, "PMA", "assembly")
    assert _forbidden(state, "PMA", "assemble knight posnania") == "A Knight costs 1 gold; you have 0."


def test_building_on_a_rivals_land_reads_but_is_refused() -> None:
    state = open_action(new_state(2), "PMA", "building")
    assert _forbidden(state, "PMA", "build castle cracovia") == "You do not control Cracovia."


def test_a_card_not_in_hand_reads_but_is_refused() -> None:
    state = new_state(2)
    state["players"]["PMA"]["hand"] = []
    assert _forbidden(state, "PMA", "sell b04a") == "Hired Knights (b04a) is not in your hand."


def test_a_gift_to_oneself_reads_but_is_refused() -> None:
    state = new_state(2)
    reason = _forbidden(state, "PMA", "give pma 1")
    assert reason == "Name another player still in the game (pma, mas, pmi or sil)."


def test_an_answer_to_another_decision_reads_but_is_refused() -> None:
    state = open_action(new_state(2), "PMA", "movement")
    reason = _forbidden(state, "PMA", "collect")
    assert reason.startswith("'collect' does not answer this decision: you are deciding your Movement.")


def test_an_incomplete_answer_at_apply_still_shows_a_complete_one() -> None:
    state = open_action(new_state(2), "PMA", "movement")
    with pytest.raises(IllegalAction, match="'move knight posnania' is incomplete: for example 'move knight"):
        act(state, "PMA", "move knight posnania")
