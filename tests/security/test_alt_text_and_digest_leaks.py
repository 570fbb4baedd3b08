"""The leak scan over alt texts and catch-up digests: across self-played games of every game with hidden
information, the description of an image, and a player's digest, tell nothing of another seat's secrets.

A secret is what ``Game.secrets(state, seat)`` lists (card ids in a hand, a sealed plan or choice, an unseen
tile, a hidden Prince or castle), looked for without regard to case. Texts also say things in words, so the
scan looks for the hidden content as the texts would word it too:

- PRINCIPES: the ids and the titles of the cards in another seat's hand (a title is allowed when this audience
  sees a card of that title: its own hand, a battle's cards), and another seat's sealed plan;
- The Prince: another seat's castle, Prince or failed build the audience does not see ("castle 2 on c4",
  "Brannoc's Prince stands on", "hides in castle").

A digest is scanned part by part against the secrets of the moment each part shows: its first board against
the state when the seat last acted, each step's board and log lines against the state after it, the last
board, the seat's own changes and the whole message against the state now; in The Prince, another seat's
sealed choice, as typed or described, appears nowhere before the game is over. A check that each audience's own secrets do reach
its own texts proves the scan reads where secrets would be.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache

import pytest

import render
from bot.digest import Digest, build_digest, digest_text
from rules.engine import Game, State, get_game
from rules.principes.data import catalog, instances
from tests.host.selfplayed import NAMES, Recorded, recorded
from tests.security.test_leak_scan import hidden_games, secrets_by_seat

#: (players, seed, actions) per scanned game; the seat counts cycle through what the game allows
SETUPS = ((2, 41, 500), (3, 42, 500), (4, 43, 500))


def setups(game: Game) -> list[tuple[int, int, int]]:
    span = game.max_players - game.min_players + 1
    return [
        (game.min_players + number % span, seed, actions) for number, (_, seed, actions) in enumerate(SETUPS)
    ]


# ---- what a text must not say, for one audience at one moment -------------------------------------------------
def forbidden(game: Game, state: State, audience: int | None, view: dict, titles: bool = True) -> list[str]:
    """Every other seat's secrets at ``state``, as listed and as the texts would word them. ``titles=False``
    leaves out the titles of cards in other hands: for log lines, which name the cards played, and a player
    may play one copy of a card while holding the other."""
    players = len(view.get("seat_names") or [])
    found = [
        secret
        for seat, listed in secrets_by_seat(game, state, players).items()
        if seat != audience
        for secret in listed
    ]
    if game.key == "principes":
        found += _principes_words(state, audience, view, titles)
    if game.key == "the-prince":
        found += _the_prince_words(game, state, audience)
    return found


#: a card's instance id as views write it (C13b, b06a, N05)
CARD_ID = re.compile(r"\b[BCNbcn]\d{2}[ab]?\b")


@cache
def hand_cards() -> dict[str, str]:
    """Every Court, Battle and Neighbour card (what a hand holds): lower-case id -> title."""
    return {
        card.lower(): str(record["title"])
        for record in catalog().kinds.values()
        if record.get("deck") in ("court", "battle", "neighbour")
        for card in instances(record)
    }


def _principes_words(state: State, audience: int | None, view: dict, titles: bool) -> list[str]:
    data = catalog()
    cards = hand_cards()
    shown = {token.lower() for token in CARD_ID.findall(json.dumps(view))}
    visible_titles = {cards[card] for card in shown if card in cards}
    words = []
    for seat, code in enumerate(state["seats"]):
        if seat == audience:
            continue
        player = state["players"][code]
        for card in player["hand"]:
            words.append(card.lower())
            if titles and data.kind_of(card)["title"] not in visible_titles:
                words.append(data.kind_of(card)["title"])
        own_plan = (view.get("you") or {}).get("plan")
        if player["plan"] and player["plan"] != own_plan and not player_plan_public(state, code):
            words.append(", ".join(action.capitalize() for action in player["plan"]))
    return words


def player_plan_public(state: State, code: str) -> bool:
    """A plan is public once every one of its actions has been revealed."""
    revealed = ((state.get("play") or {}).get("revealed") or {}).get(code) or []
    plan = state["players"][code]["plan"] or []
    return len(revealed) >= len(plan)


def _the_prince_words(game: Game, state: State, audience: int | None) -> list[str]:
    words = []
    for seat in (0, 1):
        if seat == audience:
            continue
        name = NAMES[seat]
        for secret in game.secrets(state, seat):
            kind, _, rest = secret.partition(":")
            if kind == "castle":  # castle:0#2@c4
                number, tile = rest.split("#")[1].split("@")
                words.append(f"castle {number} on {tile}")
            elif kind == "prince":
                words.append(f"{name}'s Prince stands on")
            elif kind == "prince-in":
                words.append(f"{name}'s Prince hides in")
            elif kind in ("taken", "clash"):
                tile = rest.split("@")[1]
                words.append(f"has a castle on {tile}, found by a failed build")
    return words


def leaks(text: str, words: Iterable[str]) -> list[str]:
    lowered = text.lower()
    return [word for word in words if word and word.lower() in lowered]


def whole_word_leaks(text: str, words: Iterable[str]) -> list[str]:
    """Like ``leaks``, for short words that may sit inside others (a move ``ne`` in "none")."""
    return [
        word for word in words if word and re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE)
    ]


# ---- alt texts ------------------------------------------------------------------------------------------------
@pytest.mark.whole_game
@pytest.mark.parametrize("key", hidden_games())
def test_alt_texts_tell_no_other_seats_secret(key: str) -> None:
    own_seen = 0
    for players, seed, actions in setups(get_game(key)):
        played = recorded(key, players, seed, actions)
        for index, state in enumerate(played.states):
            for audience in [None, *range(players)]:
                view = played.view(index, audience)
                text = render.alt_text(key, view)
                found = leaks(text, forbidden(played.game, state, audience, view))
                assert not found, f"{key} after {index} actions, {audience=}: {found} in {text!r}"
                if audience is not None:
                    own_seen += len(leaks(text, _own_words(played.game, state, audience, view)))
    assert own_seen > 0, (
        f"{key}: no alt text ever showed its own seat's hidden things: the scan proves nothing"
    )


def _own_words(game: Game, state: State, seat: int, view: dict) -> list[str]:
    """The seat's own hidden things as its texts word them (what the scan looks for on the others' side)."""
    if game.key == "principes":
        return [card.lower() for card in state["players"][state["seats"][seat]]["hand"]]
    return [word for word in _the_prince_words(game, state, 1 - seat) if "castle" in word or "Prince" in word]


# ---- digests --------------------------------------------------------------------------------------------------
Words = dict[tuple[int, int, bool], list[str]]


def scan_digest(played: Recorded, digest: Digest, known: Words) -> list[str]:
    """Every leak in one digest, as readable lines; ``known`` keeps the forbidden words of each (seat, moment)
    between the digests of one game."""
    game, seat = played.game, digest.seat
    problems: list[str] = []

    def check(part: str, text: str, index: int, titles: bool = True) -> None:
        key = (seat, index, titles)
        if key not in known:
            known[key] = forbidden(game, played.states[index], seat, played.view(index, seat), titles)
        problems.extend(f"{part}: {word!r}" for word in leaks(text, known[key]))

    check("first board", json.dumps(digest.before, ensure_ascii=False), digest.since)
    check("first board's alt text", render.alt_text(game.key, digest.before), digest.since)
    now = len(played.records)
    for group in digest.groups:
        assert group.view is not None
        check("a step's board", json.dumps(group.view, ensure_ascii=False), group.steps[-1].index + 1)
        for step in group.steps:
            check(f"event {step.index}'s lines", "\n".join(step.lines), step.index + 1, titles=False)
    check("last board", json.dumps(digest.after, ensure_ascii=False), now)
    check("last board's alt text", render.alt_text(game.key, digest.after), now)
    check("own changes", "\n".join(digest.changes), now)
    message = digest_text(digest, limit=100_000)
    check("message", message, now, titles=False)
    if game.key == "the-prince" and not game.outcome(played.states[now]).finished:
        problems += [
            f"message: sealed choice {word!r}"
            for word in whole_word_leaks(message, _sealed_choices(played, digest))
        ]
    return problems


def _sealed_choices(played: Recorded, digest: Digest) -> list[str]:
    """Other seats' sealed actions in the digest's range, as typed and as described (The Prince publishes
    them only when the game ends; PRINCIPES reveals a plan action by action, scanned as the plan's words)."""
    game, words = played.game, []
    for group in digest.groups:
        for step in group.steps:
            record, before = played.records[step.index], played.states[step.index]
            decision = game.pending(before).get(record.seat or 0)
            if record.seat != digest.seat and decision is not None and decision.sealed:
                words += [record.action, game.describe(before, record.action)]
    return words


@pytest.mark.whole_game
@pytest.mark.parametrize("key", hidden_games())
def test_digests_tell_no_other_seats_secret(key: str) -> None:
    scanned = 0
    for players, seed, actions in setups(get_game(key)):
        whole = recorded(key, players, seed, actions)
        known: Words = {}
        for played in (whole.upto(len(whole.records) // 2), whole):  # asked for mid-game, and at the end
            for seat in range(players):
                own = [index for index, record in enumerate(played.records) if record.seat == seat]
                for last in {None, *own[len(own) // 2 : len(own) // 2 + 1], *own[-1:]}:
                    since = 0 if last is None else last + 1  # from a snapshot there, as the host will
                    digest = build_digest(
                        played.game,
                        played.options,
                        played.setup_draws,
                        played.records,
                        played.names,
                        seat,
                        last,
                        start=(since, played.states[since]),
                        step_views=True,
                    )
                    problems = scan_digest(played, digest, known)
                    assert not problems, f"{key} seed {seed}, seat {seat}, last action {last}:\n" + "\n".join(
                        problems[:20]
                    )
                    scanned += 1
    assert scanned > 10


def test_the_scan_finds_planted_leaks() -> None:
    """The scan itself: a PRINCIPES text quoting another seat's card (id or title) or sealed plan, and a Prince
    text placing an unseen castle, are reported; the same words for one's own seat are not."""
    played = recorded("principes", 2, 44, 60)
    index = next(i for i, state in enumerate(played.states) if state["players"][state["seats"][1]]["hand"])
    state = played.states[index]
    card = state["players"][state["seats"][1]]["hand"][0]
    title = catalog().kind_of(card)["title"]
    view = played.view(index, 0)
    words = forbidden(played.game, state, 0, view)
    assert leaks(f"they hold {card.lower()}", words)
    own_titles = {catalog().kind_of(c)["title"] for c in state["players"][state["seats"][0]]["hand"]}
    assert bool(leaks(f"a card called {title}", words)) == (title not in own_titles)
    assert not leaks(f"they hold {card.lower()}", forbidden(played.game, state, 1, played.view(index, 1)))
    prince = recorded("the-prince", 2, 45, 12)
    for index, state in enumerate(prince.states):
        hidden = [s for s in prince.game.secrets(state, 1) if s.startswith("castle:")]
        if hidden:
            number, tile = hidden[0].split("#")[1].split("@")
            words = forbidden(prince.game, state, 0, prince.view(index, 0))
            assert leaks(f"Brannoc: castle {number} on {tile} offence 1", words)
            return
    pytest.fail("no hidden castle in the sample game")


@pytest.mark.parametrize("key", hidden_games())
def test_the_scan_catches_an_image_described_from_the_wrong_view(key: str) -> None:
    """The mistake this scan guards against: a seat's image described from another seat's view."""
    played = recorded(key, 2, 46, 80)
    caught = 0
    for index, state in enumerate(played.states):
        wrong = render.alt_text(key, played.view(index, 1))
        caught += bool(leaks(wrong, forbidden(played.game, state, 0, played.view(index, 0))))
    assert caught > 0
