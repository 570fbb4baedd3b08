"""Discord's published API contract: would real Discord accept this request?

``check(method, path, body)`` answers None, or the ``Refusal`` Discord would give. ``path`` is the request path
after ``/api/v10/`` as the fake Discord receives it (``applications/123/guilds/456/commands``), ``body`` the JSON
body (for a multipart request, its ``payload_json`` part). Two layers:

1. The body against the ``requestBody`` schema of the operation the path and method name in Discord's OpenAPI 3.1
   description (``data/discord-openapi.json``; what it is and how to update it: ``data/README.md``), validated by
   ``jsonschema`` (Draft 2020-12, the dialect of OpenAPI 3.1) with the whole description in a
   ``referencing.Registry`` so that its ``$ref: "#/components/schemas/..."`` resolve. Loaded once; one validator
   per operation, built on first use.
2. The limits Discord's developer documentation states that the description does not encode, or encodes laxer
   (message content: 2,000 characters in the docs, 4,000 in the description): the tables ``MESSAGE_CHECKS``,
   ``NEW_MESSAGE_CHECKS`` and ``COMMAND_CHECKS``, each check with the docs page it comes from, and the callback
   types allowed per interaction type (``CALLBACKS_BY_INTERACTION``). Discord's docs win where the two differ; a
   limit the description already carries is left to layer 1 (when both find the same field at fault the same
   way, one problem is reported).

A refused body gets Discord's 400: ``{"code": 50035, "message": "Invalid Form Body", "errors": {...}}``, each
problem nested under the path of its field (list indexes as strings) in an ``_errors`` list, as Discord nests it:
``{"errors": {"0": {"options": {"2": {"max_value": {"_errors": [{"code": ..., "message": ...}]}}}}}}``. The codes
follow Discord's (``BASE_TYPE_MAX_LENGTH``, ...) where the mapping is clear, and so do the messages of the common
ones ("Must be 2000 or fewer in length."); others carry jsonschema's message. An empty new message gets Discord's
``{"code": 50006, "message": "Cannot send an empty message"}``, an unknown route 404, a known one called with
another method 405.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import referencing
import referencing.jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

JSON = dict[str, Any]
#: where a problem lies in the body: keys and list indexes from its root
Where = tuple[str | int, ...]

SPEC_FILE = Path(__file__).parent / "data" / "discord-openapi.json"
#: the URI the description is registered under, so that its internal ``#/...`` references resolve in it
SPEC_URI = "urn:discord-api-spec:openapi.json"
INVALID_FORM_BODY = 50035
#: a problem Discord answers with its own error code rather than "Invalid Form Body"
EMPTY_MESSAGE = "50006"
#: how many bodies' verdicts are kept
VERDICTS_KEPT = 256
#: keywords that only annotate a schema
ANNOTATIONS = frozenset({"title", "description"})
#: how much of a jsonschema message (which quotes the offending value, maybe a whole message) is kept
MESSAGE_CHARS = 300

# ---- what Discord's developer docs say that the description does not ---------------------------------------------
# Pages of https://discord.com/developers/docs (source: github.com/discord/discord-api-docs, developers/*.mdx).
DOCS = "https://discord.com/developers/docs/"
MESSAGE_DOCS = DOCS + "resources/message#create-message-jsonform-params"  # content "up to 2000 characters"
EMBED_DOCS = DOCS + "resources/message#embed-object-embed-limits"  # the 6000 total, whitespace trimmed
COMPONENT_DOCS = DOCS + "components/reference"  # action rows, custom_id unique per message, select values
COMMAND_DOCS = DOCS + "interactions/application-commands"  # naming, option structure, choices, the size limit
LOCALE_DOCS = DOCS + "reference#locales"
CALLBACK_DOCS = (
    DOCS + "interactions/receiving-and-responding#interaction-response-object-interaction-callback-type"
)

MESSAGE_CONTENT = 2000  # the description says 4000 for a channel message
EMBED_TOTAL = 6000
ACTION_ROWS = 5  # the description allows 40 top-level components: Components V2 messages only
IS_COMPONENTS_V2 = 1 << 15
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
CHOICE_STRING_VALUE = 100  # the description says 6000
#: "Any double between -2^53 and 2^53" (NUMBER options); INTEGER ones are the description's Int53Type
NUMBER_BOUND = 2**53
#: combined name, description and choice values of one command, the longest localisation of each field counted.
#: The docs raised it from 4000 to 8000 on 2024-02-20 (discord-api-docs #6668, "Update character limit for slash
#: commands"); the current page says 8000.
COMMAND_SIZE = 8000
#: ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, lower case where a letter has a lower-case form (CHAT_INPUT
#: command, subcommand and option names, and their localisations)
NAME_PUNCTUATION = frozenset("-_'")
#: the Devanagari and Thai blocks (``\p{sc=Deva}``, ``\p{sc=Thai}``: their marks are not letters or digits)
NAME_SCRIPTS = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F), (0x0E00, 0x0E7F))
#: the docs' locale list (the description's ``AvailableLocalesEnum`` also has ``ar`` and ``he``; the docs win)
LOCALES = frozenset(
    "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el bg ru uk hi th "
    "zh-CN ja zh-TW ko".split()
)
#: the callback types the docs list (the description lacks 10, PREMIUM_REQUIRED, and has 13)
CALLBACK_TYPES = frozenset({1, 4, 5, 6, 7, 8, 9, 10, 12})
#: interaction type -> the callback types it may be answered with: PONG only a PING; 6 and 7 "only valid for
#: component-based interactions" (a modal submitted from a component counts); 8 only and always for autocomplete;
#: MODAL "not available for MODAL_SUBMIT and PING interactions"
CALLBACKS_BY_INTERACTION = {
    1: frozenset({1}),
    2: frozenset({4, 5, 9, 10, 12}),
    3: frozenset({4, 5, 6, 7, 9, 10, 12}),
    4: frozenset({8}),
    5: frozenset({4, 5, 6, 7, 10, 12}),
}

#: operations whose body is a message (or a message edit)
MESSAGE_OPERATIONS = frozenset(
    {
        "create_message",
        "update_message",
        "execute_webhook",
        "update_original_webhook_message",
        "update_webhook_message",
    }
)
NEW_MESSAGE_OPERATIONS = frozenset({"create_message", "execute_webhook"})
COMMAND_LIST_OPERATIONS = frozenset({"bulk_set_application_commands", "bulk_set_guild_application_commands"})
COMMAND_OPERATIONS = frozenset(
    {
        "create_application_command",
        "create_guild_application_command",
        "update_application_command",
        "update_guild_application_command",
    }
)
CALLBACK_OPERATION = "create_interaction_response"

#: jsonschema keyword -> Discord's error code for it
SCHEMA_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_BAD_LENGTH",
    "minItems": "BASE_TYPE_BAD_LENGTH",
    "maxProperties": "BASE_TYPE_BAD_LENGTH",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "required": "BASE_TYPE_REQUIRED",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "type": "BASE_TYPE_BAD_TYPE",
    "pattern": "STRING_TYPE_REGEX",
}

#: jsonschema keyword -> Discord's message for it (the keyword's value filled in)
SCHEMA_MESSAGES = {
    "maxLength": "Must be {} or fewer in length.",
    "minLength": "Must be {} or more in length.",
    "maxItems": "Must be {} or fewer in length.",
    "minItems": "Must be {} or more in length.",
    "maximum": "int value should be less than or equal to {}.",
    "minimum": "int value should be greater than or equal to {}.",
}


@dataclass(frozen=True)
class Problem:
    where: Where
    code: str
    message: str


@dataclass(frozen=True)
class Refusal:
    """What Discord answers instead: ``status`` and the JSON ``body``."""

    status: int
    body: JSON
    problems: tuple[Problem, ...] = ()

    @property
    def errors(self) -> JSON:
        return dict(self.body.get("errors") or {})


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    operation_id: str
    pattern: re.Pattern[str]
    #: path segments that are not parameters: ``users/@me`` wins over ``users/{user_id}``
    literals: int
    #: JSON pointer (in the description) of the JSON request body's schema
    body_schema: str | None


def error_body(problems: Iterable[Problem]) -> JSON:
    """Discord's "Invalid Form Body" with each problem nested under its field's path."""
    errors: JSON = {}
    for problem in problems:
        node = errors
        for key in problem.where:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return {"code": INVALID_FORM_BODY, "message": "Invalid Form Body", "errors": errors}


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _relaxed(spec: JSON) -> JSON:
    """The description with what it gets wrong against documented behaviour discord.py relies on put right."""
    spec = copy.deepcopy(spec)
    schemas = spec["components"]["schemas"]
    # Discord reads a snowflake given as a JSON integer as well as a string (the docs: "snowflake"), and
    # discord.py sends some as integers: a new attachment's id is its index (``{"id": 0, "filename": ...}``),
    # ``recipient_id`` when opening a DM. The description types them as strings only.
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}
    return _dispatched(spec, schemas)


def _discriminator(schemas: JSON, branch: Any) -> list[Any] | None:
    """The ``type`` constants of a union's branch: a ``$ref`` to an object schema that requires ``type``."""
    ref = branch.get("$ref", "") if isinstance(branch, dict) and len(branch) == 1 else ""
    target = (
        schemas.get(ref.removeprefix("#/components/schemas/")) if ref.startswith("#/components/") else None
    )
    if (
        not isinstance(target, dict)
        or target.get("type") != "object"
        or "type" not in target.get("required", [])
    ):
        return None
    values = target.get("properties", {}).get("type", {}).get("enum")
    return list(values) if isinstance(values, list) else None


def _enum(node: JSON) -> JSON | None:
    """``{"oneOf": [{"title": "PRIMARY", "const": 1}, ...]}`` (the description's enumerations) as ``enum``."""
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list) or not branches:
            continue
        if not all(
            isinstance(b, dict) and "const" in b and set(b) <= ANNOTATIONS | {"const"} for b in branches
        ):
            return None
        values = [branch["const"] for branch in branches]
        if len(set(map(json.dumps, values))) != len(values):
            return None
        return {**{key: value for key, value in node.items() if key != keyword}, "enum": values}
    return None


def _dispatch(schemas: JSON, node: JSON) -> JSON | None:
    """``node``'s anyOf/oneOf as an if/then on the branches' ``type`` constants, when they tell them apart."""
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list) or len(branches) < 2:
            continue
        values = [_discriminator(schemas, branch) for branch in branches]
        flat = [value for group in values if group is not None for value in group]
        if any(group is None for group in values) or len(flat) != len(set(map(json.dumps, flat))):
            return None
        rest = {key: value for key, value in node.items() if key != keyword}
        dispatch: list[JSON] = [{"properties": {"type": {"enum": flat}}, "required": ["type"]}]
        dispatch += [
            {"if": {"properties": {"type": {"enum": group}}}, "then": branch}
            for group, branch in zip(values, branches, strict=True)
        ]
        return {**rest, "allOf": [*rest.get("allOf", []), *dispatch]}
    return None


def _dispatched(spec: JSON, schemas: JSON) -> JSON:
    """The description with each union of object schemas told apart by their ``type`` constant (components,
    command options, interaction callbacks) rewritten as if/then on that constant. The same bodies pass and fail
    (the constants are disjoint and required, each branch an object), but a body is validated against its own
    branch only: several times faster than trying every branch (a message's components were 20 ms), and the
    errors are that branch's, the fields Discord names. Likewise a oneOf of distinct constants (the description's
    enumerations: component types, button styles, locales) becomes the ``enum`` it means."""

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: walk(value) for key, value in node.items()}
        return _enum(node) or _dispatch(schemas, node) or node

    return dict(walk(spec))


class Contract:
    """The description, its operations, and a validator per operation (built on first use)."""

    def __init__(self, spec: JSON) -> None:
        self.spec = _relaxed(spec)
        resource = referencing.jsonschema.DRAFT202012.create_resource(self.spec)
        self.registry: referencing.Registry[Any] = referencing.Registry().with_resource(SPEC_URI, resource)
        self.operations = list(self._operations())
        self._validators: dict[str, Draft202012Validator] = {}
        #: the schema's verdict on bodies seen before (each bot start syncs the same command list, 24 kB)
        self._verdicts: dict[tuple[str, str], tuple[Problem, ...]] = {}

    def _operations(self) -> Iterator[Operation]:
        for template, item in self.spec["paths"].items():
            segments = template.strip("/").split("/")
            pattern = "/".join("[^/]+" if s.startswith("{") else re.escape(s) for s in segments)
            literals = sum(not s.startswith("{") for s in segments)
            for method, operation in item.items():
                if method == "parameters":
                    continue
                content = (operation.get("requestBody") or {}).get("content") or {}
                kind = "application/json" if "application/json" in content else next(iter(content), None)
                pointer = (
                    f"#/paths/{_escape(template)}/{method}/requestBody/content/{_escape(kind)}/schema"
                    if kind
                    else None
                )
                yield Operation(
                    method.upper(),
                    template,
                    operation["operationId"],
                    re.compile(pattern),
                    literals,
                    pointer,
                )

    def operation(self, method: str, path: str) -> Operation | Refusal:
        """The operation ``method path`` calls, or the 404/405 Discord answers when there is none."""
        matching = [op for op in self.operations if op.pattern.fullmatch(path.strip("/"))]
        if not matching:
            return Refusal(404, {"message": "404: Not Found", "code": 0})
        allowed = [op for op in matching if op.method == method.upper()]
        if not allowed:
            return Refusal(405, {"message": "405: Method Not Allowed", "code": 0})
        return max(allowed, key=lambda op: op.literals)

    def validator(self, operation: Operation) -> Draft202012Validator | None:
        if operation.body_schema is None:
            return None
        if operation.operation_id not in self._validators:
            schema = {"$ref": SPEC_URI + operation.body_schema}
            self._validators[operation.operation_id] = Draft202012Validator(schema, registry=self.registry)
        return self._validators[operation.operation_id]

    def problems(self, operation: Operation, body: Any, interaction_type: int | None = None) -> list[Problem]:
        found = list(self._schema_problems(operation, body))
        found += doc_problems(operation.operation_id, body, interaction_type)
        unique: dict[tuple[Where, str], Problem] = {}
        for problem in found:  # the description's finding first, the docs' same finding dropped
            unique.setdefault((problem.where, problem.code), problem)
        return list(unique.values())

    def _schema_problems(self, operation: Operation, body: Any) -> tuple[Problem, ...]:
        validator = self.validator(operation)
        if validator is None:
            return ()
        key = (operation.operation_id, json.dumps(body, sort_keys=True))
        if key not in self._verdicts:
            if len(self._verdicts) >= VERDICTS_KEPT:
                self._verdicts.clear()
            errors = validator.iter_errors(body)
            self._verdicts[key] = tuple(_schema_problem(leaf) for error in errors for leaf in _leaves(error))
        return self._verdicts[key]

    def check(
        self, method: str, path: str, body: Any, *, interaction_type: int | None = None
    ) -> Refusal | None:
        """None when Discord would accept ``body`` on ``method path``; else what it answers.
        ``interaction_type`` (for an interaction callback) is the type of the interaction being answered."""
        operation = self.operation(method, path)
        if isinstance(operation, Refusal):
            return operation
        problems = self.problems(operation, body, interaction_type)
        if not problems:
            return None
        if any(problem.code == EMPTY_MESSAGE for problem in problems):
            return Refusal(400, {"code": 50006, "message": "Cannot send an empty message"}, tuple(problems))
        return Refusal(400, error_body(problems), tuple(problems))


def _fails_discriminator(errors: list[ValidationError]) -> bool:
    """Whether a branch of a union failed on what tells the branches apart: its ``type`` constant (a component's,
    an option's, a callback's) or, for ``oneOf: [{"type": "null"}, ...]``, the instance's JSON type."""
    return any(
        (list(e.relative_path) == ["type"] and e.validator in ("enum", "const"))
        or (not e.relative_path and e.validator == "type")
        for e in errors
    )


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The failures a union (anyOf/oneOf) error stands for: those of the one branch whose discriminator matched,
    as Discord reports the fields of the component or option it was given; else jsonschema's best match."""
    if not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for inner in error.context:
        branches.setdefault(inner.relative_schema_path[0], []).append(inner)
    matching = [errors for errors in branches.values() if not _fails_discriminator(errors)]
    if len(matching) == 1:
        return [leaf for inner in matching[0] for leaf in _leaves(inner)]
    return [best_match([error]) or error]


def _schema_problem(leaf: ValidationError) -> Problem:
    template = SCHEMA_MESSAGES.get(str(leaf.validator))
    if template is not None:
        message = template.format(leaf.validator_value)
    else:
        message = leaf.message if len(leaf.message) <= MESSAGE_CHARS else leaf.message[:MESSAGE_CHARS] + "..."
    code = SCHEMA_CODES.get(str(leaf.validator), "BASE_TYPE_INVALID")
    return Problem(tuple(leaf.absolute_path), code, message)


@functools.cache
def contract() -> Contract:
    """The contract, from the vendored description (read once per process)."""
    return Contract(json.loads(SPEC_FILE.read_text(encoding="utf-8")))


def check(method: str, path: str, body: Any, *, interaction_type: int | None = None) -> Refusal | None:
    return contract().check(method, path, body, interaction_type=interaction_type)


# ---- the docs' checks ------------------------------------------------------------------------------------------
Check = Callable[[JSON, Where], Iterator[Problem]]


@dataclass(frozen=True)
class DocCheck:
    what: str
    check: Check
    docs: str


def _dicts(items: Any) -> Iterator[tuple[int, JSON]]:
    if isinstance(items, list):
        for index, item in enumerate(items):
            if isinstance(item, dict):
                yield index, item


# -- messages


def _content(message: JSON, at: Where) -> Iterator[Problem]:
    content = message.get("content")
    if isinstance(content, str) and len(content) > MESSAGE_CONTENT:
        yield Problem(
            at + ("content",), "BASE_TYPE_MAX_LENGTH", f"Must be {MESSAGE_CONTENT} or fewer in length."
        )


def _embed_text(embed: JSON) -> Iterator[Any]:
    yield embed.get("title")
    yield embed.get("description")
    for _, item in _dicts(embed.get("fields")):
        yield item.get("name")
        yield item.get("value")
    for part, key in (("footer", "text"), ("author", "name")):
        if isinstance(embed.get(part), dict):
            yield embed[part].get(key)


def _embed_total(message: JSON, at: Where) -> Iterator[Problem]:
    total = sum(
        len(text.strip())
        for _, embed in _dicts(message.get("embeds"))
        for text in _embed_text(embed)
        if isinstance(text, str)
    )
    if total > EMBED_TOTAL:
        yield Problem(
            at + ("embeds",), "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}"
        )


def _action_rows(message: JSON, at: Where) -> Iterator[Problem]:
    """At most 5 action rows (a Components V2 message has other limits); a row holds buttons or one select."""
    if not isinstance(message.get("components"), list) or int(message.get("flags") or 0) & IS_COMPONENTS_V2:
        return
    if len(message["components"]) > ACTION_ROWS:
        yield Problem(
            at + ("components",), "BASE_TYPE_BAD_LENGTH", f"Must be between 0 and {ACTION_ROWS} in length."
        )
    for index, row in _dicts(message["components"]):
        items = [item for _, item in _dicts(row.get("components"))]
        if any(item.get("type") in SELECT_TYPES for item in items) and len(items) > 1:
            yield Problem(
                at + ("components", index, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )


def _components(items: Any, at: Where) -> Iterator[tuple[JSON, Where]]:
    """Every component, nested ones included, with where it is."""
    for index, item in _dicts(items):
        yield item, at + (index,)
        yield from _components(item.get("components"), at + (index, "components"))
        if isinstance(item.get("accessory"), dict):
            yield item["accessory"], at + (index, "accessory")


def _custom_ids(message: JSON, at: Where) -> Iterator[Problem]:
    seen: set[str] = set()
    for item, where in _components(message.get("components"), at + ("components",)):
        custom_id = item.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                yield Problem(
                    where + ("custom_id",),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            seen.add(custom_id)


def _select_values(message: JSON, at: Where) -> Iterator[Problem]:
    """A string select's min_values <= max_values <= its number of options (both default to 1)."""
    for item, where in _components(message.get("components"), at + ("components",)):
        if item.get("type") != 3 or not isinstance(item.get("options"), list):
            continue
        low, high = item.get("min_values"), item.get("max_values")
        low = 1 if low is None else low
        high = 1 if high is None else high
        if isinstance(low, int) and isinstance(high, int) and not low <= high <= len(item["options"]):
            yield Problem(
                where + ("max_values",),
                "SELECT_COMPONENT_VALUES_INVALID",
                f"min_values {low} <= max_values {high} <= {len(item['options'])} options does not hold",
            )


def _buttons(message: JSON, at: Where) -> Iterator[Problem]:
    """A link button (style 5) has a url and no custom_id; a premium one (6) neither; the others a custom_id and
    no url."""
    for item, where in _components(message.get("components"), at + ("components",)):
        if item.get("type") != 2:
            continue
        style = item.get("style")
        wanted = {"url": style == 5, "custom_id": style not in (5, 6)}
        for key, needed in wanted.items():
            if needed != (item.get(key) is not None):
                what = "required" if needed else "not allowed"
                yield Problem(
                    where + (key,), "BUTTON_COMPONENT_INVALID", f"{key} is {what} on a style {style} button"
                )


def _mentions(message: JSON, at: Where) -> Iterator[Problem]:
    """``parse`` is mutually exclusive with ``users`` (and ``roles``): both given is a validation error."""
    mentions = message.get("allowed_mentions")
    if not isinstance(mentions, dict):
        return
    parse = mentions.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and mentions.get(kind):
            yield Problem(
                at + ("allowed_mentions", kind),
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
            )


def _not_empty(message: JSON, at: Where) -> Iterator[Problem]:
    """A new message has content, embeds, stickers, components, files (listed in ``attachments``) or a poll."""
    if not any(
        message.get(key) for key in ("content", "embeds", "sticker_ids", "components", "attachments", "poll")
    ):
        yield Problem(at, EMPTY_MESSAGE, "Cannot send an empty message")


MESSAGE_CHECKS = (
    DocCheck("content at most 2,000 characters", _content, MESSAGE_DOCS),
    DocCheck("embeds at most 6,000 characters together", _embed_total, EMBED_DOCS),
    DocCheck(
        "at most 5 action rows; a select alone in its row", _action_rows, COMPONENT_DOCS + "#action-row"
    ),
    DocCheck("custom_id unique within a message", _custom_ids, COMPONENT_DOCS + "#anatomy-of-a-component"),
    DocCheck("select min_values <= max_values <= options", _select_values, COMPONENT_DOCS + "#string-select"),
    DocCheck("a button has a custom_id or (link) a url", _buttons, COMPONENT_DOCS + "#button"),
    DocCheck(
        "allowed_mentions: parse excludes users/roles",
        _mentions,
        DOCS + "resources/message#allowed-mentions-object",
    ),
)
#: what only a new message must satisfy (not an edit)
NEW_MESSAGE_CHECKS = (DocCheck("not empty", _not_empty, MESSAGE_DOCS),)


# -- application commands


def valid_name(name: Any, chat_input: bool = True) -> bool:
    """Discord's naming rule for CHAT_INPUT command and option names (other command types: 1-32 characters)."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    if not chat_input:
        return True
    return all(_name_character(c) and c.lower() == c for c in name)


def _name_character(character: str) -> bool:
    if character in NAME_PUNCTUATION or unicodedata.category(character)[0] in "LN":
        return True
    return any(low <= ord(character) <= high for low, high in NAME_SCRIPTS)


def _options(node: JSON, at: Where) -> Iterator[tuple[JSON, Where]]:
    """Every option under ``node`` (subcommands, groups and their options), with where it is."""
    for index, option in _dicts(node.get("options")):
        yield option, at + ("options", index)
        yield from _options(option, at + ("options", index))


def _is_chat_input(command: JSON) -> bool:
    return command.get("type") in (None, 1)


def _names(command: JSON, at: Where) -> Iterator[Problem]:
    chat_input = _is_chat_input(command)
    for node, where in [(command, at), *_options(command, at)]:
        if not valid_name(node.get("name"), chat_input):
            yield Problem(
                where + ("name",), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {node.get('name')!r}"
            )
        for locale, name in (node.get("name_localizations") or {}).items():
            if not valid_name(name, chat_input):
                yield Problem(
                    where + ("name_localizations", locale),
                    "APPLICATION_COMMAND_INVALID_NAME",
                    f"Invalid name {name!r}",
                )


def _description(command: JSON, at: Where) -> Iterator[Problem]:
    """A CHAT_INPUT command's description is 1-100 characters (the description allows it empty or absent)."""
    description = command.get("description")
    if _is_chat_input(command) and not (isinstance(description, str) and description):
        yield Problem(at + ("description",), "BASE_TYPE_REQUIRED", "This field is required")


def _localised(command: JSON, at: Where) -> Iterator[tuple[JSON, Where]]:
    """Every object of the command that may carry localisations: itself, its options, their choices."""
    for node, where in [(command, at), *_options(command, at)]:
        yield node, where
        for index, choice in _dicts(node.get("choices")):
            yield choice, where + ("choices", index)


def _locales(command: JSON, at: Where) -> Iterator[Problem]:
    for node, where in _localised(command, at):
        for field in ("name_localizations", "description_localizations"):
            for locale in node.get(field) or {}:
                if locale not in LOCALES:
                    yield Problem(where + (field, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}")


def _choice_values(choices: Any, at: Where) -> Iterator[Problem]:
    for index, choice in _dicts(choices):
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_STRING_VALUE:
            yield Problem(
                at + (index, "value"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {CHOICE_STRING_VALUE} or fewer in length.",
            )


def _choices(command: JSON, at: Where) -> Iterator[Problem]:
    for option, where in _options(command, at):
        yield from _choice_values(option.get("choices"), where + ("choices",))
        if option.get("autocomplete") and option.get("choices"):
            yield Problem(
                where + ("autocomplete",), "APPLICATION_COMMAND_OPTION_INVALID", "autocomplete with choices"
            )


def _bounds(option: JSON, where: Where) -> Iterator[Problem]:
    for low_key, high_key in (("min_value", "max_value"), ("min_length", "max_length")):
        low, high = option.get(low_key), option.get(high_key)
        if isinstance(low, int | float) and isinstance(high, int | float) and low > high:
            yield Problem(
                where + (low_key,), "NUMBER_TYPE_MAX", f"{low_key} {low} is above {high_key} {high}"
            )
    if option.get("type") == 10:
        numbers = [("min_value", option.get("min_value")), ("max_value", option.get("max_value"))]
        for key, value in numbers:
            if isinstance(value, int | float) and abs(value) > NUMBER_BOUND:
                yield Problem(where + (key,), "NUMBER_TYPE_MAX", f"{key} {value} is beyond ±2^53")


def _option_structure(command: JSON, at: Where) -> Iterator[Problem]:
    """Names unique within each options list, required options before optional ones, bounds in order."""
    for node, where in [(command, at), *_options(command, at)]:
        options = [option for _, option in _dicts(node.get("options"))]
        for name, count in Counter(option.get("name") for option in options).items():
            if count > 1:
                yield Problem(
                    where + ("options",), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", f"{name!r} twice"
                )
        required = [bool(option.get("required")) for option in options]
        if required != sorted(required, reverse=True):
            yield Problem(
                where + ("options",),
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            )
        for index, option in enumerate(options):
            yield from _bounds(option, where + ("options", index))


def _longest(node: JSON, field: str) -> int:
    texts = [node.get(field), *(node.get(f"{field}_localizations") or {}).values()]
    return max(len(text) for text in texts if isinstance(text, str)) if any(texts) else 0


def command_size(node: JSON) -> int:
    """Name, description and choice values of a command (or option) and everything under it, each field counted
    at its longest localisation."""
    size = _longest(node, "name") + _longest(node, "description")
    for _, choice in _dicts(node.get("choices")):
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(command_size(option) for _, option in _dicts(node.get("options")))


def _size(command: JSON, at: Where) -> Iterator[Problem]:
    size = command_size(command)
    if size > COMMAND_SIZE:
        yield Problem(
            at, "APPLICATION_COMMAND_TOO_LARGE", f"Command exceeds maximum size ({COMMAND_SIZE}): {size}"
        )


COMMAND_CHECKS = (
    DocCheck("names: 1-32 of letters, digits, - _ ', lower case", _names, COMMAND_DOCS + "#naming"),
    DocCheck("a slash command has a description", _description, COMMAND_DOCS),
    DocCheck("localisation keys from the locale list", _locales, LOCALE_DOCS),
    DocCheck("string choice values at most 100; no autocomplete with choices", _choices, COMMAND_DOCS),
    DocCheck("unique option names, required first, bounds in order", _option_structure, COMMAND_DOCS),
    DocCheck("at most 8,000 characters of names, descriptions, values", _size, COMMAND_DOCS + "#limits"),
)


def _command_list(commands: Any) -> Iterator[Problem]:
    """In one bulk overwrite, names are unique per command type."""
    seen: set[tuple[Any, Any]] = set()
    for index, command in _dicts(commands):
        key = (command.get("type") or 1, command.get("name"))
        if key in seen:
            yield Problem((index, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", f"{key[1]!r} twice")
        seen.add(key)


# -- interaction callbacks


def _callback_problems(body: JSON, interaction_type: int | None) -> Iterator[Problem]:
    kind = body.get("type")
    allowed = CALLBACKS_BY_INTERACTION.get(interaction_type or 0, CALLBACK_TYPES) & CALLBACK_TYPES
    if kind not in allowed:
        yield Problem(
            ("type",),
            "INTERACTION_RESPONSE_TYPE_INVALID",
            f"callback type {kind!r} cannot answer an interaction of type {interaction_type} ({CALLBACK_DOCS})",
        )
    data = body.get("data")
    if not isinstance(data, dict):
        return
    if kind in (4, 7):
        yield from _run(MESSAGE_CHECKS, data, ("data",))
    if kind == 8:
        yield from _choice_values(data.get("choices"), ("data", "choices"))


def _run(checks: Iterable[DocCheck], target: JSON, at: Where) -> Iterator[Problem]:
    for doc_check in checks:
        yield from doc_check.check(target, at)


def doc_problems(operation_id: str, body: Any, interaction_type: int | None = None) -> list[Problem]:
    """The docs' checks that apply to ``operation_id``'s ``body``."""
    if operation_id == CALLBACK_OPERATION and isinstance(body, dict):
        return list(_callback_problems(body, interaction_type))
    if operation_id in MESSAGE_OPERATIONS and isinstance(body, dict):
        new = NEW_MESSAGE_CHECKS if operation_id in NEW_MESSAGE_OPERATIONS else ()
        return list(_run((*MESSAGE_CHECKS, *new), body, ()))
    if operation_id in COMMAND_OPERATIONS and isinstance(body, dict):
        return list(_run(COMMAND_CHECKS, body, ()))
    if operation_id in COMMAND_LIST_OPERATIONS:
        found = list(_command_list(body))
        for index, command in _dicts(body):
            found += _run(COMMAND_CHECKS, command, (index,))
        return found
    return []
