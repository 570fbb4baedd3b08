"""The custom_id codec (``bot.discord.custom_ids``) and the layouts declared with it.

Buttons already posted in Discord channels carry ids made by the f-strings and read by the regexes each item used
to write by hand: the ``OLD`` table below copies them as they were. Every layout must build exactly those bytes
and read exactly what the old regex and field readers read, so an old button keeps working.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.discord import components, replays
from bot.discord.common import game_number, small_number
from bot.discord.components import (
    AHEAD_BUTTON_ID,
    AHEAD_SELECT_ID,
    CHOICE_BUTTON_ID,
    CHOICE_SELECT_ID,
    DYNAMIC_ITEMS,
    EXPIRY_BUTTON_ID,
    HAND_BUTTON_ID,
    LOBBY_BUTTON_ID,
    MORE_CHOICES_ID,
)
from bot.discord.custom_ids import CUSTOM_ID, GAME, SEAT, TEXT, IdFormat
from bot.discord.forms import base as forms
from bot.discord.forms.base import FORM_IDS
from bot.discord.league_button import LEAGUE_BUTTON_ID
from bot.discord.replays import JUMP_SELECT_ID, STEP_BUTTON_ID
from bot.models import HostError


def _q(text: str) -> str:
    return quote(text, safe="")


@dataclass(frozen=True)
class Old:
    """A layout as it was written before the codec: its f-string, its regex and its field readers."""

    built: Callable[..., str]
    regex: str
    read: Callable[[re.Match[str]], dict[str, Any]]


def _seat_fields(match: re.Match[str], **quoted: str) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "game_id": game_number(match["game"]),
        "seat": small_number(match["seat"], "seat"),
    }
    return fields | {name: unquote(match[group]) for name, group in quoted.items()}


def _paged_fields(match: re.Match[str]) -> dict[str, Any]:
    return _seat_fields(match, decision_id="decision") | {"page": small_number(match["page"], "page")}


def _form_fields(match: re.Match[str]) -> dict[str, Any]:
    return _seat_fields(match, decision_id="decision", op="op", state="state")


_FORM_FIELDS = r":(?P<game>\d+):(?P<seat>\d+):(?P<decision>[^:]*):(?P<op>[^:]*):(?P<state>[^:]*)"

#: each layout, as the code before the codec wrote it (copied, not derived)
OLD: dict[IdFormat, Old] = {
    CHOICE_BUTTON_ID: Old(
        lambda game_id, seat, decision_id, token: f"pt:c:{game_id}:{seat}:{_q(decision_id)}:{_q(token)}",
        r"pt:c:(?P<game>\d+):(?P<seat>\d+):(?P<decision>[^:]*):(?P<choice>[^:]*)",
        lambda match: _seat_fields(match, decision_id="decision", token="choice"),
    ),
    CHOICE_SELECT_ID: Old(
        lambda game_id, seat, decision_id, page: f"pt:s:{game_id}:{seat}:{_q(decision_id)}:{page}",
        r"pt:s:(?P<game>\d+):(?P<seat>\d+):(?P<decision>[^:]*):(?P<page>\d+)",
        _paged_fields,
    ),
    MORE_CHOICES_ID: Old(
        lambda game_id, seat, decision_id, page: f"pt:m:{game_id}:{seat}:{_q(decision_id)}:{page}",
        r"pt:m:(?P<game>\d+):(?P<seat>\d+):(?P<decision>[^:]*):(?P<page>\d+)",
        _paged_fields,
    ),
    LOBBY_BUTTON_ID: Old(
        lambda game_id, op: f"pt:l:{game_id}:{op}",
        r"pt:l:(?P<game>\d+):(?P<op>join|leave|start)",
        lambda match: {"game_id": game_number(match["game"]), "op": match["op"]},
    ),
    EXPIRY_BUTTON_ID: Old(
        lambda game_id, expiry_id, choice: f"pt:x:{game_id}:{_q(expiry_id)}:{choice}",
        r"pt:x:(?P<game>\d+):(?P<expiry>[^:]*):(?P<choice>claim|wait|ai)",
        lambda match: {
            "game_id": game_number(match["game"]),
            "expiry_id": unquote(match["expiry"]),
            "choice": match["choice"],
        },
    ),
    HAND_BUTTON_ID: Old(
        lambda game_id: f"pt:h:{game_id}",
        r"pt:h:(?P<game>\d+)",
        lambda match: {"game_id": game_number(match["game"])},
    ),
    AHEAD_BUTTON_ID: Old(
        lambda game_id, seat, slot, action: f"pt:a:{game_id}:{seat}:{_q(slot)}:{_q(action)}",
        r"pt:a:(?P<game>\d+):(?P<seat>\d+):(?P<slot>[^:]*):(?P<choice>[^:]*)",
        lambda match: _seat_fields(match, slot="slot", action="choice"),
    ),
    AHEAD_SELECT_ID: Old(
        lambda game_id, seat, slot: f"pt:b:{game_id}:{seat}:{_q(slot)}",
        r"pt:b:(?P<game>\d+):(?P<seat>\d+):(?P<slot>[^:]*)",
        lambda match: _seat_fields(match, slot="slot"),
    ),
    FORM_IDS["f"]: Old(
        lambda game_id, seat, decision_id, op, state: (
            f"pt:f:{game_id}:{seat}:{_q(decision_id)}:{_q(op)}:{_q(state)}"
        ),
        "pt:f" + _FORM_FIELDS,
        _form_fields,
    ),
    FORM_IDS["g"]: Old(
        lambda game_id, seat, decision_id, op, state: (
            f"pt:g:{game_id}:{seat}:{_q(decision_id)}:{_q(op)}:{_q(state)}"
        ),
        "pt:g" + _FORM_FIELDS,
        _form_fields,
    ),
    STEP_BUTTON_ID: Old(
        lambda game_id, step, slot: f"pt:r:{game_id}:{step}:{slot}",
        r"pt:r:(?P<game>[0-9]{1,19}):(?P<step>[0-9]{1,7}):(?P<slot>[fbnls])",
        lambda match: {"game_id": int(match["game"]), "step": int(match["step"]), "slot": match["slot"]},
    ),
    JUMP_SELECT_ID: Old(
        lambda game_id: f"pt:j:{game_id}",
        r"pt:j:(?P<game>[0-9]{1,19})",
        lambda match: {"game_id": int(match["game"])},
    ),
    # issue 45, declared with the codec from the start: written out here by hand the same way
    LEAGUE_BUTTON_ID: Old(
        lambda league_id, op: f"pt:lg:{league_id}:{op}",
        r"pt:lg:(?P<league>[0-9]{1,18}):(?P<op>join)",
        lambda match: {"league_id": int(match["league"]), "op": match["op"]},
    ),
}
FORMATS = list(OLD)

#: ids as the old code made them, with the values they carry (decision ids, actions and drafts as games make them)
POSTED: list[tuple[IdFormat, str, dict[str, Any]]] = [
    (
        CHOICE_BUTTON_ID,
        "pt:c:1:0:r1s0:5%3E9",
        {"game_id": 1, "seat": 0, "decision_id": "r1s0", "token": "5>9"},
    ),
    (
        CHOICE_BUTTON_ID,
        "pt:c:42:3:r12s3:%2317",
        {"game_id": 42, "seat": 3, "decision_id": "r12s3", "token": "#17"},
    ),
    (
        CHOICE_BUTTON_ID,
        "pt:c:7:1:0%3Ar1s0:pass%20%C3%A9",
        {"game_id": 7, "seat": 1, "decision_id": "0:r1s0", "token": "pass é"},
    ),
    (CHOICE_SELECT_ID, "pt:s:1:0:r1s0:0", {"game_id": 1, "seat": 0, "decision_id": "r1s0", "page": 0}),
    (MORE_CHOICES_ID, "pt:m:9:2:r3s2:1", {"game_id": 9, "seat": 2, "decision_id": "r3s2", "page": 1}),
    (LOBBY_BUTTON_ID, "pt:l:5:join", {"game_id": 5, "op": "join"}),
    (LOBBY_BUTTON_ID, "pt:l:5:start", {"game_id": 5, "op": "start"}),
    (EXPIRY_BUTTON_ID, "pt:x:5:0%3Ar1s0:claim", {"game_id": 5, "expiry_id": "0:r1s0", "choice": "claim"}),
    (HAND_BUTTON_ID, "pt:h:12", {"game_id": 12}),
    (AHEAD_BUTTON_ID, "pt:a:3:1:r2s1:ask", {"game_id": 3, "seat": 1, "slot": "r2s1", "action": "ask"}),
    (AHEAD_SELECT_ID, "pt:b:3:1:r2s1", {"game_id": 3, "seat": 1, "slot": "r2s1"}),
    (
        FORM_IDS["f"],
        "pt:f:4:0:r1s0:open:",
        {"game_id": 4, "seat": 0, "decision_id": "r1s0", "op": "open", "state": ""},
    ),
    (
        FORM_IDS["g"],
        "pt:g:4:1:r1s0:t:a1%2Cb2%3Bc",
        {"game_id": 4, "seat": 1, "decision_id": "r1s0", "op": "t", "state": "a1,b2;c"},
    ),
    (STEP_BUTTON_ID, "pt:r:6:4:n", {"game_id": 6, "step": 4, "slot": "n"}),
    (JUMP_SELECT_ID, "pt:j:6", {"game_id": 6}),
]

game_ids = st.integers(1, 2**63 - 1)
small = st.integers(0, 9999)
texts = st.text()  # any text: ':', '%', '#', unicode
colon_texts = st.text(alphabet=st.sampled_from(":%#é🙂 a1"))


@st.composite
def values_of(draw: st.DrawFn, layout: IdFormat) -> dict[str, Any]:
    """Values for every field of ``layout``, within what each field may carry."""
    values: dict[str, Any] = {}
    for name, kind in layout.fields:
        if kind is GAME:
            values[name] = draw(game_ids)
        elif kind is TEXT:
            values[name] = draw(st.one_of(texts, colon_texts))
        elif kind.pattern.startswith("[0-9]"):
            at_most = int(kind.pattern.split(",")[1].rstrip("}"))
            values[name] = draw(st.integers(0, 10**at_most - 1))
        elif kind.pattern == r"\d+":
            values[name] = draw(small)
        else:
            values[name] = draw(st.sampled_from(kind.pattern.split("|")))
    return values


def layout_and_values() -> st.SearchStrategy[tuple[IdFormat, dict[str, Any]]]:
    return st.sampled_from(FORMATS).flatmap(lambda layout: st.tuples(st.just(layout), values_of(layout)))


def outcome(read: Callable[[], dict[str, Any]]) -> object:
    """What reading gives: the values, or the kind of refusal and its sentence."""
    try:
        return read()
    except HostError as error:
        return ("HostError", str(error))
    except ValueError:
        return "ValueError"


# ---------------------------------------------------------------------------------------------- old ids
@pytest.mark.parametrize(("layout", "custom_id", "values"), POSTED, ids=[p[1] for p in POSTED])
def test_ids_already_posted_are_built_and_read_as_before(
    layout: IdFormat, custom_id: str, values: dict[str, Any]
) -> None:
    assert OLD[layout].built(**values) == custom_id  # the example is what the old code made
    assert layout.build(**values) == custom_id
    assert layout.parse(custom_id) == values
    match = layout.template.fullmatch(custom_id)
    assert match is not None and layout.parse(match) == values


@given(layout_and_values())
def test_every_layout_builds_the_old_bytes(case: tuple[IdFormat, dict[str, Any]]) -> None:
    layout, values = case
    old = OLD[layout].built(**values)
    if len(old) > CUSTOM_ID:
        with pytest.raises(ValueError, match="too long"):
            layout.build(**values)
    else:
        assert layout.build(**values) == old


@given(st.data())
def test_every_template_matches_what_the_old_regex_matched(data: st.DataObject) -> None:
    layout = data.draw(st.sampled_from(FORMATS))
    old = re.compile(OLD[layout].regex)
    for text in (
        data.draw(st.from_regex(old, fullmatch=True)),
        data.draw(st.from_regex(layout.template, fullmatch=True)),
        data.draw(st.text(st.sampled_from("pt:cslmxhabfgrj0123456789٣%#ajoinclaimfn"))),
    ):
        assert bool(old.fullmatch(text)) == bool(layout.template.fullmatch(text)), text
        assert bool(old.match(text)) == bool(layout.template.match(text)), text


@given(st.data())
def test_every_layout_reads_what_the_old_readers_read(data: st.DataObject) -> None:
    """Forged ids included (unicode digits, huge numbers, unreadable quoting): the same values, or the same
    refusal with the same sentence."""
    layout = data.draw(st.sampled_from(FORMATS))
    old = OLD[layout]
    text = data.draw(st.from_regex(re.compile(old.regex), fullmatch=True))
    old_match = re.fullmatch(old.regex, text)
    assert old_match is not None
    assert outcome(lambda: layout.parse(text)) == outcome(lambda: old.read(old_match))


# ---------------------------------------------------------------------------------------------- round trips
@given(layout_and_values())
def test_build_then_parse_gives_the_values_back(case: tuple[IdFormat, dict[str, Any]]) -> None:
    layout, values = case
    try:
        custom_id = layout.build(**values)
    except ValueError:
        assert len(OLD[layout].built(**values)) > CUSTOM_ID  # refused only for its length
        return
    assert len(custom_id) <= CUSTOM_ID
    assert layout.template.fullmatch(custom_id)
    assert layout.parse(custom_id) == values


@given(game_ids, small, texts)
def test_a_text_field_never_splits_the_id(game_id: int, seat: int, text: str) -> None:
    room = CHOICE_BUTTON_ID.room(game_id=game_id, seat=seat, decision_id=text)
    fits = CHOICE_BUTTON_ID.fits(game_id=game_id, seat=seat, decision_id=text, token=text)
    assert fits == (len(_q(text)) <= room)
    if fits:
        custom_id = CHOICE_BUTTON_ID.build(game_id=game_id, seat=seat, decision_id=text, token=text)
        assert custom_id.count(":") == 5
        assert CHOICE_BUTTON_ID.parse(custom_id)["token"] == text


@given(layout_and_values())
def test_built_ids_are_ready_for_their_item(case: tuple[IdFormat, dict[str, Any]]) -> None:
    """discord.py checks a new item's custom_id with ``template.match``; every built id passes."""
    layout, values = case
    if layout.fits(**values):
        assert layout.template.match(layout.build(**values))


# ---------------------------------------------------------------------------------------------- refusals
@given(layout_and_values(), st.sampled_from(["", ":", "x", "1", "%3A"]))
def test_parse_refuses_a_field_more_or_less_or_another_tag(
    case: tuple[IdFormat, dict[str, Any]], extra: str
) -> None:
    layout, values = case
    custom_id = OLD[layout].built(**values)
    for forged in (f"{custom_id}:{extra}", custom_id.rsplit(":", 1)[0], f"pt:z{custom_id[4:]}"):
        with pytest.raises(ValueError, match="custom_id"):
            layout.parse(forged)


@given(st.data())
def test_what_parse_accepts_is_built_again_the_same(data: st.DataObject) -> None:
    """Any id that reads (forged ones too) has the layout's shape: its values build an id that reads them back."""
    layout = data.draw(st.sampled_from(FORMATS))
    text = data.draw(st.from_regex(layout.template, fullmatch=True))
    read = outcome(lambda: layout.parse(text))
    if isinstance(read, dict) and layout.fits(**read):
        assert layout.parse(layout.build(**read)) == read


@pytest.mark.parametrize(
    ("layout", "forged"),
    [
        (CHOICE_BUTTON_ID, "pt:c:1"),
        (CHOICE_BUTTON_ID, "pt:c:a:b:c:d"),
        (CHOICE_BUTTON_ID, "pt:c:1:0:r1s0:a:b"),
        (CHOICE_BUTTON_ID, "pt:s:1:0:r1s0:0"),
        (CHOICE_SELECT_ID, "pt:s:1:0:r1s0:"),
        (LOBBY_BUTTON_ID, "pt:l:1:explode"),
        (EXPIRY_BUTTON_ID, "pt:x:1:0:nuke"),
        (HAND_BUTTON_ID, "pt:h:-1"),
        (HAND_BUTTON_ID, "pt:h:1:"),
        (STEP_BUTTON_ID, "pt:r:1:12345678:n"),
        (STEP_BUTTON_ID, "pt:r:1:0:z"),
        (JUMP_SELECT_ID, "pt:j:" + "9" * 20),
    ],
)
def test_parse_refuses_what_no_build_makes(layout: IdFormat, forged: str) -> None:
    with pytest.raises(ValueError, match="custom_id"):
        layout.parse(forged)


@pytest.mark.parametrize(
    ("layout", "forged", "sentence"),
    [
        (CHOICE_BUTTON_ID, "pt:c:0:0:r1s0:%230", "cannot read"),
        (CHOICE_BUTTON_ID, f"pt:c:{'9' * 30}:0:r1s0:%230", "cannot read"),
        (CHOICE_BUTTON_ID, "pt:c:٣:0:r1s0:%230", "cannot read"),
        (CHOICE_BUTTON_ID, "pt:c:1:12345:r1s0:%230", "seat number"),
        (MORE_CHOICES_ID, "pt:m:1:0:r1s0:٣", "page number"),
    ],
)
def test_a_field_out_of_range_is_refused_with_a_sentence(
    layout: IdFormat, forged: str, sentence: str
) -> None:
    with pytest.raises(HostError, match=sentence):
        layout.parse(forged)


def test_build_refuses_values_the_layout_cannot_carry() -> None:
    with pytest.raises(ValueError):
        LOBBY_BUTTON_ID.build(game_id=1, op="explode")
    with pytest.raises(ValueError):
        HAND_BUTTON_ID.build(game_id=-1)
    with pytest.raises(ValueError):
        STEP_BUTTON_ID.build(game_id=1, step=10**7, slot="n")
    with pytest.raises(ValueError, match="too long"):
        FORM_IDS["f"].build(game_id=1, seat=0, decision_id="r1s0", op="x", state="é" * 20)
    with pytest.raises(TypeError):
        HAND_BUTTON_ID.build()
    with pytest.raises(TypeError):
        HAND_BUTTON_ID.build(game_id=1, seat=0)


# ---------------------------------------------------------------------------------------------- one place
def test_every_dynamic_item_reads_a_declared_layout() -> None:
    """Each item's template is its layout's, each layout serves one item, and the docstrings list them all."""
    templates = {layout.template: layout for layout in FORMATS}
    used = [templates[item.__discord_ui_compiled_template__] for item in DYNAMIC_ITEMS]
    assert sorted(used, key=lambda layout: layout.tag) == sorted(FORMATS, key=lambda layout: layout.tag)
    documented = f"{components.__doc__}{forms.__doc__}{replays.__doc__}"
    for layout in FORMATS:
        assert f"``{layout.tag}:" in documented, layout


def test_a_new_layout_in_a_few_words() -> None:
    """What declaring a layout takes, and what it gives."""
    layout = IdFormat("pt:q", (("game_id", GAME), ("seat", SEAT), ("note", TEXT)))
    assert layout.build(game_id=2, seat=1, note="a:b") == "pt:q:2:1:a%3Ab"
    assert layout.parse("pt:q:2:1:a%3Ab") == {"game_id": 2, "seat": 1, "note": "a:b"}
    assert layout.room(game_id=2, seat=1) == CUSTOM_ID - len("pt:q:2:1:")
    assert repr(layout) == "IdFormat('pt:q', game_id, seat, note)"
