"""The `scorekeeper` command's data folder and settings, and the docs served as pages."""

import json
import os
import subprocess
import sys
from contextlib import contextmanager

import pytest
from click.testing import CliRunner

from scorekeeper import create_app, paths
from scorekeeper.cli.main import main

from server import SERVE, call, serving


@contextmanager
def patched_environment(**values):
    with pytest.MonkeyPatch.context() as patch:
        for name, value in values.items():
            if value is None:
                patch.delenv(name, raising=False)
            else:
                patch.setenv(name, value)
        yield


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


def test_the_instance_option_chooses_the_data_folder_and_says_so(tmp_path):
    night = tmp_path / "night"
    env = {
        "SECRET_KEY": "test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc",
        "SCOREKEEPER_INSTANCE": "",
        "DATABASE_URL": "",
    }  # restored after the run
    answer = CliRunner().invoke(main, ["--instance", str(night), "restore", str(export(tmp_path))], env=env)
    assert answer.exit_code == 0, answer.output
    assert f"Data folder: {night}" in answer.output and "Restored 1 game" in answer.output
    assert (night / "scorekeeper.sqlite").is_file()


def export(folder, games=1):
    path = folder / "export.json"
    game = {"players": ["Ann", "Ben", "Cat"], "hands": [{"hearts": [4, 0, 9], "queen": 1}]}
    path.write_text(json.dumps({"format": "hearts-scorekeeper", "version": 1, "games": [game] * games}))
    return path


def scorekeeper(*arguments, instance, **env):
    return CliRunner().invoke(main, list(arguments), env={"SCOREKEEPER_INSTANCE": str(instance), "DATABASE_URL": "",
                                                          "SECRET_KEY": "", "BIND": "", **env})  # fmt: skip


def settings_file(instance, text):
    instance.mkdir(exist_ok=True)
    path = instance / "settings.env"
    path.write_text(text)
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("command", [["check"], ["backup", "hearts.sqlite"], ["rebuild-records"]])
def test_a_command_on_a_data_folder_without_a_database_says_so_and_makes_none(tmp_path, command):
    answer = scorekeeper(*command, instance=tmp_path / "data")
    assert answer.exit_code == 1
    assert f"Error: There is no database at {tmp_path / 'data' / 'scorekeeper.sqlite'}" in answer.output
    assert "DATABASE_URL" in answer.output and not (tmp_path / "data" / "scorekeeper.sqlite").exists()


def test_a_command_on_an_empty_database_server_says_so(empty_database_url, tmp_path):
    database_url = empty_database_url
    if database_url.startswith("sqlite"):
        pytest.skip("an empty database on a PostgreSQL server: this run is on SQLite")
    answer = scorekeeper("check", instance=tmp_path, DATABASE_URL=database_url)
    assert answer.exit_code == 1 and "There are no games at postgresql+psycopg://" in answer.output


def test_the_settings_file_is_read_by_every_command_and_the_server(tmp_path):
    elsewhere = tmp_path / "elsewhere" / "hearts.sqlite"
    elsewhere.parent.mkdir()
    settings_file(tmp_path / "data", f"# the club's database\nDATABASE_URL = sqlite:///{elsewhere}\n"
                                     "SECRET_KEY='from the file, test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn6Jc'\n")  # fmt: skip
    assert scorekeeper("restore", str(export(tmp_path, 2)), instance=tmp_path / "data").exit_code == 0
    checked = scorekeeper("check", instance=tmp_path / "data")
    assert checked.exit_code == 0 and "Checked 1 game:" in checked.output and f"Database: {elsewhere}" in checked.output
    assert not (tmp_path / "data" / "scorekeeper.sqlite").exists()
    env = {"SCOREKEEPER_INSTANCE": str(tmp_path / "data"), "DATABASE_URL": "", "SECRET_KEY": ""}
    with serving(SERVE, env=env) as server:
        assert [game["players"] for game in call("GET", server.base + "/api/games")[1]["games"]] == [
            ["Ann", "Ben", "Cat"]
        ]


def test_the_environment_wins_over_the_settings_file_and_the_file_over_the_defaults(tmp_path):
    settings_file(tmp_path, "SCOREKEEPER_PASSCODE=amber kettle orbit walrus\nTHREADS=3\n")
    with patched_environment(SCOREKEEPER_INSTANCE=str(tmp_path), THREADS="5", SECRET_KEY=None):
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite'}"})
    assert app.config["PASSCODE"] == "amber kettle orbit walrus" and app.config["THREADS"] == 5
    assert app.config["BIND"] == "0.0.0.0:5000" and app.config["SECRET_KEY"] == (tmp_path / "secret_key").read_text()


@pytest.mark.parametrize(
    "text, mode, words",
    [
        ("DATABSE_URL=sqlite:///x.sqlite\n", 0o600, "settings.env line 1: there is no setting 'DATABSE_URL'"),
        ("\nsecret passcode on its own\n", 0o600, "settings.env line 2 is not a NAME=value line."),
        ("THREADS=many\n", 0o600, "THREADS in {path} line 1 must be a whole number from 1 to 256."),
        ("SCOREKEEPER_PASSCODE=correct horse\n", 0o644, "can be read by other users of this machine"),
        (
            "SCOREKEEPER_BEHIND_PROXY=maybe\n",
            0o600,
            "SCOREKEEPER_BEHIND_PROXY in {path} line 1 must be the number of proxies in front (1 for one), or off (0).",
        ),
        (
            "SCOREKEEPER_PASSCODE=four words nobody guesses # the club's\n",
            0o600,
            "{path} line 1: a value with “ #” in it is ambiguous (a comment, or part of the value?)",
        ),
        ('SCOREKEEPER_PASSCODE="four words nobody guesses" # the club\'s\n', 0o600, "{path} line 1: a value with"),
    ],
)
def test_a_settings_file_it_cannot_take_is_one_line(tmp_path, text, mode, words):
    path = settings_file(tmp_path, text)
    path.chmod(mode)
    answer = scorekeeper("check", instance=tmp_path)
    assert answer.exit_code == 1 and answer.output.count("\n") == 1
    assert words.format(path=path) in answer.output and "secret passcode" not in answer.output


def test_shell_lines_and_a_byte_order_mark_are_settings_like_any_other(tmp_path):
    path = settings_file(tmp_path, "")
    path.write_bytes(b"\xef\xbb\xbfexport THREADS=3\nexport SCOREKEEPER_PASSCODE='four words # nobody guesses'\n")
    with patched_environment(SCOREKEEPER_INSTANCE=str(tmp_path), THREADS=None, SCOREKEEPER_PASSCODE=None):
        app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite'}"})
    assert app.config["THREADS"] == 3 and app.config["PASSCODE"] == "four words # nobody guesses"


def test_a_config_py_left_from_before_is_not_silently_ignored(tmp_path):
    (tmp_path / "config.py").write_text('PASSCODE = "hearts"\n')
    answer = scorekeeper("check", instance=tmp_path)
    assert answer.exit_code == 1 and "config.py is no longer read: write its settings in" in answer.output


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


def test_python_dash_m_scorekeeper_is_the_command_where_none_is_on_path(tmp_path):
    """As Windows' launcher runs it (`py -m scorekeeper serve`), or a venv that is not activated."""
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "--help"], cwd=tmp_path, capture_output=True,
                          text=True, env={**os.environ, "LANG": "C"}, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: python -m scorekeeper [OPTIONS] COMMAND [ARGS]...")
    assert "serve" in done.stdout and "backup" in done.stdout


def test_one_game_is_one_game_in_either_language(tmp_path):
    assert scorekeeper("restore", str(export(tmp_path)), instance=tmp_path / "data").exit_code == 0
    english = {"LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""}
    german = {**english, "LANG": "de_DE.UTF-8"}
    assert "Checked 1 game: it replays and every record matches." in scorekeeper("check", instance=tmp_path / "data",
                                                                                   **english).output  # fmt: skip
    assert "Replayed 1 game.\n" in scorekeeper("rebuild-records", instance=tmp_path / "data", **english).output
    assert "1 Spiel geprüft: Es lässt sich nachspielen" in scorekeeper("check", instance=tmp_path / "data",
                                                                       **german).output  # fmt: skip
    assert "1 Spiel nachgespielt.\n" in scorekeeper("rebuild-records", instance=tmp_path / "data", **german).output
