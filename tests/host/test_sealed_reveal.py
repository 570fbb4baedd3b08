"""Issue 17: the end-of-game publication of sealed choices is complete, however many there are.

It used to be one message cut at 2,000 characters: in The Prince only the first 13 of 16-72 sealed choices
appeared. Now a short message carries an attached text file with every choice, its nonce, the text its commit is
the SHA-256 of, and the commit.
"""

from __future__ import annotations

import hashlib
import json
import re

from bot.host import Delivery, Host
from bot.models import Attachment
from tests.conftest import ALICE

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
