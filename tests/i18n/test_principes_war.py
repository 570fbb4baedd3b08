"""Issue 23, PRINCIPES' war and movement messages (battles, Movement, Neighbours, Invaders, the active neutrals,
Princesses): the lines and prompts the rules write read by a catalog template in the pseudo-locale, every literal
marked (names of principalities, lands, factions, areas and cards are other entries' or stay), and in Polish."""

from __future__ import annotations

import re

import pytest

from i18n import PSEUDO, localize, unmarked_words
from rules.principes.data import catalog

LINES = [
    "Battle in Posnania: German Marches attacks Silesia.",
    "Battle in Posnania: Silesia loses 1 footman, 2 knight; German Marches loses nothing. German Marches wins.",
    "Battle in Becz: Mongols loses 1 knight, 1 footman, 1 prince; Masovia loses 2 footman. Masovia wins.",
    "Battle in Posnania: play 'before battle' cards (at most one per unit you have there), or pass.",
    "Battle in Posnania: play Battle cards for an extra sword or shield (at most one per unit), or pass.",
    "Dice in Gnesna: attacker sword+shield, defender coin.",
    "Initial count: 3 damage to Mongols, 0 to Silesia.",
    "With the Wind: your die shows shield. Reroll it once, or keep it?",
    "Learning Chess: your die shows sword. Flip it to its opposite face (shield), or keep it?",
    "Masovia rerolls with the wind: coin.",
    "Silesia loots 1 gold from German Marches.",
    "Withdraw Kingdom of Hungary's standing units from Cracovia to adjacent lands it controls or send them home, "
    "one unit at a time.",
    "The beaten Rus Fiefdoms Knight goes home.",
    "Mongols withdraws a Knight to Lublinum.",
    "After the battle: choose your 'after battle' cards (both sides choose at the same time), or pass.",
    "Movement: move your units one border at a time (undo allowed), ask for passage, then done.",
    "Polonia Minor moves a Footman from Cracovia to Teschinum.",
    "Polonia Minor takes back the move of a Prince to Teschinum.",
    "Polonia Minor asks Silesia, Masovia for passage through Opolia.",
    "Silesia's standing answer to Masovia: deny.",
    "Silesia asks to let the Prussians units it moves pass through Culmen, where your units stand: allow or deny?",
    "Silesia pays no Clergy penalty for Opolia, Nissa (Bishops' Safe-Conduct).",
    "The Church frowns on your army in Nissa: lose 1 Clergy or pay 1 gold.",
    "You took Radomia: destroy its City and/or building (costs 1 People and 1 Clergy) or keep them?",
    "Move up to 2 Knight(s) and 1 Footman/men of German Marches (move <unit> <from> <to>, ask <land> for "
    "passage, undo), then done.",
    "Silesia moves a German Marches Footman from German Marches to Lubusium.",
    "Silesia has German Marches destroy posnania, castle on Posnania.",
    "Silesia activates Kingdom of Bohemia (2 Knight(s), 2 Footman/men): block them with a card of that Neighbour "
    "or a joker, or pass.",
    "1 Mongol riders gather in the Rus Fiefdoms; each player in turn may move the horde.",
    "The 2 surviving Mongol rider(s) ride back to the Kurultai.",
    "Masovia calls the Teutonic Knights to Culmen: 2 Knights, a Civitas and a Castle; the land is theirs now.",
    "The Mongols devastate Lublinum: Lublinum, the Castle destroyed.",
    "No player controls Culmen: nobody calls the Teutonic Knights.",
    "Move the Lithuanians (2 Knight(s), 0 Footman/men): move <unit> <from> <to>, ask <land> for passage, undo, "
    "then done. They may not end on lands you control.",
    "Silesia has Masovia assemble 2 knight, 1 footman in Plocium (Combined Actions).",
    "Combined Actions: perform a neutral principality's Movement (or done).",
    "Send your Princess on a mission: a Neighbour (marriage: immunity from it this Period), your Capital (draw "
    "cards) or a rival's Capital (they discard).",
    "Silesia's Princess marries into Kingdom of Bohemia: its units cannot end a move on Silesia's lands this Period.",
    "Silesia's Princess goes to Cracovia: she plots at the court of Polonia Minor.",
]


def _names() -> set[str]:
    """Words of the names other entries translate or that stay: lands, gords, factions, areas."""
    data = catalog()
    names = [str(land["name"]) for land in data.lands.values()]
    names += [str(gord["name"]) for land in data.lands.values() for gord in land["gords"]]
    names += [str(faction["name"]) for faction in data.factions.values()]
    names += [str(area["name"]) for area in data.offmap.values()]
    return {word for text in names for word in re.findall(r"[A-Za-z]+", text)}


@pytest.mark.parametrize("line", LINES)
def test_war_and_movement_lines_are_marked(line: str) -> None:
    assert not unmarked_words(localize(line, PSEUDO), _names() | {"Masovia", "Silesia", "Polonia", "Minor"})


def test_war_and_movement_lines_read_in_polish() -> None:
    polish = [localize(line, "pl") for line in LINES]
    assert all(text != line for text, line in zip(polish, LINES, strict=True))
    assert polish[1] == (
        "Bitwa na ziemi Posnania: straty — Silesia: Piechurzy ×1, Rycerze ×2; Marchie Niemieckie: brak. "
        "Wygrywa: Marchie Niemieckie."
    )
    assert polish[5] == "Kości na ziemi Gnesna: atakujący miecz+tarcza, obrońca moneta."
    assert localize(LINES[28], "pl").startswith("1 jeździec mongolski zbiera się")
