"""One owner for each fact of the game: scorekeeper/rules/ says what each card is worth, how many there are and
every limit; the forms, templates, scripts, the API's document and the exports render what it says."""

import io
import json
import re
import tokenize
from dataclasses import fields

import pytest

from scorekeeper import rules
from scorekeeper.service.export import CSV_COLUMNS
from scorekeeper.store import models
from scorekeeper.web.forms.table import HandForm
from scorekeeper.web.openapi import SKELETON, document

from server import ROOT

CARD_NAMES = "|".join(re.escape(card.name) for card in rules.PENALTY_CARDS)


def scoring_games():
    """The classic game, and a game of each house rule that brings cards in."""
    yield rules.HouseRules()
    for rule in rules.CARD_RULES:
        yield rules.HouseRules(**{rule: True})


def rule_numbers():
    """The points, counts, totals and targets the rules decide, but those too common to mean anything (a seat, a
    size of a box, a length)."""
    numbers = {rules.HEARTS, *rules.CARDS_EACH.values(), *rules.TARGET_PRESETS}
    numbers |= {abs(card.points) for card in rules.PENALTY_CARDS}
    for house in scoring_games():
        numbers |= {rules.hand_points(house), rules.moon_points(house), 2 * rules.moon_points(house)}
    return numbers - {0, 1, 2, 3, 4, 5, 24, 500, 1000}


# Numbers a size, a count of rows or a time may well be: a rule only where the words around them are about the game.
AMBIGUOUS = {7, 10, 16, 50, 100}
ABOUT_THE_GAME = re.compile(r"point|score|target|total|moon|sun\b|heart|card|trick|play to|reach|[♠♦♣♥]", re.I)
AROUND = 40  # characters either side


def rule_numbers_in(text):
    """The rule numbers in ``text``: the distinctive ones anywhere, the ambiguous ones among words of the game."""
    distinctive = rule_numbers()
    found = set()
    for match in NUMBER.finditer(text):
        number = int(match.group(1))
        around = text[max(0, match.start() - AROUND) : match.end() + AROUND]
        if number in distinctive and (number not in AMBIGUOUS or ABOUT_THE_GAME.search(around)):
            found.add(number)
    return found


DOCTEST = re.compile(r"^\s*(>>>|\.\.\.) .*$", re.M)  # an example's game, not a rule
NOT_A_RULE = re.compile(r"String\(|datetime\(|\*\*")  # a column's width, a date, a power of two
NUMBER = re.compile(r"(?<![\w.#])(\d+)(?![\w.])")
SIGNED = re.compile(r"(?<![\w%])[+−](\d)")  # a change to a score as a player reads it: +26, −10
NEXT_TO_A_CARD = re.compile(rf"\d[^\d\n<>{{}}]{{0,12}}(?:{CARD_NAMES})|(?:{CARD_NAMES})[^\w\n<>]{{0,3}}[+−-]?\d")


def product_files():
    """Every file of the app outside the rules core (and outside the migrations, which are history)."""
    python = [path for path in (ROOT / "scorekeeper").rglob("*.py") if not {"rules", "migrations"} & set(path.parts)]
    return [*python, *(ROOT / "templates").rglob("*.html"), *(ROOT / "static").rglob("*.js"), SKELETON]


def texts(path):
    """The parts of a file a rule could be written in: for Python its strings and numbers, for a script or a
    template all of it but comments."""
    source = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        tokens = tokenize.generate_tokens(io.StringIO(source).readline)
        return [DOCTEST.sub("", token.string) if token.type == tokenize.STRING else token.line for token in tokens
                if token.type == tokenize.STRING or token.type == tokenize.NUMBER
                and not NOT_A_RULE.search(token.line)]  # fmt: skip
    if path.suffix == ".js":
        return [re.sub(r"/\*.*?\*/|(?<![:\"'])//[^\n]*", "", source, flags=re.S)]
    return [re.sub(r"{#.*?#}", "", source, flags=re.S)]


@pytest.mark.parametrize("path", product_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_point_value_card_count_or_limit_is_written_outside_the_rules(path):
    for text in texts(path):
        found = rule_numbers_in(text)
        assert not found, f"{path.name}: {sorted(found)} in {text[:80]!r}"
        assert not SIGNED.search(text), f"{path.name}: {SIGNED.search(text).group(0)!r} in {text[:80]!r}"
        assert not NEXT_TO_A_CARD.search(text), f"{path.name}: {NEXT_TO_A_CARD.search(text).group(0)!r}"


def test_the_api_documents_limits_only_from_the_rules():
    skeleton = json.loads(SKELETON.read_text(encoding="utf-8"))
    written = {int(number) for number in NUMBER.findall(json.dumps(skeleton))}
    limits = {rules.MIN_TARGET, rules.MAX_TARGET, rules.NAME_MAX, rules.HEARTS, rules.MIN_PLAYERS, rules.MAX_PLAYERS,
              rules.MAX_PLAYERS - 1, rules.MAX_HANDS}  # fmt: skip
    assert not written & limits
    schemas = document()["components"]["schemas"]
    assert schemas["Rules"]["properties"]["target"]["maximum"] == rules.MAX_TARGET
    assert schemas["HandFacts"]["properties"]["hearts"]["items"]["maximum"] == rules.HEARTS


@pytest.mark.parametrize("card", rules.PENALTY_CARDS, ids=lambda card: card.key)
def test_each_penalty_card_is_a_field_a_column_a_question_and_a_key_by_itself(card):
    assert card.key in {field.name for field in fields(rules.Hand)}
    assert card.key in models.Hand.__table__.columns
    assert getattr(HandForm, card.key).args[0] == card.question  # the field, not yet bound to a request
    assert card.key in document()["components"]["schemas"]["HandFacts"]["properties"]
    assert card.key in CSV_COLUMNS
    assert card.rule is None or card.rule in rules.SWITCHES and card.rule in models.Game.__table__.columns
