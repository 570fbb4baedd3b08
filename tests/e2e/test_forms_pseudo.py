"""Issue 43 end to end: what a player reads in DMs and in answers only they see (a DM prompt's buttons and selects,
a guided form's pages, the "Sent:"/"Sealed:" line a click leaves, refusals, ``/orders`` and ``/ahead`` with their
autocomplete, buttons and selects) is in their language. The players' Discord clients are in the pseudo-locale
``qps``, where every translated word is marked ``⟦...⟧``: no English word may be left outside the marks.

What is not English to translate is set aside before checking: the players' and games' names, Latin land and
principality names, the notation (in `backticks`, or an option's description that is the choice itself, the
compass's ``nw``...), and what the player typed (quoted back in a refusal).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from typing import Any

import pytest

from bot.host import Host
from bot.models import Prompt
from i18n import unmarked_words
from rules.principes import GAME as PRINCIPES
from rules.principes.data import catalog
from rules.principes.play.common import NAMES
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from tests.e2e.test_answers_ahead import ALICE_PLAN, BOB_PLAN, _script, _seeded_create
from tests.e2e.test_flows import latest_with_components, started

PSEUDO = "qps"
CODE = re.compile(r"`[^`]*`")
MAX_STEPS = 60


def leaks(
    texts: Iterable[str], strip: Iterable[str] = (), allowed: Iterable[str] = ()
) -> dict[str, list[str]]:
    """Each text that leaves English unmarked, with the words: ``strip`` (names, titles) and notation in
    backticks are taken out first; ``allowed`` words (notation, what was typed) may stand unmarked."""
    found = {}
    for text in texts:
        read = CODE.sub(" ", text)
        for name in sorted(strip, key=len, reverse=True):
            read = read.replace(name, " ")
        if words := unmarked_words(read, allowed):
            found[text] = words
    return found


def message_texts(message: FakeMessage, notation: Iterable[str] = ()) -> list[str]:
    """What a message shows a reader now: its text, its buttons' labels, its selects' placeholders and their
    options' labels and descriptions (a description that is notation, the choice itself, left out)."""
    actions = set(notation)
    texts = [message.text()]
    for button in message.buttons():
        texts.append(str(button.get("label") or ""))
    for select in message.selects():
        texts.append(str(select.get("placeholder") or ""))
        for option in select.get("options", []):
            texts.append(str(option["label"]))
            description = option.get("description")
            if description and description != option["value"] and description not in actions:
                texts.append(str(description))
    return [text for text in texts if text]


def replies(table: Table, record: InteractionRecord) -> list[str]:
    texts = [text for message in table.fake.replies(record) for text in message_texts(message)]
    assert texts, f"no answer to {record.data}"
    assert not table.running.unexpected_errors, table.running.unexpected_errors
    return texts


def op_of(custom_id: str) -> str:
    """A form component's operation (``pt:f:<game>:<seat>:<decision>:<op>:<state>``)."""
    return custom_id.split(":")[5]


def form_button(message: FakeMessage, op: str) -> dict[str, Any]:
    return next(
        b for b in message.buttons() if b["custom_id"].startswith("pt:f:") and op_of(b["custom_id"]) == op
    )


def form_select(message: FakeMessage, op: str) -> dict[str, Any]:
    return next(
        s for s in message.selects() if s["custom_id"].startswith("pt:g:") and op_of(s["custom_id"]) == op
    )


# ---------------------------------------------------------------------------------------------- Babylone
async def test_a_dm_prompts_buttons_refusals_and_sent_line_are_in_the_readers_language(
    table: Table, fake: FakeDiscord
) -> None:
    alice, bob = fake.add_user("alice", locale=PSEUDO), fake.add_user("bob", locale=PSEUDO)
    for user in (alice, bob):
        await table.slash(user, "settings", turn_dms="on")
    game_id = await started(table, alice, bob)
    strip = ("alice", "bob", "Babylone")
    read: list[str] = []

    prompt = latest_with_components(fake.dm_messages(alice))
    read += message_texts(prompt)
    select = prompt.selects()[0]
    choice = select["options"][0]["value"]
    read += replies(table, await table.click(bob, prompt, select["custom_id"], [choice]))  # not bob's
    read += replies(table, await table.click(alice, prompt, select["custom_id"], []))  # nothing picked
    seat, decision = select["custom_id"].split(":")[3:5]
    elsewhere = fake.add_channel("elsewhere")
    for custom_id, channel_id, said in (
        (f"pt:c:{game_id}:{seat}:{decision}:%23999", None, "is not on the list ("),  # an index past the list
        (f"pt:c:{game_id}:{seat}:{decision}:%23x", None, "is not on the list:"),  # no index
        (f"pt:c:{game_id}:12345:{decision}:x", None, "That seat number"),  # unreadable
        (f"pt:c:{game_id}:{seat}:{decision}:x", elsewhere, "That button belongs to"),  # posted elsewhere
    ):
        forged = await fake.click_forged(alice, custom_id, channel_id=channel_id)
        await table.settle(forged)
        refused = replies(table, forged)
        assert said in refused[0], refused
        read += refused
    more = [b for b in prompt.buttons() if b["custom_id"].startswith("pt:m:")]
    assert more, "Babylone's 132 first choices need a second page"
    read += replies(table, await table.click(alice, prompt, more[0]["custom_id"]))

    await table.click(alice, prompt, select["custom_id"], [choice])
    sent = fake.messages[prompt.id]
    assert "⟦Sent: ⟧" in sent.content and not sent.custom_ids(), sent.content
    read.append(sent.content)
    read += replies(table, await table.slash(alice, "undo"))

    assert not leaks(read, strip), leaks(read, strip)


# ---------------------------------------------------------------------------------------------- The Prince
async def test_the_prince_forms_pages_refusals_and_sealed_line_are_in_the_readers_language(
    table: Table, fake: FakeDiscord
) -> None:
    alice, bob = fake.add_user("alice", locale=PSEUDO), fake.add_user("bob", locale=PSEUDO)
    mallory = fake.add_user("mallory", locale=PSEUDO)
    await table.slash(alice, "game new", game="the-prince")
    await table.slash(bob, "game join")
    await table.slash(alice, "game start", order="given")
    strip = ("alice", "bob", "mallory", "The Prince")
    compass = {"nw", "ne", "sw", "se"}  # the notation's directions, beside their arrows
    read: list[str] = []

    async def land(user: FakeUser, other: FakeUser) -> None:
        landing = latest_with_components(fake.dm_messages(user))
        read.extend(message_texts(landing))
        chosen = form_select(landing, "land")
        tile = chosen["options"][0]["value"]
        refused = replies(table, await table.click(other, landing, chosen["custom_id"], [tile]))
        assert "⟦This form is for ⟧" in refused[0], refused
        stranger = replies(table, await table.click(mallory, landing, chosen["custom_id"], [tile]))
        read.extend(refused + stranger)
        await table.click(user, landing, chosen["custom_id"], [tile])
        review = fake.messages[landing.id]  # a single pick shows the summary at once
        read.extend(message_texts(review))
        await table.click(user, review, form_button(review, "back")["custom_id"])
        read.extend(message_texts(fake.messages[landing.id]))
        await table.click(user, landing, chosen["custom_id"], [tile])
        review = copy.deepcopy(fake.messages[landing.id])  # as a client that has not refreshed shows it
        seal = form_button(review, "seal")["custom_id"]
        await table.click(user, review, seal)
        sealed = fake.messages[landing.id]
        assert sealed.content.startswith("⟦Sealed: ⟧") and not sealed.custom_ids(), sealed.content
        read.append(sealed.content)
        read.extend(replies(table, await table.click(user, review, seal)))  # sealed already

    await land(alice, bob)
    await land(bob, alice)

    turn = latest_with_components(fake.dm_messages(alice))
    read += message_texts(turn)
    step = next(b for b in turn.buttons() if op_of(b["custom_id"]).startswith("d") and not b.get("disabled"))
    await table.click(alice, turn, step["custom_id"])
    turn = fake.messages[turn.id]
    read += message_texts(turn)
    sites = [s for s in turn.selects() if op_of(s["custom_id"]) == "b"]
    if sites:
        site = next(o["value"] for o in sites[0]["options"] if o["value"] != "-")
        await table.click(alice, turn, sites[0]["custom_id"], [site])
        turn = fake.messages[turn.id]
        read += message_texts(turn)
    await table.click(alice, turn, form_button(turn, "rev")["custom_id"])
    review = fake.messages[turn.id]
    read += message_texts(review)
    await table.click(alice, review, form_button(review, "seal")["custom_id"])
    read.append(fake.messages[turn.id].content)

    assert not leaks(read, strip, compass), leaks(read, strip, compass)


# ---------------------------------------------------------------------------------------------- PRINCIPES
def latin_names() -> set[str]:
    """The Latin land and principality names (and their codes), which read the same in every language."""
    lands = catalog().lands
    words = {word for record in lands.values() for word in str(record["name"]).split()}
    words |= {word for name in NAMES.values() for word in name.split()}
    return words | set(lands) | {code.lower() for code in NAMES}


async def principes_until_alices_plan(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, FakeUser, FakeUser]:
    """A seeded 2-player PRINCIPES game of two players reading qps, played by /move until alice seals her
    plan."""
    monkeypatch.setattr(Host, "create_game", _seeded_create)
    alice, bob = fake.add_user("alice", locale=PSEUDO), fake.add_user("bob", locale=PSEUDO)
    lobby = fake.replies(await table.slash(alice, "game new", game="principes"))[0]
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    await table.slash(bob, "game join")
    await table.slash(alice, "game start", order="given")
    host = table.running.host

    async def open_prompt(user: FakeUser) -> Prompt | None:
        prompt = await host.prompt_of(game_id, str(user.id))
        if prompt is not None and prompt.sealed and await host.has_sealed(game_id, str(user.id)):
            return None
        return prompt

    for _ in range(MAX_STEPS):
        for user, plan in ((alice, ALICE_PLAN), (bob, BOB_PLAN)):
            prompt = await open_prompt(user)
            if prompt is None:
                continue
            if user is alice and prompt.kind == "plan":
                return game_id, alice, bob
            done = table.reply_text(await table.slash(user, "move", notation=_script(prompt, plan)))
            assert "Done" in done, done
            break
    raise AssertionError("alice's plan never came")


async def test_principes_plan_form_orders_and_answers_ahead_are_in_the_readers_language(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, alice, bob = await principes_until_alices_plan(table, fake, monkeypatch)
    strip = ("alice", "bob", "PRINCIPES")
    topics = PRINCIPES.standing_topics
    # notation: the topics' keys, their choices' keys, the actions a plan's Taxes may be answered with
    keys = {word for topic in topics for key in (topic.key, *dict(topic.choices)) for word in key.split("_")}
    allowed = latin_names() | keys | {"collect", "clergy", "banana", "Atlantis", "II", "III"}
    read: list[str] = []

    # ---- the plan, through the DM form: each page, someone else's click, the review and the "Sealed:" line
    form = [m for m in fake.dm_messages(alice) if any(i.startswith("pt:g:") for i in m.custom_ids())][-1]
    read += message_texts(form)
    chosen = form_select(form, "a")
    read += replies(table, await table.click(bob, form, chosen["custom_id"], ["assembly"]))
    for word in ALICE_PLAN.split()[1:]:
        await table.click(alice, form, form_select(fake.messages[form.id], "a")["custom_id"], [word])
        read += message_texts(fake.messages[form.id])
    review = fake.messages[form.id]
    await table.click(alice, review, form_button(review, "seal")["custom_id"])
    sealed = fake.messages[form.id]
    assert sealed.content.startswith("⟦Sealed: ⟧") and not sealed.custom_ids(), sealed.content
    read.append(sealed.content)

    # ---- the offer to answer the plan's Taxes ahead (a DM with buttons), and /ahead
    offer = [m for m in fake.dm_messages(alice) if any(i.startswith("pt:a:") for i in m.custom_ids())][-1]
    read += message_texts(offer)
    collect = offer.buttons()[0]["custom_id"]
    forged = await fake.click_forged(bob, collect)
    await table.settle(forged)
    read += replies(table, forged)
    read += replies(table, await table.click(alice, offer, collect))
    listed = await table.slash(alice, "ahead")
    read += replies(table, listed)
    assert any(message.buttons() for message in fake.replies(listed))  # the offer's buttons, translated
    for answers in ("banana", "collect", "ask"):
        read += replies(table, await table.slash(alice, "ahead", answers=answers))

    # ---- /orders: its list, an order set, every refusal, and its autocomplete
    read += replies(table, await table.slash(alice, "orders"))
    read += replies(
        table, await table.slash(alice, "orders", topic="consent", choice="named", names="pma, mas")
    )
    for wrong in (
        {"topic": "banana", "choice": "deny"},
        {"topic": "consent", "choice": "banana"},
        {"topic": "consent", "choice": "deny", "names": "pma"},
        {"topic": "taxes", "choice": "collect", "names": "pma"},
        {"topic": "consent", "choice": "named", "names": ", ".join(["pma"] * 26)},
        {"topic": "consent", "choice": "named", "names": "Atlantis"},
        {"topic": "consent"},
    ):
        read += replies(table, await table.slash(alice, "orders", **wrong))
    read += [choice["name"] for choice in await fake.autocomplete(alice, "orders", "topic")]
    read += [choice["name"] for choice in await fake.autocomplete(alice, "orders", "choice", topic="consent")]

    assert not leaks(read, strip, allowed), list(leaks(read, strip, allowed).items())
    assert await table.running.host.prompt_of(game_id, str(bob.id)) is not None  # bob still plans
