"""The rule book and the API guide of docs/, as pages of the app."""

import functools
import re

from flask import Blueprint, render_template, url_for
from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..paths import bundled

bp = Blueprint("docs", __name__)

TITLES = {"rules": "House rules", "api": "The JSON API"}


@bp.get("/rules")
def rules() -> str:
    return page("rules")


@bp.get("/docs/api")
def api() -> str:
    return page("api")


def page(name: str) -> str:
    return render_template(
        "docs.html", title=TITLES[name], body=rendered(name, url_for("docs.rules"), url_for("docs.api"))
    )


@functools.cache
def rendered(name: str, rules_url: str, api_url: str) -> str:
    """docs/<name>.md as HTML: headings get the ids GitHub gives them, links to the other doc go to its page."""
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = markdown.parse((bundled("docs") / f"{name}.md").read_text(encoding="utf-8"))
    pages = {"rules.md": rules_url, "api.md": api_url}
    for place, token in enumerate(tokens):
        if token.type == "heading_open":
            token.attrSet("id", slug(tokens[place + 1].content))
        elif token.type == "table_open":
            token.attrSet("tabindex", "0")  # a wide table scrolls sideways on a phone: keys must reach it too
        for child in token.children or []:
            link_to_page(child, pages)
    html: str = markdown.renderer.render(tokens, markdown.options, {})
    return html


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
