"""Issue 23: Pharaoh, Game of Princes and The Prince leave no English word unmarked in the pseudo-locale.
Self-played games through the Host (each seat played by the game's own AI on the view it was sent): every
delivery, prompt, button label, refusal, /rules text (with the options' help), and the words drawn on the board
images with their alt text, and The Prince's guided DM forms."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.host import Host
from bot.models import Actor, Delivery, HostError, Prompt
from forms import FormContext, form_for, review_page
from i18n import PSEUDO, localize, unmarked_words
from render import alt_text, render_view
from rules.engine.registry import get_game
from tests.i18n.drawing import record_drawn_text

NAMES = ("alice", "bob", "carol", "dave")
#: players' names, the games' titles and what a player types as such: notation, option names and values, AI
#: levels (canonical in every language), and the words of a wrong input the refusal quotes back
ALLOWED = {
    *NAMES,
    "Pharaoh",
    "Game",
    "of",
    "Princes",
    "The",
    "Prince",
    "end",
    "pass",
    "stay",
    "land",
    "build",
}
ALLOWED |= {"prince", "guard", "dice", "goal", "between", "across", "first", "red", "blue", "confined", "yes"}
ALLOWED |= {"no", "long", "jump", "map", "symmetric", "asymmetric", "expectimax", "expert", "greedy", "hard"}
ALLOWED |= {"sealed", "choices", "txt"}  # the attached sealed-choices file's name
ALLOWED |= {"medium", "easy", "strategist", "random", "ne", "nw", "se", "sw", "banana", "zz", "Imperial"}
#: how each game is played: the AI level the test gives every seat, and the wrong inputs it tries
LEVELS = {"pharaoh": "greedy", "game-of-princes": "easy", "the-prince": "strategist"}
WRONG = ("banana", "zz9 zz9")
DIGEST = re.compile(r"\b[0-9a-f]{64}\b")
#: on an image only names and titles may stay as they are
IMAGE_ALLOWED = {*NAMES, "Pharaoh", "Game", "of", "Princes", "The", "Prince"}


async def _played(
    tmp_path: Path, key: str, players: int, options: dict[str, str], seed: int
) -> dict[str, Any]:
    """Everything a self-played game shows people, the views it sent (for the images), and each decision with the
    deciding seat's own view (for the forms)."""
    host = await Host.open(tmp_path / f"db-{key}-{seed}.sqlite", clock=lambda: 1_900_000_000.0)
    actors = [Actor(str(index + 1), NAMES[index]) for index in range(players)]
    game, rng = get_game(key), random.Random(seed)
    shown: list[str] = []
    views: list[dict[str, Any]] = []
    decisions: list[tuple[Prompt, dict[str, Any]]] = []
    try:
        info = await host.create_game("g", f"c{seed}", actors[0], key, options, seed=seed)
        for actor in actors[1:]:
            shown.append((await host.join(f"c{seed}", actor)).lobby_text())
        deliveries: list[Delivery] = await host.start(f"c{seed}", actors[0])
        refused = 0
        for _round in range(3000):
            prompts = {}
            for delivery in deliveries:
                shown.append(delivery.text)
                if delivery.view is not None:
                    views.append(delivery.view)
                if delivery.prompt:
                    shown.append(delivery.prompt.text)
                    shown += [choice.label for choice in delivery.prompt.choices]
                    prompts[delivery.prompt.seat] = delivery.prompt
            if not prompts:
                break
            deliveries = []
            for seat, prompt in prompts.items():
                seats = (await host.game_info(info.game_id)).seats
                actor = next(a for a in actors if a.user_id == seats[seat].user_id)
                if refused < 40 and rng.random() < 0.3:
                    wrong = [(rng.choice(WRONG), actor)]
                    if len(prompts) == 1:  # a seat deciding at the same time would play the choice rightly
                        wrong.append((prompt.choices[0].action, next(a for a in actors if a is not actor)))
                    refusals = await _refusals(host, info.game_id, prompt.decision_id, wrong)
                    shown += refusals
                    refused += len(refusals)
                legal = [choice.action for choice in prompt.choices]
                view = (await host.hand(f"c{seed}", actor)).view
                decisions.append((prompt, view))
                action = game.choose_action(view, seat, legal, LEVELS[key], rng)
                deliveries += await host.act(info.game_id, actor, action, prompt.decision_id)
        shown.append(host.rules_text(key, None))
    finally:
        await host.close()
    return {"texts": shown, "views": views, "decisions": decisions}


async def _refusals(host: Host, game_id: int, decision: str, tries: list[tuple[str, Actor]]) -> list[str]:
    """What the host answers to wrong moves: unreadable notation, or a move played by a player not deciding."""
    answers = []
    for text, who in tries:
        try:
            await host.act(game_id, who, text, decision)
        except HostError as error:
            answers.append(str(error))
        else:
            raise AssertionError(f"{who.name} played {text!r}")
    return answers


def _unmarked(text: str) -> list[str]:
    """English words left outside the pseudo-locale's marks; a sealed choice's commit (hex digits) is data."""
    return unmarked_words(DIGEST.sub("", text), ALLOWED)


GAMES = [
    ("pharaoh", 2, {}, 3),
    ("pharaoh", 4, {"dice": "2"}, 4),
    ("game-of-princes", 2, {}, 5),
    ("game-of-princes", 2, {"long-jump": "yes", "confined": "yes", "first": "blue"}, 6),
    ("the-prince", 2, {}, 7),
]


@pytest.mark.parametrize(("key", "players", "options", "seed"), GAMES)
async def test_a_self_played_game_is_fully_marked_in_the_pseudo_locale(
    tmp_path: Path, key: str, players: int, options: dict[str, str], seed: int
) -> None:
    texts = (await _played(tmp_path, key, players, options, seed))["texts"]
    assert len(texts) > 30
    unmarked = {text: words for text in texts if (words := _unmarked(localize(text, PSEUDO)))}
    assert not unmarked, f"English left unmarked: {list(unmarked.items())[:8]}"


@pytest.mark.parametrize(("key", "players", "options", "seed"), GAMES)
async def test_the_words_on_its_boards_are_marked_in_the_pseudo_locale(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    key: str,
    players: int,
    options: dict[str, str],
    seed: int,
) -> None:
    """The words drawn on the boards a self-played game sent (some of them: every view costs a drawing) and their
    alt text."""
    views = (await _played(tmp_path, key, players, options, seed))["views"]
    drawn = record_drawn_text(monkeypatch)
    sample = views[:: max(1, len(views) // 12)] + views[-3:]
    words: dict[str, list[str]] = {}
    for view in sample:
        drawn.clear()
        localised = {**view, "locale": PSEUDO}
        render_view(key, localised)
        for text in [*drawn, alt_text(key, localised)]:
            if found := unmarked_words(text, IMAGE_ALLOWED):
                words[text] = found
    assert drawn and not words, f"English left unmarked on the images: {list(words.items())[:8]}"
    polish = alt_text(key, {**views[-1], "locale": "pl"})
    assert polish != alt_text(key, views[-1])


#: on a form: the compass's notation words (``nw``...), typed as such in every language, besides the names
FORM_ALLOWED = {*ALLOWED, "nw", "ne", "sw", "se", "prince", "guard", "land"}


def _form_words(item: Any) -> list[str]:
    """The words a form's component shows: a button's label, a select's placeholder and its options."""
    inner = getattr(item, "item", item)
    words = [str(getattr(inner, "label", None) or ""), str(getattr(inner, "placeholder", None) or "")]
    for option in getattr(inner, "options", []):
        words += [option.label, option.description or ""]
    return [word for word in words if word]


def _drafts(form: Any, ctx: FormContext) -> list[str]:
    """The form's first draft and a complete one (a legal choice as the form composes it), with a plan's castle
    turned to attack."""
    start = form.start(ctx)
    drafts = [start]
    first = ctx.choices[0].split()
    if ctx.kind == "landing":
        drafts.append(first[1])
    elif ctx.kind == "explore":
        last = ctx.choices[-1].split()  # a move with a build when one is open
        drafts.append(f"{last[0]}.{last[2] if len(last) == 3 else ''}.0")
    elif ctx.kind == "hide":
        drafts.append(first[1] + first[3])
    else:
        target = next(
            (str(c["number"]) for c in ctx.view["castles"] if c["seat"] != ctx.seat and c["alive"]), "0"
        )
        drafts.append(form.change(ctx, "t", start, target))
    return drafts


async def test_the_prince_forms_are_fully_marked_in_the_pseudo_locale(tmp_path: Path) -> None:
    """Every page of The Prince's guided forms (landing, a turn, hiding, the battle plan) and its review, built
    for the decisions of a self-played game in the pseudo-locale: text, labels, placeholders, options."""
    decisions = (await _played(tmp_path, "the-prince", 2, {}, 7))["decisions"]
    unmarked: dict[str, list[str]] = {}
    kinds = set()
    for prompt, view in decisions[:: max(1, len(decisions) // 40)]:
        form = form_for("the-prince", prompt.kind)
        if form is None:
            continue
        kinds.add(prompt.kind)
        ctx = FormContext.of(prompt, view, PSEUDO)
        for draft in _drafts(form, ctx):
            page = form.page(ctx, draft)
            texts = [page.content] + [word for item in page.items for word in _form_words(item)]
            if form.action(ctx, draft) is not None:
                review = review_page(form, ctx, draft)
                texts += [review.content] + [word for item in review.items for word in _form_words(item)]
            for text in texts:
                if found := unmarked_words(text, FORM_ALLOWED):
                    unmarked[text] = found
    assert kinds == {"landing", "explore", "hide", "plan"}, kinds
    prompt, view = decisions[0]
    landing = form_for("the-prince", prompt.kind)
    assert landing is not None
    english, polish = (
        landing.page(ctx, landing.start(ctx))
        for ctx in (FormContext.of(prompt, view, lang) for lang in ("en", "pl"))
    )
    assert polish.content != english.content and _form_words(polish.items[0]) != _form_words(english.items[0])
    assert not unmarked, f"English left unmarked on the forms: {list(unmarked.items())[:8]}"
