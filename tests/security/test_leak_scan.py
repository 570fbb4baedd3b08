"""The leak scan: across self-played games of every game with hidden information, nothing secret reaches
someone the rules do not yet allow to know it.

A secret is what ``Game.secrets(state, seat)`` lists for the state a message was produced from (see
``selfplay``): a card in a hand, an unrevealed plan, an unseen tile, a hidden Prince. Checked for every
outbox row (public posts and DMs: text, image view, prompt and its choices) and for /board and /hand:

- a public message contains no seat's secret, and its view is exactly the public view;
- a DM to seat S contains no other seat's secret, and its view is exactly S's view;
- the nonces of sealed submissions appear in no message before the game is over.

The scan covers every registered game whose ``hidden_information`` flag is set, so a new game is scanned as
soon as it is registered, plus the test-only sealed game. A check that the seats' own secrets do reach their
own DMs proves the scan is looking at the right text.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.host import Delivery, Host
from bot.models import CLOSE_KIND
from rules.engine import Game, State, available_games, get_game
from rules.engine.registry import register, unregister
from tests.security.selfplay import PlayedGame, Stamped, TickingClock, scratch_directory, self_play
from tests.support.games import SealedGuess

SEALED_TEST_GAME = SealedGuess()


def hidden_games() -> list[str]:
    """Registered playable games with hidden information (read at collection time, so new games join in)."""
    return [key for key in available_games() if get_game(key).hidden_information]


#: (humans, seed) per scanned game: all people, a mix of people and AI, different seeds. AI seats play at
#: level random: which move an AI picks does not change what the host sends, and strong levels cost seconds
SETUPS = ((2, 1), (1, 2), (2, 3))
#: people's turns per game before the scan stops it (short games end before), and /board + /hand every so many
MAX_TURNS, SNAPSHOT_EVERY = 300, 25


@pytest.fixture
def sealed_test_game() -> Any:
    register(SEALED_TEST_GAME)
    yield SEALED_TEST_GAME
    unregister(SEALED_TEST_GAME.key)


@pytest.fixture
async def ticking_host() -> AsyncIterator[Host]:
    with scratch_directory() as directory:
        host = await Host.open(Path(directory) / "leaks.sqlite3", clock=TickingClock())
        yield host
        await host.close()


def haystack(delivery: Delivery) -> str:
    """Everything of a delivery a person can read: text, image view, prompt text and choices, mentions, files."""
    parts = [delivery.text, json.dumps(delivery.view, ensure_ascii=False), " ".join(delivery.mentions)]
    parts += [attachment.text for attachment in delivery.attachments]
    if delivery.prompt is not None:
        parts.append(delivery.prompt.text)
        parts += [f"{choice.action}\n{choice.label}" for choice in delivery.prompt.choices]
    return "\n".join(parts)


def secrets_by_seat(game: Game, state: State, players: int) -> dict[int, list[str]]:
    return {seat: [secret for secret in game.secrets(state, seat) if secret] for seat in range(players)}


def audience_view(played: PlayedGame, state: State, seat: int | None) -> dict[str, Any]:
    """The view the host must attach for this audience, as it arrives after the JSON round trip."""
    view = played.game.view(state, seat)
    view["seat_names"] = played.seat_names
    loaded: dict[str, Any] = json.loads(json.dumps(view))
    return loaded


def leaks_in(played: PlayedGame, stamped: Stamped) -> list[str]:
    """What this message reveals that its audience must not know yet (empty when it is clean)."""
    delivery, state = stamped.delivery, stamped.state
    if state is None:  # posted before the game started: a lobby has no secrets
        return []
    text = haystack(delivery)
    players = len(played.seat_names)
    secrets = secrets_by_seat(played.game, state, players)
    audience = None if delivery.kind == "public" else delivery.seat
    found = [
        f"seat {seat + 1}'s secret {secret!r}"
        for seat, listed in secrets.items()
        if seat != audience
        for secret in listed
        if secret in text
    ]
    if not played.game.outcome(state).finished:
        found += [
            f"the nonce of a sealed {row['decision_id']}" for row in played.sealed if row["nonce"] in text
        ]
    return found


def check_audience(played: PlayedGame, stamped: Stamped) -> None:
    """A public post carries the public view; a DM goes to the seat's own user and carries its view."""
    delivery, state = stamped.delivery, stamped.state
    if delivery.kind == CLOSE_KIND:  # a DM's buttons taken off: to the seat's own user, with nothing to read
        assert delivery.user_id == played.seat_users[delivery.seat or 0] and not delivery.text
        assert delivery.view is None and delivery.prompt is None
        return
    if delivery.kind == "private":
        assert delivery.seat is not None and 0 <= delivery.seat < len(played.seat_users)
        assert delivery.user_id is not None and delivery.user_id == played.seat_users[delivery.seat], (
            f"a DM for seat {delivery.seat + 1} went to {delivery.user_id}"
        )
    else:
        assert delivery.kind == "public" and delivery.user_id is None, f"unexpected delivery {delivery.kind}"
    if delivery.view is not None and state is not None:
        audience = delivery.seat if delivery.kind == "private" else None
        assert delivery.view == audience_view(played, state, audience), (
            f"delivery {delivery.id} ({delivery.kind}) carries another audience's view"
        )


def own_secrets_seen(played: PlayedGame) -> int:
    """How many of a seat's own secrets reached its DMs: proof the scan reads where secrets would be."""
    seen = 0
    for stamped in played.deliveries:
        if (
            stamped.delivery.kind == "private"
            and stamped.state is not None
            and stamped.delivery.seat is not None
        ):
            own = played.game.secrets(stamped.state, stamped.delivery.seat)
            seen += sum(1 for secret in own if secret and secret in haystack(stamped.delivery))
    return seen


def scan(played: PlayedGame) -> list[str]:
    """Every leak of one played game, as readable lines (the test asserts there are none)."""
    problems = []
    for stamped in played.deliveries:
        check_audience(played, stamped)
        problems += [
            f"delivery {stamped.delivery.id} ({stamped.delivery.kind}, seat {stamped.delivery.seat}): {leak}"
            for leak in leaks_in(played, stamped)
        ]
    players = len(played.seat_names)
    for seat, view, state in played.snapshots:
        text = json.dumps(view, ensure_ascii=False)
        secrets = secrets_by_seat(played.game, state, players)
        problems += [
            f"{'/board, log or status' if seat is None else f'/hand of seat {seat + 1}'} shows seat {other + 1}'s {secret!r}"
            for other, listed in secrets.items()
            if other != seat
            for secret in listed
            if secret in text
        ]
    return problems


async def scan_game(host: Host, key: str, secrets_in_state: bool = True) -> None:
    """Scan the SETUPS of one game. ``secrets_in_state`` is False for a game whose only secrets are sealed
    choices: the host holds those outside the state until all are in, so no view ever carries them."""
    game = get_game(key)
    secrets_reaching_owners = 0
    for number, (humans, seed) in enumerate(SETUPS):
        players = game.min_players + number % (game.max_players - game.min_players + 1)
        humans = min(humans, players)
        played = await self_play(
            host,
            key,
            f"{key}-{number}",
            seed,
            humans,
            players,
            max_turns=MAX_TURNS,
            snapshot_every=SNAPSHOT_EVERY,
        )
        assert played.deliveries, f"{key}: self-play produced no messages"
        problems = scan(played)
        assert not problems, f"{key} seed {seed}, {humans} people of {players}:\n" + "\n".join(problems[:20])
        secrets_reaching_owners += own_secrets_seen(played)
    assert secrets_reaching_owners > 0 or not secrets_in_state, (
        f"{key}: no seat ever saw its own secret, so the scan proves nothing"
    )


@pytest.mark.whole_game
@pytest.mark.parametrize("key", hidden_games())
async def test_no_leak_in_hidden_information_games(ticking_host: Host, key: str) -> None:
    await scan_game(ticking_host, key)


async def test_no_leak_in_sealed_test_game(ticking_host: Host, sealed_test_game: Game) -> None:
    await scan_game(ticking_host, sealed_test_game.key, secrets_in_state=False)


async def test_nonces_are_published_at_the_end(ticking_host: Host, sealed_test_game: Game) -> None:
    """The other half of the nonce rule: once the game is over, anyone can check every commitment."""
    played = await self_play(ticking_host, sealed_test_game.key, "nonces", 5, humans=2, players=2)
    assert played.game.outcome(played.final_state).finished
    assert played.sealed, "the sealed game sealed nothing"
    final_texts = "\n".join(haystack(stamped.delivery) for stamped in played.deliveries)
    assert all(row["nonce"] in final_texts for row in played.sealed)


def test_scan_finds_a_planted_leak() -> None:
    """The scan itself: a public post quoting a seat's secret, or a nonce before the end, is reported."""
    game = SEALED_TEST_GAME
    state = game.apply(game.setup(2, {}, _no_chance()), 0, "pick 3", _no_chance()).state
    secret = game.secrets(state, 0)[0]
    played = PlayedGame(
        1,
        game,
        ["100", "200"],
        ["alice", "bob"],
        [],
        [{"decision_id": "round-1", "nonce": "feedc0de" * 4}],
        state,
    )
    planted = [
        Delivery(1, 1, game.key, "public", f"psst: {secret}"),
        Delivery(2, 1, game.key, "private", "for bob", user_id="200", seat=1, view={"mine": secret}),
        Delivery(3, 1, game.key, "public", "nonce " + "feedc0de" * 4),
        Delivery(4, 1, game.key, "private", "for alice", user_id="100", seat=0, view={"mine": secret}),
    ]
    found = [leaks_in(played, Stamped(delivery, state)) for delivery in planted]
    assert [bool(leaks) for leaks in found] == [True, True, True, False]


def _no_chance() -> Any:
    from rules.engine import NoChance

    return NoChance()
