"""PRINCIPES (Leo Soloviey, prototype rulebook 01.02.2025): the Piast princes of 1202-1300 race for the crown.

This package holds the validated game data (``data.py`` over ``data/*.json``), the effect vocabulary
(``effects.py``), the state model and the starting position for 2, 3 and 4 players (``state.py``, whose docstring
describes the state layout) and the rules of play (``play/``: rounds, sealed plans, the six actions, battles,
dynasties, Councils, currency; Court, Battle and Neighbour cards and Progress tiles through the effect interpreter
``play/effects_engine.py``). History, Invaders, Princesses and Prince texts (PRINCIPES IV) reach documented hooks.

The code cites the readings of the rulebook as "resolution N": they are numbered in
``docs/principes/principes-resolutions.md`` (section 1.4, and 1.6 for the later ones); the card and tile texts follow
``docs/principes/principes-content-brief.md``.

>>> from rules.engine import Rng
>>> state = GAME.setup(4, {}, Rng.for_event(1, 0))
>>> GAME.view(state, None)["might"]
{'PMA': 4, 'MAS': 4, 'PMI': 4, 'SIL': 4}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from rules.engine import Applied, Decision, Game, Option, Outcome, ResultSeat, Rng, RoundStatus
from rules.engine.core import Exercise, StrengthMatch, ordinal_sides
from rules.engine.standing import Orders, PlanAhead

from . import play
from .data import checked_catalog
from .play import turn_ahead
from .report import principality_sides, win_rates
from .schema import PState, PView
from .state import COMBINATIONS, build_view, new_game

RULES_NOTES = """\
PRINCIPES is implemented from the prototype rulebook, whose map, card texts, tile texts, deployment diagram and
battle die were pictures that did not survive: they are RECONSTRUCTED and provisional. Where the rulebook is silent
or unclear, the implementation follows numbered resolutions (docs/principes/principes-resolutions.md in the
bot's repository); the numbers in parentheses below refer to them. In /move, cards and tiles may be typed by their
id (c04a) or their title (papal legate), lands by id or name.
## components: Reconstructed components and the board
- the map (44 lands: 10 per principality, Terra Lanciciensis and Terra Siradiensis in the centre, Western
  Pomerania with the two gords Stetinum and Caminum, Eastern Pomerania with Gdanum), its 103 borders and the six
  off-map areas (German Marches, Bohemia, Hungary, Rus Fiefdoms, Prussians, Lithuanians), drawn from the seats of
  the 13th-century castellanies;
- Might: each principality starts with 4 (a capital of 2 and two gords of 1); 17 gords give Might; Silesia's
  Division lands (Opolia, Ratiboria, Teschinum) and Culmen (Teutonic symbol) give 0;
- the 18 Prince cards (historical princes, one special rule each), the 32 Court, 32 Battle, 12 Neighbour and
  18 History cards, the 48 Progress tiles (24 kinds x 2; 14 kinds come from the rulebook and keep its text), the
  battle die (sword, sword, shield, shield, sword+shield, coin; opposite faces 1-3, 2-4, 5-6) and the starting
  deployment (Prince and 1 Knight in the capital, 1 Footman on each 1-Might gord; a neutral principality adds
  1 Knight in its capital and 1 Footman on each small gord next to it).
The one place to swap in the official components is the data folder rules/principes/data: map.json (map),
components.json (cards and tiles) and setup.json (factions, pools, deployment, supplies, die). Every rulebook
constraint is checked when they load, so a replacement that breaks one is refused. After replacing map.json, run
scripts/make_principes_map.py to redraw the board.
The board draws each land as the cell of its seat; where two cells touch although the lands share no border, a
green hatched barrier marks the edge as impassable. A coloured tag (GM, BO, HU, RU, PR, LI) on a land means that
off-map area borders it. Polish letters are written without accents on the board (the bundled font lacks them).
Every card and tile is named by its title with its id beside it (Scouts (b07a)).
## setup: Options and setup
- principalities: who plays which principality. standard (default) = Polonia Maior vs Polonia Minor for 2
  (the rulebook's recommended duel), Polonia Maior, Polonia Minor and Silesia for 3 (Masovia neutral), all four for
  4; random; or a set such as pma-pmi, mas-sil or pma-mas-pmi. Seats follow the cycle Polonia Maior, Masovia,
  Polonia Minor, Silesia.
- neutrals: passive (default; neutral principalities only defend) or active (Combined Actions tile).
- maior_prince: the Period I Prince of Polonia Maior, spindleshanks (default) or odonic (the rulebook lets that
  player choose; the other stays in the Prince deck as the Period's second Prince).
- gold_supply: unlimited (default) or limited (the 66 gold of the box's coins).
- elimination: on (default) or off (the no-elimination variant, which removes the Heir from the Court deck).
Setup: 5 gold, People 4, Clergy 4, Might from the map; each player draws 1 Court, 1 Neighbour and 1 Battle card
in turn order from the Princeps (Polonia Minor, else Polonia Maior, else Silesia); the History deck holds 2 random
cards per Period, Period I on top; each Market stack shows 2 different tiles. The 3 Division tokens are placed
only when Silesia is played.
"""


class Principes(Game[PState, PView]):
    key = "principes"
    title = "PRINCIPES"
    min_players = 2
    max_players = 4
    rules_version = 1
    has_chance = True
    hidden_information = True
    has_windows = True
    #: 4-player self-play, seeds 1-6: 0.61 with the strong AI choosing, 0.71 with basic (2026-11-28)
    window_pass_share = 0.65
    ai_levels = ("expert", "strong", "basic")
    #: how the shared suites and benches play it: strong, its best heuristic level (under 5 ms a decision); a
    #: quick game has four players, so that every seat's sealed choices meet; bench ai's match writes
    #: strength.json
    exercise = Exercise(
        level="strong",
        actions=900,
        golden_options=((2, {"neutrals": "active"}), (4, {"together": "on"})),
        quick=(4, "basic"),
        strength=StrengthMatch("expert", "strong", 40, 0.70),
    )
    rules_notes = RULES_NOTES + play.RULES_NOTES_PLAY
    # placeholder kinds of PRINCIPES' catalog entries (i18n reads them back by these)
    #: numbers: track values, a cost, unit counts, dice, a battle's strengths
    number_params = frozenset(
        {"people", "clergy", "might", "cost", "support", "units", "knights", "footmen", "cards", "gold2"}
        | {"limit", "dice", "strength", "strength2"}
    )
    #: texts localised in turn: a card's or tile's label, a Prince's name, a faction, a place (Latin land names have
    #: no entry and stay; off-map areas do), a unit, an action, a building, a track, a History icon (and a card's
    #: second one), a deck, an effect, the battle die's faces
    text_params = frozenset(
        {"card", "card2", "prince", "prince2", "faction", "faction2", "land", "land2", "origin"}
        | {"destination", "unit", "action2", "action3", "building", "track", "icon", "icon2", "deck"}
        | {"effect", "face", "face2"}
    )
    standing_topics = play.STANDING_TOPICS
    recommended_orders = play.RECOMMENDED_ORDERS
    options = (
        Option(
            "principalities",
            "standard",
            ("standard", "random", *COMBINATIONS),
            "Which principalities are played (standard, random, or e.g. pma-pmi).",
        ),
        Option("neutrals", "passive", ("passive", "active"), "How unplayed principalities behave."),
        Option(
            "maior_prince", "spindleshanks", ("spindleshanks", "odonic"), "Polonia Maior's Period I Prince."
        ),
        Option("gold_supply", "unlimited", ("unlimited", "limited"), "Unlimited gold or the box's 66 coins."),
        Option("elimination", "on", ("on", "off"), "off = the no-elimination variant (no Heir card)."),
        Option(
            "together",
            "off",
            ("on", "off"),
            "on: asked of everyone at once, sealed, fewer waits (Division, Urbanization, Release to Home, "
            "History choices, a Period's new Prince, the Princess missions); off (default): one after another, "
            "as the rulebook.",
        ),
    )

    def resolve_options(self, given: Mapping[str, str]) -> dict[str, str]:
        """Defaults filled in, each value checked; option ``together`` is kept only when on. Off, a game's
        options (and so its state) are those of a game stored before the option existed, which the rules read
        as off: one game, stored and replayed the same, state and log."""
        resolved = super().resolve_options(given)
        if resolved["together"] == "off":
            del resolved["together"]
        return resolved

    def setup(self, num_players: int, options: Mapping[str, str], rng: Rng) -> PState:
        self.check_players(num_players)
        checked_catalog()  # load and validate the data once, before any game starts
        return play.start_play(new_game(num_players, self.resolve_options(options), rng), rng)

    def pending(self, state: PState) -> dict[int, Decision]:
        return play.pending(state)

    def legal_actions(self, state: PState, seat: int) -> list[str]:
        return play.legal_actions(state, seat)

    def is_free(self, state: PState, seat: int, action: str) -> bool:
        return play.is_free(state, seat, action)

    def apply(self, state: PState, seat: int, action: str, rng: Rng) -> Applied[PState]:
        return play.apply(state, seat, action, rng)

    def outcome(self, state: PState) -> Outcome:
        return play.outcome(state)

    def parse(self, state: PState, seat: int, text: str) -> str:
        return play.parse(state, seat, text)

    def describe(self, state: PState, action: str) -> str:
        return play.describe(state, action)

    def on_deadline(self, state: PState, seat: int) -> str | None:
        return play.on_deadline(state, seat)

    def auto_pass(self, state: PState, seat: int) -> str | None:
        return play.auto_pass(state, seat)

    def standing_answer(
        self, view: PView, seat: int, decision: Decision, legal: list[str], orders: Orders
    ) -> str | None:
        return play.standing_answer(view, seat, decision, legal, orders)

    def ahead(self, state: PState) -> dict[int, Decision]:
        return play.ahead(state)

    def ahead_state(self, state: PState, seat: int) -> PState | None:
        return play.ahead_state(state, seat)

    def plan_ahead(self, state: PState, seat: int, sealed: str | None) -> list[PlanAhead]:
        return play.plan_ahead(state, seat, sealed)

    def turn_ahead(self, state: PState) -> dict[int, list[Decision]]:
        return turn_ahead.turn_ahead(state)

    def turn_ahead_state(self, state: PState, seat: int, slot: str) -> PState | None:
        return turn_ahead.turn_ahead_state(state, seat, slot)

    def turn_comes_publicly(self, decision: Decision) -> bool:
        return turn_ahead.comes_publicly(decision)

    def turn_slot(self, view: PView, seat: int, decision: Decision) -> str | None:
        return turn_ahead.turn_slot(view, seat, decision)

    def reveals_hidden(self, before: PState, after: PState, seat: int) -> bool:
        return turn_ahead.reveals_hidden(before, after, seat)

    def view(self, state: PState, seat: int | None) -> PView:
        return play.view_play(state, self.copy_state(build_view(state, seat)), seat)

    def round_status(self, state: PState) -> RoundStatus | None:
        """Round, Period and the History card revealed this Round (by its title)."""
        if not state or "round" not in state or "period" not in state:
            return None
        history = state.get("history")
        card = history["revealed"] if history else None
        note = f"History card: {self.describe(state, card)}" if card else None
        return RoundStatus(state["round"], state["period"], note)

    def progress(self, state: PState) -> float | None:
        """Rounds played of the last Round planned (the game may end sooner, at a coronation)."""
        play_state = state.get("play") if state else None
        if not play_state or "round" not in state:
            return None
        return min(1.0, (state["round"] - 1) / max(1, play_state["last_round"]))

    def secrets(self, state: PState, seat: int) -> list[str]:
        """The seat's card instance ids and sealed plan: no other seat, nor the public, may see them."""
        if not 0 <= seat < len(state["seats"]):
            return []
        return list(state["players"][state["seats"][seat]]["hand"]) + play.secrets_play(state, seat)

    def choose_action(
        self, view: PView, seat: int, legal: Sequence[str], level: str, rng: random.Random
    ) -> str:
        return play.choose_action(view, seat, legal, level, rng)

    # ---- seats' sides and the game's report (issue 44) ----------------------------------------------------
    side_word = "principality"

    def seat_sides(self, view: PView, num_players: int) -> list[str]:
        """The principality each seat played."""
        return principality_sides(view, ordinal_sides(num_players))

    def report(self, results: Sequence[ResultSeat]) -> str | None:
        """For its designer: the win rates by principality, overall and by player count."""
        return win_rates(self.title, results)


GAME = Principes()

__all__ = ["GAME", "Principes"]
