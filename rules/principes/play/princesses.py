"""Princesses (rulebook PRINCESSES; resolutions 23, 30 and 31): missions, their cards, removal.

At the start of each Period, after the Princeps chose the turn order and before the History card (resolution 31),
the Princesses of the past Period leave the map and each player, in turn order, sends a new one
(``send <area>``) to:

- a Neighbour's area (the off-map area, or the Pomeranian land): a marriage; that Neighbour's units may not end a
  move on the player's lands this Period (resolution 23, checked by ``neighbours.forbidden``);
- the player's own Capital, if they control it: they draw 1 Court or Neighbour card now (``draw court`` /
  ``draw neighbour``) and again at the start of the Period's second Round;
- another player's Capital, if that player controls it: that player discards 1 Court or Neighbour card of their
  choice now (``discard <card>``; they may sell or play cards for support first) and again next Round.

Never to the area of the player's previous mission, never where another Princess is. Lady of the Court makes
each of those draws or discards 2 cards. Dynastic Marriage sends the Princess again (even if removed) to a new
legal area and resolves her arrival at once. A Princess in a Capital is removed (until the next Period) when the
land changes hands (taken over, or won in battle by foreign units, or by her own player's units for a saboteur),
or when it is devastated (:func:`remove_princess`, called by the Invaders).

The missions keep their order, but while one is asked (or the draws and discards it causes) the later players may
answer theirs ahead (:func:`ahead`, issue 18): each answer is given at its turn, its first choice still legal then.

Sub-state: ``play["princesses"] = {p: {"last": area | None, "host": controller when she arrived}}`` and
``play["princess_queue"]`` = the steps still to resolve, each ``{"do": "send"|"draw"|"discard", "who": p,
"by": p}``; ``flow.advance`` runs them before anything else. The figure stands in the area's ``units``
(``{"princess": 1}``), taken from and returned to the supply.
"""

from __future__ import annotations

from ..data import catalog
from ..effects import Term
from ..schema import PrincessRecord, PrincessStep, PState, Units
from ..state import controllers
from .common import (
    Ctx,
    active,
    add_units,
    capital,
    card_id_from,
    card_record,
    draw,
    land_name,
    name,
    prompt,
    round_order,
    to_deck_bottom,
    to_pool,
)
from .effects_engine import Effect, register_primitive, rule_terms
from .together import ask_together, has_sealed, sealed_answer, together

KINDS = ("princess", "princess_draw", "princess_discard")
SEND_PROMPT = (
    "Send your Princess on a mission: a Neighbour (marriage: immunity from it "
    "this Period), your Capital (draw cards) or a rival's Capital (they discard)."
)
DRAW_PROMPT = "Your Princess holds court in your Capital: draw a Court or a Neighbour card."
NEIGHBOUR_FACTIONS = ("GER", "BOH", "HUN", "RUS", "WPOM", "EPOM")
#: where a Princess stands when she is on no mission
AWAY = ("home", "removed")


def _record(ctx_state: PState, code: str) -> PrincessRecord:
    book = ctx_state["play"].setdefault("princesses", {})
    return book.setdefault(code, {"last": None, "host": None})


def _last(state: PState, code: str) -> str | None:
    """The area of the player's previous mission, read without writing a record: ``legal_areas`` also serves
    ``ahead``, which a host asks of the live state between moves and which must leave it as it is."""
    record = state["play"].get("princesses", {}).get(code)
    return record["last"] if record is not None else None


def neighbour_areas() -> dict[str, str]:
    """Area (off-map area or Pomeranian land) -> the Neighbour faction living there."""
    factions = catalog().factions
    return {str(factions[faction]["home"]): faction for faction in NEIGHBOUR_FACTIONS}


def area_name(area: str) -> str:
    data = catalog()
    return str(data.offmap[area]["name"]) if area in data.offmap else land_name(area)


def strength(state: PState, code: str) -> int:
    """Cards a Princess gives or takes each time: 1, or n with ``princess(strength(n))`` (Lady of the Court)."""
    values = [
        term.args[0].args[0].number or 1
        for term in rule_terms(state, code, "princess")
        if term.args[0].call and term.args[0].name == "strength"
    ]
    return max(values, default=1)


def legal_areas(state: PState, code: str) -> list[str]:
    """Where the player may send the Princess: own Capital first (if controlled), then the other players'
    controlled Capitals, then the Neighbours; never the previous mission's area nor another Princess's."""
    control = controllers(state)
    taken = {
        player["princess"]
        for other, player in state["players"].items()
        if other != code and player["princess"] not in AWAY
    }
    last = _last(state, code)
    current = state["players"][code]["princess"]
    capitals = [capital(code)] + [
        capital(other) for other in state["seats"] if other != code and active(state, other)
    ]
    areas = [land for land in capitals if control.get(land) == catalog().lands[land]["principality"]]
    areas += sorted(neighbour_areas())
    return [area for area in areas if area not in taken and area != last and area != current]


# ---- the figure ----------------------------------------------------------------------------------------------


def _units(state: PState, area: str) -> dict[str, Units]:
    place = state["offmap"][area] if area in state["offmap"] else state["lands"][area]
    return place["units"]


def _lift(state: PState, code: str) -> None:
    """Take the figure off the map back to the supply (wherever she stands)."""
    where = state["players"][code]["princess"]
    if where in AWAY:
        return
    units = _units(state, where)
    mine = units.get(code, {})
    if mine.get("princess"):
        if where in state["lands"]:
            add_units(state, where, code, "princess", -1)
        else:
            mine["princess"] -= 1
            if not mine["princess"]:
                del mine["princess"]
            if not mine:
                del units[code]
        to_pool(state, code, "princess", 1)


def _clear_figure(state: PState, code: str) -> None:
    """An eliminated player's Princess leaves the map, wherever she stands (resolution 44)."""
    for area in [*state["lands"], *state["offmap"]]:
        if _units(state, area).get(code, {}).get("princess"):
            state["players"][code]["princess"] = area
            _lift(state, code)
    state["players"][code]["princess"] = "removed"


def _place(state: PState, code: str, area: str) -> None:
    pool = state["supply"]["units"].get(code, {})
    if pool.get("princess"):
        pool["princess"] -= 1
        if not pool["princess"]:
            del pool["princess"]
    if area in state["lands"]:
        add_units(state, area, code, "princess", 1)
    else:
        mine = state["offmap"][area]["units"].setdefault(code, {})
        mine["princess"] = mine.get("princess", 0) + 1
    state["players"][code]["princess"] = area


def remove_princess(state: PState, land: str, ctx: Ctx | None = None) -> list[str]:
    """Remove every Princess standing on ``land`` (devastation, resolution 30; takeover); she returns at the
    next Period. Returns the principalities whose Princess left; logs when ``ctx`` is given."""
    removed = [code for code, player in state["players"].items() if player["princess"] == land]
    for code in removed:
        _lift(state, code)
        state["players"][code]["princess"] = "removed"
        if ctx is not None:
            ctx.log(
                "princess_removed",
                f"{name(code)}'s Princess is removed from {area_name(land)}; she returns at the next Period.",
            )
    return removed


def check(ctx: Ctx) -> None:
    """A Princess leaves when her land changes hands (taken over, or won in battle) and when her player is
    eliminated (resolution 44)."""
    state = ctx.state
    control = controllers(state)
    for code, player in state["players"].items():
        if player["eliminated"]:
            _clear_figure(state, code)
            continue
        where = player["princess"]
        if where in AWAY:
            continue
        if where in state["lands"] and control.get(where) != _record(state, code)["host"]:
            remove_princess(state, where, ctx)


# ---- the Round's steps -------------------------------------------------------------------------------------


def start_round(ctx: Ctx) -> None:
    """At the start of a Period: the old Princesses leave and everyone sends one; in the second Round of a
    Period: the Princesses in Capitals give or take their cards again (resolution 31)."""
    state = ctx.state
    queue = ctx.play.setdefault("princess_queue", [])
    if state["round"] % 2 == 1:
        for code in state["seats"]:
            _lift(state, code)
            state["players"][code]["princess"] = "home"
        if state["round"] > 1:
            ctx.log("princesses_home", "The Princesses of the past Period leave the map.")
        queue += [{"do": "send", "who": code, "by": code} for code in round_order(state)]
        return
    for code in round_order(state):
        queue += arrival_steps(state, code)


def arrival_steps(state: PState, code: str) -> list[PrincessStep]:
    """The draws or discards a Princess's presence causes (none at a Neighbour's)."""
    where = state["players"][code]["princess"]
    if where in AWAY or where not in state["lands"] or not catalog().lands[where]["capital"]:
        return []
    host = catalog().lands[where]["principality"]
    if host == code:
        return [{"do": "draw", "who": code, "by": code}] * strength(state, code)
    if active(state, host):
        return [{"do": "discard", "who": host, "by": code}] * strength(state, code)
    return []


def _kind(entry: PrincessStep) -> str:
    return KINDS[("send", "draw", "discard").index(entry["do"])]


def _prompt_text(entry: PrincessStep) -> str:
    if entry["do"] == "send":
        return SEND_PROMPT
    if entry["do"] == "draw":
        return DRAW_PROMPT
    return (
        f"{name(entry['by'])}'s Princess plots in your Capital: discard a "
        "Court or Neighbour card (you may sell or play cards for support first)."
    )


def step(ctx: Ctx) -> None:
    """Pose the first waiting step's prompt (with option ``together``, the steps of its kind asked of every
    player at once the first time, and an answer sealed so applied at its turn), or skip it when there is
    nothing to choose."""
    queue = ctx.play["princess_queue"]
    entry = queue[0]
    who = entry["who"]
    kind = _kind(entry)
    answers = options(ctx, who, kind)
    sealed = sealed_answer(ctx, who, kind, answers)
    if not active(ctx.state, who) or not answers:
        queue.pop(0)
        if entry["do"] == "discard" and active(ctx.state, who):
            ctx.log("princess_discard", f"{name(who)} has no Court or Neighbour card to discard.")
        return
    if sealed is not None:
        answer(ctx, who, kind, sealed.split())
    elif not _ask_together(ctx, entry):
        prompt(ctx, who, kind, _prompt_text(entry))


def _ask_together(ctx: Ctx, head: PrincessStep) -> bool:
    """Option ``together``: the Period's missions are asked of every player at once, then the draws and
    discards they cause (each player's first; the missions' arrivals wait until every mission is placed,
    ``send``), as are the second Round's. True: asked."""
    queue = ctx.play["princess_queue"]
    sending = head["do"] == "send"
    batch = [e for e in queue if (e["do"] == "send") == sending]
    if not sending:
        batch = queue[: next((i for i, e in enumerate(queue) if e["do"] == "send"), len(queue))]
    asked: dict[str, tuple[str, str]] = {}
    for entry in batch:
        who = entry["who"]
        if who not in asked and active(ctx.state, who) and options(ctx, who, _kind(entry)):
            asked[who] = (_kind(entry), _prompt_text(entry))
    slot = f"r{ctx.state['round']}:princess" if sending else f"r{ctx.state['round']}:princess_arrivals"
    return ask_together(ctx, asked, slot)


# ---- missions collected ahead (issue 18) --------------------------------------------------------------------

#: the Princess decisions a later player may answer ahead, while an earlier one is asked: the rulebook fixes
#: their order ("each player (in the set order), assigns their Princess to one of three tasks") and an earlier
#: Princess may take the area a later one wanted ("Only one Princess can occupy one area at a time"), so the
#: missions are not asked at the same time: the later players' answers are collected ahead, and each is given
#: at its turn, its first choice still legal then
#: and so are the draws of the Period's second Round ("again at the start of the Period's second Round"), asked in
#: the same order
AHEAD_KINDS = ("princess", "princess_draw")


def slot(round_no: int, kind: str) -> str | None:
    """The name of a Princess mission decision (one per player per Period, the same for each player of the
    Period's queue and never again in the game): its Round, the first of the Period."""
    return f"r{round_no}:{kind}" if kind in AHEAD_KINDS else None


def ahead(ctx: Ctx) -> dict[str, str]:
    """While a step of the Princess queue is asked (a mission, or the draws and discards an earlier mission
    caused), the players whose mission or second-Round draw is still to come and who have something to choose
    (as the board stands now), by principality: the prompt kind of the nearest."""
    queue = ctx.play.get("princess_queue") or []
    first = ctx.play["prompts"].get(queue[0]["who"]) if queue else None
    if first is None or first["kind"] not in KINDS:
        return {}
    found: dict[str, str] = {}
    for entry in queue[1:]:
        code, kind = entry["who"], _kind(entry)
        if (
            kind in AHEAD_KINDS
            and code not in ctx.play["prompts"]
            and code not in found
            and active(ctx.state, code)
            and options(ctx, code, kind)
            and not has_sealed(ctx, code, kind)
        ):
            found[code] = kind
    return found


def ahead_prompt(kind: str) -> str:
    assert kind in AHEAD_KINDS
    text = SEND_PROMPT if kind == "princess" else DRAW_PROMPT
    return f"{text} (answered ahead: given when your turn comes, if still allowed then)"


def options(ctx: Ctx, code: str, kind: str) -> list[str]:
    state = ctx.state
    if kind == "princess":
        return [f"send {area}" for area in legal_areas(state, code)]
    if kind == "princess_draw":
        return [f"draw {deck}" for deck in ("court", "neighbour") if state["decks"][deck]]
    return [
        f"discard {card.lower()}"
        for card in state["players"][code]["hand"]
        if card_record(card)["deck"] in ("court", "neighbour")
    ]


def answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    ctx.play["princess_queue"].pop(0)
    if kind == "princess":
        send(ctx, code, words[1])
    elif kind == "princess_draw":
        draw(ctx.state, code, words[1])
        ctx.log("princess_draw", f"{name(code)}'s Princess brings a {words[1].title()} card.")
    else:
        card = card_id_from(ctx.state, code, words[1])
        assert card is not None
        ctx.state["players"][code]["hand"].remove(card)
        to_deck_bottom(ctx.state, card)
        deck = card_record(card)[
            "deck"
        ].title()  # the deck shows, the card stays hidden (as a Politics return)
        ctx.log("princess_discard", f"{name(code)} discards a {deck} card (a foreign Princess at court).")


def send(ctx: Ctx, code: str, area: str) -> None:
    """Place the Princess and resolve her arrival: the draws or discards come first in the queue."""
    state = ctx.state
    _lift(state, code)
    _place(state, code, area)
    record = _record(state, code)
    record["last"] = area
    record["host"] = controllers(state).get(area) if area in state["lands"] else None
    neighbours = neighbour_areas()
    if area in neighbours:
        ctx.log(
            "princess_sent",
            f"{name(code)}'s Princess marries into {name(neighbours[area])}: its units "
            f"cannot end a move on {name(code)}'s lands this Period.",
        )
    else:
        host = catalog().lands[area]["principality"]
        role = "holds court at home" if host == code else f"plots at the court of {name(host)}"
        ctx.log("princess_sent", f"{name(code)}'s Princess goes to {land_name(area)}: she {role}.")
    queue = ctx.play.setdefault("princess_queue", [])
    # with option together the missions' arrivals come once every mission is placed (asked together then)
    later = together(state) and any(entry["do"] == "send" for entry in queue)
    at = next((i for i, entry in enumerate(queue) if entry["do"] != "send"), len(queue)) if later else 0
    queue[at:at] = arrival_steps(state, code)


def card_send(ctx: Ctx, code: str, area: str | None) -> bool:
    """Dynastic Marriage: send her now, even if removed, to a new legal area."""
    if area is None or area not in legal_areas(ctx.state, code):
        return False
    send(ctx, code, area)
    return True


@register_primitive("princess")
def _princess(effect: Effect, args: tuple[Term, ...]) -> bool:
    """Dynastic Marriage (``princess(send)``): the Princess goes to the chosen area now."""
    return args[0].name == "send" and card_send(effect.ctx, effect.who, effect.land)
