"""What players read (issue 17): card and tile ids beside their titles, titles accepted in /move, articles."""

from __future__ import annotations

from rules.principes.play import describe

from .scenario import act, new_state, open_action, seat


def test_labels_show_the_id_beside_each_card_and_tile_title() -> None:
    state = new_state(2)
    assert describe(state, "extra b04a sword") == "Play Hired Knights (b04a) for an extra sword"
    assert describe(state, "sell c04a") == "Discard for 1 gold: Papal Legate (Jacob of Liège, 1248; c04a)"
    assert describe(state, "neighbour n01 ger") == "Play German Marches (full; n01) to move German Marches"
    tile = state["market"]["green"]["face_up"][0]
    assert describe(state, f"take {tile.lower()}").endswith(f"({tile.lower()})")
    assert describe(state, "H04") == "Spring Thaw"  # a bare History card (the round status) stays a title


def test_an_abbey_takes_an() -> None:
    state = open_action(new_state(2), "PMA", "building")
    assert describe(state, "build abbey posnania") == "Build an Abbey on Posnania (1 gold)"
    assert describe(state, "build castle posnania") == "Build a Castle on Posnania (1 gold)"
    texts = [event.text for event in act(state, "PMA", "build abbey posnania").events]
    assert "Polonia Maior builds an Abbey on Posnania for 1 gold." in texts


def test_move_accepts_titles_and_names_in_any_case_without_accents() -> None:
    from rules.principes import GAME

    state = new_state(2)
    state["players"]["PMA"]["hand"] = ["B04a", "C04b", "N01"]
    state = open_action(state, "PMA", "movement")
    pma = seat(state, "PMA")
    assert GAME.parse(state, pma, "Move Knight Posnania Sremium") == "move knight posnania srem"
    assert GAME.parse(state, pma, "sell hired knights") == "sell b04a"
    assert GAME.parse(state, pma, "sell Papal Legate (Jacob of Liege, 1248)") == "sell c04b"  # the copy held
    assert GAME.parse(state, pma, "support PAPAL LEGATE people") == "support c04b people"
    assert GAME.parse(state, pma, "sell German Marches (full)") == "sell n01"


def test_a_title_not_in_hand_still_reaches_apply_as_an_id() -> None:
    """The refusal can then name the card: 'Scouts (b07a) is not in your hand.'"""
    from rules.principes import GAME

    state = open_action(new_state(2), "PMA", "movement")
    assert GAME.parse(state, seat(state, "PMA"), "sell Scouts") == "sell b07a"


def test_a_name_of_two_different_answers_asks_which() -> None:
    import pytest

    from rules.engine import InvalidAction
    from rules.principes import GAME

    state = new_state(2)
    state["players"]["PMA"]["hand"] = ["N01", "N02"]
    state = open_action(state, "PMA", "politics")
    with pytest.raises(InvalidAction, match="could mean 'neighbour n01 ger', 'neighbour n02 ger'"):
        GAME.parse(state, seat(state, "PMA"), "neighbour german marches german marches")


def test_the_private_view_lists_the_hand_with_ids() -> None:
    from rules.principes import GAME

    state = new_state(2)
    state["players"]["PMA"]["hand"] = ["B04a", "C04b", "N01"]
    view = GAME.view(state, seat(state, "PMA"))
    assert view["you"]["hand_labels"] == [
        "Battle: Hired Knights (b04a) [sword]",
        "Court: Papal Legate (Jacob of Liège, 1248; c04b) [clergy]",
        "Neighbour: German Marches (full; n01) [people]",
    ]
    assert "hand_labels" not in GAME.view(state, None).get("you", {})


def test_the_new_answers_read_as_sentences() -> None:
    state = new_state(2)
    assert describe(state, "withdraw knight home") == "Send the Knight home"
    assert describe(state, "withdraw knight dobrinia") == "Withdraw a Knight to Dobrinia"
    assert describe(state, "respawn plocium") == "Return the neutral Prince to Plocium"
    assert describe(state, "battle crosna") == "Fight in Crosna"
    assert describe(state, "ask crosna") == "Ask passage through Crosna"
