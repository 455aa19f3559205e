"""Visitors that write as fast as the server answers and remember what it acknowledged."""

import random
import threading

from conftest import COLLECTIONS, Client, connect

WRITERS = 4
ACTIVITIES_PER_WRITER = 4


class WriteStream(threading.Thread):
    """One visitor writing as fast as the server answers: new trips (every third with a photo),
    activities on its own trip and check-offs of them, until the server goes away or `stopping`
    is set. Records each change the server acknowledged (303) and the one in flight when the
    server died (it may or may not be there)."""

    def __init__(self, server, prefix, trip_id, activity_ids, jpeg_factory):
        super().__init__(daemon=True)
        self.client = Client(server, timeout=10)
        self.prefix = prefix
        self.trip_id = trip_id
        self.completion = {activity_id: False for activity_id in activity_ids}
        self.photos = [jpeg_factory(1200, 900) for _ in range(2)]
        self.acknowledged_trips = {}  # name -> had a photo
        self.acknowledged_activities = []
        self.in_flight = None
        self.refusals = []
        self.stopping = threading.Event()

    def run(self):
        step = 0
        while not self.stopping.is_set():
            step += 1
            name = f"{self.prefix} trip {step}"
            with_photo = step % 3 == 0
            activity_id = list(self.completion)[step % len(self.completion)]
            operations = [
                (("trip", name, with_photo), lambda: self.add_trip(name, with_photo)),
                (("activity", f"{self.prefix} activity {step}"),
                 lambda: self.client.post_form(f"/trips/{self.trip_id}/activities",
                                               {"name": f"{self.prefix} activity {step}"})),
                (("complete", activity_id, not self.completion[activity_id]),
                 lambda: self.client.post_form(f"/activities/{activity_id}/complete",
                                               {"complete": "true" if not self.completion[activity_id] else "false"})),
            ]
            for change, send in operations:
                if self.stopping.is_set():
                    break
                self.in_flight = change
                try:
                    status, body, _ = send()
                except OSError:
                    return  # the server is gone; `in_flight` is the one change not known
                if status != 303:
                    self.refusals.append((change, status, body[:200]))
                    return
                self.acknowledge(change)
                self.in_flight = None

    def add_trip(self, name, with_photo):
        fields = {"name": name, "collection": random.choice(COLLECTIONS), "subtitle": "crash test"}
        if not with_photo:
            return self.client.post_form("/trips", fields)
        photo = random.choice(self.photos)
        return self.client.post_multipart("/trips", fields, {"photo": ("photo.jpg", "image/jpeg", photo)})

    def acknowledge(self, change):
        kind = change[0]
        if kind == "trip":
            self.acknowledged_trips[change[1]] = change[2]
        elif kind == "activity":
            self.acknowledged_activities.append(change[1])
        else:
            self.completion[change[1]] = change[2]


def prepare_writers(server, jpeg_factory, round_name):
    """Each writer gets a trip of its own with a few activities to check off, and a name prefix
    that tells its changes from everyone else's."""
    client = Client(server)
    writers = []
    for number in range(WRITERS):
        prefix = f"{round_name} writer{number}"
        home = f"{prefix} home"
        assert client.post_form("/trips", {"name": home, "collection": "summerVibes"})[0] == 303
        with connect(server.data_dir) as db:
            trip_id = db.execute("SELECT id FROM Trip WHERE name = ?", (home,)).fetchone()[0]
        for index in range(ACTIVITIES_PER_WRITER):
            assert client.post_form(f"/trips/{trip_id}/activities", {"name": f"{home} task {index}"})[0] == 303
        with connect(server.data_dir) as db:
            activity_ids = [row[0] for row in db.execute("SELECT id FROM Activity WHERE trip_id = ? ORDER BY id", (trip_id,))]
        writers.append(WriteStream(server, prefix, trip_id, activity_ids, jpeg_factory))
    client.close()
    return writers
