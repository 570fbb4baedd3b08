"""The catch-up digest of a 4-player PRINCIPES game of about 400 events, beside its floor.

Floor, measured in the same run: replaying the same 400 events with the engine's ``replay`` (rules only, no
views). Measured: the digest from the setup for a seat whose last action was the game's first few events (the
worst case, every event replayed), the digest from the host's latest snapshot at or before the seat's last
action (snapshots every 25 events) when the seat last acted one Round ago, its DM text, and the two boards
drawn and encoded.
"""

from __future__ import annotations

from bot.digest import EventRecord, build_digest, digest_text, last_action_index
from render.common import encode_png
from render.digest import digest_boards
from rules.engine import get_game
from rules.engine.playout import Record, play, replay, start, step

from .stats import line, time_ms

EVENTS = 400
SNAPSHOT_EVERY = 25  # as bot/hosting/core.py stores them
REPEAT = 15


def _recorded() -> tuple[object, list[EventRecord], list[dict]]:
    game = get_game("principes")
    played = play(game, 4, 7, stop_after=EVENTS)
    again = start(game, 4, played.options, 7)
    records, states = [], [again.state]
    for record in played.records:
        events = step(game, again, record.seat, record.action)
        log = [[event.kind, event.text] for event in events]
        records.append(EventRecord(record.seat, record.action, record.draws, log, f"user-{record.seat}"))
        states.append(again.state)
    return played, records, states


def run() -> None:
    game = get_game("principes")
    played, records, states = _recorded()
    names = ["alice", "bob", "carol", "dave"]
    options, draws = played.options, played.setup_draws  # type: ignore[attr-defined]
    raw = [Record(r.seat or 0, r.action, r.draws) for r in records]
    floor = time_ms(lambda: replay(game, 4, options, draws, raw), REPEAT)
    print(line(f"replay of {len(records)} events (floor)", floor))

    first_own = min(index for index, record in enumerate(records) if record.seat == 0)
    whole = time_ms(lambda: build_digest(game, options, draws, records, names, 0, first_own), REPEAT)
    print(line(f"digest from the setup, {len(records) - first_own - 1} events since", whole, min(floor)))

    seat = records[-1].seat or 0
    round_ago = last_action_index(records[: len(records) - 60], seat)
    assert round_ago is not None
    snapshot = (round_ago + 1) // SNAPSHOT_EVERY * SNAPSHOT_EVERY
    recent = time_ms(
        lambda: build_digest(
            game, options, draws, records, names, seat, round_ago, start=(snapshot, states[snapshot])
        ),
        REPEAT,
    )
    print(
        line(f"digest from the snapshot at {snapshot}, {len(records) - round_ago - 1} events since", recent)
    )

    digest = build_digest(game, options, draws, records, names, seat, round_ago)
    text = time_ms(lambda: digest_text(digest), REPEAT)
    print(line(f"DM text ({len(digest_text(digest))} characters)", text))

    def draw_boards() -> list[bytes]:
        return [encode_png(board.image) for board in digest_boards(game.key, digest.before, digest.after)]

    draw_boards()  # the static layers, once, as a running bot has them
    print(line("two boards drawn, captioned and encoded", time_ms(draw_boards, REPEAT)))
