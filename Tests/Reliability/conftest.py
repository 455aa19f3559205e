"""Reliability fixtures: the real `wishlist serve` (the Browser tests' WishlistServer), an HTTP
client that behaves like a browser form (CSRF cookie + token), and checks of what is on disk."""

import importlib.util
import json
import os
import re
import sqlite3
import subprocess
import threading
import uuid
from contextlib import contextmanager
from http.client import HTTPConnection
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

# One server helper for every end-to-end suite: load the Browser suite's conftest under its own
# name (both files are called conftest.py, so a plain import would pick the wrong one).
_spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "Tests" / "Browser" / "conftest.py")
browser_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(browser_conftest)
WishlistServer = browser_conftest.WishlistServer

DATABASE_NAME = "wishlist.sqlite"
STORED_IMAGE_NAME = re.compile(r"^[0-9a-f]{64}\.(jpg|jpeg|png|webp|heic|gif)$")
COLLECTIONS = ("springEscapes", "summerVibes", "fallGetaways", "winterRetreats")


class Client:
    """One browser-like visitor: keeps a connection alive, carries the `csrf_token` cookie and
    sends the page's token with every form, as the app's own forms do. Not shared between threads."""

    def __init__(self, server, timeout=30):
        self.server = server
        self.timeout = timeout
        self.connection = None
        self.cookie = None
        self.token = None

    def _request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        headers["Host"] = f"127.0.0.1:{self.server.port}"
        if self.cookie:
            headers["Cookie"] = f"csrf_token={self.cookie}"
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = HTTPConnection("127.0.0.1", self.server.port, timeout=self.timeout)
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (ConnectionError, OSError):
                self.close()
                # A kept-alive connection the server closed while idle: retry once on a new one.
                # Never for a POST: it may have been applied, and repeating it would write twice.
                if attempt == 2 or method != "GET":
                    raise
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie" and value.startswith("csrf_token="):
                self.cookie = value.split(";")[0].split("=", 1)[1]
        return response.status, data, response

    def get(self, path):
        status, data, _ = self._request("GET", path)
        match = re.search(rb'<meta name="csrf-token" content="([0-9a-f]+)"', data)
        if match:
            self.token = match.group(1).decode()
        return status, data

    def ensure_token(self):
        if not (self.cookie and self.token):
            status, _ = self.get("/goals")
            assert status == 200 and self.cookie and self.token, "no CSRF token from /goals"

    def post_form(self, path, fields):
        """Posts a url-encoded form; returns (status, body, Location)."""
        from urllib.parse import urlencode
        self.ensure_token()
        body = urlencode({**fields, "_csrf": self.token}).encode()
        status, data, response = self._request("POST", path, body, {
            "Content-Type": "application/x-www-form-urlencoded", "Origin": self.server.url})
        return status, data, response.getheader("Location")

    def post_multipart(self, path, fields, files):
        """Posts multipart/form-data; `files` maps a field name to (file name, type, bytes), or
        is a list of (field name, (file name, type, bytes)) for several files in one field."""
        self.ensure_token()
        boundary = uuid.uuid4().hex
        parts = []
        for name, value in {**fields, "_csrf": self.token}.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
        for name, (file_name, content_type, content) in (files.items() if isinstance(files, dict) else files):
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{file_name}"\r\n'
                         f"Content-Type: {content_type}\r\n\r\n".encode() + content + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        status, data, response = self._request("POST", path, body, {
            "Content-Type": f"multipart/form-data; boundary={boundary}", "Origin": self.server.url})
        return status, data, response.getheader("Location")

    def post_raw(self, path, body, content_type):
        """Posts `body` as it is, with the page's CSRF token in its header (as the app's scripts do)."""
        self.ensure_token()
        status, data, _ = self._request("POST", path, body, {
            "Content-Type": content_type, "X-CSRF-Token": self.token, "Accept": "application/json", "Origin": self.server.url})
        return status, data

    def all_trip_names(self):
        """Every trip's name, through the app's JSON API, page by page."""
        names, offset = [], 0
        while True:
            status, body = self.get(f"/api/trips?limit=500&offset={offset}")
            assert status == 200, body[:300]
            page = json.loads(body)["trips"]
            names += [trip["name"] for trip in page]
            if len(page) < 500:
                return names
            offset += 500

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


seeded_folder = browser_conftest.seeded_folder  # a fixture: the seeded data folder, made once per run


@pytest.fixture
def server(data_dir, seeded_folder):
    server = WishlistServer(data_dir, template=seeded_folder)
    server.start()
    yield server
    server.stop()


def rss_kilobytes(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for process {pid}")


def make_jpeg(path, width, height):
    """A JPEG of random noise (every call differs, so every upload is a new stored file)."""
    subprocess.run(["vips", "gaussnoise", f"{path}[Q=85]", str(width), str(height)], check=True)
    return Path(path).read_bytes()


@pytest.fixture(scope="session")
def jpeg_factory(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    counter = iter(range(1_000_000))
    lock = threading.Lock()

    def make(width=640, height=480):
        with lock:
            number = next(counter)
        return make_jpeg(folder / f"photo-{number}.jpg", width, height)
    return make


@contextmanager
def connect(data_dir):
    """A connection to the data directory's database (beside a running server is fine: WAL)."""
    db = sqlite3.connect(data_dir / DATABASE_NAME, timeout=10)
    try:
        yield db
    finally:
        db.close()


def database_problems(data_dir):
    """Everything wrong with the database file: SQLite's own checks plus the app's invariants,
    which a half-applied write (a trip counted but not stored, a goal not moved) would break."""
    problems = []
    with connect(data_dir) as db:
        integrity = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if integrity != ["ok"]:
            problems.append(f"integrity_check: {integrity[:5]}")
        foreign = db.execute("PRAGMA foreign_key_check").fetchall()
        if foreign:
            problems.append(f"foreign_key_check: {foreign[:5]}")
        for table in ("TripSearch", "ActivitySearch"):
            try:
                db.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
            except sqlite3.DatabaseError as error:
                problems.append(f"{table} index: {error}")
        db.rollback()
        problems += [f"trip {row[0]} counters {row[1:3]} but activities say {row[3:5]}" for row in db.execute("""
            SELECT t.id, t.activity_count, t.completed_activity_count, count(a.id), coalesce(sum(a.is_complete), 0)
            FROM Trip t LEFT JOIN Activity a ON a.trip_id = t.id GROUP BY t.id
            HAVING t.activity_count <> count(a.id) OR t.completed_activity_count <> coalesce(sum(a.is_complete), 0)""")]
        problems += [f"goal {row[0]} counts {row[1]} but the data says {row[2]}" for row in db.execute("""
            SELECT badge, completed_count, CASE kind
                WHEN 'activities' THEN (SELECT count(*) FROM Activity WHERE is_complete)
                WHEN 'trips' THEN (SELECT count(*) FROM Trip WHERE is_complete)
                ELSE (SELECT count(*) FROM Trip WHERE is_complete AND Trip.collection = Goal.collection) END AS actual
            FROM Goal WHERE completed_count <> actual""")]
    return problems


def image_problems(data_dir):
    """Files in `<data-dir>/images` that should not be there (orphans, temporary or partial
    files) and rows whose file is missing or of the wrong size. No folder: nothing to check."""
    folder = data_dir / "images"
    if not folder.exists():
        return []
    problems = []
    with connect(data_dir) as db:
        rows = db.execute("SELECT file_name, byte_count, display_file_name FROM TripImage").fetchall()
    sizes = {name: size for name, size, _ in rows}
    referenced = set(sizes) | {rendition for _, _, rendition in rows if rendition}
    files = {entry.name: entry.stat().st_size for entry in os.scandir(folder) if entry.is_file()}
    for name in files:
        if not STORED_IMAGE_NAME.match(name):
            problems.append(f"temporary or foreign file left in images/: {name}")
        elif name not in referenced:
            problems.append(f"orphan image file: {name}")
    problems += [f"image row without its file: {name}" for name in referenced if name not in files]
    problems += [f"image {name} is {files[name]} bytes, its row says {size}"
                 for name, size in sizes.items() if name in files and files[name] != size]
    return problems
