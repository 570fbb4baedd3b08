"""Issue 17: the end-of-game publication of sealed choices is complete, however many there are.

It used to be one message cut at 2,000 characters: in The Prince only the first 13 of 16-72 sealed choices
appeared. Now a short message carries an attached text file with every choice, its nonce, the text its commit is
the SHA-256 of, and the commit.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from collections.abc import Callable

from bot.host import Delivery, Host, commit_hash
from bot.hosting.core import Live
from bot.models import Attachment
from bot.verify import verify_export
from i18n import localize
from tests.conftest import ALICE, BOB, MOD

MESSAGE_LIMIT = 2000
ENTRY = re.compile(
    r"^(\d+)\. (.+) \(seat (\d+)\), decision (\S+): (.*)\n   text:   (.*)\n   commit: ([0-9a-f]{64})$", re.M
)


async def long_prince_game(host: Host, channel: str = "reveal") -> tuple[int, list[Delivery]]:
    """A The Prince game between two AI seats, on the first seed (from 1 up) with at least 40 sealed choices."""
    for number in range(1, 40):
        info = await host.create_game(
            "guild", f"{channel}-{number}", ALICE, "the-prince", seat_creator=False, seed=f"{number:064x}"
        )
        await host.add_ai(f"{channel}-{number}", ALICE, "strategist")
        await host.add_ai(f"{channel}-{number}", ALICE, "random")
        deliveries = await host.start(f"{channel}-{number}", ALICE)
        if len(await host.sealed_record(info.game_id)) >= 40:
            return info.game_id, deliveries
    raise AssertionError("no long game among the seeds tried")


async def test_a_long_the_prince_game_publishes_every_sealed_choice(host: Host) -> None:
    game_id, deliveries = await long_prince_game(host)
    record = await host.sealed_record(game_id)
    assert len(record) >= 40  # the old message showed 13
    reveals = [d for d in deliveries if d.text.startswith("Sealed choices, for checking")]
    assert len(reveals) == 1 and reveals[0].kind == "public"
    reveal = reveals[0]
    assert len(reveal.text) <= MESSAGE_LIMIT and f"all {len(record)} " in reveal.text
    (attachment,) = reveal.attachments
    assert attachment.name == f"sealed-choices-the-prince-{game_id}.txt" and attachment.name in reveal.text
    entries = ENTRY.findall(attachment.text)
    assert len(entries) == len(record), "every sealed choice is in the file, the last battles included"
    names = {seat.seat: seat.name for seat in (await host.game_info(game_id)).seats}
    for (number, name, seat, decision, action, text, commit), row in zip(entries, record, strict=True):
        assert (int(seat), decision, action, commit) == (
            row["seat"],
            row["decision_id"],
            row["action"],
            row["commit_hash"],
        )
        assert name == names[row["seat"]]
        assert text == f"{row['nonce']}|{game_id}|{row['decision_id']}|{row['seat']}|{row['action']}"
        assert hashlib.sha256(text.encode()).hexdigest() == commit, f"entry {number} does not check out"


async def test_the_attachment_survives_the_outbox(host: Host) -> None:
    """Deliveries are stored before they are posted: the file must come back from the outbox whole."""
    game_id, _ = await long_prince_game(host, "outbox")
    rows = await host.store.fetchall(
        "SELECT id, payload FROM outbox WHERE game_id = ? ORDER BY id", (game_id,)
    )
    stored = [Delivery.from_payload(row["id"], json.loads(row["payload"])) for row in rows]
    (reveal,) = [d for d in stored if d.attachments]
    assert isinstance(reveal.attachments[0], Attachment)
    assert len(ENTRY.findall(reveal.attachments[0].text)) == len(await host.sealed_record(game_id))
    old = reveal.to_payload()
    del old["attachments"]  # a row written before attachments existed still loads
    assert Delivery.from_payload(1, old).attachments == []


async def test_the_console_writes_the_file(tmp_path) -> None:
    from bot.console import Console

    host = await Host.open(tmp_path / "c.sqlite3")
    try:
        output: list[str] = []
        console = Console(host, tmp_path / "out", output.append)
        game_id, deliveries = await long_prince_game(host)
        await console._show(deliveries)
        (line,) = [line for line in output if line.startswith("[file] ")]
        path = tmp_path / "out" / f"sealed-choices-the-prince-{game_id}.txt"
        assert line == f"[file] {path}"
        assert len(ENTRY.findall(path.read_text())) == len(await host.sealed_record(game_id))
    finally:
        await host.close()


# ---- a sealed choice its sealer's own free action made illegal before the reveal ---------------------------
# In PRINCIPES a player may seal an 'after battle' card, then sell that very card (a free action, taken at any
# time) before the other side seals. The reveal used to raise for the now illegal choice, and every later seal
# failed the same way: the game was stuck. Now the decision's deadline answer (a pass) is played in its place.

REPLACED = "alice's sealed answer is no longer allowed: the default is applied (Pass)."


async def principes_game(host: Host, channel: str, number: int) -> int:
    """A two-player PRINCIPES game of Alice (seat 0) and Bob (seat 1) on the seed ``number``."""
    info = await host.create_game("guild", channel, ALICE, "principes", {}, seed=f"{number:064x}")
    await host.join(channel, BOB)
    await host.start(channel, ALICE, order="given")
    return info.game_id


async def play_until(
    host: Host, game_id: int, reached: Callable[[Live, set[int]], bool], rng: random.Random, limit: int = 400
) -> Live | None:
    """Both seats play as the ``strong`` AI would, through the host, until ``reached`` (given the game and the
    seats that have sealed) holds; None if the game ends or ``limit`` moves pass first."""
    for _ in range(limit):
        live = await host.games.load(game_id)
        sealed = set(await host.games.sealed_for(live))
        if reached(live, sealed):
            return live
        todo = [seat for seat in sorted(live.game.pending(live.state)) if seat not in sealed]
        if not todo or live.row["status"] != "active":
            return None
        seat = todo[0]
        legal = live.game.legal_actions(live.state, seat)
        action = live.game.choose_action(live.game.view(live.state, seat), seat, legal, "strong", rng)
        await host.act(game_id, (ALICE, BOB)[seat], action)
    return None


def after_card_for_alice(live: Live, sealed: set[int]) -> bool:
    """Both sides are asked for their 'after battle' cards, neither has sealed, and Alice holds one."""
    pending = live.game.pending(live.state)
    asked = {seat for seat, decision in pending.items() if decision.kind == "after_battle"}
    return asked == {0, 1} and not sealed and any(after_answers(live))


def after_answers(live: Live) -> list[str]:
    return [a for a in live.game.legal_actions(live.state, 0) if a.startswith("after ")]


async def after_battle_window(host: Host, channel: str) -> tuple[int, random.Random]:
    """A PRINCIPES game stopped where both sides seal their 'after battle' cards and Alice holds one (the first
    seed from 1 up where this comes within its first moves), and the AI's random source to play it on with."""
    for number in range(1, 12):
        rng = random.Random(number)
        game_id = await principes_game(host, f"{channel}-{number}", number)
        if await play_until(host, game_id, after_card_for_alice, rng) is not None:
            return game_id, rng
    raise AssertionError("no 'after battle' window with a card in Alice's hand among the seeds tried")


async def test_a_sealed_card_sold_before_the_reveal_gives_way_to_a_pass(host: Host) -> None:
    game_id, rng = await after_battle_window(host, "sold")
    live = await host.games.load(game_id)
    decision = live.game.pending(live.state)[0]
    sealed_choice = after_answers(live)[0]
    card = sealed_choice.split()[1]
    await host.act(game_id, ALICE, sealed_choice)
    await host.act(game_id, ALICE, f"sell {card}")  # a free action: the sealed card leaves her hand
    assert sealed_choice not in after_answers(await host.games.load(game_id))

    deliveries = await host.act(game_id, BOB, "pass")  # the last seal: the reveal, which used to raise

    assert any(REPLACED in d.text for d in deliveries if d.kind == "public")
    assert localize(REPLACED, "pl") == (
        "alice: zapieczętowana odpowiedź nie jest już dozwolona, zastosowano wybór domyślny (Pas)."
    )
    events = await host.store.events(game_id, 0)
    replaced = next(e for e in events if e.seat == 0 and e.action == "pass" and e.seq > live.seq)
    assert replaced.log[0] == ["sealed_replaced", REPLACED] and replaced.user_id == ALICE.user_id
    after = await host.games.load(game_id)
    assert all(d.id != decision.id for d in after.game.pending(after.state).values())
    # the record still shows what she sealed, with the nonce that makes its commit check out
    (row,) = [
        r for r in await host.sealed_record(game_id) if r["decision_id"] == decision.id and r["seat"] == 0
    ]
    assert row["action"] == sealed_choice
    assert row["commit_hash"] == commit_hash(row["nonce"], game_id, decision.id, 0, sealed_choice)
    # and the game goes on: the next seals and moves are taken (it stops at the next window or 60 moves on)
    moved = after.seq
    await play_until(host, game_id, lambda live, _sealed: live.seq >= moved + 60, rng)
    assert (await host.games.load(game_id)).seq > moved


async def test_a_game_with_a_replaced_sealed_choice_verifies(host: Host) -> None:
    game_id, _ = await after_battle_window(host, "verify")
    live = await host.games.load(game_id)
    sealed_choice = after_answers(live)[0]
    await host.act(game_id, ALICE, sealed_choice)
    card = sealed_choice.split()[1]
    await host.act(game_id, ALICE, f"sell {card}")
    await host.act(game_id, BOB, "pass")
    await host.abandon((await host.game_info(game_id)).channel_id, MOD)
    data = await host.export_game(game_id)
    verdict = verify_export(data)
    assert verdict.verified, verdict.problem
    assert verdict.commits == len(data["sealed"])
    # the default stands in only where the replay shows the sealed choice refused: without the sale (taken back
    # in a forged file) the card is still hers at the reveal, and the pass reads as a choice played against its
    # seal
    forged = copy.deepcopy(data)
    sale = [e for e in forged["events"] if e["seat"] == 0 and e["action"] == f"sell {card}"][-1]
    sale["undone"] = True
    problem = verify_export(forged).problem
    assert "played `pass`, but the sealed choice for" in problem and f"`{sealed_choice}`" in problem


def both_plan(live: Live, sealed: set[int]) -> bool:
    pending = live.game.pending(live.state)
    return {d.kind for d in pending.values()} == {"plan"} and len(pending) == 2 and not sealed


async def test_a_sealed_plan_stays_allowed_whatever_the_free_actions(host: Host) -> None:
    """Every plan of 3 of the 6 Action tokens is legal whatever a player holds (``flow.plan_options``): Alice
    seals a plan, sells every card and gives all her gold away, and the plan is played as she sealed it."""
    game_id = await principes_game(host, "plan", 1)
    live = await play_until(host, game_id, both_plan, random.Random(1))
    assert live is not None
    plans = live.game.legal_actions(live.state, 0)
    plan = next(a for a in plans if a.startswith("plan "))
    await host.act(game_id, ALICE, plan)
    code = live.state["seats"][0]
    for card in list(live.state["players"][code]["hand"]):
        await host.act(game_id, ALICE, f"sell {card.lower()}")
    gold = (await host.games.load(game_id)).state["players"][code]["gold"]
    await host.act(game_id, ALICE, f"give {live.state['seats'][1].lower()} {gold}")
    stripped = await host.games.load(game_id)
    assert not stripped.state["players"][code]["hand"] and stripped.state["players"][code]["gold"] == 0
    assert [a for a in stripped.game.legal_actions(stripped.state, 0) if a.startswith("plan ")] == [
        a for a in plans if a.startswith("plan ")
    ]
    deliveries = await host.act(game_id, BOB, next(a for a in plans if a.startswith("plan ")))
    assert not any("sealed answer is no longer allowed" in d.text for d in deliveries)
    events = await host.store.events(game_id, stripped.seq)
    assert [e.action for e in events if e.seat == 0 and e.seq > stripped.seq][0] == plan
