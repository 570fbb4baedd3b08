"""What players read (issue 17): card and tile ids beside their titles, titles accepted in /move, articles."""

from __future__ import annotations

from rules.principes.play import describe

from .scenario import act, new_state, open_action


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
