"""Stylesheets and scripts are served minified, at their URLs, with the caching of the other static files."""

import pytest

from server import ROOT

STATIC = ROOT / "static"


@pytest.mark.parametrize("name", sorted(path.name for path in STATIC.glob("*.css")) + ["table.js", "offline.js"])
def test_css_and_js_go_out_smaller_and_without_comments(client, name):
    answer = client.get(f"/static/{name}")
    body = answer.get_data(as_text=True)
    source = (STATIC / name).read_text()
    assert answer.status_code == 200
    assert answer.mimetype == ("text/css" if name.endswith(".css") else "text/javascript")
    assert answer.headers["Cache-Control"] == "public, max-age=3600" and "Expires" in answer.headers
    assert int(answer.headers["Content-Length"]) == len(answer.data) < len(source.encode())
    assert "/*" not in body and "\n  " not in body
    wrapped = body.startswith("import") and "export{" not in body  # a module that exports nothing: one function
    assert body.count("{") - wrapped == source.count("{")  # nothing but comments and layout is gone


def test_an_unchanged_file_is_not_sent_again(client):
    first = client.get("/static/table.js")
    again = client.get("/static/table.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_an_edit_shows_on_the_next_request(app, tmp_path):
    (tmp_path / "edited.css").write_text("/* a note */\nbody {\n  color: red;\n}\n")
    app.static_folder = str(tmp_path)
    client = app.test_client()
    assert client.get("/static/edited.css").data == b"body{color:red}"
    (tmp_path / "edited.css").write_text("/* a longer note */\nbody {\n  color: blue;\n}\n")
    assert client.get("/static/edited.css").data == b"body{color:blue}"


def test_other_files_and_missing_ones_are_served_as_before(client):
    with client.get("/static/icons/icon-192.png") as icon:
        assert icon.status_code == 200 and icon.data == (STATIC / "icons" / "icon-192.png").read_bytes()
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/../scorekeeper/__init__.py").status_code == 404


def test_the_service_worker_goes_out_minified(client):
    body = client.get("/sw.js").get_data(as_text=True)
    assert "//" not in body.replace("://", "") and "\n  " not in body
    assert '"/static/app.css"' in body


def test_es5_scripts_get_short_local_names_and_others_are_still_stripped(app, tmp_path):
    (tmp_path / "old.js").write_text(
        "(function () {\n  // why\n  var longName = 1;\n  window.kept = longName;\n})();\n"
    )
    (tmp_path / "new.js").write_text("// why\nconst twice = (number) => number * 2;\n")
    app.static_folder = str(tmp_path)
    client = app.test_client()
    old = client.get("/static/old.js").get_data(as_text=True)
    assert "longName" not in old and "window.kept=" in old and "why" not in old
    new = client.get("/static/new.js")
    assert new.status_code == 200 and new.get_data(as_text=True) == "const twice=(number)=>number*2;"
