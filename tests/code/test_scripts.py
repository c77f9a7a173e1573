"""The scripts the README names load: each benchmark and helper imports what it uses from the app today (a name
moved in the app breaks a script no test runs otherwise). Loaded as a module, not run: each starts its work under
``if __name__ == "__main__"``."""

import subprocess
import sys

import pytest

from server import ROOT

SCRIPTS = ROOT / "scripts"


@pytest.mark.parametrize("script", sorted(path.name for path in SCRIPTS.glob("*.py")))
def test_a_script_loads_what_it_uses(script):
    path = SCRIPTS / script
    assert 'if __name__ == "__main__":' in path.read_text(), "its work starts only when it is run"
    load = f"import runpy; runpy.run_path({str(path)!r}, run_name='loaded')"
    done = subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
