"""History cards (PRINCIPES IV): the revealed card's text, and its icons at the end of the Round.

When the Princeps has chosen the direction, :func:`reveal` announces the card, applies its text through the
effect interpreter with the Princeps as the effect's player (``each`` = every player in the Round's turn order,
the Princeps first), and announces the icons. An "In this Round" text (``this_round(...)``) is kept in
``play["round_effects"]``: the effect interpreter counts it among the modifiers in force (``effects_engine.
round_terms``: rule primitives such as ``movement_bonus``, ``cost_discount``, ``track_cost``; ``fire_round``:
``at(before_battle|after_battle, ...)``) until the Round ends. Texts that let players choose are prompts, in turn
order:

- ``choose(A, B)`` -> ``history_choice``: ``choose pay`` / ``choose clergy`` (only what the player can do; a
  single possibility applies at once; none: nothing);
- ``build(each, kind, own_land, cost)`` -> ``history_build``: ``found <gord>`` or ``build castle <land>``, or
  ``pass``;
- ``relocate(each, prince, own_land)`` -> ``history_relocate``: ``place <land>`` or ``stay``.

At the end of every Round but the last (:func:`start_icons`) the icons resolve, the upper one first, each
announced with the public event ``icon_<icon>``:

- ``division``: each player in turn may place a Division token (``division <land>`` or ``pass``) on a land of
  another player's principality that player controls and where no unit (a Princess included) stands
  (resolution 24);
- ``urbanization``: each player may found one City for free on a land they do not control (``found <gord>`` or
  ``pass``; the Might goes to whoever controls the land, resolution 26);
- ``release``: each player must remove one Knight or Footman from the map (``release <unit> <land>``; at once
  when there is one choice, nothing without one; resolution 27);
- ``council``: a Common Council (``common_council``: pledge/play Council cards, then ``done``, in turn order);
  no host: a coronation (all three tracks at 10) wins, the first in turn order; otherwise the Princeps keeps the
  token if qualified, else the first qualified player in turn order claims it (resolution 35);
- ``balt_raid``, ``teutonic``, ``mongols``: the Invaders (``invaders``).

The event sub-state is ``play["event"] = {"part": "text"|"icons", "card", "queue": [players to ask],
"statement": index of the text statement asked, "icons": [left], "icon": current, "army", "movers", "caller"}``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ..data import catalog, city_token
from ..effects import Term
from ..schema import Event, PlayView, PState, Track
from ..state import controllers
from . import invaders
from .building import city_cost, foundable, gord_site
from .cards import play as play_text
from .common import (
    TRACK_MAX,
    Ctx,
    active,
    add_units,
    controlled_lands,
    land_name,
    name,
    prince_land,
    prompt,
    round_order,
    to_pool,
)
from .council import council_options, pledge, positions, qualifying_tracks, tracks_needed
from .effects_engine import Effect, apply_term, effect_of, fire
from .ending import finish
from .together import ask_together, has_sealed, sealed_answer

#: text primitives that ask each player, and the prompt kind they pose
PROMPTED = {"choose": "history_choice", "build": "history_build", "relocate": "history_relocate"}
ICON_TITLES = {
    "division": "Division",
    "urbanization": "Urbanization",
    "release": "Release to Home",
    "council": "Common Council",
    "balt_raid": "Balt Raid",
    "teutonic": "Teutonic Knights",
    "mongols": "Mongol Invasion",
}
QUEUED_ICONS = ("division", "urbanization", "release", "council")
ICON_KINDS = {
    "division": "division",
    "urbanization": "urbanization",
    "release": "release",
    "council": "common_council",
}
KINDS = (
    "history_choice",
    "history_build",
    "history_relocate",
    "division",
    "urbanization",
    "release",
    "common_council",
    *invaders.KINDS,
)


def _record(card: str) -> dict[str, Any]:
    return catalog().kind_of(card)


# ---- the text ----------------------------------------------------------------------------------------------


def reveal(ctx: Ctx, card: str) -> None:
    """Announce the card, apply its text (prompting where players choose) and announce its icons."""
    record = _record(card)
    ctx.log("history_text", f"{record['title']} ({record['year']}): {record['text']}")
    princeps = ctx.state["princeps"]["holder"]
    asked = []
    for index, term in enumerate(effect_of(card)):
        if term.name in PROMPTED:
            asked.append(index)
        else:
            apply_term(Effect(ctx, princeps, card), term)
    icons = [ICON_TITLES[icon] for icon in record.get("icons", [])]
    if ctx.state["round"] >= ctx.play["last_round"]:
        ctx.log("history_icons", f"Icons: {', '.join(icons)}; this is the last Round: they are not resolved.")
    elif icons:
        ctx.log("history_icons", f"At the end of this Round: {' then '.join(icons)}.")
    if asked:
        ctx.play["event"] = {
            "part": "text",
            "card": card,
            "statements": asked,
            "queue": list(round_order(ctx.state)),
        }


def _statement(event: Event) -> Term:
    return effect_of(event["card"])[event["statements"][0]]


def for_one(term: Term) -> Term:
    """The statement as it applies to one player: ``each`` becomes ``self`` (the effect's player)."""
    if term.call:
        return Term(term.name, tuple(for_one(arg) for arg in term.args), call=True)
    return Term("self") if term.name == "each" else term


def _alternative(term: Term) -> str:
    """The word naming one alternative of ``choose``: ``pay``, or the track a ``gain_track`` changes."""
    return "pay" if term.name == "pay" else term.args[1].name if term.name == "gain_track" else term.name


def _possible(state: PState, code: str, term: Term) -> bool:
    player = state["players"][code]
    if term.name == "pay":
        return bool(player["gold"] >= (term.args[1].number or 0))
    if term.name == "gain_track" and (term.args[2].number or 0) < 0:
        return bool(player[cast(Track, term.args[1].name)] > 0)  # the texts name people or clergy
    return True


def _text_options(ctx: Ctx, code: str, kind: str) -> list[str]:
    state, term = ctx.state, _statement(ctx.event)
    if kind == "history_choice":
        return [f"choose {_alternative(alt)}" for alt in term.args if _possible(state, code, alt)]
    if kind == "history_relocate":
        where = prince_land(state, code)
        if where is None:
            return []
        return ["stay"] + [f"place {land}" for land in sorted(controlled_lands(state, code)) if land != where]
    what, cost = term.args[1].name, term.args[3]
    gold = state["players"][code]["gold"]
    if what == "city":  # the interpreter's ``build`` founds the first free gord of a land without a City
        firsts = [
            (land, gord)
            for land, gord in foundable(state, controlled_lands(state, code))
            if not state["lands"][land]["cities"] and gord == catalog().lands[land]["gords"][0]
        ]
        return [f"found {gord['id']}" for land, gord in firsts if city_cost(state, code, gord) <= gold] + [
            "pass"
        ]
    tokens = state["supply"]["tokens"]
    if tokens[what] <= 0 or gold < (cost.number or 0):
        return ["pass"]
    return [
        f"build {what} {land}"
        for land in sorted(controlled_lands(state, code))
        if state["lands"][land]["building"] is None
    ] + ["pass"]


def _text_answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    event = ctx.event
    event["queue"].pop(0)
    term, card = _statement(event), event["card"]
    if kind == "history_choice":
        chosen = next(alt for alt in term.args if _alternative(alt) == words[1])
        apply_term(Effect(ctx, code, card), for_one(chosen))
    elif kind == "history_relocate":
        if words[0] == "place":
            relocate_prince(ctx, code, words[1])
    elif words[0] in ("found", "build"):
        land = gord_site(words[1])[0] if words[0] == "found" else words[2]
        apply_term(Effect(ctx, code, card, land=land), for_one(term))


def _text_step(ctx: Ctx, event: Event) -> None:
    while event["statements"]:
        kind = PROMPTED[_statement(event).name]
        while event["queue"]:
            if _serve_turn(ctx, event, kind, _text_prompt(event, kind), _text_answer):
                return
        event["statements"].pop(0)
        event["queue"] = list(round_order(ctx.state))
    ctx.play["event"] = None


def _text_prompt(event: Event, kind: str) -> str:
    record = _record(event["card"])
    return f"{record['title']}: {record['text']}" + (" (or pass)" if kind == "history_build" else "")


def relocate_prince(ctx: Ctx, code: str, land: str) -> None:
    """Move the Prince figure to a land the player controls (outside Movement; never onto foreign units)."""
    where = prince_land(ctx.state, code)
    if where is None:
        return
    add_units(ctx.state, where, code, "prince", -1)
    add_units(ctx.state, land, code, "prince", 1)
    ctx.log(
        "prince_relocated", f"{name(code)} moves its Prince from {land_name(where)} to {land_name(land)}."
    )


# ---- the icons ---------------------------------------------------------------------------------------------


def start_icons(ctx: Ctx) -> bool:
    """At the end of a Round but the last, open the icons' event once; True if it was opened."""
    state, play = ctx.state, ctx.play
    icons = list(state["history"].get("icons", []))
    if state["round"] >= play["last_round"] or play.get("icons_round") == state["round"] or not icons:
        return False
    card = state["history"]["revealed"]
    assert card is not None, "the Round's History card is revealed"
    play["icons_round"] = state["round"]
    play["event"] = {
        "part": "icons",
        "card": card,
        "icons": icons,
        "icon": None,
        "queue": [],
        "army": None,
        "movers": [],
    }
    return True


def _icons_step(ctx: Ctx, event: Event) -> None:
    if event["icon"] is None:
        if not event["icons"]:
            ctx.play["event"] = None
            return
        icon = event["icons"].pop(0)
        event["icon"] = icon
        ctx.log(f"icon_{icon}", f"{ICON_TITLES[icon]} ({_record(event['card'])['title']}).")
        if icon in QUEUED_ICONS:
            event["queue"] = list(round_order(ctx.state))
            if icon == "council":
                _open_council(ctx)
        else:
            invaders.start(ctx, event, icon)
        return
    icon = event["icon"]
    if icon not in QUEUED_ICONS:
        if invaders.step(ctx, event):
            event["icon"] = None
        return
    kind = ICON_KINDS[icon]
    while event["queue"]:
        if _serve_turn(ctx, event, kind, ICON_PROMPTS[kind], _icon_answer):
            return
    if icon == "council":
        ctx.play["council"] = None
        common_verdict(ctx)
    event["icon"] = None


ICON_PROMPTS = {
    "division": "Division: place a Division token on a unit-free land of another player that they control, or "
    "pass.",
    "urbanization": "Urbanization: found 1 City for free on a land you do not control, or pass.",
    "release": "Release to Home: remove 1 of your Knights or Footmen from the map.",
    "common_council": "Common Council: play Court and Neighbour cards for their support, then done.",
}


def _icon_options(ctx: Ctx, code: str, kind: str) -> list[str]:
    state = ctx.state
    if kind == "division":
        return [f"division {land}" for land in division_lands(state, code)] + ["pass"]
    if kind == "urbanization":
        owners = controllers(state)
        lands = [land for land in sorted(state["lands"]) if owners[land] != code]
        return [f"found {gord['id']}" for _, gord in foundable(state, lands)] + ["pass"]
    if kind == "release":
        return [
            f"release {unit} {land}"
            for land, land_state in sorted(state["lands"].items())
            for unit in ("knight", "footman")
            if land_state["units"].get(code, {}).get(unit)
        ]
    return council_options(ctx, code)


def _icon_answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    event = ctx.event
    if kind == "common_council":
        if words[0] == "pledge":
            pledge(ctx, code, words)
        elif words[0] == "play":
            play_text(ctx, code, words)
        else:
            event["queue"].pop(0)
        return
    event["queue"].pop(0)
    if words == ["pass"]:
        return
    if kind == "division":
        apply_term(
            Effect(ctx, code, event["card"], land=words[1]),
            Term("division", (Term("place"), Term("rival_land")), call=True),
        )
    elif kind == "urbanization":
        land = gord_site(words[1])[0]
        found_city(ctx, code, land, words[1])
    else:
        unit, land = words[1], words[2]
        add_units(ctx.state, land, code, unit, -1)
        to_pool(ctx.state, code, unit, 1)
        ctx.log("released", f"{name(code)} sends a {unit.title()} home from {land_name(land)}.")


def division_lands(state: PState, code: str) -> list[str]:
    """Lands of another player's principality that player controls, with no unit at all and no token
    (resolution 24); none when no Division token is left."""
    if state["supply"]["tokens"]["division"] <= 0:
        return []
    owners = controllers(state)
    lands = catalog().lands
    return [
        land
        for land in sorted(state["lands"])
        if (owner := lands[land]["principality"]) != code
        and active(state, owner)
        and owners[land] == owner
        and not state["lands"][land]["units"]
        and not state["lands"][land]["division"]
    ]


def found_city(ctx: Ctx, code: str, land: str, gord_id: str) -> None:
    """A free City (Urbanization): its token from the supply; the Might goes to the land's controller."""
    gord = next(g for g in catalog().lands[land]["gords"] if g["id"] == gord_id)
    token = city_token(land, gord)
    ctx.state["supply"]["tokens"][token] -= 1
    ctx.state["lands"][land]["cities"][gord_id] = token
    ctx.log("urbanization_city", f"{name(code)} founds the City of {gord['name']} for free.")
    fire(ctx, code, "on_found")  # Przemysł I: a City founded by any means


# ---- the Common Council (resolution 35) --------------------------------------------------------------------


def _open_council(ctx: Ctx) -> None:
    ctx.play["council"] = "common"  # conversions for support wait, as in every Council
    for code in round_order(ctx.state):
        fire(ctx, code, "council_start")  # Knightly Culture


def common_verdict(ctx: Ctx) -> None:
    """No host: the first player in turn order with all three tracks at 10 is crowned and wins; otherwise the
    Princeps keeps the token if qualified, else the first qualified player in turn order claims it."""
    state = ctx.state
    order = round_order(state)
    crowned = [code for code in order if all(value >= TRACK_MAX for value in positions(state, code))]
    if crowned:
        ctx.log(
            "coronation",
            f"{name(crowned[0])} has all three tracks at 10 and is crowned King of Poland at "
            "the Common Council!",
        )
        finish(ctx, [crowned[0]], f"{name(crowned[0])} is crowned at the Common Council and wins.")
        return
    table = {code: positions(state, code) for code in order}
    qualified = [code for code in order if qualifying_tracks(table, code) >= tracks_needed(state, code)]
    holder = state["princeps"]["holder"]
    if not qualified:
        ctx.log("council_failed", "Nobody leads the Common Council: the Princeps token stays.")
    elif holder in qualified:
        ctx.log(
            "princeps_kept", f"{name(holder)} qualifies at the Common Council and keeps the Princeps token."
        )
    else:
        state["princeps"]["holder"] = qualified[0]
        ctx.log(
            "princeps_claimed",
            f"{name(qualified[0])} leads the Common Council and claims the Princeps token.",
        )


# ---- answers collected ahead (issue 18) ---------------------------------------------------------------------

#: the queued prompts a later player may answer ahead, while an earlier one is asked: the rulebook fixes their
#: order ("each player (in the set order)") and each player's answer is theirs alone; the Common Council is
#: left out (a player pledges card after card, and the verdict follows the tracks as they stand)
AHEAD_KINDS = ("division", "urbanization", "release", "history_choice", "history_build")


def queued_kind(play: PlayView) -> str | None:
    """The kind of the prompts the event asks its queue now (None: no queued prompt)."""
    event = play.get("event")
    if not event:
        return None
    if event["part"] == "icons":
        icon = event.get("icon")
        return ICON_KINDS.get(icon) if icon in QUEUED_ICONS else None
    return PROMPTED[_statement(event).name] if event.get("statements") else None


def slot(play: PlayView, round_no: int, kind: str) -> str | None:
    """The name of the queued decision of ``kind`` asked now (the same for each player of the queue, and never
    again in the game): its Round, its icon or text statement, and how many are left after it."""
    return _slot(play, round_no, kind) if kind in AHEAD_KINDS else None


def _slot(play: PlayView, round_no: int, kind: str) -> str | None:
    event = play["event"]
    if event is None or queued_kind(play) != kind:
        return None
    if event["part"] == "icons":
        return f"r{round_no}:icon:{event['icon']}:{len(event['icons'])}"
    return f"r{round_no}:text:{event['card']}:{len(event['statements'])}:{kind}"


def ahead(ctx: Ctx) -> dict[str, str]:
    """Players of the queue after the one asked now whose turn will ask them something (as the board stands
    now), by principality: the prompt kind."""
    play = ctx.play
    kind = queued_kind(play)
    if kind not in AHEAD_KINDS:
        return {}
    queue = ctx.event["queue"]
    first = play["prompts"].get(queue[0]) if queue else None
    if first is None or first["kind"] != kind:
        return {}
    found: dict[str, str] = {}
    for code in queue[1:]:
        if code in play["prompts"] or not active(ctx.state, code) or has_sealed(ctx, code, kind):
            continue  # asked now, out of the game, or its answer sealed with the others' already
        answers = options(ctx, code, kind)
        if asks(kind, answers):
            found[code] = kind
    return found


def ahead_prompt(play: PlayView, kind: str) -> str:
    event = play["event"]
    assert event is not None, "a queued decision belongs to an event"
    text = ICON_PROMPTS[kind] if event["part"] == "icons" else _text_prompt(event, kind)
    return f"{text} (answered ahead: given when your turn comes, if still allowed then)"


# ---- asked together (option together, issue 47; ``together``) ------------------------------------------------

#: the queued prompts whose lone answer applies without asking (a Release, a History choice)
FORCED = ("release", "history_choice")
#: applies a queued prompt's answer (``_text_answer``, ``_icon_answer``)
Answer = Callable[[Ctx, str, str, list[str]], None]


def asks(kind: str, answers: list[str]) -> bool:
    """Whether a queued prompt with these answers is asked (nothing, a lone pass, a lone forced choice: not)."""
    return bool(answers) and answers != ["pass"] and not (kind in FORCED and len(answers) == 1)


#: the queued prompts asked of every player at once with option ``together``: those that may be answered ahead,
#: and a History text's move of one's own Prince (onto one's own lands: no other player's answers change)
TOGETHER_KINDS = (*AHEAD_KINDS, "history_relocate")


def _ask_queue(ctx: Ctx, event: Event, kind: str, text: str) -> None:
    """Ask the head of the queue; the first time a queue of ``TOGETHER_KINDS`` is served with option
    ``together``, every player of it with something to decide at once, sealed (``together.ask_together``)."""
    here = _slot(ctx.play, ctx.state["round"], kind) if kind in TOGETHER_KINDS else None
    queue = [code for code in event["queue"] if active(ctx.state, code)]
    asked = [code for code in queue if asks(kind, options(ctx, code, kind))] if here else []
    if here is None or not ask_together(ctx, dict.fromkeys(asked, (kind, text)), here):
        prompt(ctx, event["queue"][0], kind, text)


def _serve_turn(ctx: Ctx, event: Event, kind: str, text: str, apply: Answer) -> bool:
    """The turn of the player at the head of the queue: nothing to decide (no answer, a lone pass) skips it, a
    lone forced choice applies, an answer sealed together applies if still allowed; else the player is asked.
    True: asked, the machine waits."""
    code = event["queue"][0]
    answers = options(ctx, code, kind) if active(ctx.state, code) else []
    sealed = sealed_answer(ctx, code, kind, answers)
    if not answers or answers == ["pass"]:
        event["queue"].pop(0)
    elif kind in FORCED and len(answers) == 1:
        apply(ctx, code, kind, answers[0].split())
    elif sealed is not None:
        apply(ctx, code, kind, sealed.split())
    else:
        _ask_queue(ctx, event, kind, text)
        return True
    return False


# ---- entry points ------------------------------------------------------------------------------------------


def step(ctx: Ctx) -> None:
    event = ctx.event
    if event["part"] == "text":
        _text_step(ctx, event)
    else:
        _icons_step(ctx, event)


def options(ctx: Ctx, code: str, kind: str) -> list[str]:
    if kind in invaders.KINDS:
        return invaders.options(ctx, code, kind)
    if kind.startswith("history_"):
        return _text_options(ctx, code, kind)
    return _icon_options(ctx, code, kind)


def answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    if kind in invaders.KINDS:
        invaders.answer(ctx, code, kind, words)
    elif kind.startswith("history_"):
        _text_answer(ctx, code, kind, words)
    else:
        _icon_answer(ctx, code, kind, words)


def default(kind: str, answers: list[str]) -> str | None:
    """The answer a missed deadline gives: pass / stay / done where offered (an Invader move ends, or takes
    back its last move until it may end); a choice or a release takes the first possibility."""
    for safe in ("pass", "stay", "done", "undo"):
        if safe in answers:
            return safe
    return answers[0] if answers else None
