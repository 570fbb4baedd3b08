"""SUMMONING the COUNCIL (rulebook p. 26, POLITICS ACTION; resolutions 35, 36 and 46): the host summons it
instead of drawing; every player in turn order plays Court and Neighbour cards for their support (``pledge``) or
Council texts, then the host leads it when highest or tied-highest on two of the three tracks (Might, People,
Clergy; one for Polonia Minor holding Cracovia, House of Princeps) and takes the Princeps token; all three tracks
at 10 crown the host King of Poland and win.

The Common Council of a History card (``history``) uses the same card phase and the same arithmetic.
"""

from __future__ import annotations

from ..schema import Action, PState
from ..state import controllers, might
from .cards import plays
from .common import (
    TRACK_MAX,
    Ctx,
    card_id_from,
    card_title,
    change_track,
    name,
    prompt,
    round_order,
    support_tracks,
    to_deck_bottom,
)
from .effects_engine import fire
from .ending import finish

ELDER_BLOOD_CLERGY = 2
PROMPT = "Council: play Court and Neighbour cards for their support, then done."


def summon_council(ctx: Ctx, code: str, action: Action) -> None:
    ctx.log("council", f"{name(code)} summons a Council.")
    if code == "PMA" and controllers(ctx.state).get("gnesna") == "PMA":
        change_track(ctx, code, "clergy", ELDER_BLOOD_CLERGY, "Elder Blood: the Archbishop of Gnesna")
    fire(ctx, code, "council_host")  # Przemysł II: before the card phase
    action["count"] += 1
    action["stage"] = "council"
    action["queue"] = list(round_order(ctx.state))
    ctx.play["council"] = code
    for player in round_order(ctx.state):
        fire(ctx, player, "council_start")  # Knightly Culture: every Council, not only one's own


def step(ctx: Ctx, action: Action) -> bool:
    """Ask the next player of the card phase; once everyone has played, the verdict. True when the Council (and
    with it the Politics action) is over and the game goes on."""
    queue = action["queue"]
    while queue and ctx.state["players"][queue[0]]["eliminated"]:
        queue.pop(0)
    if queue:
        prompt(ctx, queue[0], "council", PROMPT)
        return False
    ctx.play["council"] = None
    council_verdict(ctx, action["who"])
    return ctx.play["result"] is None


def council_options(ctx: Ctx, code: str) -> list[str]:
    """``pledge <card> <track>`` for each Court or Neighbour card's support, the Council texts, ``done``."""
    result = [
        f"pledge {card.lower()} {track}"
        for card in ctx.state["players"][code]["hand"]
        for track in support_tracks(card)
    ]
    return result + plays(ctx, code, "council") + ["done"]


def pledge(ctx: Ctx, code: str, words: list[str]) -> None:
    """``pledge <card> <track>``: the card goes under its deck and the track gains 1."""
    card = card_id_from(ctx.state, code, words[1])
    assert card is not None
    ctx.state["players"][code]["hand"].remove(card)
    to_deck_bottom(ctx.state, card)
    ctx.log("council_card", f"{name(code)} plays {card_title(card)} at the Council.")
    change_track(ctx, code, words[2], 1, "Council card")


def positions(state: PState, code: str) -> tuple[int, int, int]:
    """Might (the track shows at most 10), People, Clergy."""
    player = state["players"][code]
    return min(might(state)[code], TRACK_MAX), player["people"], player["clergy"]


def qualifying_tracks(table: dict[str, tuple[int, int, int]], code: str) -> int:
    """On how many tracks ``code`` is highest or tied-highest in ``table`` (positions of the active players;
    resolution 36)."""
    mine = table[code]
    return sum(1 for track in range(3) if all(mine[track] >= other[track] for other in table.values()))


def tracks_needed(state: PState, code: str) -> int:
    """Two tracks; Polonia Minor holding Cracovia needs one (House of Princeps)."""
    return 1 if code == "PMI" and controllers(state).get("cracovia") == "PMI" else 2


def council_verdict(ctx: Ctx, host: str) -> None:
    """Coronation with all three tracks at 10 beats claiming the token (resolution 35)."""
    state = ctx.state
    if state["players"][host]["eliminated"]:
        return
    if all(value >= TRACK_MAX for value in positions(state, host)):
        ctx.log(
            "coronation", f"{name(host)} has all three tracks at 10 and crowns its Prince King of Poland!"
        )
        finish(ctx, [host], f"{name(host)} is crowned at the Council and wins.")
        return
    table = {code: positions(state, code) for code in round_order(state)}
    if qualifying_tracks(table, host) >= tracks_needed(state, host):
        if state["princeps"]["holder"] == host:
            ctx.log("princeps_kept", f"{name(host)} leads the Council and keeps the Princeps token.")
        else:
            state["princeps"]["holder"] = host
            ctx.log(
                "princeps_claimed",
                f"{name(host)} leads the Council and claims the Princeps token "
                "(the turn order of this Round is unchanged).",
            )
    else:
        ctx.log("council_failed", f"{name(host)} does not lead the Council: the Princeps token stays.")
