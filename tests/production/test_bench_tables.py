"""scripts/bench_tables.py still plays its tables: two of them for two seconds on a server it starts."""

import subprocess
import sys

import pytest

from server import ROOT

pytestmark = pytest.mark.server


def test_the_tables_benchmark_plays_and_finds_every_hand_stored():
    command = [sys.executable, "scripts/bench_tables.py", "--tables", "2", "--seconds", "2", "--ramp", "0",
               "--hand-every", "0.5"]  # fmt: skip
    ran = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "2 tables on 1 process(es)" in ran.stdout
    assert "errors 0;" in ran.stdout and ", lost 0;" in ran.stdout
    acknowledged = int(ran.stdout.split("hands acknowledged ")[1].split(",")[0])
    assert acknowledged >= 4  # both tables recorded hands
