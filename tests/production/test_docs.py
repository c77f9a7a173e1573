"""The README and docs/: every link lands inside the repository, every command block runs as written.

Each ```sh and ```powershell block of the README says how it is tested, in an HTML comment on the
line before it: ``runs`` (it must succeed), ``serves`` (it must serve the app, on loopback here),
``run by CI`` (make test, which CI runs), or ``not run here: why`` (every PowerShell block: there
is no Windows here). Each block runs as a new host would run it: in a fresh copy of the repository,
in one home of its own. The unit file is checked by systemd-analyze, the launchd agent run as
launchd would run it.
"""

import os
import plistlib
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from scorekeeper import config, paths
from scorekeeper.web.views.docs import slug

from conftest import missing
from server import ROOT, wait_until_up

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
BLOCK = re.compile(r"(?:<!-- (?P<tag>[^>]*?) -->\n)?```(?P<shell>sh|powershell)\n(?P<commands>.*?)```", re.DOTALL)


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


# The host's pages: the README's first read, and the pages it sends the host on to.
HOST_PAGES = [ROOT / "README.md", *(ROOT / "docs" / f"{name}.md" for name in
              ("hosting", "open-server", "configuration", "development"))]  # fmt: skip


def readme_blocks(shell: str = "sh") -> list[tuple[str, str]]:
    return [(tag, commands) for _section, tag, commands in sectioned_blocks(shell)]


def sectioned_blocks(shell: str = "sh") -> list[tuple[str, str, str]]:
    """Each ``shell`` block of the host's pages: where it is (the README's section, ``## ``, or a page's title,
    ``# ``), its tag and its commands."""
    found = []
    for page in HOST_PAGES:
        text = page.read_text()
        level = "## " if page.name == "README.md" else "# "
        sections = [(heading.start(), heading[1]) for heading in re.finditer(rf"^{level}(.+)$", text, re.M)]
        found += [(max(section for section in sections if section[0] < match.start())[1], match["tag"] or "",
                   match["commands"]) for match in BLOCK.finditer(text) if match["shell"] == shell]  # fmt: skip
    return found


def runnable(section: str) -> list[tuple[str, str]]:
    """The blocks of the host's pages' ``section`` that run here, in their order: each one's tag and commands."""
    return [(tag, commands) for where, tag, commands in sectioned_blocks() if where == section and tag in RUN_HERE]


# The README's blocks that run here, by section. At the table, each block is a way to start on its own (make, or
# pip without make): each runs alone, in a new home. Hosting for a group, the blocks follow one another in one home:
# pipx installs the command, the settings and the service use it, the backup is restored.
AT_THE_TABLE, HOSTING = "At the table", "Hosting it for a group"
RUN_HERE = ("runs", "serves")


def test_every_command_block_of_the_readme_says_how_it_is_tested():
    pages = "".join(page.read_text() for page in HOST_PAGES)
    assert len(readme_blocks()) == pages.count("```sh")
    assert len(readme_blocks("powershell")) == pages.count("```powershell") >= 5  # Windows: each step
    for tag, commands in readme_blocks():
        assert tag in (*RUN_HERE, "run by CI") or re.fullmatch(r"not run here: \w.+", tag), commands
    for tag, commands in readme_blocks("powershell"):
        assert re.fullmatch(r"not run here: PowerShell, on Windows.*", tag), commands


@pytest.fixture
def sandbox(tmp_path):
    """A new host's shell: a home of its own (pipx installs into it, the app's data folder is in it), loopback only."""
    home = tmp_path / "home"
    home.mkdir()
    outer = ("DATABASE_URL", "VIRTUAL_ENV", "PIPX_HOME", "PIPX_BIN_DIR", "SCOREKEEPER_INSTANCE", "XDG_DATA_HOME",
             "PIP_CONSTRAINT", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")  # fmt: skip
    kept = {key: value for key, value in os.environ.items() if key not in outer}
    cache = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True)
    return {
        **kept,
        "HOME": str(home),
        "PATH": f"{home}/.local/bin:{kept['PATH']}",  # as a terminal opened after `pipx ensurepath` has it
        **({"PIP_CACHE_DIR": cache.stdout.strip()} if cache.returncode == 0 else {}),
        "PIP_NO_COMPILE": "1",  # half of installing the packages is compiling them: here each is compiled on first use
        "BIND": "127.0.0.1:0",
    }


def fresh_copy(folder: Path) -> Path:
    """The repository as a new clone has it: no .venv, no compiled catalog, an empty instance/."""
    left_out = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.mo", "*.pot", ".*_cache", "out", "*.egg-info")
    shutil.copytree(ROOT, folder, ignore=lambda where, names: left_out(where, names) | (
        {name for name in names if name != ".gitkeep"} if Path(where) == ROOT / "instance" else set()))  # fmt: skip
    return folder


def test_the_blocks_that_run_here_are_at_the_table_and_hosting_for_a_group():
    """Where the tests below find them: a block that runs in another section would be run by none."""
    assert {section for section, tag, _ in sectioned_blocks() if tag in RUN_HERE} == {AT_THE_TABLE, HOSTING}
    assert len(runnable(AT_THE_TABLE)) == 2 and len(runnable(HOSTING)) >= 7


def run_blocks(blocks: list[tuple[str, str]], env: dict[str, str], folder: Path) -> subprocess.CompletedProcess | None:
    """Run each block in a fresh copy of the repository, in order, in one home; the last ``runs`` block's result."""
    done = None
    for number, (tag, commands) in enumerate(blocks):
        clone = fresh_copy(folder / f"clone-{number}")
        if tag == "serves":
            serve(commands, env, clone)
            continue
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", commands], cwd=clone, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, f"{commands}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.server
@pytest.mark.long
@pytest.mark.parametrize("number", range(2), ids=["make", "pip"])
def test_each_way_to_start_at_the_table_serves_a_new_clone(sandbox, tmp_path, number):
    run_blocks([runnable(AT_THE_TABLE)[number]], sandbox, tmp_path)


@pytest.mark.server
@pytest.mark.long
def test_a_host_installs_with_pipx_sets_it_up_backs_up_and_restores(sandbox, tmp_path):
    need_pipx()
    done = run_blocks(runnable(HOSTING), sandbox, tmp_path)
    assert (
        done and "Checked" in done.stdout
    )  # the last: restore, then check, on the data folder of the settings written
    home = Path(sandbox["HOME"])
    data = home / ".local" / "share" / "scorekeeper"
    assert f"Data folder: {data}\n" in done.stderr and private(data / "settings.env")
    check_the_mac_settings(home)
    run_the_launchd_agent(home, sandbox)
    if shutil.which("systemd-analyze"):
        check_the_unit_file(home)


def private(path: Path) -> bool:
    """A file only its owner may read, in a folder only its owner may enter."""
    return not (stat.S_IMODE(path.stat().st_mode) & 0o077 or stat.S_IMODE(path.parent.stat().st_mode) & 0o077)


def check_the_mac_settings(home: Path) -> None:
    """The macOS block wrote its settings where the app looks on a Mac."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "platform", "darwin")
        patch.setenv("HOME", str(home))
        folder = paths.user_data_folder()
    assert private(folder / "settings.env")
    assert config.settings_file(folder)["SCOREKEEPER_PASSCODE"][0] == "four words nobody guesses"


def run_the_launchd_agent(home: Path, env: dict[str, str]) -> None:
    """The README's launch agent, as launchd runs it: its program with its arguments, its output to its log."""
    (agent,) = (home / "Library" / "LaunchAgents").glob("*.plist")
    with agent.open("rb") as file:
        job = plistlib.load(file)
    assert agent.name == job["Label"] + ".plist" and job["RunAtLoad"] and job["KeepAlive"] == {"SuccessfulExit": False}
    log = Path(job["StandardOutPath"])
    assert log == Path(job["StandardErrorPath"]) and log.parent.is_dir()
    with log.open("wb+") as output:
        agent_process = subprocess.Popen(job["ProgramArguments"], env=env, cwd="/", stdout=output,
                                         stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
        try:
            wait_until_up(agent_process, output, "/", seconds=60)
        finally:
            os.killpg(agent_process.pid, signal.SIGTERM)
            agent_process.wait(timeout=30)


def test_the_postgresql_steps_write_settings_the_app_reads(tmp_path):
    """Their lines for the data folder, in a new home where it does not exist yet (the rest needs a cluster)."""
    (block,) = (commands for _tag, commands in readme_blocks() if "createdb" in commands)
    lines = block.replace("\\\n", "").splitlines()
    ours = [line for line in lines if "~/.local/share/scorekeeper" in line]
    assert len(ours) >= 2 and ours == lines[lines.index(ours[0]) : lines.index(ours[-1]) + 1]
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", "\n".join(ours)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    data = tmp_path / ".local" / "share" / "scorekeeper"
    assert private(data / "settings.env")
    assert config.settings_file(data)["DATABASE_URL"][0] == "postgresql://hearts:choose-a-password@localhost/hearts"


def check_the_unit_file(home: Path) -> None:
    """The README's systemd units, with the home where pipx put the command: the user's service (%h), and the
    template that runs one process per port (its instance, scorekeeper@5001, as systemd reads it)."""
    blocks = re.findall(r"```ini\n(.*?)```", "".join(page.read_text() for page in HOST_PAGES), re.DOTALL)
    units = [block for block in blocks if block.startswith("[Unit]")]  # not nginx's drop-in (test_proxy.py runs it)
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
    missing("no pipx: install it with `apt-get install pipx` to run the README's install steps")


def serve(commands: str, env: dict[str, str], clone: Path) -> None:
    """Run a block that starts the server, until it answers on loopback; then stop it."""
    with tempfile.TemporaryFile() as log:
        shell = subprocess.Popen(
            ["bash", "-c", commands], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            wait_until_up(shell, log, "/")
        finally:
            os.killpg(shell.pid, signal.SIGTERM)
            shell.wait(timeout=30)
