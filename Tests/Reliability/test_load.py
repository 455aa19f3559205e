"""Under load: 200 concurrent clients on loopback for a bounded time, mixing page views,
check-offs, new activities, photo uploads and live-update streams. No 5xx and no failed
request, no deadlock, memory flat afterwards, and every acknowledged write in the database."""

import json
import os
import random
import socket
import threading
import time

from conftest import Client, connect, database_problems, image_problems, rss_kilobytes

# Long enough that the second half, whose memory growth is bounded below, starts after the
# caches and thread stacks have warmed up (they do within the first few seconds).
SECONDS = float(os.environ.get("LOAD_SECONDS", 20))
WORKERS = 172          # page views, check-offs and new activities
UPLOADERS = 4          # photo uploads (each one costs a thumbnail)
STREAMS = 24           # live-update listeners
PAGES = ["/", "/goals", "/search?q=a", "/collections/summerVibes", "/api/trips", "/api/goals"]
# Memory may grow while caches and thread stacks warm up, not for ever: the second half of the
# run may add at most this much.
RSS_GROWTH_LIMIT_KB = 24 * 1024


class Outcome:
    def __init__(self):
        self.lock = threading.Lock()
        self.failures = []
        self.requests = 0

    def record(self, description, status, expected):
        with self.lock:
            self.requests += 1
            if status not in expected:
                self.failures.append(f"{description}: {status}")

    def fail(self, description):
        with self.lock:
            self.failures.append(description)


class Worker(threading.Thread):
    """Views pages and writes: checks its own activity on and off (so its final state is known)
    and adds activities to the shared trip, counting each one acknowledged."""

    def __init__(self, server, number, trip_id, activity_id, deadline, outcome):
        super().__init__(daemon=True)
        self.client = Client(server)
        self.number, self.trip_id, self.activity_id = number, trip_id, activity_id
        self.deadline, self.outcome = deadline, outcome
        self.complete = False
        self.added = 0

    def run(self):
        random.seed(self.number)
        try:
            while time.monotonic() < self.deadline:
                roll = random.random()
                if roll < 0.65:
                    path = random.choice(PAGES + [f"/trips/{self.trip_id}"])
                    self.outcome.record(f"GET {path}", self.client.get(path)[0], {200})
                elif roll < 0.9:
                    wanted = not self.complete
                    status = self.client.post_form(f"/activities/{self.activity_id}/complete",
                                                   {"complete": "true" if wanted else "false"})[0]
                    self.outcome.record("check-off", status, {303})
                    if status == 303:
                        self.complete = wanted
                        self.read_own_write()
                else:
                    status = self.client.post_form(f"/trips/{self.trip_id}/activities",
                                                   {"name": f"load {self.number}-{self.added}"})[0]
                    self.outcome.record("add activity", status, {303})
                    if status == 303:
                        self.added += 1
        except OSError as error:
            self.outcome.fail(f"worker {self.number}: {error!r}")
        finally:
            self.client.close()


    def read_own_write(self):
        """The next read shows the check-off just answered, however many writes run beside it:
        pages and API answers are kept until the next commit, never longer."""
        status, body = self.client.get(f"/api/trips/{self.trip_id}")
        self.outcome.record("read after check-off", status, {200})
        if status == 200:
            shown = {activity["id"]: activity["isComplete"] for activity in json.loads(body)["activities"]}
            if shown.get(self.activity_id) != self.complete:
                self.outcome.fail(f"worker {self.number}: the API showed activity {self.activity_id} as "
                                  f"{shown.get(self.activity_id)} right after setting it to {self.complete}")


class Uploader(threading.Thread):
    """Creates trips with a photo (a multipart upload)."""

    def __init__(self, server, number, photo, deadline, outcome):
        super().__init__(daemon=True)
        self.client = Client(server)
        self.number, self.photo, self.deadline, self.outcome = number, photo, deadline, outcome
        self.added = 0

    def run(self):
        try:
            while time.monotonic() < self.deadline:
                status = self.client.post_multipart(
                    "/trips", {"name": f"upload {self.number}-{self.added}", "collection": "springEscapes"},
                    {"photo": ("load.jpg", "image/jpeg", self.photo)})[0]
                self.outcome.record("upload", status, {303})
                if status == 303:
                    self.added += 1
        except OSError as error:
            self.outcome.fail(f"uploader {self.number}: {error!r}")
        finally:
            self.client.close()


class Listener(threading.Thread):
    """Holds one live-update stream open and counts the updates it receives."""

    def __init__(self, server, outcome):
        super().__init__(daemon=True)
        self.server, self.outcome = server, outcome
        self.updates = 0
        self.ready = False
        self.stop = threading.Event()

    def run(self):
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=1) as connection:
            connection.sendall(f"GET /events?topics=goals-achieved%20goals-upcoming HTTP/1.1\r\n"
                               f"Host: 127.0.0.1:{self.server.port}\r\nAccept: text/event-stream\r\n\r\n".encode())
            received = b""
            while not self.stop.is_set():
                try:
                    chunk = connection.recv(65536)
                except socket.timeout:
                    continue
                except OSError as error:
                    self.outcome.fail(f"event stream: {error!r}")
                    return
                if not chunk:
                    self.outcome.fail("event stream closed by the server during the run")
                    return
                received += chunk
                self.ready = b"event: ready" in received
                self.updates = received.count(b"event: ") - self.ready


def prepare(server, count):
    """A trip with one activity per worker, each worker checking only its own."""
    client = Client(server)
    assert client.post_form("/trips", {"name": "Load test", "collection": "summerVibes"})[0] == 303
    with connect(server.data_dir) as db:
        trip_id = db.execute("SELECT id FROM Trip WHERE name = 'Load test'").fetchone()[0]
    for index in range(count):
        assert client.post_form(f"/trips/{trip_id}/activities", {"name": f"own {index}"})[0] == 303
    with connect(server.data_dir) as db:
        activity_ids = [row[0] for row in db.execute("SELECT id FROM Activity WHERE trip_id = ? ORDER BY id", (trip_id,))]
    client.close()
    return trip_id, activity_ids


def test_200_clients_no_errors_no_deadlock_flat_memory(server, jpeg_factory):
    trip_id, activity_ids = prepare(server, WORKERS)
    outcome = Outcome()
    start = time.monotonic()
    deadline = start + SECONDS
    listeners = [Listener(server, outcome) for _ in range(STREAMS)]
    workers = [Worker(server, n, trip_id, activity_ids[n], deadline, outcome) for n in range(WORKERS)]
    uploaders = [Uploader(server, n, jpeg_factory(480, 360), deadline, outcome) for n in range(UPLOADERS)]
    for thread in listeners + workers + uploaders:
        thread.start()

    time.sleep(SECONDS / 2)
    rss_halfway = rss_kilobytes(server.process.pid)
    for thread in workers + uploaders:
        thread.join(timeout=SECONDS + 60)
        assert not thread.is_alive(), "a client is stuck: the server stopped answering"
    elapsed = time.monotonic() - start
    rss_after = rss_kilobytes(server.process.pid)
    for listener in listeners:
        listener.stop.set()
        listener.join(timeout=5)

    assert not outcome.failures, f"{len(outcome.failures)} failed requests, e.g. {outcome.failures[:5]}"
    print(f"{outcome.requests} requests in {elapsed:.1f} s ({outcome.requests / elapsed:.0f}/s); "
          f"RSS {rss_halfway // 1024} MB halfway, {rss_after // 1024} MB after")
    assert outcome.requests > SECONDS * 100, "too few requests to call this load"
    assert all(listener.ready for listener in listeners), "an event stream never opened"
    assert sum(listener.updates for listener in listeners) > 0, "no live update reached any stream"

    # No deadlock: the server still answers at once, and its memory did not keep growing.
    client = Client(server, timeout=5)
    assert client.get("/")[0] == 200
    client.close()
    assert rss_after - rss_halfway < RSS_GROWTH_LIMIT_KB, \
        f"RSS grew {(rss_after - rss_halfway) // 1024} MB in the second half of the run"

    # Every acknowledged write is there, and nothing else.
    with connect(server.data_dir) as db:
        added = db.execute("SELECT count(*) FROM Activity WHERE trip_id = ? AND name LIKE 'load %'", (trip_id,)).fetchone()[0]
        uploaded = db.execute("SELECT count(*) FROM Trip WHERE name LIKE 'upload %'").fetchone()[0]
        states = dict(db.execute("SELECT id, is_complete FROM Activity WHERE trip_id = ?", (trip_id,)))
    assert added == sum(worker.added for worker in workers)
    assert uploaded == sum(uploader.added for uploader in uploaders)
    for worker in workers:
        assert bool(states[worker.activity_id]) == worker.complete, f"activity {worker.activity_id} lost a check-off"
    server.stop()
    assert database_problems(server.data_dir) == []
    assert image_problems(server.data_dir) == []
