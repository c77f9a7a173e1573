"""Issue 41, point 1, as the probe measured it: an import of 60 MB took the server from 537 MB to 1,727 MB. Now a
60 MB file of any shape raises the server's own peak memory (its kernel's count, VmHWM) by 100 MB at most."""

import sys
from pathlib import Path

import pytest
from test_import_under_load import upload

from server import running_server

pytestmark = [pytest.mark.server, pytest.mark.long,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the server's /proc")]  # fmt: skip

PAD = 20_000_000
SHAPES = {
    "empty objects beside the games": b'{"format":"hearts-scorekeeper","version":1,"pad":['
    + b"{}," * PAD
    + b'{}],"games":[]}',
    "small objects beside the games": b'{"format":"hearts-scorekeeper","version":1,"pad":['
    + b'{"a":0},' * (PAD // 3)
    + b'{}],"games":[]}',
    "one long text in a game": b'{"format":"hearts-scorekeeper","version":1,"games":[{"players":["A","B","C"],"x":"'
    + b"x" * (3 * PAD)
    + b'"}]}',
}


def peak_memory(pid: int) -> int:
    """The process's most resident memory so far, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise LookupError("no VmHWM")


@pytest.mark.parametrize("shape", SHAPES)
def test_a_60_mb_import_raises_the_servers_memory_by_100_mb_at_most(database_url, shape):
    with running_server(database_url) as server:
        upload(server.base, b'{"format": "hearts-scorekeeper", "games": []}')  # every page the import needs, warm
        before = peak_memory(server.process.pid)
        status = upload(server.base, SHAPES[shape])
        grown = peak_memory(server.process.pid) - before
    print(f"\n{shape}: {len(SHAPES[shape]) / 1e6:.0f} MB, answered {status}, peak memory +{grown / 1e6:.0f} MB")
    assert status in (302, 422) and grown < 100_000_000
