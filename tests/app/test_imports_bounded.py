"""Issue 41, points 1 and 2: an import of any shape in bounded memory, refused as early as it can be, and working in
turns with the other groups' imports."""

import io
import itertools
import json
import threading
import tracemalloc
import uuid

import pytest
from test_groups import client, open_app, start_game, start_group  # noqa: F401 - the open server's fixtures

from scorekeeper import rules
from scorekeeper.service import exported, file_bytes, groups, import_outcomes, reader, restore, turns
from scorekeeper.store import scope
from scorekeeper.web.views import errors

from conftest import until

HEADER = b'{"format": "hearts-scorekeeper", "version": 1, '
GAME = b'{"players": ["Ann", "Ben", "Cat", "Dan"], "hands": [{"hearts": [4, 0, 9, 0], "queen": 1}]}'
GUARD_SECONDS = 30  # a cap on a hang, never a measure
SIZE = 3_000_000  # a twentieth of the probe's files: the same shapes, in a twentieth of the time

# Files of about SIZE bytes, each a shape json.loads took 20 times its size to hold (issue 41, point 1: 60 MB took a
# server from 537 MB to 1,727 MB): what no export holds, at the top, in a game, in a hand, deep or as one long text.
SHAPES = {
    "a list of empty objects beside the games": HEADER + b'"pad": [' + b"{}," * (SIZE // 3) + b'{}], "games": []}',
    "a game holding them": HEADER + b'"games": [' + GAME[:-1] + b', "pad": [' + b"{}," * (SIZE // 3) + b"{}]}]}",
    "hands holding them": HEADER
    + b'"games": [{"players": ["A", "B", "C"], "hands": ['
    + b",".join([b'{"pad": [' + b"{}," * 999 + b"{}]}"] * (SIZE // 3000))
    + b"]}]}",
    "a nest of lists": HEADER + b'"pad": ' + b"[" * SIZE + b"]" * SIZE + b', "games": []}',
    "small objects beside the games": HEADER + b'"pad": [' + b'{"a": 0},' * (SIZE // 9) + b'{}], "games": []}',
    "one long text": HEADER + b'"pad": "' + b"x" * SIZE + b'", "games": []}',
    "a name as long": HEADER + b'"games": [{"players": ["' + b"x" * SIZE + b'", "B", "C"]}]}',
    "a long text of escaped quotes": HEADER + b'"pad": "' + b'\\"' * (SIZE // 2) + b'", "games": []}',
}


def imported(app, data):
    """The import of ``data``, as the import page hands it over (a file), and the most memory it took."""
    stream = io.BytesIO(data)
    with app.test_request_context():
        scope.limit_to(1)
        with pytest.raises(rules.RuleError):  # the catalogs loaded before the count begins
            restore.import_games(io.BytesIO(b"{}"))
        tracemalloc.start()
        try:
            return restore.import_games(stream), tracemalloc.get_traced_memory()[1]
        except rules.RuleError as refused:
            return refused, tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()


@pytest.mark.parametrize("shape", SHAPES)
def test_an_import_of_any_shape_takes_little_memory(app, shape):
    data = SHAPES[shape]
    answer, peak = imported(app, data)
    assert peak < 5 * 1024 * 1024, f"{peak / 1e6:.1f} MB for {len(data) / 1e6:.1f} MB"
    assert isinstance(answer, import_outcomes.ImportReport | rules.RuleError)


def test_a_value_larger_than_any_export_holds_is_refused_with_a_sentence(app):
    answer, _ = imported(app, SHAPES["a name as long"])
    assert "This file holds a value far larger than any export of the app holds" in str(answer)


def test_a_valid_import_holds_a_batch_at_a_time(app, monkeypatch):
    monkeypatch.setattr(restore, "BATCH_HANDS", 500)
    peaks = []
    for count in (20, 80):
        games = [{"players": ["A", "B", "C", "D"], "uid": uuid.uuid4().hex, "hands": moons(50)} for _ in range(count)]
        report, peak = imported(app, json.dumps({"format": "hearts-scorekeeper", "games": games}).encode())
        assert len(report.imported) == count
        peaks.append(peak)
    assert peaks[1] < 1.5 * peaks[0]  # four times the games, not four times the memory: a batch at a time


def moons(count):
    return [{"hearts": [13, 0, 0, 0], "queen": 0, "moon": {"shooter": 0, "option": "subtract"}}] * count


def test_an_import_past_a_groups_room_is_refused_before_the_rest_is_read(open_app, client, monkeypatch):  # noqa: F811
    """Issue 41, point 2: a refused import of 10,001 games took longer than importing 10,000. Now the games past the
    group's room are refused as soon as they are read: a broken game after them is never reached."""
    monkeypatch.setattr(groups, "GAMES_MAX", 3)
    monkeypatch.setattr(restore, "BATCH", 1)  # room looked at after each game, as after each 200 of a large file
    key = start_group(client)["key"]
    start_game(client, key)
    games = [json.loads(GAME) | {"uid": uuid.uuid4().hex} for _ in range(3)] + [{"players": ["Ann"]}]
    data = json.dumps({"format": "hearts-scorekeeper", "games": games}).encode()
    answer = client.post(f"/g/{key}/history/import", data={"export": (io.BytesIO(data), "export.json")})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422 and "keeps 3 games at most" in page and "Game 4" not in page
    assert len(client.get(f"/g/{key}/api/games").json["games"]) == 1


def test_an_import_stops_where_another_import_filled_the_group_meanwhile(open_app, client, monkeypatch):  # noqa: F811
    """Fourteenth probe, R1: on two processes, two imports into one group each found room for their games, and the
    group kept 19,980 games. Now each batch looks at the room again, the group's row held: another process's import
    into the group waits for the batch, and sees its games."""
    monkeypatch.setattr(groups, "GAMES_MAX", 3)
    monkeypatch.setattr(restore, "BATCH", 1)
    key = start_group(client)["key"]
    games = [json.loads(GAME) | {"uid": uuid.uuid4().hex} for _ in range(3)]
    read = exported.read_games({"format": "hearts-scorekeeper", "games": games})
    with open_app.test_request_context():
        scope.limit_to(groups.find_group(key).id)
        restore.check_all(iter(read))  # the room for three
        start_game(client, key)  # and another process's import fills one place of it meanwhile
        with pytest.raises(import_outcomes.GroupFilled) as filled:
            restore.store_games(read)
        assert filled.value.stored == 2 and groups.games_in_group() == 3
    with open_app.test_request_context(f"/g/{key}/history/import"):
        page, status = errors.group_filled(filled.value)
        assert status == 409 and "2 games of this file were imported, the rest not" in page
    answer = open_app.test_client().get(f"/g/{key}/api/games")
    assert len(answer.json["games"]) == 3


def test_a_backup_of_a_whole_server_is_refused_before_anything_is_stored(client):  # noqa: F811
    key = start_group(client)["key"]
    games = [json.loads(GAME)]
    data = json.dumps({"format": "hearts-scorekeeper", "version": 2, "games": games, "groups": [{"key": "x"}]})
    answer = client.post(f"/g/{key}/history/import", data={"export": (io.BytesIO(data.encode()), "backup.json")})
    assert answer.status_code == 422 and "scorekeeper restore" in answer.get_data(as_text=True)
    assert client.get(f"/g/{key}/api/games").json["games"] == []


def test_imports_take_turns_of_a_few_seconds_first_come_first_served():
    """Issue 41, point 2: one import works at a time; after its turn's processor time it gives the turn to the
    import waiting, and waits for its next."""
    taking = turns.Turns(seconds=0)  # every share() gives the turn up when another waits
    said = []

    def second():
        with taking.taken("group b") as turn:
            said.append("second works")
            turn.share()
            said.append("second again")

    with taking.taken("group a") as turn:
        said.append("first works")
        other = threading.Thread(target=second)
        other.start()
        until(lambda: len(taking.waiting) == 1)
        turn.share()  # the second works now, then gives the turn back at its own share()
        said.append("first again")
    other.join()
    assert said == ["first works", "second works", "first again", "second again"]
    assert not taking.busy


def test_the_next_turn_goes_to_the_import_that_has_had_the_least_processor():
    """Issue 41, fourth probe, M2: with turns first come, first served, a group's small import waited behind every
    turn of the long ones before it. Now an import just begun works next."""
    now = [0.0]
    taking = turns.Turns(seconds=1, clock=lambda: now[0])
    said = []
    ready = {group: threading.Event() for group in ("long", "second")}  # at its share(), once told to go on
    go = {group: threading.Event() for group in ("long", "second")}

    def importing(group):
        with taking.taken(group, address=group) as turn:
            said.append(group)
            if group in go:
                ready[group].set()
                go[group].wait(GUARD_SECONDS)
                turn.share()
                said.append(group)

    started = [threading.Thread(target=importing, args=(group,)) for group in ("long", "second", "late")]
    started[0].start()
    assert ready["long"].wait(GUARD_SECONDS)
    started[1].start()
    until(lambda: len(taking.waiting) == 1)
    now[0] = 10.0
    go["long"].set()  # long has had 10 s: second works, and long waits
    assert ready["second"].wait(GUARD_SECONDS)
    started[2].start()
    until(lambda: len(taking.waiting) == 2)  # long, then late
    now[0] = 11.0
    go["second"].set()  # second has had 1 s: the turn goes to late (none yet), not to long (10 s), which came first
    for thread in started:
        thread.join(GUARD_SECONDS)
    assert said == ["long", "second", "late", "second", "long"]
    assert not taking.busy and not taking.owners and not taking.addresses


def test_an_export_beside_an_import_waits_for_a_batch_of_it_not_for_its_few_seconds():
    """An export takes a turn for each game it writes. Beside an import that kept its turn for its few seconds, a
    group's export of 50 games would wait 50 times as long; now the import gives its turn at its next batch to work
    that has had a few seconds less than it."""
    now = [0.0]
    taking = turns.Turns(seconds=2, clock=lambda: now[0])
    exporting, written = taking.turn("a small group"), []

    def export():
        for game in range(3):
            with exporting.step():
                written.append(game)

    with taking.taken("a large import's group") as importing:
        phone = threading.Thread(target=export)
        phone.start()
        until(taking.others_wait)
        now[0] = 2.5
        importing.share()  # its few seconds are over: the export writes a game, and the import works again
        assert written == [0]
        until(taking.others_wait)  # the export's next game
        now[0] = 2.6
        importing.share()  # a batch later: the export has had 2.5 s less
        assert written == [0, 1]
    phone.join(GUARD_SECONDS)
    assert written == [0, 1, 2] and not taking.busy


def waiting_in_order(taking, threads):
    """Each of ``threads`` started once the one before waits for its turn: they wait in this order."""
    for number, thread in enumerate(threads, 1):
        thread.start()
        until(lambda: len(taking.waiting) == number)  # noqa: B023 - looked at before the next


def test_a_group_whose_exports_begin_again_and_again_is_not_new_each_time():
    """With each piece of work's seconds counted apart, a group looping exports came back new each time, and another
    group's import gave it its turn at every batch, for as long as the loop went on. Now a group's seconds are
    counted, whatever work they went to."""
    now = [0.0]
    taking = turns.Turns(seconds=2, clock=lambda: now[0])
    written = []

    def export(number, seconds):
        with taking.turn("a looping group").step():
            now[0] += seconds  # its work
            written.append(number)

    with taking.taken("another group") as importing:
        first = threading.Thread(target=export, args=(1, 3.0))
        first.start()
        until(taking.others_wait)
        now[0] = 2.5
        importing.share()  # its few seconds are over: the export works 3 s, and the import again
        first.join(GUARD_SECONDS)
        again = threading.Thread(target=export, args=(2, 3.0))
        again.start()  # the group's next export
        until(taking.others_wait)
        now[0] += 0.1
        importing.share()  # a batch later: the looping group has had 3 s, the import's group 2.6 s
        assert written == [1]
    again.join(GUARD_SECONDS)
    assert written == [1, 2] and not taking.busy


def test_an_import_too_short_to_share_its_turn_is_counted_too():
    """Eleventh probe, E2: an import done within its few seconds was never counted, so a group importing a small
    file again and again stayed new, and went before another group's export at every turn: ten games took 29 s.
    Now every turn's processor is counted, however short."""
    now = [0.0]
    taking = turns.Turns(seconds=2, clock=lambda: now[0])
    went = []

    def work(owner, seconds):
        with taking.turn(owner).step():
            now[0] += seconds
            went.append(owner)

    work("an exporting group", 1.0)
    with taking.taken("a looping group"):  # a small import, done before its turn is over
        now[0] += 1.5
    with taking.taken("another group"):
        phones = [
            threading.Thread(target=work, args=(owner, 0.1)) for owner in ("a looping group", "an exporting group")
        ]
        waiting_in_order(taking, phones)
    for phone in phones:
        phone.join(GUARD_SECONDS)
    assert went == ["an exporting group", "an exporting group", "a looping group"]  # 1 s lately before 1.5 s


def test_a_new_group_for_each_import_is_not_new_once_its_address_has_had_its_seconds():
    """Twelfth probe, N1: a group made anew for each file had had no seconds, and its import went first, every
    time: from two addresses, another group's export of ten games took 29 s. Now an address's seconds count too."""
    now = [0.0]
    taking = turns.Turns(seconds=2, clock=lambda: now[0])
    went = []

    def work(owner, address, seconds):
        with taking.turn(owner, address).step():
            now[0] += seconds
            went.append(owner)

    work("an exporting group", "10.0.0.1", 1.0)
    with taking.taken("a group made for a file", "10.6.6.6"):
        now[0] += 1.5
    with taking.taken("another group"):
        phones = [
            threading.Thread(target=work, args=(owner, address, 0.1))
            for owner, address in (("a group made for the next file", "10.6.6.6"), ("an exporting group", "10.0.0.1"))
        ]
        waiting_in_order(taking, phones)
    for phone in phones:
        phone.join(GUARD_SECONDS)
    assert went == ["an exporting group", "an exporting group", "a group made for the next file"]


def test_a_large_import_from_a_fresh_address_waits_behind_a_group_that_has_had_less():
    """Thirteenth probe, F1: an address never counted had had no seconds, so 32 fresh addresses, each importing a
    large file once, all went before another group's export of ten games: 89 s. Now waiting work stands by its
    seconds lately and those it is expected to take (an import's, by its file's size)."""
    now = [0.0]
    taking = turns.Turns(seconds=2, clock=lambda: now[0])
    went = []

    def export():
        with taking.turn("an exporting group", "10.0.0.1").step():
            now[0] += 0.1
            went.append("export")

    def large_import():
        with taking.taken("a new group", "10.7.7.7", expected=2.0):
            now[0] += 2.0
            went.append("import")

    export()
    with taking.taken("another group"):
        phones = [threading.Thread(target=large_import), threading.Thread(target=export)]
        waiting_in_order(taking, phones)
    for phone in phones:
        phone.join(GUARD_SECONDS)
    assert went == ["export", "export", "import"]


def test_an_import_larger_than_its_file_said_gives_its_turn_at_its_next_batch():
    """Fourteenth probe, C1: a file of many small games takes twenty times what its size says. Ranked by its size, it
    went before another group's ordinary import, and kept its turn for its few seconds: 31 such files from fresh
    addresses held a 450 kB import 92 s. Now its games read so far say what it will take, and it gives its turn at
    its next batch to work waiting that stands before it."""
    now = [0.0]
    taking = turns.Turns(seconds=2, clock=lambda: now[0])
    went = []

    def ordinary_import():
        with taking.taken("a club", "10.0.0.1", expected=0.45):
            now[0] += 0.5
            went.append("the club's import")

    with taking.taken("a group made for a file", "10.6.6.6", expected=0.1) as small_games:
        waiting_in_order(taking, [club := threading.Thread(target=ordinary_import)])
        now[0] += 0.02  # its first batch: 200 of its 3,330 games read
        small_games.expect(2.3)
        small_games.share()
        went.append("the file of small games")
    club.join(GUARD_SECONDS)
    assert went == ["the club's import", "the file of small games"]


def test_a_stream_of_small_imports_lets_a_larger_one_that_came_before_in_once_it_has_been_there_a_while():
    """Sixteenth probe, Q2: a stream of small imports, each from an address never seen into a group made for it,
    each stood before another group's larger import: it waited until the stream stopped (27.9 s). Now, once work has
    been in the turns AGE_SECONDS, the one there longest has a quarter of the processor."""
    now, wall = [0.0], [0.0]  # the processor, and the time: a second of one is a second of the other here
    taking = turns.Turns(seconds=2, clock=lambda: now[0], wall=lambda: wall[0])
    went, threads = [], []

    def worked(seconds):
        now[0] += seconds
        wall[0] += seconds

    def started(target, *args):
        thread = threading.Thread(target=target, args=args)
        threads.append(thread)
        thread.start()
        until(lambda: any(turn.keys[0] == ("owner", args[0]) for turn in taking.waiting))

    def small_import(group, number):
        with taking.taken(group, f"10.9.0.{number}", expected=0.14):
            if number == 0:
                started(larger_import, "a club")
            if number < 30:
                started(small_import, f"a group made for file {number + 1}", number + 1)  # the next, as this works
            until(lambda: len(taking.waiting) == len(taking.owners) - 1)  # and the club, if it rests, waits again
            worked(0.14)
            went.append(number)

    def larger_import(group):
        with taking.taken(group, "10.0.0.1", expected=0.5) as turn:
            worked(0.25)
            turn.rest(0.0)  # its first batch: the next small one works as it rests
            worked(0.25)
            went.append(group)

    small_import("a group made for file 0", 0)
    for thread in threads:
        thread.join(GUARD_SECONDS)
    # fifteen small ones go first, each standing before it; then it has been there 2.1 s, and has a turn. One small
    # one works as it rests, and five more, three times its batch, before its next
    assert went.index("a club") == 21 and went[-1] == 30


def test_work_in_the_turns_long_has_a_quarter_of_the_processor_never_more():
    """Seventeenth probe, F1: an attacker's large imports, owed what its own stream of small imports took (the owed
    processor of an earlier change), stood first for their whole length: another group's 435 kB import that came
    after them took up to 37.5 s (1.8 s before). Now the work in the turns longest has a quarter of the processor,
    a turn at a time, never more: another group's import waits for one batch of it."""
    now, wall = [0.0], [0.0]
    taking = turns.Turns(seconds=2, clock=lambda: now[0], wall=lambda: wall[0])
    went = []

    def work(owner, address, expected, batches):
        with taking.taken(owner, address, expected) as turn:
            for batch in range(batches):
                if batch:
                    turn.share()
                now[0] += 0.25
                wall[0] += 0.25
                went.append(owner)

    with taking.taken("the attacker's stream", "10.9.9.9", expected=0.05):
        waiting_in_order(taking, [threading.Thread(target=work, args=("a large file", "10.6.6.1", 13.0, 6))])
        now[0] += 3.0  # the stream's seconds, as the large file waits
        wall[0] += 3.0
        club = threading.Thread(target=work, args=("a club", "10.0.0.1", 1.0, 4))
        club.start()
        until(lambda: len(taking.waiting) == 2)  # after the large file
    until(lambda: not taking.owners)
    # the large file has been in the turns 3 s: it has a batch; then the club's import, its four batches (three
    # times as long); then the large file again
    assert went == ["a large file", *["a club"] * 4, *["a large file"] * 5]


def test_a_backlog_that_came_a_moment_before_a_small_export_does_not_go_first():
    """The work of a backlog takes turns by what it has had and will take, not first come, first served: else a
    backlog that came a moment before a group's small export would go before it (the thirteenth probe's burst)."""
    now = [0.0]
    taking = turns.Turns(seconds=0.3, clock=lambda: now[0])
    went = []

    def export(expected):
        with taking.turn("a club", "10.0.0.1", expected).step():
            now[0] += expected
            went.append("the club's export")

    def second_file():
        with taking.taken("a second file's group", "10.6.6.2", expected=1.2):
            club = threading.Thread(target=export, args=(0.01,))
            club.start()
            until(lambda: len(taking.waiting) == 2)  # the first file, then the club's export
            now[0] += 0.9
            went.append("the second file")
        club.join(GUARD_SECONDS)

    export(0.3)  # the club's seconds lately
    with taking.taken("a first file's group", "10.6.6.1", expected=1.2) as first:
        waiting_in_order(taking, [second := threading.Thread(target=second_file)])
        now[0] += 0.4
        first.share()  # its few seconds are over: the second file works 0.9 s, then the club's export goes first
        went.append("the first file")
    second.join(GUARD_SECONDS)
    assert went == ["the club's export", "the second file", "the club's export", "the first file"]


def importer(taking, went, refused):
    """An import in ``taking``'s turns, that does nothing: its group put in ``went``, or in ``refused``."""

    def importing(group, address, expected):
        try:
            with taking.taken(group, address, expected):
                went.append(group)
        except turns.TooManyWaiting:
            refused.append(group)

    return importing


def test_a_small_import_takes_the_place_of_one_not_yet_begun_that_will_take_longer():
    """Fourteenth probe, C2: 32 files that take minutes each held every place in the turns, and another group's
    file of one game was refused 17 times over 71 s. Now, with every place taken, the work waiting not yet begun that
    stands last gives its place to work that stands before it, and no other work's (none waits for a place here but
    the work that gave its place up: it has the next)."""
    taking = turns.Turns(at_once=3, coming=0)
    went, refused = [], []
    importing = importer(taking, went, refused)

    with taking.taken("a group importing", "10.0.0.1"):
        files = [
            threading.Thread(target=importing, args=(f"file {number}", f"10.6.6.{number}", 2.0)) for number in (1, 2)
        ]
        waiting_in_order(taking, files)
        importing("as large a file", "10.6.6.3", 2.0)  # stands no better than those waiting: refused
        small = threading.Thread(target=importing, args=("a club's game", "10.0.0.2", 0.001))
        small.start()
        until(lambda: taking.coming)  # the last come of the two that stand alike waits for a place again
    for thread in [*files, small]:
        thread.join(GUARD_SECONDS)
    assert refused == ["as large a file"] and went == ["a club's game", "file 1", "file 2"]
    assert not taking.owners and not taking.addresses and not taking.places


def test_with_every_place_taken_work_waits_for_one_and_the_first_that_stands_has_it():
    """Twentieth probe, A: 32 addresses each sent a file that fails at once, then a file of small games, again and
    again, and every place in the turns was taken by one or the other; a group that had imported lately, refused at
    once whenever none stood after it, tried again, and found the places taken again by work that came meanwhile:
    41 times in 42. Now work waits for a place, and a place given up goes to the work waiting that stands first;
    past the most that wait, the one that stands last is refused."""
    taking = turns.Turns(seconds=0, at_once=1, coming=1, coming_seconds=3600)  # none waits its time out here
    went, refused = [], []
    importing = importer(taking, went, refused)

    with taking.taken("a group importing", "10.0.0.1"):
        group = threading.Thread(target=importing, args=("a group that imported lately", "10.0.0.2", 1.0))
        group.start()
        until(lambda: taking.coming)  # it waits for a place, not refused
        longer = threading.Thread(target=importing, args=("a file expected to take longer", "10.6.6.1", 5.0))
        longer.start()
        longer.join(GUARD_SECONDS)  # it stands last of those waiting: refused at once, the place still taken
        assert refused == ["a file expected to take longer"] and not went
    group.join(GUARD_SECONDS)
    assert went == ["a group that imported lately"] and not taking.owners and not taking.places


def test_work_that_gave_its_place_up_has_the_next_first():
    """Work that gave its place up to smaller work waits for a place again, with no end (it waits for its turn);
    work that came since and stands before it had every place, and it waited for ever (a review of the change)."""
    taking = turns.Turns(seconds=0, at_once=2, coming_seconds=GUARD_SECONDS)
    went, refused, go_on = [], [], threading.Event()
    importing = importer(taking, went, refused)

    def club():
        with taking.taken("a club", "10.0.0.2", 0.001):
            go_on.wait(GUARD_SECONDS)  # it works while the places are looked at
            went.append("a club's game")

    with taking.taken("a group importing", "10.0.0.1"):
        larger = threading.Thread(target=importing, args=("a larger file", "10.6.6.1", 5.0))
        waiting_in_order(taking, [larger])
        small = threading.Thread(target=club)
        small.start()
        until(lambda: taking.coming)  # the larger file gave its place up
        later = threading.Thread(target=importing, args=("a file that came later", "10.0.0.3", 0.5))
        later.start()
        until(lambda: len(taking.coming) == 2)  # it waits too: nobody waiting for a place is passed over
    assert [coming.keys[0][1] for coming in taking.coming] == ["a file that came later"]  # the place: the larger's
    go_on.set()
    for thread in (larger, small, later):
        thread.join(GUARD_SECONDS)
    assert sorted(went) == ["a club's game", "a file that came later", "a larger file"] and not refused
    assert not taking.owners and not taking.places and not taking.coming


@pytest.mark.parametrize("broken_between", [False, True], ids=["file after file", "a broken file between"])
def test_an_address_whose_last_file_took_far_more_than_its_size_said_is_expected_to_again(broken_between):
    """Eighteenth probe, N1: 31 addresses looping files of small games (2.3 s each, 0.24 s by their size), each
    storing from its first batch, held the places; each new file looked small by its size, so another group's
    435 kB import, which stood after them, was refused again and again. Now an address's (or a group's) next file is
    expected to take what its size says times what its files took lately more than that: it stands by it, and gives
    its place up to the other group's file. Nineteenth probe: a broken file sent between two (refused at its first
    batch, it took less than its size said) made the next look small again."""
    now, wall = [0.0], [0.0]
    taking = turns.Turns(at_once=2, clock=lambda: now[0], wall=lambda: wall[0])
    went, refused = [], []
    importing = importer(taking, went, refused)

    with taking.taken("a group made for a file", "10.6.6.1", expected=0.1):
        now[0] += 1.0  # ten times what its size said
    if broken_between:
        with taking.taken("a group made for a broken file", "10.6.6.1", expected=0.01):
            now[0] += 0.001  # a tenth of what its size said
    wall[0] += 300.0  # its seconds lately are forgotten; what it took more than its size said is not
    with taking.taken("another group", "10.0.0.9", expected=0.05):
        waiting_in_order(
            taking, [next_file := threading.Thread(target=importing, args=("the next file", "10.6.6.1", 0.1))]
        )
        club = threading.Thread(target=importing, args=("a club's file", "10.0.0.1", 0.45))
        club.start()
        until(lambda: taking.coming)  # expected to take 1 s: it stands after the club's file, and gives its place up
    for thread in (next_file, club):
        thread.join(GUARD_SECONDS)
    assert went == ["a club's file", "the next file"] and not refused and not taking.owners


@pytest.mark.parametrize(
    ("storing", "went"),
    [
        (False, ["the file works", "a club's game", "the file works again"]),
        (True, ["the file works", "a club's game is refused", "the file works again"]),
    ],
)
def test_an_import_gives_its_place_up_until_it_stores(storing, went):
    """An import checking its file has stored nothing: it may give its place to a smaller one, and wait for a place
    again. Once it stores, it keeps its place to its end (the games it stores are never left half), and the smaller
    one is refused (none waits for a place here)."""
    taking, said = turns.Turns(seconds=0, at_once=2, coming=0), []

    def importing(group, address, expected, steps):
        try:
            with taking.taken(group, address, expected) as turn:
                for step in steps:
                    step(turn)
        except turns.TooManyWaiting:
            said.append(f"{group} is refused")

    def works(words):
        return lambda turn: said.append(words)

    def checks_then_waits(turn):  # or stores, then waits
        said.append("the file works")
        if storing:
            turn.keep_place()
        turn.share()

    file_steps = [checks_then_waits, works("the file works again")]
    with taking.taken("a group importing", "10.0.0.1") as working:
        waiting_in_order(
            taking, [file := threading.Thread(target=importing, args=("the file", "10.6.6.6", 5.0, file_steps))]
        )
        working.share()  # the file works, then waits for its next turn
        club = threading.Thread(target=importing, args=("a club's game", "10.0.0.2", 0.001, [works("a club's game")]))
        club.start()
        until(lambda: taking.coming or len(said) == 2)  # the file waits for a place again, or the club is refused
    for thread in (file, club):
        thread.join(GUARD_SECONDS)
    assert said == went and not taking.owners and not taking.busy


def test_an_import_rests_between_its_batches_without_its_turn():
    """Fourteenth probe, C2: on SQLite an import sleeps between batches (a phone's write goes between them); it
    slept holding its turn, and the processor idled while other groups' work waited."""
    taking = turns.Turns()
    went = []

    def export():
        with taking.turn("another group").step():
            went.append("export")

    with taking.taken("a group importing") as importing:
        waiting_in_order(taking, [phone := threading.Thread(target=export)])
        importing.rest(0.0)  # its pause: the export works meanwhile
        went.append("import")
    phone.join(GUARD_SECONDS)
    assert went == ["export", "import"]


def small_games(count):
    """A file of ``count`` games of three names and no hands, each its own: the most work for the fewest bytes."""
    games = ",".join(f'{{"players": ["x", "y", "{number}"]}}' for number in range(count))
    return b'{"format": "hearts-scorekeeper", "version": 1, "games": [' + games.encode() + b"]}"


def expected_by_first_games(app, data):
    """What an import of ``data`` is expected to take once its first batch is read, in its size's seconds."""
    stream = io.BytesIO(data)
    export, objects = reader.ExportFile(stream), file_bytes.objects_in(stream)
    with app.app_context():
        first = list(itertools.islice(export.games(), restore.BATCH))
        part = export.part_read(objects)
    hands = sum(len(game.hands) for game in first)
    return restore.expected_seconds(len(data), len(first), hands, part) / restore.expected_seconds(len(data))


def test_a_file_of_small_games_is_expected_to_take_what_its_first_games_say(app):
    """Read so far, a file's games and hands say what the whole will take, however few its bytes."""
    assert 20 < expected_by_first_games(app, small_games(3330)) < 30


def test_the_apps_own_export_is_expected_to_take_about_what_its_size_says(open_app, client):  # noqa: F811
    key = start_group(client)["key"]
    for _ in range(2):
        game = start_game(client, key)["id"]
        for _ in range(20):
            moon = {"hearts": [13, 0, 0, 0], "queen": 0, "moon_option": "subtract"}
            assert client.post(f"/g/{key}/api/games/{game}/hands", json=moon).status_code == 201
    assert 0.9 < expected_by_first_games(open_app, client.get(f"/g/{key}/history/export.json").get_data()) < 1.5


def test_an_import_shares_its_turn_between_batches(app, monkeypatch):
    shared = []
    monkeypatch.setattr(turns.Turn, "share", lambda self, before_waiting: shared.append(1))
    monkeypatch.setattr(restore, "BATCH", 2)
    games = [json.loads(GAME) | {"uid": uuid.uuid4().hex} for _ in range(5)]
    report, _ = imported(app, json.dumps({"format": "hearts-scorekeeper", "games": games}).encode())
    assert len(report.imported) == 5 and len(shared) >= 4  # checked in 3 batches, stored in 3
    assert reader.IMPORT_GAMES_MAX == 20_000


def test_an_import_of_long_games_gives_its_turn_every_thousand_hands_or_so(app, monkeypatch):
    """Eighteenth probe, N3: a batch held 5,000 hands, 1.3 s of processor for games of 50 moons, and an export
    beside three large imports waited that long for each of its steps (18 s for one of 1.3 s alone)."""
    shared = []
    monkeypatch.setattr(turns.Turn, "share", lambda self, before_waiting: shared.append(1))
    games = [{"players": ["A", "B", "C", "D"], "uid": uuid.uuid4().hex, "hands": moons(50)} for _ in range(100)]
    report, _ = imported(app, json.dumps({"format": "hearts-scorekeeper", "games": games}).encode())
    assert len(report.imported) == 100 and len(shared) >= 8  # 5,000 hands: checked in 5 batches, stored in 5
