"""The Makefile's .venv: made again when the Python it was made by is too old, or gone."""

import os
import shutil
import subprocess
import sys

import pytest

from server import ROOT

SAYS = ".venv was made by a Python older than 3.11, or by one that no longer runs: making it again."


@pytest.fixture
def clone(tmp_path):
    """The files the Makefile reads, in a folder of their own, with a .venv of their own."""
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path)
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    return tmp_path


def python_reporting(path, version):
    """A Python that says it is ``version`` (a real one, with sys.version_info put back)."""
    path.write_text(f'#!/bin/sh\nexec {sys.executable} -c "import sys; sys.version_info = {version!r}; '
                    f'exec(sys.argv[1])" "$2"\n')  # fmt: skip
    path.chmod(0o755)
    return path


def make(clone, *arguments):
    """make in ``clone``, as a host runs it: not inside the make that may run these tests."""
    outer = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")
    env = {name: value for name, value in os.environ.items() if name not in outer}
    return subprocess.run(["make", *arguments], cwd=clone, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("python", ["3.10", "gone"])
def test_a_venv_whose_python_is_too_old_or_gone_is_made_again(clone, python):
    if python == "gone":
        (clone / ".venv" / "bin" / "python").symlink_to(clone / "python3.10-uninstalled")
    else:
        python_reporting(clone / ".venv" / "bin" / "python", (3, 10, 14, "final", 0))
    planned = make(clone, "-n", "run")
    assert planned.returncode == 0, planned.stderr
    assert planned.stdout.startswith(SAYS + "\n") and "python3 -m venv .venv\n" in planned.stdout
    assert not (clone / ".venv").exists()


def test_a_venv_whose_python_is_new_enough_is_kept(clone):
    python_reporting(clone / ".venv" / "bin" / "python", (3, 11, 0, "final", 0))
    planned = make(clone, "-n", "run")
    assert SAYS not in planned.stdout and "-m venv" not in planned.stdout
    assert (clone / ".venv" / "bin" / "python").exists()


def test_a_python_too_old_to_make_the_venv_with_is_said_before_anything_is_installed(clone):
    shutil.rmtree(clone / ".venv")
    old = python_reporting(clone / "python3.9", (3, 9, 6, "final", 0))
    made = make(clone, f"PYTHON={old}", "run")
    assert made.returncode == 2 and not (clone / ".venv").exists()
    assert f"{old} is not Python 3.11 or newer, which the app needs: install one, then name it, e.g. make " \
           "PYTHON=python3.12 run." in made.stderr  # fmt: skip


def test_the_page_scripts_tests_say_how_to_get_node_when_it_is_missing(clone):
    """`make test` runs `node --test tests/js/`: with no node, it stops and names the package to install."""
    env = {"PATH": str(clone / "no-node-here")}
    ran = subprocess.run(
        [shutil.which("make"), "test-js"], cwd=clone, env=env, capture_output=True, text=True, timeout=60
    )
    assert ran.returncode != 0
    assert "node is missing: apt-get install nodejs" in ran.stderr
