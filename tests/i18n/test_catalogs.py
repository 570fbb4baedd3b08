"""Issue 23: the catalogs are complete in Polish, each domain (the host's, each game's: issue 44), and Babylone
(with the host's messages on its path) leaves no English word unmarked in the pseudo-locale: messages, prompts,
buttons, errors, /rules notes and image labels."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

import i18n
import render.babylone
from bot.host import Host
from bot.models import Actor, HostError
from i18n import HOST, LANGUAGES, PSEUDO, Domain, domains, localize, translate, unmarked_words
from render import alt_text, render_view
from rules.engine.registry import GAMES, get_game, register, unregister

PLACEHOLDER = re.compile(r"\{\w+\}")
#: words that are not English text to translate: players' names, the game's title, option names and values
#: (canonical notation, typed as such in every language) and the bot's name
ALLOWED = {"alice", "bob", "Babylone", "first", "random", "match", "best", "of", "single", "perfect", "easy"}


def _entries(path: Path) -> dict[tuple[str | None, Any], Any]:
    with path.open("rb") as file:
        return {(m.context, m.id): m for m in read_po(file) if m.id}


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
@pytest.mark.parametrize("domain", domains(), ids=lambda domain: domain.name)
def test_every_message_id_has_a_translation(domain: Domain, language: str) -> None:
    template, catalog = _entries(domain.template), _entries(domain.catalog(language))
    assert set(catalog) <= set(template), f"{domain.name}: {language} entries not in its template"
    missing = []
    for key in template:
        message = catalog.get(key)
        strings = (
            (message.string if isinstance(message.string, tuple) else (message.string,)) if message else ()
        )
        if not message or message.fuzzy or not all(strings):
            missing.append(key)
            continue
        ids = key[1] if isinstance(key[1], tuple) else (key[1],)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        assert all(set(PLACEHOLDER.findall(s)) == wanted for s in strings), key
    assert not missing, (
        f"{domain.name}: {len(missing)} message ids without a {language} translation: {missing[:5]}"
    )


def test_every_game_has_its_own_domain_and_no_message_id_is_in_two() -> None:
    """Each built-in game's texts are a domain beside its rules (``rules/<package>/locales``), read with the
    host's; an entry is in one domain only (the host's holds those the host or several games write)."""
    found = domains()
    assert found[0] == HOST
    assert set(GAMES) <= {domain.name for domain in found}
    for domain in found[1:]:
        assert domain.directory.parent.name == GAMES.get(domain.name, domain.directory.parent.name)
    owner: dict[tuple[str | None, Any], str] = {}
    for domain in found:
        entries = _entries(domain.template)
        assert entries, f"{domain.name}: an empty template"
        for key in entries:
            assert key not in owner, f"{key} is in both {owner[key]} and {domain.name}"
            owner[key] = domain.name


def test_plural_forms_come_from_the_catalog() -> None:
    forms = [
        localize(f"{n} choices: type /move (it autocompletes) or pick below.", "pl") for n in (2, 5, 22, 112)
    ]
    assert [f.split(":")[0] for f in forms] == ["2 wybory", "5 wyborów", "22 wybory", "112 wyborów"]


def test_missing_entries_fall_back_to_english_and_notation_stays_canonical() -> None:
    assert localize("Something no catalog knows.", "pl") == "Something no catalog knows."
    assert localize("Done: `5>9`.", "pl") == "Zrobione: `5>9`."
    assert translate("pl", "No such entry {x}", x=1) == "No such entry 1"


async def _played_texts(tmp_path: Path, options: dict[str, str], seed: int) -> list[str]:
    """Everything a self-played Babylone game shows people: lobby, every delivery with its prompt and button
    labels, errors of illegal or unreadable moves, and /rules."""
    host = await Host.open(tmp_path / f"db-{seed}.sqlite", clock=lambda: 1_900_000_000.0)
    alice, bob = Actor("1", "alice"), Actor("2", "bob")
    shown: list[str] = []
    try:
        info = await host.create_game("g", f"c{seed}", alice, "babylone", options, seed=seed)
        shown.append((await host.join(f"c{seed}", bob)).lobby_text())
        deliveries = await host.start(f"c{seed}", alice)
        shown.append((await host.game_info(info.game_id)).lobby_text())
        for _turn in range(200):
            prompts = []
            for delivery in deliveries:
                shown.append(delivery.text)
                if delivery.prompt:
                    shown.append(delivery.prompt.text)
                    shown += [choice.label for choice in delivery.prompt.choices]
                    prompts.append(delivery.prompt)
            if not prompts:
                break
            prompt = prompts[-1]
            seat = (await host.game_info(info.game_id)).seats[prompt.seat]
            actor = alice if seat.user_id == "1" else bob
            other = bob if actor is alice else alice
            for wrong, who in (("5 9 9", actor), ("13>2", actor), (prompt.choices[0].action, other)):
                with pytest.raises(HostError) as refused:
                    await host.act(info.game_id, who, wrong, prompt.decision_id)
                shown.append(str(refused.value))
            deliveries = await host.act(info.game_id, actor, prompt.choices[-1].action, prompt.decision_id)
        shown.append(host.rules_text("babylone", None))
    finally:
        await host.close()
    return shown


@pytest.mark.parametrize(("options", "seed"), [({}, 3), ({"match": "best-of-3"}, 5)])
async def test_a_self_played_babylone_game_is_fully_marked_in_the_pseudo_locale(
    tmp_path: Path, options: dict[str, str], seed: int
) -> None:
    texts = await _played_texts(tmp_path, options, seed)
    assert len(texts) > 50
    unmarked = {text: words for text in texts if (words := unmarked_words(localize(text, PSEUDO), ALLOWED))}
    assert not unmarked, f"English left unmarked: {list(unmarked.items())[:5]}"
    polish = "\n".join(localize(text, "pl") for text in texts)
    assert "przesuwa stos" in polish and "Teraz decyduje" in polish


@pytest.mark.parametrize(
    "view",
    [
        {"round_over": False, "match": "single", "chooser": None, "wins": [0, 0], "round": 1},
        {"round_over": True, "match": "single", "chooser": None, "wins": [1, 0], "round": 1},
        {"round_over": False, "match": "best-of-3", "chooser": 1, "wins": [1, 0], "round": 1},
        {"round_over": True, "match": "best-of-3", "chooser": None, "wins": [2, 1], "round": 3},
    ],
)
def test_the_board_image_words_and_alt_text_are_marked(monkeypatch: pytest.MonkeyPatch, view: dict) -> None:
    drawn: list[str] = []
    original = render.babylone.centred_text

    def recording(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(text)
        original(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(render.babylone, "centred_text", recording)
    full = {
        **view,
        "players": 2,
        "stacks": [["red", "blue"], [], *[["green"]] * 10],
        "to_move": 0,
        "last_mover": 1,
        "last_move": [2, 1],
        "seat_names": ["alice", "bob"],
        "locale": PSEUDO,
    }
    render_view("babylone", full)
    texts = [*drawn, alt_text("babylone", full)]
    assert drawn and all(not unmarked_words(text, ALLOWED) for text in texts), texts
    polish = alt_text("babylone", {**full, "locale": "pl"})
    assert "Stosy, od dołu do góry" in polish and "czerwony" in polish


def test_a_registered_game_brings_its_placeholder_kinds() -> None:
    """``i18n`` takes each registered game's placeholder kinds from the registry (``Game.number_params``,
    ``Game.text_params``); none of them is both a number and a text."""

    class Pebbles(type(get_game("babylone"))):  # type: ignore[misc]
        key = "pebbles-i18n"
        number_params = frozenset({"pebbles"})
        text_params = frozenset({"heap"})

    assert "pebbles" not in i18n.number_params()
    register(Pebbles())
    try:
        i18n.reload()
        assert "pebbles" in i18n.number_params() and "heap" in i18n.text_params()
        assert "people" in i18n.number_params() and "faction" in i18n.text_params()  # PRINCIPES' own
        assert not i18n.number_params() & i18n.text_params()
        assert "pebbles-i18n" not in {domain.name for domain in i18n.domains()}  # it has no catalog
    finally:
        unregister("pebbles-i18n")
        i18n.reload()
    assert "pebbles" not in i18n.number_params()
