"""The wheel as a host installs it: built from the clone, installed in a fresh venv elsewhere, served.

Installing needs the package registry (or pip's cache); the pins of constraints.txt keep it to
the versions the rest of the suite runs on.
"""

import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from server import ROOT, call, wait_until_up

# One worker builds the wheel and the venv for both tests (each worker would build its own).
pytestmark = [pytest.mark.server, pytest.mark.xdist_group("package")]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    pip("wheel", "--no-deps", "--wheel-dir", str(out), str(ROOT))
    (built,) = out.glob("scorekeeper-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """A fresh venv outside the clone with the wheel installed: its bin folder."""
    venv = tmp_path_factory.mktemp("host") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip("--python", str(venv / "bin" / "python"), "install", str(wheel))
    return venv / "bin"


def pip(*arguments: str) -> None:
    env = {**os.environ, "PIP_CONSTRAINT": str(ROOT / "constraints.txt")}
    done = subprocess.run(
        [sys.executable, "-m", "pip", "-q", *arguments],
        env=env,
        cwd=tempfile.gettempdir(),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_wheel_carries_the_package_the_pages_their_files_and_the_docs(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("templates", "static", "docs"):
        ours = files_in(ROOT / folder)
        assert ours and {f"scorekeeper/{name}" for name in ours} <= names, folder
    package = files_in(ROOT / "scorekeeper")  # the migrations' alembic.ini and script.py.mako too
    assert {f"scorekeeper/{name}" for name in package} <= names
    assert any(name.endswith("licenses/LICENSE") for name in names)


def test_the_wheel_carries_the_scripts_and_stylesheets_minified_and_needs_no_minifier(wheel):
    """hatch_build.py minifies static/ once, at build time: a host installs no minifier, and a script may use
    any of today's JavaScript (the minifiers read tokens, not a grammar)."""
    with zipfile.ZipFile(wheel) as built:
        sources = [path for path in (ROOT / "static").glob("*") if path.suffix in (".js", ".css")]
        assert len(sources) > 20
        for source in sources:
            shipped = built.read(f"scorekeeper/static/{source.name}").decode()
            assert minified_from(shipped, source.read_text()), source.name
        metadata = next(name for name in built.namelist() if name.endswith(".dist-info/METADATA"))
        needs = re.findall(r"^Requires-Dist: ([\w.-]+)", built.read(metadata).decode(), re.MULTILINE)
    assert "flask" in needs and not {"calmjs-parse", "ply", "rjsmin", "rcssmin"} & set(needs)


def minified_from(shipped: str, source: str) -> bool:
    """Smaller, without comments or indented lines, and no word in it that the source does not have."""
    words = re.compile(r"[\w$]+")
    return (
        len(shipped) < len(source)
        and "/*" not in shipped
        and "\n  " not in shipped
        and set(words.findall(shipped)) <= set(words.findall(source))
    )


def files_in(folder: Path) -> set[str]:
    found = (path for path in folder.rglob("*") if path.is_file() and "__pycache__" not in path.parts)
    return {str(path.relative_to(folder if folder.name == "scorekeeper" else ROOT)) for path in found}


def test_the_installed_command_serves_every_kind_of_page(installed, tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "SCOREKEEPER_INSTANCE")}
    env.update(
        HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"), SECRET_KEY="package-test-key-k7Qm2Zx9-Lw4Rt8Vb3Hn"
    )
    command = [str(installed / "scorekeeper"), "serve", "--bind", "127.0.0.1:0"]
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = wait_until_up(server, log, "/", seconds=60)  # a fresh venv compiles every module first
            log.seek(0)
            said = log.read().decode()
            status, game = call("POST", base + "/api/games", {"players": ["Ann", "Ben", "Cat", "Dan"]})
            assert status == 201
            pages = {
                "/": "Scorekeeper",
                "/games/new": "Players",
                f"/games/{game['id']}": "Ann",
                "/rules": "exact_reset",
            }
            for path, words in pages.items():
                with urllib.request.urlopen(base + path) as answer:
                    body = answer.read().decode()
                    assert answer.status == 200 and answer.headers.get_content_type() == "text/html", path
                    assert body.startswith("<!doctype html>") and words in body and "</html>" in body, path
            german = urllib.request.Request(
                base + f"/api/games/{game['id']}/hands",
                data=b'{"hearts": [4, 0, 8, 0], "queen": 1}',
                headers={"Content-Type": "application/json", "Accept-Language": "de"},
            )
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(german)
            assert "Ein Herz fehlt" in refused.value.read().decode()  # the wheel's compiled German catalog
            with urllib.request.urlopen(base + "/static/app.css") as answer:
                served = answer.read().decode()  # as the wheel carries it: minified (hatch_build.py)
                assert answer.status == 200 and minified_from(served, (ROOT / "static" / "app.css").read_text())
        finally:
            server.terminate()
            server.wait(timeout=10)
    data = tmp_path / "data" / "scorekeeper"
    assert re.search(rf"^Data folder: {re.escape(str(data))}$", said, re.MULTILINE), said
    assert (data / "scorekeeper.sqlite").is_file()
