"""Dynasties: Prince changes at the end of Periods I and II and after a death in battle, and elimination.

``state["play"]["succession"]`` queues ``{"who", "why": "period"|"death", "stage", "candidates"}``; ``step``
works on its head: choose the Prince (resolution 32), then place his figure on a controlled land (resolution 45).
"""

from __future__ import annotations

from ..data import catalog
from ..schema import Succession
from .common import (
    Ctx,
    active,
    add_units,
    capital,
    controlled_lands,
    name,
    occupants,
    prince_land,
    prompt,
    to_deck_bottom,
)
from .effects_engine import Effect, effect_of, run
from .ending import check_last_standing
from .together import ask_together, sealed_answer


def prince_period(prince: str) -> int:
    return int(catalog().kind_of(prince)["period"])


def prince_name(prince: str) -> str:
    return str(catalog().kind_of(prince)["name"])


def candidates(ctx: Ctx, code: str, why: str) -> list[str]:
    """Living Princes who may take the throne: the current Period's, else (after a death) the next one's."""
    period = ctx.state["period"]
    living = ctx.state["players"][code]["princes"]
    now = [prince for prince in living if prince_period(prince) == period]
    if now or why == "period":
        return now
    return [prince for prince in living if prince_period(prince) == period + 1]


def prince_died(ctx: Ctx, codes: list[str]) -> None:
    """Ruling Princes fell in battle: successors are queued; players without one fall together."""
    fallen = []
    for code in codes:
        player = ctx.state["players"][code]
        fallen_prince = player["prince"]
        assert fallen_prince is not None, "only a ruling Prince falls in battle"
        ctx.log("prince_death", f"{name(code)}'s Prince {prince_name(fallen_prince)} dies in battle.")
        player["prince"] = None
        if candidates(ctx, code, "death"):
            ctx.play["succession"].append({"who": code, "why": "death", "stage": None})
        else:
            fallen.append(code)
    for code in fallen:
        lose_last_prince(ctx, code)
    if fallen:
        check_last_standing(ctx)


def lose_last_prince(ctx: Ctx, code: str) -> None:
    """No Prince can take the throne: eliminated, or (option elimination=off) an heir rules without a figure."""
    if ctx.state["options"].get("elimination", "on") == "off":
        ctx.log(
            "heir", f"{name(code)} has no Prince left: a young heir keeps the claim (no-elimination variant)."
        )
        return
    if ctx.state["players"][code].get("heir") or _play_heir(ctx, code):
        return
    eliminate(ctx, code)


def _play_heir(ctx: Ctx, code: str) -> bool:
    """The Heir Court card in hand is played at once: a young heir rules without figure or rule until a later
    Prince takes the throne (the player stays in the game)."""
    hand = ctx.state["players"][code]["hand"]
    card = next((c for c in hand if "survive_elimination" in {t.name for t in effect_of(c)}), None)
    if card is None:
        return False
    hand.remove(card)
    to_deck_bottom(ctx.state, card)
    ctx.log(
        "court_card",
        f"{name(code)} plays the Heir: a young heir rules until a later Prince takes the throne.",
    )
    run(Effect(ctx, code, card))
    return True


def eliminate(ctx: Ctx, code: str) -> None:
    """Resolution 44: units turn neutral, Princess off the map, cards, gold and tiles back; next Round is last."""
    state, play = ctx.state, ctx.play
    player = state["players"][code]
    player["eliminated"] = True
    player["prince"] = None
    player["plan"] = None
    if code not in state["neutral"]:
        state["neutral"].append(code)
    for card in player["hand"]:
        to_deck_bottom(state, card)
    player["hand"] = []
    if state["supply"]["gold"] is not None:
        state["supply"]["gold"] += player["gold"]
    player["gold"] = 0
    for colour, tiles in player["progress"].items():
        state["market"][colour]["stack"].extend(tiles)
        player["progress"][colour] = []
    player["princess"] = "removed"
    play["prompts"].pop(code, None)
    play["private"][code] = {}
    play["succession"] = [entry for entry in play["succession"] if entry["who"] != code]
    play["last_round"] = min(play["last_round"], state["round"] + 1)
    ctx.log(
        "elimination",
        f"{name(code)} has no Prince left and is eliminated; its units are neutral now. "
        f"Round {play['last_round']} is the last.",
    )
    if state["princeps"]["holder"] == code:
        _pass_princeps(ctx, code)


def _pass_princeps(ctx: Ctx, code: str) -> None:
    """An eliminated Princeps hands the token to the next active player in the seat cycle."""
    cycle = ctx.state["turn_cycle"]
    start = cycle.index(code)
    for offset in range(1, len(cycle)):
        heir = cycle[(start + offset) % len(cycle)]
        if active(ctx.state, heir):
            ctx.state["princeps"]["holder"] = heir
            ctx.log("princeps_passed", f"The Princeps token passes to {name(heir)}.")
            return


# ---- the succession queue ----------------------------------------------------------------------------------


def step(ctx: Ctx) -> None:
    entry = ctx.play["succession"][0]
    code = entry["who"]
    if not active(ctx.state, code):
        ctx.play["succession"].pop(0)
        return
    if entry["stage"] is None:
        _choose_stage(ctx, entry)
    else:
        _place_stage(ctx, entry)


def _choose_stage(ctx: Ctx, entry: Succession) -> None:
    code, why = entry["who"], entry["why"]
    player = ctx.state["players"][code]
    ruling = player["prince"]
    if why == "period" and ruling is not None and prince_period(ruling) >= ctx.state["period"]:
        ctx.play["succession"].pop(0)  # a Prince of the new Period already rules: no change
        return
    options = candidates(ctx, code, why)
    if not options:
        ctx.play["succession"].pop(0)
        if why == "period" and ruling is None:
            return  # an heir keeps waiting for a later Prince (no-elimination variant)
        if ruling is not None:
            player["prince"] = None
            ctx.log("prince_old_age", f"{name(code)}'s Prince {prince_name(ruling)} dies of old age.")
        lose_last_prince(ctx, code)
        check_last_standing(ctx)
        return
    if len(options) == 1:
        crown(ctx, entry, options[0])
        return
    entry["candidates"] = options
    sealed = sealed_answer(ctx, code, "prince_choice", choice_options(ctx, code))
    if sealed is not None:
        choice_answer(ctx, code, sealed.split())
        return
    choosing = [other for other in _period_successions(ctx) if len(_choices(ctx, other)) > 1]
    for other in choosing:
        other["candidates"] = _choices(ctx, other)
    slot = f"r{ctx.state['round']}:prince_choice"
    asked = {other["who"]: ("prince_choice", _choice_prompt(other["candidates"])) for other in choosing}
    if entry["why"] != "period" or not ask_together(ctx, asked, slot):
        prompt(ctx, code, "prince_choice", _choice_prompt(options))


def _choice_prompt(options: list[str]) -> str:
    return f"Choose your new Prince: {', '.join(f'{prince_name(p)} ({p})' for p in options)}."


def _place_prompt(ctx: Ctx, code: str) -> str:
    where = prince_land(ctx.state, code)
    return "Place your Prince's figure on a land you control" + (
        " or keep it where it stands." if where else "."
    )


def _period_successions(ctx: Ctx) -> list[Succession]:
    """The Period's Prince changes still to come (at a Period's end, one per player, in turn order) whose player
    will change Prince: those asked together (option together)."""
    return [
        entry
        for entry in ctx.play["succession"]
        if entry["why"] == "period" and active(ctx.state, entry["who"]) and _changes(ctx, entry)
    ]


def _changes(ctx: Ctx, entry: Succession) -> bool:
    """Whether the succession crowns a Prince (chosen already, or a candidate to choose)."""
    if entry["stage"] is not None:
        return True
    ruling = ctx.state["players"][entry["who"]]["prince"]
    new_rules = ruling is not None and prince_period(ruling) >= ctx.state["period"]
    return not new_rules and bool(candidates(ctx, entry["who"], entry["why"]))


def _choices(ctx: Ctx, entry: Succession) -> list[str]:
    return [] if entry["stage"] is not None else candidates(ctx, entry["who"], entry["why"])


def _entry_of(ctx: Ctx, code: str) -> Succession:
    """The first Prince change of the player still to come (the one being decided, or asked together)."""
    return next(entry for entry in ctx.play["succession"] if entry["who"] == code)


def choice_options(ctx: Ctx, code: str) -> list[str]:
    """``prince <card>`` for each candidate of the player's succession being decided."""
    return [f"prince {p.lower()}" for p in _entry_of(ctx, code).get("candidates", [])]


def choice_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    entry = ctx.play["succession"][0]
    crown(ctx, entry, next(p for p in entry["candidates"] if p.lower() == words[1]))


def crown(ctx: Ctx, entry: Succession, prince: str) -> None:
    code = entry["who"]
    player = ctx.state["players"][code]
    player.pop("heir", None)  # the Heir's regency ends when a Prince takes the throne
    old = player["prince"]
    if old is not None:
        ctx.log("prince_old_age", f"{name(code)}'s Prince {prince_name(old)} dies of old age.")
    player["princes"].remove(prince)
    player["prince"] = prince
    ctx.log("succession", f"{prince_name(prince)} now rules {name(code)}.")
    entry["stage"] = "place"


def _place_stage(ctx: Ctx, entry: Succession) -> None:
    code = entry["who"]
    lands = controlled_lands(ctx.state, code)
    if not lands:
        ctx.play["succession"].pop(0)  # the figure waits off the map for an Assembly (resolution 8)
        return
    sealed = sealed_answer(ctx, code, "prince_place", place_options(ctx, code))
    if sealed is not None:
        place_answer(ctx, code, sealed.split())
        return
    slot = f"r{ctx.state['round']}:prince_place"
    placing = {
        other["who"]: ("prince_place", _place_prompt(ctx, other["who"]))
        for other in _period_successions(ctx)
        if controlled_lands(ctx.state, other["who"])
    }
    if entry["why"] != "period" or not ask_together(ctx, placing, slot):
        prompt(ctx, code, "prince_place", _place_prompt(ctx, code))


def place_options(ctx: Ctx, code: str) -> list[str]:
    options = [f"place {land}" for land in sorted(controlled_lands(ctx.state, code))]
    if prince_land(ctx.state, code):
        options.insert(0, "stay")
    return options


def place_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    """``place <land>`` or ``stay``."""
    place(ctx, code, None if words == ["stay"] else words[1])


def place(ctx: Ctx, code: str, land: str | None) -> None:
    """Put the figure on ``land`` (from the map or the pool); ``None`` keeps it where it stands."""
    ctx.play["succession"].pop(0)
    if land is None:
        return
    where = prince_land(ctx.state, code)
    if where is not None:
        add_units(ctx.state, where, code, "prince", -1)
    else:
        pool = ctx.state["supply"]["units"].setdefault(code, {})
        pool["prince"] = pool.get("prince", 0) - 1
        if pool["prince"] <= 0:
            del pool["prince"]
    add_units(ctx.state, land, code, "prince", 1)
    ctx.log("prince_placed", f"{name(code)} places its Prince on {catalog().lands[land]['name']}.")


# ---- a neutral Prince returns (resolution 52) ---------------------------------------------------------------


def queue_respawn(ctx: Ctx, faction: str, by: str | None) -> None:
    """A neutral principality's Prince was removed: he returns on one of its lands, which the player who removed
    him chooses (rulebook, games for 2 and 3 players) once the battle is over."""
    ctx.play.setdefault("respawn", []).append({"faction": faction, "by": by})


def respawn_options(ctx: Ctx, code: str | None = None) -> list[str]:
    """``respawn <land>``: his Capital first, then the lands of his principality, where no foreign unit stands."""
    faction = ctx.play["respawn"][0]["faction"]
    lands = [capital(faction)] + sorted(
        land
        for land, record in catalog().lands.items()
        if record["principality"] == faction and land != capital(faction)
    )
    return [f"respawn {land}" for land in lands if all(f == faction for f in occupants(ctx.state, land))]


def respawn_step(ctx: Ctx) -> None:
    entry = ctx.play["respawn"][0]
    faction, by = entry["faction"], entry["by"]
    options = respawn_options(ctx)
    if not options:
        ctx.play["respawn"].pop(0)
        ctx.log(
            "prince_waits", f"The neutral Prince of {name(faction)} has no free land: he waits off the map."
        )
        return
    if by is None or not active(ctx.state, by) or len(options) == 1:
        respawn(ctx, options[0].split()[1])
        return
    prompt(
        ctx,
        by,
        "respawn",
        f"You removed the neutral Prince of {name(faction)}: choose the land of {name(faction)} where he returns.",
    )


def respawn_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    respawn(ctx, words[1])


def respawn(ctx: Ctx, land: str) -> None:
    faction = ctx.play["respawn"].pop(0)["faction"]
    pool = ctx.state["supply"]["units"].get(faction, {})
    if pool.get("prince", 0) > 0:
        pool["prince"] -= 1
        if not pool["prince"]:
            del pool["prince"]
    add_units(ctx.state, land, faction, "prince", 1)
    ctx.log(
        "prince_respawn", f"The neutral Prince of {name(faction)} returns to {catalog().lands[land]['name']}."
    )
