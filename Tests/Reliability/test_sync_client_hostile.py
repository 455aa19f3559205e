"""The example sync client (scripts/sync-client.py) against peers that misbehave: a history that
never moves, an answer of 400 MB, a redirect to another origin, records that are not what the API
describes. Each run ends in bounded time and memory, sends no token to another origin, and
skips what is malformed with a message instead of stopping there for good."""

import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

import pytest

from conftest import ROOT

CLIENT = ROOT / "scripts" / "sync-client.py"
EMPTY_HISTORY = {"transactions": [], "cursor": "1", "hasMore": False, "newestToken": 1, "latestToken": 1}


class Peer:
    """A fake Wishlist API on its own port: `routes` maps a path (without the query) to a
    function of the handler returning (status, headers, body: bytes or an iterable of them).
    Every request's path and Authorization header is recorded."""

    def __init__(self, routes):
        self.routes = {"/api/token": lambda _: json_answer({"author": "token:sync"}),
                       "/api/trips": lambda _: json_answer({"trips": []}),
                       "/api/history": lambda _: json_answer(EMPTY_HISTORY), **routes}
        self.requests = []
        peer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def handle_one(self):
                peer.requests.append((self.command, self.path, self.headers.get("Authorization")))
                route = peer.routes.get(urlparse(self.path).path)
                status, headers, body = route(self) if route else json_answer({"error": {"status": 404}}, 404)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                try:
                    for chunk in [body] if isinstance(body, bytes) else body:
                        self.wfile.write(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_one

            def log_message(self, *arguments):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def json_answer(value, status=200):
    body = json.dumps(value).encode()
    return status, {"Content-Type": "application/json", "Content-Length": str(len(body))}, body


@pytest.fixture
def peers():
    started = []

    def start(routes=None):
        peer = Peer(routes or {})
        started.append(peer)
        return peer

    yield start
    for peer in started:
        peer.stop()


# Runs the client as `python sync-client.py …` would, and says its own peak RSS (KB) at exit:
# VmHWM, not ru_maxrss, which on Linux keeps the peak of the forking parent (pytest) across exec.
MEASURED = ("import atexit, runpy, sys; "
            "atexit.register(lambda: print('peak-rss', next(line.split()[1] for line in open('/proc/self/status') "
            "if line.startswith('VmHWM:')), file=sys.stderr)); "
            "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def run_client(a, b, tmp_path, timeout=30):
    """Runs one pass; returns the process, its seconds and its peak RSS in MB."""
    environment = {**os.environ, "WISHLIST_A_TOKEN": "wlt_secret_a", "WISHLIST_B_TOKEN": "wlt_secret_b"}
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-c", MEASURED, str(CLIENT), "--a", a.url, "--b", b.url,
                             "--state", str(tmp_path / "state.json")],
                            env=environment, capture_output=True, text=True, timeout=timeout)
    peak = int(result.stderr.rsplit("peak-rss", 1)[1].split()[0]) // 1024
    return result, time.monotonic() - start, peak


def test_a_history_that_never_moves_ends_the_pass(peers, tmp_path):
    stuck = peers({"/api/history": lambda _: json_answer({**EMPTY_HISTORY, "cursor": "0", "hasMore": True})})
    result, seconds, _ = run_client(stuck, peers(), tmp_path)
    assert result.returncode != 0 and seconds < 10
    assert "does not move past it" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_an_answer_of_400_mb_is_refused_unread(peers, tmp_path):
    def huge(_):
        chunk = b"[" + b" " * (1 << 20)
        return 200, {"Content-Type": "application/json"}, (chunk for _ in range(400))

    result, seconds, peak = run_client(peers({"/api/trips": huge}), peers(), tmp_path)
    assert result.returncode != 0 and seconds < 20
    assert "more than the 16 MB an answer may have" in result.stderr, result.stderr
    assert peak < 200, f"the client grew to {peak} MB"


def test_a_redirect_to_another_origin_gets_no_token(peers, tmp_path):
    elsewhere = peers({"/api/token": lambda _: json_answer({"author": "token:thief"})})
    redirecting = peers({"/api/token": lambda _: (302, {"Location": elsewhere.url + "/api/token", "Content-Length": "0"}, b"")})
    result, _, _ = run_client(redirecting, peers(), tmp_path)
    assert result.returncode != 0 and "not followed" in result.stderr, result.stderr
    assert elsewhere.requests == [], "the client went to the other origin"


def test_malformed_records_are_skipped_with_a_message_and_the_rest_copied(peers, tmp_path):
    trip = {"id": 7, "name": "Kept", "collection": "springEscapes", "creationDate": "2026-01-01T00:00:00Z"}
    history = {**EMPTY_HISTORY, "transactions": [{"token": 1, "author": "app", "changes": [
        {"entity": "Trip", "id": "seven", "kind": "insert"}, {"entity": "Trip", "id": 8, "kind": "insert"},
        {"entity": "Trip", "id": 7, "kind": "insert"}]}]}
    source = peers({
        "/api/history": lambda handler: json_answer(history if "after" in handler.path else EMPTY_HISTORY),
        "/api/trips/7": lambda _: json_answer({"trip": trip, "activities": []}),
        "/api/trips/8": lambda _: json_answer({"trip": {"id": 8}, "activities": []}),
    })
    written = []

    def create(handler):
        written.append(json.loads(handler.rfile.read(int(handler.headers["Content-Length"]))))
        return json_answer({**written[-1], "id": 1, "creationDate": "2026-02-01T00:00:00Z"}, 201)

    target = peers({"/api/trips": lambda handler: create(handler) if handler.command == "POST" else json_answer({"trips": []})})
    (tmp_path / "state.json").write_text(json.dumps({"a": {"cursor": "0"}, "b": {"cursor": "1"}}))
    result, _, _ = run_client(source, target, tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "skipped a change that names no trip, activity or photo" in result.stderr
    assert "skipped trips 8" in result.stderr
    assert [trip["name"] for trip in written] == ["Kept"]
    # The cursor moved past them: the next run does not stop at the same records.
    assert json.loads((tmp_path / "state.json").read_text())["a"]["cursor"] == "1"
