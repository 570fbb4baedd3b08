"""One person plays The Prince against the AI entirely through the DM forms (landing, turns, hiding, battle plan).

The channel must only ever learn "X has sealed" and a commit for each sealed decision; the commit must match the
submission the host recorded; a stale or doubled form click is refused; a form survives a restart of the bot.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from bot.host import commit_hash
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser

SEALED_LINE = re.compile(r"alice has sealed \((\w+)\)\. Commit: `([0-9a-f]{64})`")
#: the examples the prompts themselves show in the channel (not anybody's choice)
PROMPT_EXAMPLES = ("`land b5`", "`ne build c5`", "`stay`", "`prince 3 guard 1`", "`3+2>1 1+0>1 2+1`")
MAX_TURNS = 40
BATTLE_RESULT = re.compile(r"Battle 1: \d+ attacks")


def latest_form(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    """The newest DM carrying components (the open prompt or form)."""
    return [m for m in fake.dm_messages(user) if m.custom_ids()][-1]


def select(message: FakeMessage, op: str) -> dict[str, Any]:
    """The form select for operation ``op`` (custom_id ``pt:g:<game>:<seat>:<decision>:<op>:<state>``)."""
    return next(s for s in message.selects() if s["custom_id"].split(":")[5] == op)


def enabled(message: FakeMessage, label: str) -> bool:
    return not message.button(label).get("disabled", False)


async def pick(table: Table, user: FakeUser, message: FakeMessage, op: str, value: str) -> FakeMessage:
    chosen = select(message, op)
    assert value in [option["value"] for option in chosen["options"]], (op, value)
    record = await table.click(user, message, str(chosen["custom_id"]), [value])
    assert not table.reply_text(record), table.reply_text(record)  # an edit of the form, no complaint
    return table.fake.messages[message.id]


async def seal(table: Table, user: FakeUser, message: FakeMessage, kind: str) -> str:
    """Review…, check the summary, Seal; return the notation the summary announced."""
    if "Check before sealing" not in message.content:
        await table.press(user, message, "Review…")
    review = table.fake.messages[message.id]
    assert "Check before sealing" in review.content, review.content
    action = re.findall(r"Notation: `([^`]+)`", review.content)[0]
    sealed_before = len(sealed_lines(table))
    await table.press(user, review, "Seal")
    done = table.fake.messages[message.id]
    assert done.content.startswith("Sealed:") and not done.custom_ids()
    lines = sealed_lines(table)
    assert len(lines) == sealed_before + 1 and lines[-1][0] == kind
    return action


def sealed_lines(table: Table) -> list[tuple[str, str]]:
    return [
        (match[1], match[2])
        for m in table.fake.channel_messages(table.fake.general)
        if (match := SEALED_LINE.search(m.content))
    ]


def public_text(table: Table) -> str:
    text = "\n".join(m.content for m in table.fake.channel_messages(table.fake.general))
    for example in PROMPT_EXAMPLES:
        text = text.replace(example, "")
    return text


async def play_turn(table: Table, alice: FakeUser, message: FakeMessage, turn: int) -> str:
    """Move (a different compass button each turn when open) and build on the best site if any."""
    steps = [b["label"] for b in message.buttons() if b["custom_id"].split(":")[5].startswith("d")]
    open_steps = [label for label in steps if enabled(message, label) and label != "Stay"]
    if open_steps:
        await table.press(alice, message, open_steps[turn % len(open_steps)])
        message = table.fake.messages[message.id]
        assert "Draft: move" in message.content
    sites = [s for s in message.selects() if s["custom_id"].split(":")[5] == "b"]
    if sites:
        best = next(o["value"] for o in sites[0]["options"] if o["value"] != "-")
        message = await pick(table, alice, message, "b", best)
        assert f"build on {best}" in message.content
    return await seal(table, alice, message, "explore")


async def start_against_ai(table: Table, fake: FakeDiscord) -> tuple[FakeUser, int]:
    alice = fake.add_user("alice")
    lobby = fake.replies(await table.slash(alice, "game new", game="the-prince"))[0]
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    await table.slash(alice, "game ai")
    await table.slash(alice, "game start", order="given")
    return alice, game_id


async def test_a_whole_battle_entered_through_the_dm_forms(table: Table, fake: FakeDiscord) -> None:
    alice, game_id = await start_against_ai(table, fake)
    actions: list[str] = []

    # ---- landing: a select of the west coast, a summary, "Change" goes back, then Seal
    landing = latest_form(fake, alice)
    tiles = [o["value"] for o in select(landing, "land")["options"]]
    assert tiles and all(tile[0] in "abcde" for tile in tiles)
    review = await pick(table, alice, landing, "land", tiles[0])
    assert "Check before sealing" in review.content and f"land {tiles[0]}" in review.content
    await table.press(alice, review, "Change")
    back = fake.messages[landing.id]
    review = await pick(table, alice, back, "land", tiles[-1])
    stale_landing = copy.deepcopy(review)
    actions.append(await seal(table, alice, review, "landing"))
    assert actions[0] == f"land {tiles[-1]}"

    # ---- phase 1 through the compass form until the battles begin
    turn = 0
    while "dstay" in button_ops(message := latest_form(fake, alice)):
        actions.append(await play_turn(table, alice, message, turn))
        turn += 1
        assert turn < MAX_TURNS
    assert sum(" build " in action for action in actions) >= 5

    # ---- battle 1, step A: two selects
    hiding = latest_form(fake, alice)
    assert {"p", "g"} <= select_ops(hiding)
    hiding = await pick(table, alice, hiding, "p", "2")
    assert not enabled(hiding, "Review…")  # the Guard is not placed yet
    hiding = await pick(table, alice, hiding, "g", "1")
    actions.append(await seal(table, alice, hiding, "hide"))
    assert actions[-1] == "prince 2 guard 1"
    assert "Guard stands in castle 1" in public_text(table)

    # ---- battle 1, step B: the prompt keeps the sample plans and offers "Plan…"
    prompt = latest_form(fake, alice)
    assert prompt.selects() and enabled(prompt, "Plan…")
    plan_button = prompt.button("Plan…")["custom_id"]  # the DM loses it once the decision closes
    opened = await table.press(alice, prompt, "Plan…")
    [form] = fake.replies(opened)
    assert "step B" in form.content
    form = await pick(table, alice, form, "t", "1")  # castle 1 attacks enemy castle 1
    form = await pick(table, alice, form, "f", "3")
    gold = [o["value"] for o in select(form, "g")["options"]]
    form = await pick(table, alice, form, "g", gold[-1])  # all of castle 3's gold on offence
    form = await pick(table, alice, form, "t", "2")
    await table.stop_bot()  # the draft lives in the components: a restart loses nothing
    await table.start_bot()
    form = fake.messages[form.id]
    form = await pick(table, alice, form, "f", "4")
    form = await pick(table, alice, form, "t", "2")
    await table.press(alice, form, "Attack earlier")  # castle 4 now strikes before castle 3
    form = fake.messages[form.id]
    assert "#2 castle 4" in form.content and "#3 castle 3" in form.content
    await table.press(alice, form, "Review…")
    doubled = copy.deepcopy(fake.messages[form.id])
    assert not BATTLE_RESULT.search(public_text(table))
    plan = await seal(table, alice, fake.messages[form.id], "plan")
    assert plan.startswith(f"1+0>1 4+0>2 3+{gold[-1]}>2")
    actions.append(plan)
    assert BATTLE_RESULT.search(public_text(table))

    # ---- until the end the channel saw only "alice has sealed" and commits; then every submission and nonce,
    # and each commit matches the submission the host recorded
    text = public_text(table)
    secret = text.split("Sealed choices", 1)[0]
    # the end of the game publishes every nonce and choice in a file attached to the "Sealed choices" message
    revealed = "".join(
        data.decode()
        for message in table.fake.channel_messages(table.fake.general)
        if message.content.startswith("Sealed choices")
        for _name, data in message.files
    )
    for action in actions:
        assert action not in secret
    record = [row for row in await table.running.host.sealed_record(game_id) if row["seat"] == 0]
    assert sorted(row["action"] for row in record) == sorted(actions)
    assert sorted(commit for _, commit in sealed_lines(table)) == sorted(row["commit_hash"] for row in record)
    for row in record:
        assert row["commit_hash"] == commit_hash(row["nonce"], game_id, row["decision_id"], 0, row["action"])
        if revealed:
            assert f"text:   {row['nonce']}|{game_id}|{row['decision_id']}|0|{row['action']}" in revealed

    # ---- stale and doubled clicks are refused; nothing changes
    before = len(await table.running.host.sealed_record(game_id))
    assert not prompt.custom_ids(), "the closed decision's DM lost its buttons"
    for old, custom_id in (
        (stale_landing, stale_landing.button("Seal")["custom_id"]),
        (None, plan_button),  # as a client that has not refreshed the DM still shows it
        (doubled, doubled.button("Seal")["custom_id"]),
    ):
        if old is None:
            refused = await fake.click_forged(alice, custom_id)
            await table.settle(refused)
        else:
            refused = await table.click(alice, old, custom_id)
        assert "no longer open" in table.reply_text(refused) or "already sealed" in table.reply_text(refused)
    assert len(await table.running.host.sealed_record(game_id)) == before


def select_ops(message: FakeMessage) -> set[str]:
    return {s["custom_id"].split(":")[5] for s in message.selects() if s["custom_id"].startswith("pt:g:")}


def button_ops(message: FakeMessage) -> set[str]:
    return {b["custom_id"].split(":")[5] for b in message.buttons() if b["custom_id"].startswith("pt:f:")}


async def test_someone_else_cannot_use_a_players_form(table: Table, fake: FakeDiscord) -> None:
    alice, _ = await start_against_ai(table, fake)
    landing = latest_form(fake, alice)
    mallory = fake.add_user("mallory")
    chosen = select(landing, "land")
    value = chosen["options"][0]["value"]
    refused = await table.click(mallory, landing, str(chosen["custom_id"]), [value])
    assert "not playing" in table.reply_text(refused)
    assert "Check before sealing" not in fake.messages[landing.id].content
