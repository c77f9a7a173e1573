"""The page registry (tests/pages.py) knows every page: a route added later is a page the crawls open, or says
what else it is."""

from pages import NOT_PAGES, OPEN_SERVER_PAGES, PAGES, SIGN_IN


def test_every_address_a_browser_may_get_is_a_registered_page_or_says_what_it_is(app):
    known = {endpoint for endpoint, _path in [*PAGES.values(), *OPEN_SERVER_PAGES.values(), SIGN_IN]}
    unknown = [
        f"{rule.endpoint} {rule.rule}"
        for rule in app.url_map.iter_rules()
        if "GET" in rule.methods and rule.endpoint not in known and not rule.endpoint.startswith(tuple(NOT_PAGES))
    ]
    assert unknown == [], "add these to tests/pages.py: PAGES (a page) or NOT_PAGES (what it is instead)"


def test_every_registered_page_answers(app, client):
    from pages import addresses, evening

    answers = {name: client.get(path).status_code for name, path in addresses(PAGES, **evening(client)).items()}
    assert answers == dict.fromkeys(PAGES, 200)
