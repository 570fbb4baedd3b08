"""Issue 23: ``/game verify`` and ``/game replay`` in the reader's language. For a self-played game of each of the
five games: the verdict (verified, and tampered files of several kinds), the replay's step-through texts (the
caption and line of every step), its errors, buttons and select, and the animation's captions leave no English
word unmarked in the pseudo-locale and read in Polish; English stays as it was."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from bot import replay as replay_module
from bot.discord.replays import jump_options, replay_text, step_text, step_view
from bot.host import Host
from bot.models import HostError
from bot.replay import Animation, GameLog, ReplayError, animate, load_log, steps
from bot.verify import verify_export
from i18n import PSEUDO, localize, unmarked_words
from rules.engine import available_games, get_game, registry
from tests.conftest import ALICE
from tests.i18n.test_principes_play import _names
from tests.support.played import self_played

#: what is data, not words: hex digests (whole, or cut short as the verdict names them), notation in
#: backticks, the seed's scheme, the file's keys and values quoted as it holds them ('num_players'), and the
#: rules' seat references ("{seat:0}"), which the replay's lines keep as the log stores them (in English too)
DATA = re.compile(
    r"\b[0-9a-f]{64}\b|\b[0-9a-f]{16}…|`[^`]*`|hmac-sha256|sha256-mt19937|'[\w-]+'|\{seat:\d+\}"
)
#: the games' titles, the Latin land names, the AI seats' names (their levels)
ALLOWED = {"Babylone", "Pharaoh", "Game", "of", "Princes", "The", "Prince", "PRINCIPES", *_names()}
#: the games whose words ship translated (the built-in ones: a game added for a run has no catalog here)
GAMES = [key for key in available_games() if key in registry.GAMES]
ALLOWED |= {"AI", *(get_game(key).quick_game()[1] for key in GAMES)}

#: a fixed game, so that every run checks the same texts (with a random seed each run met other log lines)
SEED = 23


def unmarked(text: str, allowed: set[str] = ALLOWED) -> list[str]:
    return unmarked_words(DATA.sub(" ", localize(text, PSEUDO)), allowed)


def tampered(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Files that do not verify, each in one way: a chance result, a sealed nonce, a sealed choice, the
    result, the shape of the file."""
    found: dict[str, dict[str, Any]] = {}
    draws = [e for e in data["events"] if e["draws"] and e["seq"] > 0]
    if draws:
        forged = copy.deepcopy(data)
        event = [e for e in forged["events"] if e["draws"]][-1]
        low, high = event["ranges"][0]
        event["draws"][0] = low if event["draws"][0] != low else high
        found["die"] = forged
        forged = copy.deepcopy(data)
        event = next(e for e in forged["events"] if e["draws"] and e["seq"] > 0)
        event["ranges"][0] = [event["draws"][0], event["draws"][0]]
        found["ranges"] = forged
        forged = copy.deepcopy(data)
        next(e for e in forged["events"] if e["draws"] and e["seq"] > 0)["undone"] = True
        found["undone"] = forged
    if data["sealed"]:
        forged = copy.deepcopy(data)
        record = forged["sealed"][-1]
        record["nonce"] = ("1" if record["nonce"][0] == "0" else "0") + record["nonce"][1:]
        found["nonce"] = forged
        forged = copy.deepcopy(data)
        forged["sealed"].pop(0)
        found["missing seal"] = forged
    forged = copy.deepcopy(data)
    result = forged["game"]["result"]
    result["draw"], result["winners"] = (False, [0]) if result["draw"] else (True, [])
    found["result"] = forged
    forged = copy.deepcopy(data)
    forged["events"].append({**forged["events"][-1], "seq": len(forged["events"])})
    found["after the end"] = forged
    for name, change in {
        "running": lambda d: d.update(complete=False),
        "version": lambda d: d.update(version=7),
        "format": lambda d: d.update(format="other"),
        "no seats": lambda d: d.pop("seats"),
        "seat count": lambda d: d["seats"].pop(),
        "seat type": lambda d: d["seats"][0].update(away="no"),
        "seat name": lambda d: d["seats"][0].update(name=""),
        "status": lambda d: d["game"].update(status="active"),
        "seed": lambda d: d["game"].update(seed="banana"),
        "no seed": lambda d: d["game"].update(seed=None),
        "options": lambda d: d["game"].update(options=[]),
        "rules version": lambda d: d["game"].update(rules_version=999),
        "event order": lambda d: d["events"][1].update(seq=5),
        "event log": lambda d: d["events"][1].update(log=[["x"]]),
        "event draws": lambda d: d["events"][1].update(draws=[1.5]),
        "winner": lambda d: d["game"]["result"].update(winners=[9]),
        "players": lambda d: d["game"].update(num_players=40),
    }.items():
        forged = copy.deepcopy(data)
        change(forged)
        found[name] = forged
    return found


def decision_words(data: dict[str, Any]) -> set[str]:
    """The words of the sealed decisions' ids (a problem names its decision as the file does)."""
    return {word for record in data["sealed"] for word in re.findall(r"[A-Za-z]+", record["decision_id"])}


@pytest.mark.parametrize("key", GAMES)
async def test_verify_and_replay_of_a_self_played_game_read_in_the_readers_language(
    tmp_path: Path, key: str
) -> None:
    host = await Host.open(tmp_path / "db.sqlite", clock=lambda: 1_900_000_000.0)
    try:
        data = await self_played(host, key, seed=SEED)
        refusals = []
        for text, work in (
            ("no game", lambda: load_log(host.store, 999_999)),
            ("lobby", lambda: host.verify("lobby")),
        ):
            if text == "lobby":
                await host.create_game("guild", "lobby", ALICE, key)
            with pytest.raises(HostError) as error:
                await work()
            refusals.append(str(error.value))
        lobby = (await host.game_in_channel("lobby")).game_id
        with pytest.raises(ReplayError) as error:
            await load_log(host.store, lobby)
        refusals.append(str(error.value))
    finally:
        await host.close()
    allowed = ALLOWED | decision_words(data)

    # ---- /game verify
    verdict = verify_export(data)
    assert verdict.verified, verdict.problem
    sentences = [verdict.sentence()]
    for name, forged in tampered(data).items():
        checked = verify_export(forged)
        assert not checked.verified, name
        sentences.append(checked.sentence())
    for text in sentences + refusals:
        assert not unmarked(text, allowed), (text, localize(text, PSEUDO))
    polish = localize(verdict.sentence(), "pl")
    assert polish.startswith("Zweryfikowano. ") and "przechodz" in polish and "zasady" in polish, polish
    for text in sentences[1:]:
        assert localize(text, "pl").startswith("Nie zweryfikowano: "), localize(text, "pl")

    # ---- /game replay: every step's text, as the step-through shows it
    log = GameLog.from_export(data)
    all_steps = steps(log)
    texts = []
    for step in all_steps:
        english = step_text(log.title, step)
        assert english == f"**{log.title}** · {step.title}\n{step.line}"
        texts.append(step_text(log.title, step, PSEUDO))
        assert not unmarked_words(DATA.sub(" ", texts[-1]), allowed), (english, texts[-1])
    polish = step_text(log.title, all_steps[-1], "pl")
    assert "Koniec gry: " in polish and f"akcja {len(all_steps) - 1} z {len(all_steps) - 1}" in polish, polish
    assert step_text(log.title, all_steps[0], "pl").split("\n")[0].endswith("Start")

    # its errors, and what the replay's messages say
    errors = [
        *refusals,
        "The setup cannot be replayed: The game has not started yet.",  # a rules refusal, as the log gives it
        "Event 4 cannot be replayed: The game has not started yet.",
    ]
    with pytest.raises(ReplayError) as error:
        GameLog.from_export({**data, "complete": False})
    errors.append(str(error.value))
    for granularity, thinned in (("action", 0), ("turn", 0), ("round", 1), ("action", 3)):
        animation = Animation(b"", 9, granularity, len(all_steps) - 1, thinned, 10, 10)
        errors.append(replay_text(log.title, animation))
    errors += [
        "Waiting for another replay to finish…",
        "Drawing the replay: frame 3 of 12…",
        "The replay could not be drawn; /game replay may try again.",
        f"There is no game #{log.game_id} on this server.",
        f"{log.title} has {len(all_steps) - 1} steps; there is no step 900.",
        "Pick one of the steps in the list.",
        f"{log.title} is still being played: its replay opens once it is over.",
    ]
    for text in errors:
        assert not unmarked(text, allowed), (text, localize(text, PSEUDO))
        assert localize(text, "pl") != text, text

    # the buttons and the jump select
    view = step_view(log.game_id, 1, all_steps, language=PSEUDO)
    labels = [_label(item) for item in view.children]
    labels += [option.label for option in jump_options(all_steps, 1, PSEUDO)]
    assert len(labels) >= 6 and all(labels), labels
    for label in labels:
        assert not unmarked_words(label), label
    english = step_view(log.game_id, 1, all_steps)
    assert [_label(item) for item in english.children][:4] == [
        "⏮ Start",
        "◀ Back",
        "Next ▶",
        "End ⏭",
    ]
    view.stop()
    english.stop()


def _label(item: Any) -> str:
    """A button's label or a select's placeholder (the view holds the dynamic items that wrap them)."""
    inner = getattr(item, "item", item)
    return str(getattr(inner, "label", None) or getattr(inner, "placeholder", None) or "")


async def test_the_animations_captions_and_boards_are_in_the_readers_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = await Host.open(tmp_path / "db.sqlite", clock=lambda: 1_900_000_000.0)
    try:
        log = GameLog.from_export(await self_played(host, "babylone"))
    finally:
        await host.close()
    drawn: list[tuple[str | None, str, str]] = []
    real_render, real_caption = replay_module.render_view, replay_module.captioned

    def render(kind: str, view: dict[str, Any]) -> Any:
        drawn.append((view.get("locale"), "", ""))
        return real_render(kind, view)

    def caption(board: Any, title: str, line: str) -> Any:
        drawn.append((None, title, line))
        return real_caption(board, title, line)

    monkeypatch.setattr(replay_module, "render_view", render)
    monkeypatch.setattr(replay_module, "captioned", caption)
    animate(log, locale=PSEUDO)
    assert {locale for locale, _, _ in drawn[::2]} == {PSEUDO}
    for _, title, line in drawn[1::2]:
        assert not unmarked_words(DATA.sub(" ", f"{title}\n{line}"), ALLOWED), (title, line)
    drawn.clear()
    animate(log)  # English as it was: the captions the steps write
    assert [(title, line) for _, title, line in drawn[1::2]] == [
        (f"{log.title} · {step.title}", step.line) for step in steps(log)
    ]
    assert {locale for locale, _, _ in drawn[::2]} == {None}
