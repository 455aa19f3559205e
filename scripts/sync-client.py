#!/usr/bin/env python3
"""Mirrors one Wishlist into another, both ways, through their JSON APIs (docs/SYNC.md).

    WISHLIST_A_TOKEN=wlt_… WISHLIST_B_TOKEN=wlt_… \
        scripts/sync-client.py --a http://127.0.0.1:8080 --b http://127.0.0.1:8081 --state sync-state.json

One run is one pass: it reads what changed on each side since the last run and makes the other
side match. Run it again (a loop, a timer) to keep the two in step. Only the Python standard
library is used.

- Each side is read with `excludeAuthors=<this client's author there>`, so the client never sees
  its own writes again and never sends a change back where it came from.
- The state file keeps each side's history cursor, which trip and activity ids are the same
  record on both sides, and the photos each pair of trips last had in common.
- A trip's gallery is matched by content (`photoVersion`: the same picture has the same one on
  every server) against what both had when they last agreed: a photo one side has and the
  other has not is copied across, unless both had it then (deleted since, it goes); a caption
  or an order changed since follows the side that changed it (A when both did).
- The history says which records changed, not how: the client reads each one's current values
  and writes only what differs (a record already equal costs no write, so nothing echoes).
- The first run, and a run told that its cursor is no longer valid (409: a side was restored from
  an older backup), compare everything instead: records with the same name (trips: and
  collection) are paired, the rest copied across; side A wins where both differ.
- A peer is not trusted: answers are read up to a limit, redirects are not followed (the token
  stays with its own server), a history that does not move ends the pass, and a record that is
  not what the API describes is skipped with a message while the rest is copied.
"""

import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

KINDS = ("trips", "activities")
# What the history names; a photo's change is a change of its trip's gallery.
ENTITIES = {"Trip": "trips", "Activity": "activities", "Photo": "photos"}
# Far beyond any honest answer: a history page of 1,000 transactions, a page of trips, a photo
# at the server's upload limit. Past them a side is refused, not read into memory.
MAX_JSON_BYTES = 16 << 20
MAX_PHOTO_BYTES = 64 << 20
# History pages one pass reads from a side; the next pass goes on from where this one ended.
MAX_HISTORY_PAGES = 1000
MAX_TRIPS = 1_000_000
TIMEOUT_SECONDS = 60


class SyncError(Exception):
    """A side that cannot be synced with now: said in one line, and the run ends."""


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect would carry the bearer token to wherever it points: refuse to follow any."""

    def redirect_request(self, request, fp, code, message, headers, new_url):
        raise SyncError(f"{request.full_url} redirected to {new_url}; not followed, so the token stays with its own server")


OPENER = urllib.request.build_opener(NoRedirects)


def warn(message):
    print(f"sync-client: {message}", file=sys.stderr)


def is_id(value):
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def is_trip_detail(detail):
    """Whether `GET /api/trips/ID` answered the shape the comparing reads."""
    try:
        trip = detail["trip"]
        return (is_id(trip["id"]) and isinstance(trip["name"], str) and isinstance(trip["collection"], str)
                and all(is_id(activity["id"]) and isinstance(activity["name"], str) for activity in detail["activities"]))
    except (KeyError, TypeError):
        return False


def created(record):
    """When a trip (`creationDate`) or an activity (`dateCreated`) was made."""
    return record.get("creationDate") or record.get("dateCreated")


def trip_fields(trip):
    destination = trip.get("destination")
    return {"name": trip["name"], "subtitle": trip.get("subtitle"), "collection": trip["collection"],
            # The place travels as its opaque token: the other side resolves it in its own gazetteer.
            "destination": destination and {"name": destination["name"], "place": destination.get("place")},
            "startDate": trip.get("startDate"), "endDate": trip.get("endDate")}


class CursorRefused(Exception):
    """The side no longer holds the history after our cursor (a 409)."""


class Side:
    """One Wishlist, reached with its API token."""

    def __init__(self, key, url, token):
        self.key = key
        self.url = url.rstrip("/")
        self.token = token
        self.author = self.json("GET", "/api/token")["author"]

    def request(self, method, path, body=None, content_type=None, limit=MAX_JSON_BYTES):
        """The status and the body, read up to `limit` bytes (more: `SyncError`)."""
        headers = {"Authorization": f"Bearer {self.token}"}
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self.url + path, data=body, method=method, headers=headers)
        try:
            with OPENER.open(request, timeout=TIMEOUT_SECONDS) as response:
                return response.status, self.read(response, method, path, limit)
        except urllib.error.HTTPError as error:
            return error.code, self.read(error, method, path, MAX_JSON_BYTES)
        except (urllib.error.URLError, OSError) as error:
            raise SyncError(f"{self.key}: {method} {path} failed: {error}") from None

    def read(self, response, method, path, limit):
        declared = response.headers.get("Content-Length")
        if declared and declared.isdigit() and int(declared) > limit:
            raise SyncError(f"{self.key}: {method} {path} answered {int(declared)} bytes, more than the {limit >> 20} MB an answer may have")
        data = response.read(limit + 1)
        if len(data) > limit:
            raise SyncError(f"{self.key}: {method} {path} answered more than the {limit >> 20} MB an answer may have")
        return data

    def json(self, method, path, value=None, missing_ok=False):
        """The decoded answer; None for a 404 when `missing_ok` (a record deleted meanwhile)."""
        body = None if value is None else json.dumps(value).encode()
        status, data = self.request(method, path, body, "application/json" if body is not None else None)
        if status == 404 and missing_ok:
            return None
        if status == 409:
            raise CursorRefused(data.decode(errors="replace"))
        if status >= 400:
            raise SyncError(f"{self.key}: {method} {path} answered {status}: {data[:500].decode(errors='replace')}")
        try:
            return json.loads(data) if data else {}
        except ValueError:
            raise SyncError(f"{self.key}: {method} {path} answered something that is not JSON") from None

    def history(self, cursor):
        """The trip and activity ids changed after `cursor` by anyone but us, and the new cursor:
        up to `MAX_HISTORY_PAGES` pages, each of which must move the cursor."""
        changed = {kind: {} for kind in ENTITIES.values()}
        for _ in range(MAX_HISTORY_PAGES):
            query = urllib.parse.urlencode({"after": cursor, "excludeAuthors": self.author,
                                            "entities": ",".join(ENTITIES), "limit": 1000})
            page = self.json("GET", f"/api/history?{query}")
            try:
                transactions, next_cursor, has_more = page["transactions"], str(page["cursor"]), page["hasMore"] is True
                changes = [change for transaction in transactions for change in transaction["changes"]]
            except (KeyError, TypeError):
                raise SyncError(f"{self.key}: a history page is not what the API describes") from None
            for change in changes:
                kind = ENTITIES.get(change.get("entity")) if isinstance(change, dict) else None
                if kind is None or not is_id(change.get("id")):
                    warn(f"{self.key}: skipped a change that names no trip, activity or photo: {str(change)[:200]}")
                    continue
                changed[kind][change["id"]] = True
            if has_more and next_cursor == str(cursor):
                raise SyncError(f"{self.key}: the history says there is more after cursor {cursor} but does not move past it")
            cursor = next_cursor
            if not has_more:
                return changed, cursor
        warn(f"{self.key}: read {MAX_HISTORY_PAGES} history pages; the next run goes on from cursor {cursor}")
        return changed, cursor

    def newest_token(self):
        return self.json("GET", "/api/history?limit=1")["newestToken"]

    def all_trips(self):
        trips, offset = [], 0
        while offset <= MAX_TRIPS:
            page = self.json("GET", f"/api/trips?limit=500&offset={offset}").get("trips")
            if not isinstance(page, list):
                raise SyncError(f"{self.key}: a page of trips is not what the API describes")
            trips += [trip for trip in page if isinstance(trip, dict) and is_id(trip.get("id"))]
            offset += len(page)
            if len(page) < 500:
                return trips
        raise SyncError(f"{self.key}: lists more than {MAX_TRIPS} trips")


class Pairs:
    """Which record on one side is which on the other, for trips and for activities. Each is known
    by its id and its creation date: after a restore from a backup an id can name a newer record,
    which is then not the one paired."""

    def __init__(self, saved):
        self.sides = {kind: {"a": {}, "b": {}} for kind in KINDS}
        for kind in KINDS:
            for a_id, a_created, b_id, b_created in saved.get(kind, []):
                self.pair(kind, "a", (a_id, a_created), (b_id, b_created))

    def peer(self, kind, side, record):
        """The (id, creation date) paired with `record` (id, creation date; a date of None: any)."""
        entry = self.sides[kind][side].get(record[0])
        if entry is None or record[1] not in (None, entry[0]):
            return None
        return entry[1]

    def pair(self, kind, side, record, other):
        other_side = "b" if side == "a" else "a"
        self.forget(kind, side, record[0])
        self.forget(kind, other_side, other[0])
        self.sides[kind][side][record[0]] = (record[1], other)
        self.sides[kind][other_side][other[0]] = (other[1], record)

    def forget(self, kind, side, record_id):
        entry = self.sides[kind][side].pop(record_id, None)
        if entry is not None:
            self.sides[kind]["b" if side == "a" else "a"].pop(entry[1][0], None)

    def saved(self):
        return {kind: sorted([a_id, created, *other] for a_id, (created, other) in self.sides[kind]["a"].items())
                for kind in KINDS}


class Mirror:
    """Copies records between the sides. Trips and activities differ in their fields, their
    creation date's name and where a new one is added; the rest is `copy_record`."""

    def __init__(self, a, b, state):
        self.sides = {"a": a, "b": b}
        self.state = state
        self.pairs = Pairs(state)
        # By A's trip id: the photo versions both trips had after the last pass.
        self.agreed = state.setdefault("galleries", {})

    def copy_record(self, kind, source, target, record_id, read, fields, write):
        """Makes the record's peer on `target` match it: created (`write(None, fields, record)`),
        changed (`write(peer, fields that differ, record)`) or deleted. Returns the source's record and
        the target's (None for a deleted one)."""
        record = source.json("GET", f"/api/{kind}/{record_id}", missing_ok=True)
        record = record and read(record)
        peer_key = self.pairs.peer(kind, source.key, (record_id, record and created(record)))
        peer = peer_key and target.json("GET", f"/api/{kind}/{peer_key[0]}", missing_ok=True)
        # The peer's id may name another record over there now (a restore): then it is not the peer.
        peer = peer and read(peer)
        if peer and created(peer) != peer_key[1]:
            peer = None
        if record is None:
            if peer:
                target.json("DELETE", f"/api/{kind}/{peer_key[0]}", missing_ok=True)
            self.pairs.forget(kind, source.key, record_id)
            return None, None
        wanted = fields(record)
        if peer is None:
            peer = write(None, wanted, record)
            if peer is not None:
                self.pairs.pair(kind, source.key, (record_id, created(record)), (peer["id"], created(peer)))
            return record, peer
        # Compared in the shape writes take: a trip's JSON says more of its destination than a write sends.
        present = fields(peer)
        changed = {key: value for key, value in wanted.items() if present.get(key) != value}
        return record, (write(peer, changed, record) if changed else peer)

    def copy_trip(self, source, target, trip_id):
        def write(peer, fields, _):
            if peer is None:
                return target.json("POST", "/api/trips", fields)
            return target.json("PUT", f"/api/trips/{peer['id']}", {**trip_fields(peer), **fields})
        self.copy_record("trips", source, target, trip_id, lambda detail: detail["trip"], trip_fields, write)

    def copy_gallery(self, source, target, trip_id):
        """Makes the peer trip's gallery hold what changed in the source's since the two last
        agreed: photos added (a photo only the target has stays, unless both had it then: deleted
        on the source), captions changed, a new order."""
        peer = self.pairs.peer("trips", source.key, (trip_id, None))
        mine = peer and source.json("GET", f"/api/trips/{trip_id}/photos", missing_ok=True)
        theirs = mine and target.json("GET", f"/api/trips/{peer[0]}/photos", missing_ok=True)
        if not theirs:
            return
        key = str(trip_id if source.key == "a" else peer[0])
        agreed = self.agreed.get(key, {"captions": {}, "order": []})
        mine = {photo["photoVersion"]: photo for photo in mine["photos"]}
        theirs = {photo["photoVersion"]: photo for photo in theirs["photos"]}
        for version, photo in list(theirs.items()):
            if version in agreed["captions"] and version not in mine:
                target.json("DELETE", f"/api/photos/{photo['id']}", missing_ok=True)
                del theirs[version]
        for version, photo in mine.items():
            if version in theirs:
                continue
            status, original = source.request("GET", f"/api/photos/{photo['id']}/original", limit=MAX_PHOTO_BYTES)
            status, added = (status, None) if status != 200 else target.request(
                "POST", f"/api/trips/{peer[0]}/photos", original, "application/octet-stream")
            if status != 201:
                warn(f"{source.key}: photo {photo['id']} of trip {trip_id} not copied ({status})")
                continue
            theirs[version] = json.loads(added)
            theirs[version]["caption"] = None  # a new photo takes the source's caption below
        common = [version for version in sorted(mine, key=lambda v: mine[v]["position"]) if version in theirs]
        order = sorted(theirs, key=lambda version: (theirs[version]["position"], theirs[version]["id"]))
        reordered = common != [version for version in agreed["order"] if version in theirs and version in mine]
        for index, version in enumerate(common):
            change = {}
            caption = mine[version]["caption"]
            if caption != agreed["captions"].get(version) and caption != theirs[version]["caption"]:
                change["caption"] = caption
            if reordered and order.index(version) != index:
                change["position"] = index
                order.remove(version)
                order.insert(index, version)
            if change:
                target.json("PATCH", f"/api/photos/{theirs[version]['id']}", change, missing_ok=True)
        self.agreed[key] = {"captions": {version: mine[version]["caption"] for version in common},
                            "order": [version for version in order if version in mine]}

    def copy_activity(self, source, target, activity_id):
        def write(peer, fields, activity):
            if peer is not None:
                return target.json("PATCH", f"/api/activities/{peer['id']}", fields)
            trip_id = activity["tripID"]
            # A new activity's trip must have its peer first.
            trip_peer = self.pairs.peer("trips", source.key, (trip_id, None))
            if trip_peer is None:
                self.copy_trip(source, target, trip_id)
                trip_peer = self.pairs.peer("trips", source.key, (trip_id, None))
            return trip_peer and target.json("POST", f"/api/trips/{trip_peer[0]}/activities", fields, missing_ok=True)
        self.copy_record("activities", source, target, activity_id, lambda activity: activity,
                         lambda activity: {"name": activity["name"], "isComplete": activity["isComplete"]}, write)

    def copy(self, source, target, changed):
        # Trips first: a new activity's trip must have its peer before the activity is added.
        for kind, copy_one in (("trips", self.copy_trip), ("activities", self.copy_activity)):
            for record_id in changed[kind]:
                self.guarded(source, kind, record_id, lambda: copy_one(source, target, record_id))
        # Then the galleries of the trips changed (adding or deleting a photo changes its trip),
        # of the photos changed (a caption, a move), and when comparing everything, of every trip.
        galleries = {**changed["trips"], **changed.get("galleries", {})}
        for photo_id in changed.get("photos", {}):
            photo = self.guarded(source, "photos", photo_id, lambda: source.json("GET", f"/api/photos/{photo_id}", missing_ok=True))
            if photo and is_id(photo.get("tripID")):
                galleries[photo["tripID"]] = True
        for trip_id in galleries:
            self.guarded(source, "galleries", trip_id, lambda: self.copy_gallery(source, target, trip_id))

    @staticmethod
    def guarded(source, kind, record_id, work):
        """`work()`, or None with a message when what a side said is not what the API describes:
        the rest is copied, and the cursor moves past it (a later run does not stop here again)."""
        try:
            return work()
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            warn(f"{source.key}: skipped {kind} {record_id}, which is not what the API describes ({type(error).__name__}: {error})")
            return None

    def follow_history(self):
        """Copies each side's changes since its cursor to the other side."""
        for source, target in (("a", "b"), ("b", "a")):
            source, target = self.sides[source], self.sides[target]
            changed, cursor = source.history(self.state[source.key]["cursor"])
            self.copy(source, target, changed)
            self.state[source.key]["cursor"] = cursor

    def compare_everything(self):
        """Pairs equal records not yet paired, then makes B match A and copies what only B has.
        The cursors are taken first: what changes meanwhile is read again by the next pass."""
        cursors = {key: str(side.newest_token()) for key, side in self.sides.items()}
        a, b = self.sides["a"], self.sides["b"]
        details = {key: self.trip_details(side) for key, side in self.sides.items()}
        self.pair_by_name(details)
        self.copy(a, b, {"trips": details["a"], "galleries": details["a"], "activities": self.activity_ids(details["a"])})
        unpaired = {kind: {record_id: True for record_id in ids if self.pairs.peer(kind, "b", (record_id, None)) is None}
                    for kind, ids in (("trips", details["b"]), ("activities", self.activity_ids(details["b"])))}
        # B's trips that A lacks, and what only B's galleries hold.
        self.copy(b, a, {**unpaired, "galleries": details["b"]})
        for key, cursor in cursors.items():
            self.state[key] = {"cursor": cursor}

    @staticmethod
    def trip_details(side):
        """Each trip's `GET /api/trips/ID`, by id; one not as the API describes is skipped."""
        details = {}
        for trip in side.all_trips():
            detail = side.json("GET", f"/api/trips/{trip['id']}", missing_ok=True)
            if is_trip_detail(detail):
                details[trip["id"]] = detail
            elif detail is not None:
                warn(f"{side.key}: skipped trip {trip['id']}, which is not what the API describes")
        return details

    @staticmethod
    def activity_ids(details):
        return {activity["id"]: True for detail in details.values() for activity in detail["activities"]}

    def pair_by_name(self, details):
        """Pairs the trips not yet paired that have the same name and collection on both sides,
        then within each pair of trips the activities of the same name."""
        def pair_alike(kind, a_records, b_records, key):
            waiting = {}
            for record in a_records:
                if self.pairs.peer(kind, "a", (record["id"], None)) is None:
                    waiting.setdefault(key(record), []).append(record)
            for record in b_records:
                if self.pairs.peer(kind, "b", (record["id"], None)) is None and waiting.get(key(record)):
                    match = waiting[key(record)].pop(0)
                    self.pairs.pair(kind, "a", (match["id"], created(match)), (record["id"], created(record)))

        trip_key = lambda trip: (trip["name"], trip["collection"])
        pair_alike("trips", [d["trip"] for d in details["a"].values()], [d["trip"] for d in details["b"].values()], trip_key)
        for a_id, detail in details["a"].items():
            peer = self.pairs.peer("trips", "a", (a_id, None))
            if peer and peer[0] in details["b"]:
                pair_alike("activities", detail["activities"], details["b"][peer[0]]["activities"], lambda a: a["name"])

    def run(self):
        if "a" not in self.state or "b" not in self.state:
            self.compare_everything()
        try:
            self.follow_history()
        except CursorRefused as refusal:
            print(f"sync-client: {refusal}; comparing everything again", file=sys.stderr)
            self.compare_everything()
            self.follow_history()
        self.state.update(self.pairs.saved())


def main():
    parser = argparse.ArgumentParser(description="Mirror two Wishlists both ways (docs/SYNC.md).")
    parser.add_argument("--a", required=True, help="URL of side A (wins when both changed a record)")
    parser.add_argument("--b", required=True, help="URL of side B")
    parser.add_argument("--state", required=True, help="JSON file keeping the cursors and the id pairs")
    arguments = parser.parse_args()
    tokens = [os.environ.get(name) for name in ("WISHLIST_A_TOKEN", "WISHLIST_B_TOKEN")]
    if not all(tokens):
        parser.error("set WISHLIST_A_TOKEN and WISHLIST_B_TOKEN to an API token of each side")
    state = {}
    if os.path.exists(arguments.state):
        with open(arguments.state) as file:
            state = json.load(file)
    try:
        mirror = Mirror(Side("a", arguments.a, tokens[0]), Side("b", arguments.b, tokens[1]), state)
        mirror.run()
    except SyncError as error:
        # The state file is left as the last whole run wrote it.
        sys.exit(f"sync-client: {error}")
    # Written whole, then renamed: an interrupted run leaves the last state, and the next run
    # reads again what this one had done (equal records cost no write).
    temporary = arguments.state + ".partial"
    with open(temporary, "w") as file:
        json.dump(mirror.state, file, indent=1, sort_keys=True)
    os.replace(temporary, arguments.state)


if __name__ == "__main__":
    main()
