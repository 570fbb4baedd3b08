"""Alt text: every board image has a description built from the same view, within Discord's 1,024 characters,
naming the players, most important first and cut cleanly. (That it never tells another seat's secret is
tested in tests/security/test_alt_text_and_digest_leaks.py.)"""

from __future__ import annotations

import re

import pytest

import render
from render.alt import ALT_TEXT_LIMIT, compose
from rules.engine import available_games, get_game
from tests.host.selfplayed import NAMES, recorded

#: (game, players, seed, actions): a long game of each available game (``Game.exercise.actions``), at the fewest
#: and the most players it takes
PLAYOUTS = [
    (key, players, seed, get_game(key).exercise.actions)
    for seed, (key, players) in enumerate(
        [
            (key, count)
            for key in available_games()
            for count in sorted({min(get_game(key).sample_players()), max(get_game(key).sample_players())})
        ],
        start=1,
    )
]
SEAT_NUMBER = re.compile(r"\b[Ss]eat \d")


def test_every_game_has_alt_text() -> None:
    assert set(available_games()) <= set(render.rendered_games())
    for key in available_games():
        module = render.renderer_module(key)
        assert callable(getattr(module, "alt_text", None)), f"{key} has no alt_text beside its renderer"


@pytest.mark.parametrize(("key", "players", "seed", "actions"), PLAYOUTS)
def test_alt_text_of_every_view_fits_and_names_the_players(
    key: str, players: int, seed: int, actions: int
) -> None:
    played = recorded(key, players, seed, actions)
    checked = 0
    for index in range(len(played.states)):
        for seat in [None, *range(players)]:
            text = render.alt_text(key, played.view(index, seat))
            assert 0 < len(text) <= ALT_TEXT_LIMIT, (key, index, seat, len(text))
            missing = [name for name in NAMES[:players] if name not in text]
            assert not missing, f"{key} after {index} actions, seat {seat}: {missing} not named in {text!r}"
            assert not SEAT_NUMBER.search(text), text
            assert text == " ".join(text.split()), "no stray line breaks or double spaces"
            checked += 1
    assert checked > players * 10


def test_compose_keeps_whole_sentences_in_order_and_cuts_cleanly() -> None:
    sentences = ["First: a.", "Second sentence, with a clause; and another.", "Third."]
    assert compose(sentences) == "First: a. Second sentence, with a clause; and another. Third."
    assert compose(["", "Only.", ""]) == "Only."
    long = "Lands: " + "; ".join(f"land number {n} with things" for n in range(200)) + "."
    text = compose(["Round 3, alice to move.", long, "Details."], limit=300)
    assert len(text) <= 300
    assert text.startswith("Round 3, alice to move. Lands: land number 0 with things;")
    assert text.endswith("with things…"), "cut after a whole clause, marked"
    assert "Details" not in text, "nothing after the cut: a reader knows where it stops"
    # a sentence that cannot keep a useful head is left out whole, and the text still says it stops there
    assert (
        compose(["A" * 280 + ".", "Second sentence that is far too long to fit in."], limit=300)
        == "A" * 280 + ".…"
    )


def test_alt_text_says_what_moves_and_where() -> None:
    """Spot checks against the view: the player to move, the pieces where the view puts them."""
    played = recorded("pharaoh", 3, 11, 40)
    view = played.view(len(played.records), None)
    text = render.alt_text("pharaoh", view)
    assert f"{NAMES[view['to_move']]} ({view['colours'][view['to_move']]}) to move" in text
    for seat, pieces in enumerate(view["pieces"]):
        for size, cell in zip(("small", "medium", "large"), pieces, strict=True):
            assert f"{size} {'on ' + cell if cell else 'in reserve'}" in text.split(f"{NAMES[seat]} (")[-1]
    played = recorded("babylone", 2, 12, 5)
    view = played.view(5, None)
    text = render.alt_text("babylone", view)
    for slot, stack in enumerate(view["stacks"], 1):
        if stack:
            assert f"{slot}: {', '.join(stack)} ({len(stack)} high)" in text


def test_principes_seat_view_reads_its_own_hand_and_plan_early() -> None:
    played = recorded("principes", 4, 13, 60)
    for index in (0, 30, 60):
        for seat in range(4):
            view = played.view(index, seat)
            text = render.alt_text("principes", view)
            hand = view["you"]["hand_labels"]
            assert ("Your hand: " + "; ".join(hand)) in text if hand else "Your hand: empty." in text
            assert "Your plan: " in text
            # the public image has no hand: its text has none either
            assert "Your hand" not in render.alt_text("principes", played.view(index, None))


def test_the_prince_public_view_in_the_fog_names_no_tile() -> None:
    played = recorded("the-prince", 2, 14, 12)
    for index in range(len(played.states)):
        view = played.view(index, None)
        if view["phase"] in ("landing", "explore"):
            text = render.alt_text("the-prince", view)
            assert not re.search(r"\b[a-j](10|[1-9])\b", text), text
            assert "fog" in text
