"""The example sync client (scripts/sync-client.py, docs/SYNC.md) against two real servers: after
changes on both sides they converge, nothing the client copied comes back to where it started,
and a pass with nothing new writes nothing."""

import json
import os
import shutil
import struct
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import zlib

import pytest

from conftest import ROOT, WishlistServer, browser_conftest

CLIENT = ROOT / "scripts" / "sync-client.py"


class Wishlist:
    """One server and an API token for making the test's own changes (author token:editor)."""

    def __init__(self, folder, seeded_folder):
        self.data_dir = folder / "data"
        shutil.copytree(seeded_folder, self.data_dir)
        self.sync_token = self.create_token("sync")
        self.editor_token = self.create_token("editor")
        self.server = WishlistServer(self.data_dir)
        self.server.start()

    def create_token(self, name):
        result = subprocess.run([str(browser_conftest.BINARY), "token", "create", name, "--data-dir", str(self.data_dir)],
                                capture_output=True, text=True, check=True)
        return result.stdout.strip().splitlines()[-1]

    def call(self, method, path, value=None, body=None, content_type=None):
        if value is not None:
            body, content_type = json.dumps(value).encode(), "application/json"
        headers = {"Authorization": f"Bearer {self.editor_token}"}
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self.server.url + path, data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                data = response.read()
                return json.loads(data) if data and response.headers.get_content_type() == "application/json" else data
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{method} {path}: {error.code} {error.read()}") from None

    def trips(self):
        return {trip["name"]: trip for trip in self.call("GET", "/api/trips?limit=500")["trips"]}

    def contents(self):
        """Everything the client mirrors, independent of ids."""
        contents = []
        for trip in self.trips().values():
            detail = self.call("GET", f"/api/trips/{trip['id']}")
            activities = sorted((activity["name"], activity["isComplete"]) for activity in detail["activities"])
            contents.append((trip["name"], trip.get("subtitle"), trip["collection"], trip.get("photoVersion"),
                             json.dumps(trip.get("destination"), sort_keys=True), trip.get("startDate"), trip.get("endDate"),
                             activities, [(photo["photoVersion"], photo["caption"])
                                          for photo in self.call("GET", f"/api/trips/{trip['id']}/photos")["photos"]]))
        return sorted(contents, key=repr)

    def galleries(self):
        """Each trip's photos in order, by content and caption."""
        return {name: [(photo["photoVersion"], photo["caption"])
                       for photo in self.call("GET", f"/api/trips/{trip['id']}/photos")["photos"]]
                for name, trip in self.trips().items()}

    def history(self, after, authors):
        query = urllib.parse.urlencode({"after": after, "authors": authors, "limit": 1000})
        return self.call("GET", f"/api/history?{query}")["transactions"]

    def newest_token(self):
        return self.call("GET", "/api/history?limit=1")["newestToken"]

    def stop(self):
        self.server.stop()


@pytest.fixture
def wishlists(tmp_path, seeded_folder):
    a, b = Wishlist(tmp_path / "a", seeded_folder), Wishlist(tmp_path / "b", seeded_folder)
    yield a, b
    a.stop()
    b.stop()


def run_client(a, b, state):
    environment = {**os.environ, "WISHLIST_A_TOKEN": a.sync_token, "WISHLIST_B_TOKEN": b.sync_token}
    subprocess.run([sys.executable, str(CLIENT), "--a", a.server.url, "--b", b.server.url, "--state", str(state)],
                   env=environment, check=True, timeout=120)


def png(red, green, blue):
    """A 4×4 PNG of one colour: a picture of its own, so its content version is new."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes([red, green, blue]) * 4 for _ in range(4))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def touched(transactions):
    return {(change["entity"], change["id"]) for transaction in transactions for change in transaction["changes"]}


def test_changes_on_both_sides_converge_without_echoes(wishlists, tmp_path):
    a, b = wishlists
    state = tmp_path / "sync-state.json"
    # Both start with the same twelve sample trips: the first run pairs them and copies nothing.
    start = (a.newest_token(), b.newest_token())
    run_client(a, b, state)
    assert a.contents() == b.contents()
    assert not a.history(start[0], "token:sync") and not b.history(start[1], "token:sync")

    # Five different sample trips, each changed once; the last three need an open activity.
    activities = {name: a.call("GET", f"/api/trips/{trip['id']}")["activities"] for name, trip in a.trips().items()}
    with_open = sorted(name for name, listed in activities.items() if any(not act["isComplete"] for act in listed))
    checked, shrunk, retitled = with_open[:3]
    renamed, deleted = sorted(set(activities) - {checked, shrunk, retitled})[:2]
    before = (a.newest_token(), b.newest_token())

    # On A: a new trip with a photo and activities, a rename, a check-off, a deletion.
    lisbon = a.call("POST", "/api/trips", {"name": "Lisbon Trams", "subtitle": "Tram 28", "collection": "springEscapes"})
    a.call("PUT", f"/api/trips/{lisbon['id']}/photo", body=png(200, 40, 40), content_type="image/png")
    a.call("POST", f"/api/trips/{lisbon['id']}/activities", {"name": "Ride tram 28", "isComplete": True})
    a.call("POST", f"/api/trips/{lisbon['id']}/activities", {"name": "Pastéis de nata"})
    trip = a.trips()[renamed]
    a.call("PUT", f"/api/trips/{trip['id']}", {"name": renamed + " Again", "collection": trip["collection"]})
    to_check = next(act for act in activities[checked] if not act["isComplete"])
    a.call("PATCH", f"/api/activities/{to_check['id']}", {"isComplete": True})
    a.call("DELETE", f"/api/trips/{a.trips()[deleted]['id']}")

    # On B: a new trip, an activity deleted and one renamed.
    with urllib.request.urlopen(b.server.url + "/places?q=kyoto", timeout=10) as response:
        place = json.loads(response.read())["places"][0]
    kyoto = b.call("POST", "/api/trips", {"name": "Kyoto Temples", "collection": "fallGetaways",
                                          "destination": {"name": place["label"], "place": place["token"]},
                                          "startDate": "2027-11-20", "endDate": "2027-11-27"})
    assert kyoto["destination"]["latitude"] == place["latitude"], "the place comes from the gazetteer"
    b.call("POST", f"/api/trips/{kyoto['id']}/activities", {"name": "Fushimi Inari at dawn"})
    b.call("DELETE", f"/api/activities/{b.call('GET', '/api/trips/%d' % b.trips()[shrunk]['id'])['activities'][0]['id']}")
    to_rename = b.call("GET", f"/api/trips/{b.trips()[retitled]['id']}")["activities"][0]
    b.call("PATCH", f"/api/activities/{to_rename['id']}", {"name": "Renamed on B"})

    run_client(a, b, state)

    assert a.contents() == b.contents()
    trips = a.trips()
    assert "Lisbon Trams" in trips and "Kyoto Temples" in trips and deleted not in trips
    assert trips["Lisbon Trams"]["photoVersion"] == b.trips()["Lisbon Trams"]["photoVersion"] is not None
    assert trips["Kyoto Temples"]["destination"]["name"] == "Kyoto, Japan" and trips["Kyoto Temples"]["startDate"] == "2027-11-20"
    assert trips["Kyoto Temples"]["destination"]["latitude"] is not None, "the pin came across with the place"

    # No echo: what the client wrote on each side touches none of the records changed there.
    for side, started in ((a, before[0]), (b, before[1])):
        edited = touched(side.history(started, "token:editor"))
        synced = touched(side.history(started, "token:sync"))
        assert synced, "the other side's changes were copied here"
        assert not {change for change in synced & edited if change[0] in ("Trip", "Activity")}, side.data_dir

    # Nothing new: a pass reads, compares, writes nothing.
    settled = (a.newest_token(), b.newest_token())
    run_client(a, b, state)
    assert (a.newest_token(), b.newest_token()) == settled


def test_galleries_travel_both_ways_without_echoes(wishlists, tmp_path):
    a, b = wishlists
    state = tmp_path / "sync-state.json"
    run_client(a, b, state)
    trips_a, trips_b = a.trips(), b.trips()
    first, second = sorted(trips_a)[:2]
    before = (a.newest_token(), b.newest_token())

    # On A: two photos added to one trip, the second captioned and made its cover.
    green = a.call("POST", f"/api/trips/{trips_a[first]['id']}/photos", body=png(10, 200, 10), content_type="image/png")
    blue = a.call("POST", f"/api/trips/{trips_a[first]['id']}/photos", body=png(10, 10, 200), content_type="image/png")
    a.call("PATCH", f"/api/photos/{blue['id']}", {"caption": "Blue hour", "position": 0})
    # On B: a photo added to another trip, and a caption on the first trip's sample photo.
    yellow = b.call("POST", f"/api/trips/{trips_b[second]['id']}/photos", body=png(200, 200, 10), content_type="image/png")
    sample = b.call("GET", f"/api/trips/{trips_b[first]['id']}/photos")["photos"][0]
    b.call("PATCH", f"/api/photos/{sample['id']}", {"caption": "From the ridge"})

    run_client(a, b, state)
    galleries = a.galleries()
    assert galleries == b.galleries()
    assert [caption for _, caption in galleries[first]] == ["Blue hour", "From the ridge", ""], "A's order, B's caption"
    assert galleries[first][0][0] == blue["photoVersion"] and a.trips()[first]["photoVersion"] == blue["photoVersion"]
    assert (yellow["photoVersion"], "") in galleries[second]
    # No echo: the client wrote none of a side's own new photos back to it (moving the blue one
    # first renumbered the sample photo on A, whose caption then came from B: not an echo).
    for side, started, own in ((a, before[0], {green["id"], blue["id"]}), (b, before[1], {yellow["id"]})):
        synced = touched(side.history(started, "token:sync"))
        assert synced and not {("Photo", photo) for photo in own} & synced, side.data_dir

    # Deleted on B: gone from A, not copied back.
    b.call("DELETE", f"/api/photos/{b.call('GET', '/api/photos/%d' % yellow['id'])['id']}")
    run_client(a, b, state)
    assert a.galleries() == b.galleries() and yellow["photoVersion"] not in [v for v, _ in a.galleries()[second]]

    settled = (a.newest_token(), b.newest_token())
    run_client(a, b, state)
    assert (a.newest_token(), b.newest_token()) == settled, "nothing new: nothing written"


def test_a_side_restored_from_an_older_backup_is_compared_again(wishlists, tmp_path):
    a, b = wishlists
    state = tmp_path / "sync-state.json"
    run_client(a, b, state)
    backup = tmp_path / "backup-of-b"
    subprocess.run([str(browser_conftest.BINARY), "backup", str(backup), "--data-dir", str(b.data_dir)], check=True)
    b.call("POST", "/api/trips", {"name": "Made on B, then lost", "collection": "summerVibes"})
    run_client(a, b, state)
    assert "Made on B, then lost" in a.trips()

    # B goes back to before that trip (while it runs), and then gets a change of its own.
    subprocess.run([str(browser_conftest.BINARY), "restore", str(backup), "--data-dir", str(b.data_dir)], check=True)
    b.call("POST", "/api/trips", {"name": "After the restore", "collection": "winterRetreats"})

    # B's cursor is one the restore took back: the client compares everything and copies the
    # trip B lost back from A (nothing is deleted by a comparison).
    run_client(a, b, state)
    assert a.contents() == b.contents()
    assert {"Made on B, then lost", "After the restore"} <= set(b.trips())
