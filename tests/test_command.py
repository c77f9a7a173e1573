"""The `scorekeeper` command's data folder, and the docs served as pages."""

from click.testing import CliRunner

from scorekeeper import paths
from scorekeeper.main import main


def test_the_data_folder_is_the_one_asked_for_else_the_clones_else_the_users(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "asked"))
    assert paths.instance_folder() == tmp_path / "asked"
    monkeypatch.delenv("SCOREKEEPER_INSTANCE")
    assert paths.instance_folder() == paths.CLONE / "instance"
    monkeypatch.setattr(paths, "CLONE", None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert paths.instance_folder() == tmp_path / "xdg" / "scorekeeper"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert paths.instance_folder() == tmp_path / ".local" / "share" / "scorekeeper"


def test_the_instance_option_chooses_the_data_folder_and_says_so(tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_INSTANCE", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    answer = CliRunner().invoke(main, ["--instance", str(tmp_path / "night"), "check"], env={"SECRET_KEY": "x"})
    assert answer.exit_code == 0, answer.output
    assert f"Data folder: {tmp_path / 'night'}" in answer.output and "Checked 0 games" in answer.output
    assert (tmp_path / "night" / "scorekeeper.sqlite").is_file()


def test_the_rules_page_is_reached_from_the_new_game_form(client):
    form = client.get("/games/new").text
    assert 'href="/rules"' in form
    page = client.get("/rules")
    assert page.status_code == 200
    assert '<h2 id="house-rules">House rules</h2>' in page.text and "<code>exact_reset</code>" in page.text
    assert 'href="/docs/api"' in page.text and 'href="api.md"' not in page.text  # the doc's link goes to the page
    assert "style=" not in page.text  # the CSP allows no inline style


def test_the_api_guide_is_a_page_too(client):
    page = client.get("/docs/api")
    assert page.status_code == 200 and "/api/openapi.json" in page.text
    assert 'href="/rules#recording-a-hand"' in page.text
