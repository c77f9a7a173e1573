"""Issue 41, point 6: 60 MB bodies left unfinished on an import's address kept their temporary files (4.2 GB) after
their connections closed. Every way a body can stop before its end lets its file go at once."""

import asyncio
import tempfile

import pytest

from scorekeeper.server import reading

from conftest import run_apart

MEGABYTE = b"x" * (1024 * 1024)


class Files:
    """The temporary files on disk a body past what memory holds is written to, each remembered."""

    def __init__(self, make):
        self.make, self.made = make, []

    def __call__(self, *args, **kwargs):
        made = self.make(*args, **kwargs)
        self.made.append(made)
        return made


@pytest.fixture
def files(monkeypatch):
    made = Files(tempfile.TemporaryFile)
    monkeypatch.setattr(tempfile, "TemporaryFile", made)
    return made


def upload(length):
    return {"type": "http", "method": "POST", "path": "/g/any-key/history/import",
            "headers": [(b"host", b"localhost"), (b"content-length", str(length).encode())]}  # fmt: skip


def sender(parts, then):
    """A client sending ``parts`` megabytes of its body, then ``then``: "leaves", "waits" or "stays" (until the server
    stops it), or "done" (its body ends with the last part)."""
    sent = []

    async def receive():
        if len(sent) < parts:
            sent.append(1)
            return {"type": "http.request", "body": MEGABYTE, "more_body": then != "done" or len(sent) < parts}
        if then == "leaves":
            return {"type": "http.disconnect"}
        await asyncio.Event().wait()  # never set: waits until given up or cancelled

    return receive


@pytest.mark.parametrize("then", ["leaves", "waits"])
def test_a_body_left_unfinished_lets_its_file_go(files, monkeypatch, then):
    monkeypatch.setattr(reading, "BODY_WAIT_SECONDS", 0.05)

    async def read():
        try:
            return await reading.whole_body(upload(60 * 1024 * 1024), sender(3, then), 64 * 1024 * 1024)
        except TimeoutError:
            return "given up"

    assert run_apart(read()) == (None if then == "leaves" else "given up")
    assert len(files.made) == 1 and files.made[0].closed  # on disk: 3 MB past what memory holds, closed


def test_a_body_still_coming_when_the_server_stops_lets_its_file_go(files):
    async def read():
        read_on = asyncio.ensure_future(reading.whole_body(upload(60 * 1024 * 1024), sender(2, "stays"), 64 * 2**20))
        while not files.made or files.made[0].tell() < 2 * len(MEGABYTE) - reading.IN_MEMORY:
            await asyncio.sleep(0)  # the loop's turn: the body's parts come in
        read_on.cancel()
        with pytest.raises(asyncio.CancelledError):
            await read_on

    run_apart(read())
    assert len(files.made) == 1 and files.made[0].closed


class Clock:
    """The clock a body's speed is measured by, moved by the test: no test waits for seconds to pass."""

    def __init__(self):
        self.seconds = 0.0

    def __call__(self):
        return self.seconds


def trickle(clock, piece, seconds_each):
    """A client sending ``piece`` after ``seconds_each`` of the clock, again and again; ``sent`` counts them."""

    async def receive():
        clock.seconds += seconds_each
        receive.sent += 1
        return {"type": "http.request", "body": piece, "more_body": receive.sent * len(piece) < 2 * len(MEGABYTE)}

    receive.sent = 0
    return receive


def test_a_body_trickled_below_the_floor_of_speed_is_given_up_and_its_file_goes(files, monkeypatch):
    """Issue 41, third probe, point 2: a body sent a byte every 10 s kept its file as long as its sender liked, as
    BODY_WAIT_SECONDS limited only the wait for each piece. Now the body as a whole must keep up BODY_RATE."""
    clock = Clock()
    monkeypatch.setattr(reading, "now", clock, raising=False)
    slow = trickle(clock, b"x" * 4096, seconds_each=1)  # 4 kB/s: each piece well within BODY_WAIT_SECONDS

    async def read():
        try:
            return await reading.whole_body(upload(2 * len(MEGABYTE)), slow, 64 * 1024 * 1024)
        except TimeoutError:
            return "given up"

    assert run_apart(read()) == "given up"
    assert slow.sent < reading.BODY_WAIT_SECONDS * 2  # given up about BODY_WAIT_SECONDS in, not 512 pieces later
    assert len(files.made) == 1 and files.made[0].closed


def test_a_body_at_a_weak_phones_speed_is_read_whole(files, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(reading, "now", clock)
    phone = trickle(clock, b"x" * 64 * 1024, seconds_each=1)  # 64 kB/s, a weak signal's upload

    async def read():
        return await reading.whole_body(upload(2 * len(MEGABYTE)), phone, 64 * 1024 * 1024)

    scope, body, refused = run_apart(read())
    assert not refused and body.size == 2 * len(MEGABYTE)
    body.close()


def from_address(length, address):
    return {**upload(length), "client": (address, 50000)}


def test_one_address_keeps_its_share_of_the_disk_and_is_refused_unread_past_it(files):
    """Issue 41, third probe, point 2: an address gets DISK_PER_ADDRESS of bodies on disk at once; past it, a body is
    refused before any of it is read (the app then says 503), another address is not, and closing a body frees its
    room."""
    disk = reading.Disk(50 * len(MEGABYTE))
    never = sender(0, "stays")

    async def read(length, address, receive):
        return await reading.whole_body(from_address(length, address), receive, 64 * 1024 * 1024, disk, address)

    first = run_apart(read(2 * len(MEGABYTE), "192.0.2.1", sender(2, "done")))
    assert not first[2] and disk.held["192.0.2.1"] == 2 * len(MEGABYTE)
    scope, body, refused = run_apart(read(49 * len(MEGABYTE), "192.0.2.1", never))  # never asked for a byte
    assert refused and scope[reading.HELD_BACK] == reading.SHARE_TAKEN and body.size == 0
    body.close()
    # An IPv6 host has a /64 to send from (fifth probe, M3): its addresses share one share.
    sixes = run_apart(read(30 * len(MEGABYTE), "2001:db8:1:2::1", sender(30, "done")))
    scope, body, refused = run_apart(read(30 * len(MEGABYTE), "2001:db8:1:2::2", never))
    assert refused and scope[reading.HELD_BACK] == reading.SHARE_TAKEN
    body.close()
    sixes[1].close()
    other = run_apart(read(2 * len(MEGABYTE), "198.51.100.7", sender(2, "done")))
    assert not other[2]
    first[1].close()
    again = run_apart(read(2 * len(MEGABYTE), "192.0.2.1", sender(2, "done")))
    assert not again[2]
    for _scope, body, _refused in (other, again):
        body.close()
    assert not disk.held


def test_a_body_with_no_file_left_for_it_is_refused_not_failed(monkeypatch):
    """Twenty-fourth probe, FD-B: with every file of the process open, a body past what memory holds could not have
    its temporary file, and its request was answered 500. Now it is refused, the app told why (503, nothing
    stored)."""

    def no_file_left(*args, **kwargs):
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(tempfile, "TemporaryFile", no_file_left)

    async def read():
        return await reading.whole_body(upload(2 * len(MEGABYTE)), sender(2, "done"), 64 * 1024 * 1024)

    scope, body, refused = run_apart(read())
    assert refused and scope[reading.HELD_BACK] == reading.NO_ROOM and body.size == 0
    body.close()


@pytest.mark.parametrize(
    ("path", "why", "language", "said"),
    [
        ("/history/import", "share", "en", "Other large files from your address are still on their way to the server"),
        ("/history/import", "share", "de", "Andere große Dateien von deiner Adresse sind noch unterwegs zum Server"),
        ("/api/games", "share", "en", "Other large files from your address are still on their way to the server"),
        ("/history/import", "room", "en", "The server has no room for this file just now: nothing was stored."),
        (
            "/history/import",
            "room",
            "de",
            "Der Server hat gerade keinen Platz für diese Datei: nichts wurde gespeichert.",
        ),
    ],
)
def test_a_body_held_back_by_the_server_is_answered_503_and_stores_nothing(client, path, why, language, said):
    assert why in (reading.SHARE_TAKEN, reading.NO_ROOM)
    answer = client.post(path, data=b"", environ_overrides={"asgi.scope": {reading.HELD_BACK: why}},
                         headers={"Accept-Language": language})  # fmt: skip
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "30"
    assert said in (answer.json["error"] if path.startswith("/api/") else answer.get_data(as_text=True))
    assert client.get("/api/games").json["games"] == []
