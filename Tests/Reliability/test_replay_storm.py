"""A write kept offline and sent again and again (several tabs, a flaky network): the same
Idempotency-Key sent 100 times at once over 100 connections commits once. Each gets the first's
answer, or, arriving while the first was being written, 409 "try again" at once (holding no write
slot); sent again, those get the first's answer too."""

import json
import uuid
from concurrent.futures import ThreadPoolExecutor

from conftest import Client

SENDS = 100


def test_one_write_sent_a_hundred_times_at_once_commits_once_with_one_answer(server):
    first = Client(server)
    first.ensure_token()
    status, body = first.get("/api/history?limit=1")
    before = json.loads(body)["newestToken"]
    status, body = first.get("/api/trips/1")
    activity = next(a for a in json.loads(body)["activities"] if not a["isComplete"])
    key = uuid.uuid4().hex

    def send(_):
        client = Client(server)
        client.cookie, client.token = first.cookie, first.token
        status, data, response = client._request("POST", f"/activities/{activity['id']}/complete",
            f"complete=true&_csrf={client.token}".encode(),
            {"Content-Type": "application/x-www-form-urlencoded", "Origin": server.url, "Idempotency-Key": key})
        client.close()
        return status, response.getheader("Location"), data

    with ThreadPoolExecutor(SENDS) as pool:
        answers = list(pool.map(send, range(SENDS)))
    written = {answer for answer in answers if answer[0] != 409}
    assert len(written) == 1, {(status, location) for status, location, _ in answers}
    assert next(iter(written))[0] == 303
    # The 409s, sent again now that the first is written, get its answer.
    assert {send(n) for n, answer in enumerate(answers) if answer[0] == 409} <= written
    status, body = first.get(f"/api/history?after={before}")
    transactions = json.loads(body)["transactions"]
    assert [[c for c in t["changes"] if c["entity"] == "Activity"] for t in transactions] == \
        [[{"entity": "Activity", "id": activity["id"], "kind": "update"}]]
