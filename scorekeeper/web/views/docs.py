"""The rule book and the API guide of docs/, as pages of the app, in the table's language where it is written."""

import functools
import re
from pathlib import Path

from flask import Blueprint, render_template, url_for
from flask_babel import get_locale, lazy_gettext
from markdown_it import MarkdownIt
from markdown_it.token import Token

from ...i18n.languages import DEFAULT
from ...paths import bundled
from ...security.group_scope import site_page

bp = Blueprint("docs", __name__)

TITLES = {"rules": lazy_gettext("House rules"), "api": lazy_gettext("The JSON API")}


@bp.get("/rules")
@site_page
def rules() -> str:
    return page("rules")


@bp.get("/docs/api")
@site_page
def api() -> str:
    return page("api")


def page(name: str) -> str:
    language = written_in(name, str(get_locale()))
    body = rendered(name, language, url_for("docs.rules"), url_for("docs.api"))
    return render_template("docs.html", title=TITLES[name], body=body, doc_language=language)


def written_in(name: str, wanted: str) -> str:
    """The language to show docs/<name> in: the one wanted where docs/<name>.<code>.md exists, else English."""
    return wanted if source(name, wanted).is_file() else DEFAULT


def source(name: str, language: str) -> Path:
    """docs/<name>.md is the English doc; docs/<name>.<code>.md its translation into that language."""
    return bundled("docs") / (f"{name}.md" if language == DEFAULT else f"{name}.{language}.md")


@functools.cache
def rendered(name: str, language: str, rules_url: str, api_url: str) -> str:
    """The doc as HTML: headings get the ids GitHub gives the English ones, links to the other doc go to its page.

    A translation keeps the English anchors (heading by heading), so a link into the rules
    (`/rules#recording-a-hand`) lands on the same section whatever language the phone reads.
    """
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = markdown.parse(source(name, language).read_text(encoding="utf-8"))
    anchors = iter(english_anchors(name))
    pages = {"rules.md": rules_url, "api.md": api_url}
    for place, token in enumerate(tokens):
        if token.type == "heading_open":
            token.attrSet("id", next(anchors, None) or slug(tokens[place + 1].content))
        elif token.type == "table_open":
            token.attrSet("tabindex", "0")  # a wide table scrolls sideways on a phone: keys must reach it too
        for child in token.children or []:
            link_to_page(child, pages)
    html: str = markdown.renderer.render(tokens, markdown.options, {})
    return html


@functools.cache
def english_anchors(name: str) -> list[str]:
    tokens = MarkdownIt("commonmark").parse(source(name, DEFAULT).read_text(encoding="utf-8"))
    return [slug(tokens[place + 1].content) for place, token in enumerate(tokens) if token.type == "heading_open"]


def link_to_page(token: Token, pages: dict[str, str]) -> None:
    if token.type != "link_open":
        return
    target, _, anchor = str(token.attrGet("href") or "").partition("#")
    if target in pages:
        token.attrSet("href", pages[target] + (f"#{anchor}" if anchor else ""))


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens.

    >>> slug("5. Scoring a hand (the `exact_reset` rule)")
    '5-scoring-a-hand-the-exact_reset-rule'
    """
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
