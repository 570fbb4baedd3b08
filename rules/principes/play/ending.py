"""How a game of PRINCIPES ends: coronation, the Princeps after the last Round, elimination, a draw."""

from __future__ import annotations

from .common import Ctx, active_players, name


def finish(ctx: Ctx, winners: list[str], reason: str, draw: bool = False) -> None:
    seats = sorted(ctx.state["players"][code]["seat"] for code in winners)
    ctx.play["result"] = {"winners": seats, "draw": draw, "reason": reason}
    ctx.play["prompts"] = {}
    ctx.play["phase"] = "over"
    ctx.log("game_end", reason)


def finish_by_princeps(ctx: Ctx) -> None:
    holder = ctx.state["princeps"]["holder"]
    finish(ctx, [holder], f"After the last Round the Princeps, {name(holder)}, wins.")


def check_last_standing(ctx: Ctx) -> bool:
    """Elimination victory, or a draw when the last players fall together (resolution 34)."""
    alive = active_players(ctx.state)
    if len(alive) == 1:
        finish(ctx, alive, f"{name(alive[0])} is the last Prince standing and wins.")
        return True
    if not alive:
        finish(ctx, [], "The last Princes fell together: the game is a draw.", draw=True)
        return True
    return False
