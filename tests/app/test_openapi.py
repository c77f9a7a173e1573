"""The OpenAPI document of the API is valid, and the real app answers as it says: never a 500.

schemathesis generates requests from the document (valid ones and broken ones)
and checks every answer against it. This is what keeps odd input a clear 4xx.
"""

import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate
from schemathesis import GenerationMode, checks

from scorekeeper import create_app
from scorekeeper.store.db import db
from scorekeeper.web.openapi import SKELETON

from conftest import as_host

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
]


def test_the_document_is_served_and_valid(client):
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    validate(answer.json)
    documented = {path.replace("{game_id}", "<int:game_id>").replace("{number}", "<int:number>")
                  for path in answer.json["paths"]}  # fmt: skip
    served = {rule.rule for rule in client.application.url_map.iter_rules() if rule.endpoint.startswith("api.")}
    assert served - documented == {"/api/openapi.json"}
    assert operations(answer.json) == OPERATIONS  # each one is a test of its own below


def operations(document):
    verbs = ("get", "put", "post", "delete", "patch")
    return [(path, verb.upper()) for path, item in document["paths"].items() for verb in item if verb in verbs]


# One test for each operation and way of generating (so that parallel workers share them out), each on a
# database of its own with games 1 and 2 stored.
OPERATIONS = operations(json.loads(SKELETON.read_text()))


@pytest.fixture
def api_schema(database_url):
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database_url})
    client = app.test_client()
    for players in (["Ann", "Ben", "Cat", "Dan"], ["Eve", "Fay", "Gus"]):  # games 1 and 2 to address
        game = client.post("/api/games", json={"players": players}).json
        client.post(f"/api/games/{game['id']}/hands", json={"hearts": [13] + [0] * (len(players) - 1), "queen": 1})
    yield schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    with as_host(app):
        db.session.remove()
        db.engine.dispose()


def aim_at_stored_games(case, pick):
    """Half the time, address the games and hands the fixture stored, and name a table the rules accept."""
    if pick is None:
        return
    for name in ("game_id", "number"):
        if name in (case.path_parameters or {}):
            case.path_parameters[name] = pick
    if isinstance(case.body, dict) and "players" in case.body:
        case.body["players"] = ["Ann", "Ben", "Cat", "Dan"][: 2 + pick]
    if isinstance(case.body, dict) and "hearts" in case.body:
        case.body["hearts"] = [4, 9] + [0] * (2 if pick == 1 else 1)  # game 1 seats 4, game 2 seats 3


@pytest.mark.parametrize("mode", GenerationMode, ids=lambda mode: mode.value)
@pytest.mark.parametrize(("path", "method"), [pytest.param(*pair, id=" ".join(pair)) for pair in OPERATIONS])
def test_every_answer_matches_the_document(api_schema, path, method, mode):
    operation = api_schema[path][method]
    if mode == GenerationMode.NEGATIVE and not has_inputs(operation):
        pytest.skip("nothing to send wrong")  # GET /api/group

    @given(case=operation.as_strategy(generation_mode=mode), pick=st.sampled_from([None, 1, 2]))
    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def answers_as_documented(case, pick):
        aim_at_stored_games(case, pick)
        case.call_and_validate(checks=CHECKS)

    answers_as_documented()


def has_inputs(operation):
    return any(len(part) for part in (operation.path_parameters, operation.query, operation.headers, operation.body))
