"""The Prince: a two-player mini-4X on a 10x10 island, with fog of war and sealed battle plans.

Phase 1 explores and builds five castles each; phase 2 is a series of battles where each side hides its Prince
in one of its castles and tries to destroy the castle hiding the enemy's. Every decision is sealed (chosen
secretly and at the same time); see :mod:`.notation` for the action texts.

>>> from rules.engine import Rng
>>> state = GAME.setup(2, {}, Rng.for_event(1, 0))
>>> sorted(GAME.pending(state))
[0, 1]
>>> GAME.parse(state, 0, "Land on B5")
'land b5'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rules.engine import (
    Applied,
    Decision,
    Event,
    Game,
    IllegalAction,
    Option,
    Outcome,
    Rng,
    plural,
    seat_ref,
)
from rules.engine.core import Exercise, StrengthMatch
from rules.engine.thinking import split_level

from . import ai, expert
from .battle import Allotment, allot, attacks_of, check_plan, format_plan, parse_plan
from .board import (
    AREA,
    DIRECTIONS,
    SEAT_COLOURS,
    TILES,
    Tile,
    generate,
    is_land,
    landing_tiles,
    name,
    parse_tile,
    step,
    strength,
    tile_token,
)
from .notation import describe_action, parse_action
from .state import (
    BattleReport,
    CastleView,
    ThePrinceState,
    ThePrinceView,
)

CASTLES = 5
FORCED_BUILD_AFTER = 20
MAX_BATTLES = 15
PHASE_ONE = ("landing", "explore")

RULES_NOTES = """\
**The Prince**, two players, a seeded 10x10 island (water on the outer ring). Seat 1 lands on the west coast
(columns a-e), seat 2 on the east coast (f-j). Every decision is sealed: both choose secretly, then both are
revealed together; the full submissions are published when the game ends.
- Option `map`: `symmetric` (default; the island looks the same after a half turn, so both coasts are equally
  rich) or `asymmetric` (every tile drawn on its own).
- Resources: a land tile holds at most one resource (iron = offence, stone = defence, gold = bonus) yielding
  1-3; mountains favour iron, hills stone, plains gold. A castle adds up the resources of its own tile and its
  8 neighbours, and a resource counts for every castle in range, of either player.
- Phase 1: turn 1 is the landing (`land b5`); every later turn moves the Prince one step in 8 directions on
  land or stays, then may build on a land tile revealed before this turn that holds no castle you know of
  (`ne build c5`, `stay`). The Prince sees his tile and the 8 around it; seen terrain stays revealed. Enemy
  castles, and the enemy Prince, are visible only while within your Prince's sight. After his fifth castle a
  Prince leaves the map and his player waits. From turn 21 on a player short of five castles must build.
- Simultaneous builds: if both choose the same tile that turn, neither builds there; a build on a tile that
  already holds an unseen enemy castle fails. Either way the turn's build is spent; the builder is told the
  site was taken (and, privately, remembers the enemy castle there), the other player only that a build
  failed.
- Castles are numbered 1-5 in the order they were built; battle orders use those numbers.
- Phase 2 starts when both have five castles: the whole map and every castle are revealed. Each battle:
  step A (`prince 3 guard 1`) hides the Prince and places the Imperial Guard; the Guards are then revealed,
  the Princes never until the end. Step B is a whole plan such as `3+2>1 1+0>1 2+1`: each surviving castle
  once, as castle+gold put on offence (the rest of its gold goes to defence)>enemy target, attackers in attack
  order; a castle without `>target` holds.
- Resolution is simultaneous: the first attack (in its attacker's order) on the Guard's castle is stopped;
  every other attack subtracts its offence. Damage persists: a castle's defence is its new allotment minus all
  damage so far. A castle is destroyed when an attack that was not stopped leaves it at 0 or below (a castle
  nobody reached this battle stands, whatever its allotment); it still attacks in that battle. Destroying the
  castle that hides the enemy Prince wins; both Princes in the same battle, or 15 battles without a result,
  is a tie. The battle's attacks, allotments and damage are public once resolved. (A consequence worth
  knowing: a single castle with the Guard in it stops the one attack a single enemy castle can make, so
  one castle against one ends in the 15-battle tie; keep two standing.)
- Deadlines: landing, the AI's choice; phase 1, stay and build nothing (from turn 21, if short of castles,
  stay and build on the best revealed tile by the AI's evaluation); phase 2, the AI's choice.
- AI levels: `expert` (the default: explores and builds as the strategist, then searches each battle decision
  for up to a second, `expert:3s` for longer, trying every hiding place or plan against enemy hiding places
  and plans sampled from what its own view shows; it reads a Guard as standing with its Prince more often than
  not), `strategist` (explores, sites castles on rich ground, concentrates fire) and `random`.
"""


class ThePrince(Game[ThePrinceState, ThePrinceView]):
    key = "the-prince"
    title = "The Prince"
    min_players = 2
    max_players = 2
    options = (
        Option(
            "map",
            "symmetric",
            ("symmetric", "asymmetric"),
            "symmetric: both halves of the island are equal under a half turn; asymmetric: all random",
        ),
    )
    ai_levels = ("expert", "strategist", "random")
    #: how the shared suites and benches play it; bench ai's match writes strength.json
    exercise = Exercise(
        level="strategist", quick=(2, "random"), strength=StrengthMatch("expert", "strategist", 40, 0.70)
    )
    has_chance = True
    hidden_information = True
    rules_notes = RULES_NOTES
    # placeholder kinds of The Prince's catalog entries: a second castle, how many attacks the Guards stopped
    # (numbers); where the Prince stands in a battle's step (a text localised in turn)
    number_params = frozenset({"castle2", "stopped"})
    text_params = frozenset({"prince"})

    # ---- setup ---------------------------------------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, str], rng: Rng) -> ThePrinceState:
        self.check_players(num_players)
        opts = self.resolve_options(options)
        return {
            "map": "symmetric" if opts["map"] == "symmetric" else "asymmetric",
            "tiles": generate(rng, opts["map"] == "symmetric"),
            "phase": "landing",
            "turn": 1,
            "battle": 0,
            "seen": [[0] * TILES, [0] * TILES],
            "prince": [None, None],
            "castles": [[], []],
            # sites where a seat's build failed: an enemy castle it now knows of, or a same-turn clash
            "taken": [[], []],
            "clashed": [[], []],
            "sealed": [None, None],
            "hidden": [None, None],
            "guard": [None, None],
            "last_battle": None,
            "submissions": [],
            "result": None,
        }

    # ---- queries -------------------------------------------------------------------------------------------
    def pending(self, state: ThePrinceState) -> dict[int, Decision]:
        if state["result"] is not None:
            return {}
        phase = state["phase"]
        decisions = {}
        for seat in (0, 1):
            if state["sealed"][seat] is not None:
                continue
            if phase == "landing":
                decisions[seat] = Decision(
                    "land",
                    "landing",
                    "Choose a coastal landing tile on your half, e.g. `land b5`.",
                    sealed=True,
                )
            elif phase == "explore" and len(state["castles"][seat]) < CASTLES:
                forced = state["turn"] > FORCED_BUILD_AFTER
                prompt = "Move your Prince (or stay), then " + (
                    "you must build a castle: `ne build c5`."
                    if forced
                    else "build a castle if you wish: `ne build c5`, `stay`."
                )
                decisions[seat] = Decision(f"t{state['turn']}", "explore", prompt, sealed=True)
            elif phase == "hide":
                decisions[seat] = Decision(
                    f"b{state['battle']}a",
                    "hide",
                    "Hide your Prince and place the Imperial Guard: `prince 3 guard 1`.",
                    sealed=True,
                )
            elif phase == "plan":
                decisions[seat] = Decision(
                    f"b{state['battle']}b",
                    "plan",
                    "Split each castle's gold, choose targets and the attack order: "
                    "`3+2>1 1+0>1 2+1` (castle+gold on offence>target, in order).",
                    sealed=True,
                    open_ended=True,
                )
        return decisions

    def legal_actions(self, state: ThePrinceState, seat: int) -> list[str]:
        decision = self.pending(state).get(seat)
        if decision is None:
            return []
        if decision.kind == "landing":
            return [f"land {name(index)}" for index in landing_tiles(state["tiles"], seat)]
        if decision.kind == "explore":
            return self._turn_actions(state, seat)
        if decision.kind == "hide":
            alive = self._alive(state, seat)
            return [f"prince {p} guard {g}" for p in alive for g in alive]
        view = self.view(state, seat)
        return ai.candidate_plans(view, seat)

    def _turn_actions(self, state: ThePrinceState, seat: int) -> list[str]:
        builds = [name(index) for index in self._buildable(state, seat)]
        forced = state["turn"] > FORCED_BUILD_AFTER and bool(builds)
        actions = []
        for direction in self._directions(state, seat):
            if not forced:
                actions.append(direction)
            actions.extend(f"{direction} build {tile}" for tile in builds)
        return actions

    def _directions(self, state: ThePrinceState, seat: int) -> list[str]:
        here = _on_map(state, seat)
        return [
            direction
            for direction in DIRECTIONS
            if (dest := step(here, direction)) is not None and is_land(state["tiles"], dest)
        ]

    def _buildable(self, state: ThePrinceState, seat: int) -> list[int]:
        """Seen land tiles holding neither one of your castles nor an enemy castle in your Prince's sight."""
        taken = {castle["tile"] for castle in state["castles"][seat]} | set(state["taken"][seat])
        enemy = state["castles"][1 - seat]
        taken.update(enemy[number - 1]["tile"] for number in self._visible_enemy_castles(state, seat))
        seen = state["seen"][seat]
        return [
            index
            for index in range(TILES)
            if seen[index] and index not in taken and is_land(state["tiles"], index)
        ]

    def _visible_enemy_castles(self, state: ThePrinceState, seat: int) -> list[int]:
        """Numbers of the enemy castles ``seat`` sees: in phase 1 those in its Prince's sight, later all."""
        enemy = state["castles"][1 - seat]
        if state["phase"] not in PHASE_ONE:
            return list(range(1, len(enemy) + 1))
        here = state["prince"][seat]
        if here is None:
            return []
        sight = set(AREA[here])
        return [number for number, castle in enumerate(enemy, 1) if castle["tile"] in sight]

    def _prince_visible_to(self, state: ThePrinceState, seat: int, watcher: int) -> bool:
        """Whether ``watcher`` sees ``seat``'s Prince on the map (phase 1; nobody sees a hidden Prince)."""
        position, eye = state["prince"][seat], state["prince"][watcher]
        if position is None:
            return False
        return seat == watcher or (eye is not None and position in AREA[eye])

    @staticmethod
    def _alive(state: ThePrinceState, seat: int) -> list[int]:
        return [number for number, castle in enumerate(state["castles"][seat], 1) if castle["alive"]]

    def outcome(self, state: ThePrinceState) -> Outcome:
        result = state["result"]
        if result is None:
            return Outcome()
        return Outcome(True, tuple(result["winners"]), draw=result["draw"], reason=result["reason"])

    # ---- seats' sides, for statistics (issue 44) ---------------------------------------------------------
    side_word = "colour"

    def seat_sides(self, view: ThePrinceView, num_players: int) -> list[str]:
        """Each seat's colour (red, blue), as the board draws it."""
        return list(SEAT_COLOURS[:num_players])

    # ---- notation ------------------------------------------------------------------------------------------
    def parse(self, state: ThePrinceState, seat: int, text: str) -> str:
        return parse_action(text)

    def describe(self, state: ThePrinceState, action: str) -> str:
        return describe_action(action)

    # ---- apply ---------------------------------------------------------------------------------------------
    def apply(self, state: ThePrinceState, seat: int, action: str, rng: Rng) -> Applied[ThePrinceState]:
        decision = self.pending(state).get(seat)
        if decision is None:
            if state["result"] is None and state["sealed"][seat] is not None:
                raise IllegalAction("You have already sealed your choice: wait for the other player.")
            raise IllegalAction("It is not your turn.")
        action = parse_action(action)
        self._check(state, seat, decision.kind, action)
        new = self.copy_state(state)
        new["sealed"][seat] = action
        new["submissions"].append([seat, decision.id, action])
        events: list[Event] = []  # "X has sealed" and the commit are the host's to announce
        if not self.pending(new):
            events.extend(self._resolve(new, decision.kind))
            new["sealed"] = [None, None]
        return Applied(new, events)

    def _check(self, state: ThePrinceState, seat: int, kind: str, action: str) -> None:
        """IllegalAction with a sentence unless ``action`` answers ``kind`` legally."""
        if kind == "plan":
            if not action[0].isdigit():
                raise IllegalAction("Now give a battle plan, for example `3+2>1 1+0>1 2+1`.")
            bonus = [strength(state["tiles"], castle["tile"])["bonus"] for castle in state["castles"][seat]]
            check_plan(parse_plan(action), state["castles"][seat], state["castles"][1 - seat], bonus)
            return
        if action in self.legal_actions(state, seat):
            return
        raise IllegalAction(self._refusal(state, seat, kind, action))

    def _refusal(self, state: ThePrinceState, seat: int, kind: str, action: str) -> str:
        words = action.split()
        if kind == "landing":
            if words[0] != "land":
                return "First land your Prince: `land <tile>` on a coastal tile of your half."
            half = "west (columns a-e)" if seat == 0 else "east (columns f-j)"
            return f"{words[1]} is not a coastal land tile of your half, the {half}."
        if kind == "hide":
            if words[0] != "prince":
                return "Now hide your Prince and place the Guard, for example `prince 3 guard 1`."
            return f"Choose two of your surviving castles: {', '.join(map(str, self._alive(state, seat)))}."
        if words[0] not in DIRECTIONS:
            return "Now move your Prince (`ne`, `stay`, ...), optionally `build <tile>` after it."
        if words[0] not in self._directions(state, seat):
            return f"Your Prince cannot go {words[0]}: only land tiles on the island."
        if len(words) == 1:
            return (
                f"From turn {FORCED_BUILD_AFTER + 1} on you must build each turn until you have five castles."
            )
        return f"You cannot build on {words[2]}: choose a seen land tile holding no castle you know of."

    # ---- resolution ----------------------------------------------------------------------------------------
    def _resolve(self, state: ThePrinceState, kind: str) -> list[Event]:
        if kind == "landing":
            return self._resolve_landing(state)
        if kind == "explore":
            return self._resolve_turn(state)
        if kind == "hide":
            return self._resolve_hiding(state)
        return self._resolve_battle(state)

    @staticmethod
    def _reveal(state: ThePrinceState, seat: int) -> None:
        for index in AREA[_on_map(state, seat)]:
            state["seen"][seat][index] = 1

    def _resolve_landing(self, state: ThePrinceState) -> list[Event]:
        for seat in (0, 1):
            state["prince"][seat] = parse_tile(_sealed(state, seat).split()[1])
            self._reveal(state, seat)
        state["phase"], state["turn"] = "explore", 2
        return [Event("landing", "Both Princes have landed.")]

    def _resolve_turn(self, state: ThePrinceState) -> list[Event]:
        moving = [seat for seat in (0, 1) if state["sealed"][seat] is not None]
        sites: dict[int, int] = {}
        for seat in moving:
            words = _sealed(state, seat).split()
            state["prince"][seat] = step(_on_map(state, seat), words[0])
            if len(words) == 3:
                sites[seat] = _tile(words[2])
        for seat in moving:
            self._reveal(state, seat)
        events = [Event("turn", f"Turn {state['turn']}: the Princes move in the fog.")]
        events.extend(self._build(state, sites))
        state["turn"] += 1
        if all(len(castles) == CASTLES for castles in state["castles"]):
            events.append(self._start_battles(state))
        return events

    def _build(self, state: ThePrinceState, sites: dict[int, int]) -> list[Event]:
        events = []
        clash = len(sites) == 2 and sites[0] == sites[1]
        for seat, tile in sorted(sites.items()):
            taken = any(castle["tile"] == tile for castle in state["castles"][1 - seat])
            if taken or clash:
                failures = state["taken"][seat] if taken else state["clashed"][seat]
                if tile not in failures:
                    failures.append(tile)
                events.append(Event("build-failed", f"{seat_ref(seat)} could not build: the site was taken."))
                continue
            state["castles"][seat].append({"tile": tile, "damage": 0, "alive": True})
            count = len(state["castles"][seat])
            events.append(Event("build", f"{seat_ref(seat)} builds castle {count} of {CASTLES}."))
            if count == CASTLES:
                state["prince"][seat] = None  # the explorer leaves the map
        return events

    @staticmethod
    def _start_battles(state: ThePrinceState) -> Event:
        state["phase"], state["battle"] = "hide", 1
        state["seen"] = [[1] * TILES, [1] * TILES]
        state["prince"] = [None, None]
        return Event("phase", "Both sides have five castles: the island is revealed. Battle 1 begins.")

    def _resolve_hiding(self, state: ThePrinceState) -> list[Event]:
        for seat in (0, 1):
            words = _sealed(state, seat).split()
            state["hidden"][seat], state["guard"][seat] = int(words[1]), int(words[3])
        state["phase"] = "plan"
        guards = "; ".join(
            f"{seat_ref(seat)}'s Guard stands in castle {state['guard'][seat]}" for seat in (0, 1)
        )
        return [Event("guards", f"Battle {state['battle']}: {guards}.")]

    def _resolve_battle(self, state: ThePrinceState) -> list[Event]:
        report: BattleReport = {
            "battle": state["battle"],
            "guard": list(state["guard"]),
            "attacks": [],
            "castles": [[], []],
        }
        damage_in = [[0] * CASTLES, [0] * CASTLES]
        hit = [[False] * CASTLES, [False] * CASTLES]
        allotments = []
        for seat in (0, 1):
            orders = parse_plan(_sealed(state, seat))
            strengths = [strength(state["tiles"], castle["tile"]) for castle in state["castles"][seat]]
            allotted = allot(orders, strengths)
            allotments.append(allotted)
            for attack in attacks_of(orders, allotted, state["guard"][1 - seat]):
                report["attacks"].append({"seat": seat, **attack})
                if not attack["stopped"]:
                    damage_in[1 - seat][attack["to"] - 1] += attack["offence"]
                    hit[1 - seat][attack["to"] - 1] = True
        destroyed = [
            self._apply_damage(state, seat, allotments[seat], damage_in[seat], hit[seat], report)
            for seat in (0, 1)
        ]
        state["last_battle"] = report
        events = [Event("battle", self._battle_text(state, report, destroyed))]
        events.extend(self._after_battle(state, destroyed))
        return events

    @staticmethod
    def _apply_damage(
        state: ThePrinceState,
        seat: int,
        allotted: dict[int, Allotment],
        damage: list[int],
        hit: list[bool],
        report: BattleReport,
    ) -> list[int]:
        destroyed = []
        for number, castle in enumerate(state["castles"][seat], 1):
            if not castle["alive"]:
                continue
            castle["damage"] += damage[number - 1]
            left = allotted[number].defence - castle["damage"]
            if hit[number - 1] and left <= 0:
                castle["alive"] = False
                destroyed.append(number)
            report["castles"][seat].append(
                {
                    "castle": number,
                    "offence": allotted[number].offence,
                    "defence": allotted[number].defence,
                    "damage": castle["damage"],
                    "destroyed": not castle["alive"],
                }
            )
        return destroyed

    @staticmethod
    def _battle_text(state: ThePrinceState, report: BattleReport, destroyed: list[list[int]]) -> str:
        parts = []
        for seat in (0, 1):
            lost = destroyed[seat]
            castles = "no castle" if not lost else "castle" + ("s " if len(lost) > 1 else " ")
            parts.append(f"{seat_ref(seat)} loses {castles}{', '.join(map(str, lost))}")
        stopped = sum(1 for attack in report["attacks"] if attack["stopped"])
        return (
            f"Battle {report['battle']}: {plural(len(report['attacks']), 'attack')}, "
            f"{stopped} stopped by the Guards; " + "; ".join(parts) + "."
        )

    def _after_battle(self, state: ThePrinceState, destroyed: list[list[int]]) -> list[Event]:
        caught = [state["hidden"][seat] in destroyed[seat] for seat in (0, 1)]
        if all(caught):
            return [self._finish(state, [], True, "Both Princes fell in the same battle.")]
        if any(caught):
            loser = caught.index(True)
            return [
                self._finish(
                    state,
                    [1 - loser],
                    False,
                    f"{seat_ref(loser)}'s Prince was in castle {state['hidden'][loser]}, destroyed.",
                )
            ]
        if state["battle"] >= MAX_BATTLES:
            return [self._finish(state, [], True, f"{MAX_BATTLES} battles without a result.")]
        state["battle"] += 1
        state["phase"] = "hide"
        state["guard"] = [None, None]
        return []

    @staticmethod
    def _finish(state: ThePrinceState, winners: list[int], draw: bool, reason: str) -> Event:
        state["result"] = {"winners": winners, "draw": draw, "reason": reason}
        state["phase"] = "over"
        return Event("end", reason)

    # ---- views and secrets ---------------------------------------------------------------------------------
    def view(self, state: ThePrinceState, seat: int | None) -> ThePrinceView:
        view: ThePrinceView = {
            "game": self.key,
            "seat": seat,
            "phase": state["phase"],
            "map": state["map"],
            "turn": state["turn"],
            "battle": state["battle"],
            "max_battles": MAX_BATTLES,
            "forced_build_after": FORCED_BUILD_AFTER,
            "castle_counts": [len(castles) for castles in state["castles"]],
            "sealed_seats": [submission is not None for submission in state["sealed"]],
            "result": state["result"],
        }
        if seat is None and state["phase"] in PHASE_ONE:
            return view  # the public sees no terrain and no positions during exploration
        view["tiles"] = [
            tile_token(index, tile)
            for index, tile in enumerate(state["tiles"])
            if seat is None or state["seen"][seat][index]
        ]
        view["princes"] = [
            f"prince:{owner}@{name(tile)}"
            for owner, tile in enumerate(state["prince"])
            if tile is not None and seat is not None and self._prince_visible_to(state, owner, seat)
        ]
        view["castles"] = self._castle_views(state, seat)
        if seat is not None and state["phase"] in PHASE_ONE:
            view["taken"] = [f"taken:{seat}@{name(tile)}" for tile in state["taken"][seat]]
            view["clashed"] = [f"clash:{seat}@{name(tile)}" for tile in state["clashed"][seat]]
        if seat is not None and state["sealed"][seat] is not None:
            view["sealed"] = f"sealed:{seat}:{state['sealed'][seat]}"
        if state["phase"] not in PHASE_ONE:
            view["guards"] = list(state["guard"])
            view["last_battle"] = state["last_battle"]
            view["prince_in"] = [
                f"prince-in:{owner}#{state['hidden'][owner]}"
                for owner in (0, 1)
                if state["hidden"][owner] is not None and (owner == seat or state["result"])
            ]
        if state["result"] is not None:
            view["submissions"] = [list(entry) for entry in state["submissions"]]
        return view

    def _castle_views(self, state: ThePrinceState, seat: int | None) -> list[CastleView]:
        """Castles the viewer sees, with strength computed from the tiles the viewer has seen."""
        known: Sequence[Tile | None]
        if seat is None:
            known = state["tiles"]
            shown = [(owner, n) for owner in (0, 1) for n in range(1, len(state["castles"][owner]) + 1)]
        else:
            known = [
                tile if state["seen"][seat][index] else None for index, tile in enumerate(state["tiles"])
            ]
            shown = [(seat, n) for n in range(1, len(state["castles"][seat]) + 1)]
            shown += [(1 - seat, n) for n in self._visible_enemy_castles(state, seat)]
        views: list[CastleView] = []
        for owner, number in shown:
            castle = state["castles"][owner][number - 1]
            power = strength(known, castle["tile"])
            views.append(
                {
                    "token": f"castle:{owner}#{number}@{name(castle['tile'])}",
                    "seat": owner,
                    "number": number,
                    "tile": name(castle["tile"]),
                    "alive": castle["alive"],
                    "damage": castle["damage"],
                    "offence": power["offence"],
                    "defence": power["defence"],
                    "bonus": power["bonus"],
                }
            )
        return views

    def secrets(self, state: ThePrinceState, seat: int) -> list[str]:
        other = 1 - seat
        found = []
        if state["sealed"][seat] is not None:
            found.append(f"sealed:{seat}:{state['sealed'][seat]}")
        if state["phase"] in PHASE_ONE:
            found += [
                tile_token(index, tile)
                for index, tile in enumerate(state["tiles"])
                if state["seen"][seat][index] and not state["seen"][other][index]
            ]
            here = state["prince"][seat]
            if here is not None and not self._prince_visible_to(state, seat, other):
                found.append(f"prince:{seat}@{name(here)}")
            found += [f"taken:{seat}@{name(tile)}" for tile in state["taken"][seat]]
            found += [f"clash:{seat}@{name(tile)}" for tile in state["clashed"][seat]]
            visible = set(self._visible_enemy_castles(state, other))
            found += [
                f"castle:{seat}#{number}@{name(castle['tile'])}"
                for number, castle in enumerate(state["castles"][seat], 1)
                if number not in visible
            ]
        elif state["hidden"][seat] is not None and state["result"] is None:
            found.append(f"prince-in:{seat}#{state['hidden'][seat]}")
        return found

    # ---- deadlines and AI ----------------------------------------------------------------------------------
    def on_deadline(self, state: ThePrinceState, seat: int) -> str | None:
        decision = self.pending(state).get(seat)
        if decision is None:
            return None
        legal = self.legal_actions(state, seat)
        if decision.kind == "explore":
            if "stay" in legal:
                return "stay"
            return ai.best_stay_build(self.view(state, seat), legal)
        chooser = random.Random(
            f"{decision.id}:{seat}"
        )  # a fixed default: the same deadline, the same action
        return self.choose_action(self.view(state, seat), seat, legal, "strategist", chooser)

    def choose_action(
        self, view: ThePrinceView, seat: int, legal: Sequence[str], level: str, rng: random.Random
    ) -> str:
        kind = split_level(level)[0]
        if kind == "random" or not legal:
            return rng.choice(list(legal))
        if kind == "expert":
            return expert.choose(view, seat, list(legal), rng, expert.EXPERT_BUDGET.for_level(level))
        return ai.choose(view, seat, list(legal), rng)


def _on_map(state: ThePrinceState, seat: int) -> int:
    """The tile of ``seat``'s Prince while he explores (phase 1, after the landing, before his fifth castle)."""
    tile = state["prince"][seat]
    assert tile is not None, "the Prince is not on the map"
    return tile


def _sealed(state: ThePrinceState, seat: int) -> str:
    """``seat``'s sealed answer, once both seats have answered (resolution reads them)."""
    action = state["sealed"][seat]
    assert action is not None, "resolved before the seat answered"
    return action


def _tile(tile_name: str) -> int:
    """The index of a tile named in a canonical action (``parse_action`` wrote the name)."""
    index = parse_tile(tile_name)
    assert index is not None, f"{tile_name!r} is not a tile"
    return index


GAME = ThePrince()

__all__ = [
    "CASTLES",
    "FORCED_BUILD_AFTER",
    "GAME",
    "MAX_BATTLES",
    "ThePrince",
    "ThePrinceState",
    "ThePrinceView",
    "format_plan",
]
