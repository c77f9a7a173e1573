"""The API's OpenAPI document: openapi.json beside this module, with what the rules decide filled in from them.

The house rules, a hand's cards and every number and limit of a game come from
the rules core, so a new house rule or penalty card changes the document by itself.
"""

import functools
import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from .. import rules

SKELETON = Path(__file__).resolve().parent / "openapi.json"
Schema = dict[str, Any]


@functools.cache
def document() -> Schema:
    """The whole document, made once."""
    document: Schema = json.loads(SKELETON.read_text(encoding="utf-8"))
    schemas = document["components"]["schemas"]
    schemas["Rules"]["properties"] = {field.name: house_rule(field.name) for field in fields(rules.HouseRules)}
    names = {"type": "string", "minLength": 1, "maxLength": rules.NAME_MAX}
    schemas["NewGame"]["properties"]["players"] = {"type": "array", **players(), "items": names}
    schemas["GameChange"]["properties"]["players"] = {"type": "array", **players(), "items": names}
    schemas["HandFacts"]["properties"].update(hand_facts())
    passes = {"type": "string", "enum": list(rules.PASS_STEPS)}
    schemas["Hand"]["properties"].update({"pass": passes, **{card.key: seat(card) for card in rules.PENALTY_CARDS}})
    schemas["Hand"]["required"] += [card.key for card in rules.PENALTY_CARDS if card.listed]
    schemas["NextHand"]["properties"]["pass"] = passes
    return document


def players() -> Schema:
    return {"minItems": rules.MIN_PLAYERS, "maxItems": rules.MAX_PLAYERS}


def a_seat() -> Schema:
    return {"minimum": 0, "maximum": rules.MAX_PLAYERS - 1}


def seat(card: rules.PenaltyCard) -> Schema:
    """The seat that took ``card``: null when the game does not play it."""
    return {"type": "integer" if card.rule is None else ["integer", "null"], **a_seat()}


def house_rule(key: str) -> Schema:
    rule = rules.HOUSE_RULE[key]
    if rule.kind == "choice":
        return {"type": "string", "enum": list(rule.choices)}
    if rule.kind == "switch":
        return {"type": "boolean"}
    if rule.kind == "number":
        return {"type": "integer", "minimum": rule.least, "maximum": rule.most}
    return {"type": "integer", **a_seat()}


def hand_facts() -> Schema:
    """What a table enters for a hand."""
    hearts = {"type": "integer", "minimum": 0, "maximum": rules.HEARTS}
    return {
        "hearts": {"type": "array", **players(), "items": hearts},
        **{card.key: seat(card) for card in rules.PENALTY_CARDS},
        "all_tricks": {"type": ["integer", "null"], **a_seat()},
        "moon_option": {"type": ["string", "null"], "enum": [*rules.MOON_OPTIONS, None]},
    }
