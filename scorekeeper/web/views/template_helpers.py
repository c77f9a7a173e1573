"""What every template may use besides its own values: the rules' words and facts, and filters for days,
moments, numbers and lists in the page's language."""

from collections.abc import Sequence
from datetime import UTC, datetime
from types import CodeType

from babel import Locale
from babel.dates import format_skeleton, format_time
from flask import Flask, get_flashed_messages, request, url_for
from flask_babel import format_date, format_decimal, format_percent, get_locale, gettext
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from markupsafe import Markup, escape
from werkzeug.local import LocalProxy

from ... import rules
from ...i18n.languages import DEFAULT
from ..forms import ActionForm


class CompiledOnce(BytecodeCache):
    """Each template compiled once in a process, for every app built in it (the tests build one for each test,
    and compiling the templates was a third of what a test of a page took): a template whose file changed is
    compiled again, as Jinja's own caches do."""

    def __init__(self) -> None:
        self.compiled: dict[str, tuple[str, CodeType | None]] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        checksum, code = self.compiled.get(bucket.key, ("", None))
        if checksum == bucket.checksum:
            bucket.code = code

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = (bucket.checksum, bucket.code)


COMPILED = CompiledOnce()


def init_app(app: Flask) -> None:
    app.jinja_env.bytecode_cache = COMPILED
    app.context_processor(page_helpers)
    app.add_template_filter(and_list)
    app.add_template_filter(day)
    app.add_template_filter(moment)
    app.add_template_filter(decimal)
    app.add_template_filter(percent)
    app.add_template_filter(rules.words.hand_count)
    app.add_template_filter(rules.i18n.signed)
    app.add_template_filter(rules.i18n.total)
    app.add_template_global(follow_link)


def page_helpers() -> dict[str, object]:
    # The buttons' form is made when a template first uses it: making it mints a CSRF token, and so
    # a session, which an error page must never do (it would sign out a phone that a cross-site
    # request reached without its cookie). formdata=None: reading the request here would read a body
    # too large for the error page that says so (413), and fail again.
    return {
        # What the templates say about the rules, in the rules' own words (rules/words.py).
        "OUTCOME_WORDS": rules.words.in_language(rules.moon_phrases.OUTCOMES),
        "PASSES": rules.words.PASSES,
        "MOON_OPTION_WORDS": LocalProxy(lambda: rules.words.in_language(rules.moon_phrases.MOON_OPTION_WORDS)),
        "tie_break": rules.words.tie_break,
        "tie_break_brief": rules.words.tie_break_brief,
        "PENALTY_CARDS": rules.PENALTY_CARDS,
        "moon_words": rules.moon_words,
        "pass_line": pass_line,
        "way_words": way_words,
        "standing_tag": rules.words.standing_tag,
        "hand_rules": hand_rules,
        "subtract_words": subtract_words,
        "house_moon_words": house_moon_words,
        "rule_differences": rules.differences,
        "cycle_players": rules.passing.cycle_players,
        "action": LocalProxy(lambda: ActionForm(formdata=None)),
        "said_to_this_page": said_to_this_page,
    }


def said_to_this_page() -> list[tuple[str, str]] | list[str]:
    """The lines flashed for the page the phone opens next ("Hand 1 corrected"). A page fetched by a script
    (the service worker keeping it for offline use, a correction's preview as the taps change) leaves them for
    that page: it may be answered in between, and the player would never see them. Browsers say which is which
    (``Sec-Fetch-Mode``: ``navigate`` for a page opened, through the service worker too); a client that does not
    say is opening the page."""
    if request.headers.get("Sec-Fetch-Mode", "navigate") != "navigate":
        return []
    return get_flashed_messages(with_categories=True)


def way_words(direction: str, passing: bool, arrow: Markup | None = None) -> Markup:
    """Which way the cards go, as the next hand's heading says it ("pass ← left", or no passing), on the page and in
    its offline facts alike. ``arrow``: the arrow as the page marks it up (seen, not heard twice)."""
    if not passing:
        return Markup(escape(gettext("hold: no passing")))
    way = rules.words.PASSES[direction]
    # Translators: arrow is a symbol (← → ↑ ⇇ ⇉), where a short way ("left", "2 right").
    return Markup(escape(gettext("pass %(arrow)s %(where)s"))) % {"arrow": arrow or way.arrow, "where": way.short}


def pass_line(direction: str) -> str:
    return rules.words.pass_line(direction, rules.PASS_CARDS)


def subtract_words(house: rules.HouseRules, before: Sequence[int]) -> list[str]:
    """The moon panel's subtract option for each seat that may shoot, the floor's amount in it."""
    return [rules.moon_words(house, total).options["subtract"] for total in before]


def house_moon_words(house: rules.HouseRules, before: Sequence[int]) -> list[str]:
    """The moon panel's words under a house rule that always subtracts, for each seat that may shoot: with the
    floor, a shooter at 10 loses 10, not 26."""
    return [rules.moon_words(house, total).house_rule("subtract") for total in before]


def hand_rules(house: rules.HouseRules, before: Sequence[int] | None = None) -> dict[str, object]:
    """What the hand form's scripts know of the rules: no number of their own, these facts (static/table.js).

    ``before``: the totals before the hand; with the floor, subtracting takes off what each seat has, said seat by seat.
    """
    moon = rules.moon_words(house)
    said: dict[str, str | list[str]] = {key: moon.save_label(key, "{shooter}") for key in rules.MOON_OPTIONS}
    if before is not None and house.subtract_floor:
        said["subtract"] = [rules.moon_words(house, total).save_label("subtract", "{shooter}") for total in before]
    return {
        "hearts": rules.HEARTS,
        "cards": [
            {"key": card.key, "name": card.name, "points": card.points, "moon": card.moon, "ask": card.ask}
            for card in rules.in_play(house)
        ],
        "heart_points": rules.HEART_POINTS,
        "moon": None if house.moon == "off" else said,
        "tie_break": rules.words.tie_break(),
    }


def and_list(names: list[str]) -> str:
    """Ann; Ann and Ben; Ann, Ben and Cat: as the table's language lists them (rules.words.listed)."""
    return rules.words.listed(names)


def local(when: datetime) -> datetime:
    """A stored moment (UTC, without a zone) in the server's local time: the server sits at the table."""
    return when.replace(tzinfo=UTC).astimezone() if when.tzinfo is None else when.astimezone()


def day(when: datetime, form: str = "full") -> str:
    """The day of a stored moment as the page's language writes it: "Montag, 30. November 2026" (``full``),
    "30. November 2026" (``long``), "Mo., 30. Nov. 2026" (``short``)."""
    if form == "short":
        there = local(when)
        return str(format_skeleton("yMMMEd", there, tzinfo=there.tzinfo, locale=str(get_locale() or DEFAULT)))
    return str(format_date(local(when).date(), form))


def moment(when: datetime) -> str:
    """A stored moment's day and time, in the page's language: "Mo., 30. Nov., 20:15"."""
    there, locale = local(when), Locale.parse(str(get_locale() or DEFAULT))
    day_part = format_skeleton("MMMEd", there, tzinfo=there.tzinfo, locale=locale)
    time_part = format_time(there, "short", tzinfo=there.tzinfo, locale=locale)
    return str(locale.datetime_formats["short"].format(time_part, day_part))


def decimal(number: float) -> str:
    """One decimal, as the page's language writes it: 12.5, 12,5."""
    return str(format_decimal(number, "#,##0.0"))


def percent(share: float) -> str:
    """A share as a whole percentage, as the page's language writes it: 50%, 50 %."""
    return str(format_percent(share))


def follow_link(game_id: int) -> dict[str, object]:
    """The short address other phones open to follow a game, and its QR code."""
    url = url_for("follow.short_link", game_id=game_id, _external=True)
    return {"url": url, "qr": url_for("follow.qr_code", game_id=game_id)}
