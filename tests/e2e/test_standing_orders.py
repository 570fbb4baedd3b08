"""Standing orders through the fake Discord (issue 18): bob (Polonia Minor) sets "always deny" for passage and
"pass" for card windows with ``/orders``, then is away while alice (Polonia Maior) asks passage through his
Capital and attacks it. His orders answer for him a random moment after each decision arises, exactly as his
clicks would; only he is told, and ``/game status`` estimates the time to finish.

The start is the one of ``test_principes_play``: two of alice's Knights stand in Lelovia, next to Cracovia.
"""

from __future__ import annotations

import pytest

from bot.host import Host
from bot.models import Prompt
from rules.principes import Principes
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeUser
from tests.e2e.test_principes_play import default_answer, frontier_setup, seeded_create

WINDOWS = ("before_battle", "extra_cards", "after_battle", "court_reaction", "neighbour_block")
MAX_STEPS = 400


async def _move(table: Table, user: FakeUser, notation: str) -> None:
    record = await table.slash(user, "move", notation=notation)
    assert table.reply_text(record).startswith("Done"), table.reply_text(record)


def _alice_answer(kind: str, choices: list[str], done: set[str]) -> str:
    """alice's script: move in Round 1, ask passage through Cracovia, then attack it; otherwise the short way."""
    if kind == "plan":
        return "plan movement taxes building"
    if kind == "movement" and "ask cracovia" in choices and "asked" not in done:
        done.add("asked")
        return "ask cracovia"
    if kind == "movement" and "move knight lelovia cracovia" in choices and "attacked" not in done:
        done.add("attacked")
        return "move knight lelovia cracovia"
    return next(
        (word for word in ("pass", "done", "keep", "deny", "direction cw") if word in choices), choices[0]
    )


async def test_consent_and_window_orders_answer_while_the_player_is_away(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Principes, "setup", frontier_setup)
    monkeypatch.setattr(Host, "create_game", seeded_create)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    for user in (alice, bob):  # no recommended orders to begin with: bob sets his two below
        off = table.reply_text(await table.slash(user, "settings", orders="off"))
        assert "`orders` = `off`: begin each new game with its recommended standing orders" in off
    lobby = fake.replies(await table.slash(alice, "game new", game="principes"))[0]
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    await table.slash(bob, "game join")
    await table.slash(alice, "game start", order="given")
    await table.slash(bob, "settings", autopass="off")  # his orders, not the automatic pass, answer for him
    set_consent = await table.slash(bob, "orders", topic="consent", choice="deny")
    assert "Consent to passage (consent): always deny" in table.reply_text(set_consent)
    set_windows = await table.slash(bob, "orders", topic="windows", choice="pass")
    assert "Card windows (windows): pass unless I could play a card I marked" in table.reply_text(set_windows)
    refused = await table.slash(bob, "orders", topic="consent", choice="named", names="Atlantis")
    assert "'Atlantis' is not a principality" in table.reply_text(refused)
    hand = table.reply_text(await table.slash(bob, "hand"))
    assert "Your standing orders answer 2 kinds of decisions for you: /orders lists and changes them." in hand
    nothing = table.reply_text(await table.slash(bob, "ahead"))
    assert nothing.startswith("Nothing to answer ahead now")  # /ahead exists, and says so with no queue
    refused_ahead = table.reply_text(await table.slash(bob, "ahead", answers="pass"))
    assert "Nothing to answer ahead now" in refused_ahead

    host = table.running.host
    by_order: list[str] = []
    done: set[str] = set()

    async def open_prompt(user: FakeUser) -> Prompt | None:
        prompt = await host.prompt_of(game_id, str(user.id))
        if prompt is not None and prompt.sealed and await host.has_sealed(game_id, str(user.id)):
            return None  # sealed already: waiting for the other
        return prompt

    for _ in range(MAX_STEPS):
        bob_prompt = await open_prompt(bob)
        alice_prompt = await open_prompt(alice)
        if bob_prompt is not None and bob_prompt.kind in ("consent", *WINDOWS):
            # bob is away: nothing happens at once, then his order answers at the auto-pass's random moment
            table.clock.advance(121)
            await table.running.timers.fire_once()
            await table.running.wait_idle()
            after = await host.prompt_of(game_id, str(bob.id))
            assert after is None or after.decision_id != bob_prompt.decision_id, bob_prompt.kind
            by_order.append(bob_prompt.kind)
        elif alice_prompt is not None:
            choices = [choice.action for choice in alice_prompt.choices]
            await _move(table, alice, _alice_answer(alice_prompt.kind, choices, done))
        elif bob_prompt is not None:
            await _move(table, bob, default_answer(bob_prompt, "plan taxes assembly building"))
        else:
            break
        if "consent" in by_order and any(kind in WINDOWS for kind in by_order) and "attacked" in done:
            if "Battle in Cracovia" in await host.log(str(fake.general), 200):
                break
    assert "consent" in by_order and any(kind in WINDOWS for kind in by_order), by_order

    log = await host.log(str(fake.general), 200)
    assert "Polonia Minor denies passage through Cracovia" in log
    told = [m.content for m in fake.dm_messages(bob) if "answered by standing order" in m.content]
    assert any("(consent): Deny passage" in text for text in told), told
    prompts = [m.content for m in fake.dm_messages(bob)]
    assert any("Your standing order answers this in a moment: Deny passage" in text for text in prompts)
    assert any(kind.replace("_", " ") in text for text in told for kind in WINDOWS), told
    # nobody but bob learns that an order answered, nor what his orders are
    elsewhere = [m.content for m in fake.channel_messages(fake.general)] + [
        m.content for m in fake.dm_messages(alice)
    ]
    assert not any("standing order" in text or "always deny" in text for text in elsewhere)
    assert "always deny" not in table.reply_text(await table.slash(alice, "hand"))
    # the stored log replays to the same game: the orders' answers are ordinary moves of bob's
    assert await host.replay_state(game_id) == (await host.games.load(game_id)).state

    status = table.reply_text(await table.slash(alice, "game status"))
    assert "Time to finish: about" in status, status
    assert "holds the game up most" in status, status


async def test_a_game_begins_with_the_recommended_orders_each_player_told_by_dm_in_their_language(
    table: Table, fake: FakeDiscord
) -> None:
    """Issue 47: players who set nothing begin with the recommended orders; each is told once by DM, in their
    own language, which decisions they answer; the channel says nothing of anyone's orders."""
    alice, bob = fake.add_user("alice", locale="pl"), fake.add_user("bob")
    await table.slash(alice, "game new", game="principes")
    await table.slash(bob, "game join")
    await table.slash(alice, "game start", order="given")
    told = {
        user.name: [
            m.content
            for m in fake.dm_messages(user)
            if "standing orders are on" in m.content or "zalecane stałe polecenia" in m.content
        ]
        for user in (alice, bob)
    }
    (polish,), (english,) = told["alice"], told["bob"]
    assert polish.startswith("W grze PRINCIPES #") and "\n- Okna kart\n" in polish and "/ustawienia" in polish
    assert english.startswith("Recommended standing orders are on for you in PRINCIPES #")
    assert "\n- Card windows\n" in english and english.endswith("begins your next games without them.")
    channel = [m.content for m in fake.channel_messages(fake.general)]
    assert not any("standing orders" in text or "stałe polecenia" in text for text in channel)
    listed = table.reply_text(await table.slash(bob, "orders"))
    assert "Consent to passage (consent): always deny" in listed
    assert not table.running.unexpected_errors
