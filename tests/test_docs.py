"""The README and docs/: every link lands inside the repository, every command block runs as written.

Each ```sh block of the README says how it is tested, in an HTML comment on the line before it:
``runs`` (it must succeed), ``serves`` (it must serve the app, on loopback here), ``run by CI``
(make test, which CI runs), or ``not run here: why``. The unit file is checked by systemd-analyze.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from scorekeeper.views.docs import slug

from server import ROOT, wait_until_up

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
BLOCK = re.compile(r"(?:<!-- (?P<tag>[^>]*?) -->\n)?```sh\n(?P<commands>.*?)```", re.DOTALL)


def headings(document: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", document.read_text(), flags=re.DOTALL)
    return {slug(line.lstrip("#").strip()) for line in text.splitlines() if line.startswith("#")}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_link_resolves_inside_the_repository(document):
    links = LINK.findall(document.read_text())
    assert links
    for link in links:
        assert "://" not in link and not link.startswith("/"), f"{document.name}: {link} leaves the repository"
        target, _, anchor = link.partition("#")
        path = (document.parent / target).resolve() if target else document
        assert path.is_relative_to(ROOT) and path.exists(), f"{document.name}: {link} is not in the repository"
        if anchor:
            assert anchor in headings(path), f"{document.name}: {link} names no heading of {path.name}"


def readme_blocks() -> list[tuple[str, str]]:
    return [(match["tag"] or "", match["commands"]) for match in BLOCK.finditer((ROOT / "README.md").read_text())]


def test_every_command_block_of_the_readme_says_how_it_is_tested():
    blocks = readme_blocks()
    assert len(blocks) == (ROOT / "README.md").read_text().count("```sh")
    for tag, commands in blocks:
        assert tag in ("runs", "serves", "run by CI") or re.fullmatch(r"not run here: \w.+", tag), commands


@pytest.fixture
def sandbox(tmp_path):
    """A host's shell: its own home (pipx installs into it), its own data folder, loopback only."""
    home = tmp_path / "home"
    home.mkdir()
    kept = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "VIRTUAL_ENV", "PIPX_HOME")}
    cache = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True)
    return {
        **kept,
        "HOME": str(home),
        "PATH": f"{home}/.local/bin:{kept['PATH']}",
        "SCOREKEEPER_INSTANCE": str(tmp_path / "data"),  # `make run` would use the clone's own instance/
        "PIP_CONSTRAINT": str(ROOT / "constraints.txt"),
        **({"PIP_CACHE_DIR": cache.stdout.strip()} if cache.returncode == 0 else {}),
        "BIND": "127.0.0.1:0",
        "SECRET_KEY": "readme-test",
    }


@pytest.mark.server
def test_every_command_block_of_the_readme_that_can_run_here_runs(sandbox):
    need_pipx()
    ran = []
    for tag, commands in readme_blocks():
        if tag == "runs":
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", commands], cwd=ROOT, env=sandbox, capture_output=True, text=True
            )
            assert done.returncode == 0, f"{commands}\n{done.stdout}\n{done.stderr}"
        elif tag == "serves":
            serve(commands, sandbox)
        else:
            continue
        ran.append(commands)
    assert len(ran) >= 5
    assert "Restored" in done.stdout or "Checked" in done.stdout
    if shutil.which("systemd-analyze"):
        check_the_unit_file(Path(sandbox["HOME"]))


def check_the_unit_file(home: Path) -> None:
    """The README's systemd units, with the home where pipx put the command: the user's service (%h), and the
    template that runs one process per port (its instance, scorekeeper@5001, as systemd reads it)."""
    units = re.findall(r"```ini\n(.*?)```", (ROOT / "README.md").read_text(), re.DOTALL)
    assert len(units) == 2, "the README shows a user's unit and a template unit"
    service, template = home / "scorekeeper.service", home / "scorekeeper@.service"
    service.write_text(units[0].replace("%h", str(home)))
    template.write_text(units[1].replace("/home/hearts", str(home)))
    (home / "scorekeeper@5001.service").symlink_to(template)
    for path in (service, home / "scorekeeper@5001.service"):
        verified = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True)
        assert verified.returncode == 0, verified.stdout + verified.stderr


def need_pipx() -> None:
    """Skip on a machine without pipx, but never in CI, where .ci/run installs it."""
    if shutil.which("pipx"):
        return
    message = "no pipx: install it with `apt-get install pipx` to run the README's install steps"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def serve(commands: str, env: dict[str, str]) -> None:
    """Run a block that starts the server, until it answers on loopback; then stop it."""
    with tempfile.TemporaryFile() as log:
        shell = subprocess.Popen(
            ["bash", "-c", commands], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            wait_until_up(shell, log, "/", seconds=120)
        finally:
            os.killpg(shell.pid, signal.SIGTERM)
            shell.wait(timeout=30)
