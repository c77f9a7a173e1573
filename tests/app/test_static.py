"""A clone serves static/ as written (an edit shows on the next request), with the caching Flask gives static
files; the wheel carries its scripts and stylesheets minified (tests/production/test_package.py)."""

from server import ROOT

STATIC = ROOT / "static"


def test_scripts_and_stylesheets_go_out_as_written_and_kept_an_hour(client):
    for name in ("app.css", "table.js"):
        with client.get(f"/static/{name}") as answer:
            assert answer.status_code == 200 and answer.data == (STATIC / name).read_bytes()
            assert answer.mimetype == ("text/css" if name.endswith(".css") else "text/javascript")
            assert answer.headers["Cache-Control"] == "public, max-age=3600" and "Expires" in answer.headers


def test_an_unchanged_file_is_not_sent_again(client):
    with client.get("/static/table.js") as first:
        etag = first.headers["ETag"]
    with client.get("/static/table.js", headers={"If-None-Match": etag}) as again:
        assert again.status_code == 304 and again.data == b""


def test_an_edit_shows_on_the_next_request(app, tmp_path):
    app.static_folder = str(tmp_path)
    client = app.test_client()
    (tmp_path / "edited.js").write_text("const twice = (number) => number * 2;\n")
    with client.get("/static/edited.js") as first:
        assert first.data == b"const twice = (number) => number * 2;\n"
    (tmp_path / "edited.js").write_text("const thrice = (number) => number * 3;\n")
    with client.get("/static/edited.js", headers={"If-None-Match": first.headers["ETag"]}) as again:
        assert again.status_code == 200 and again.data == b"const thrice = (number) => number * 3;\n"


def test_other_files_and_missing_ones(client):
    with client.get("/static/icons/icon-192.png") as icon:
        assert icon.status_code == 200 and icon.data == (STATIC / "icons" / "icon-192.png").read_bytes()
    assert client.get("/static/nothing.js").status_code == 404
    assert client.get("/static/../scorekeeper/__init__.py").status_code == 404
