"""Disk full: the data directory on a small filesystem of its own, filled to the last byte.
Writes and photo uploads fail with a clear "disk is full" page, reads keep working, nothing is
corrupted, and writes work again once space returns."""

import errno
import json
import subprocess

import pytest

from conftest import Client, WishlistServer, connect, database_problems, image_problems

FILESYSTEM_MEGABYTES = 24


def mount_small_filesystem(mount_point, image):
    """A tmpfs with a size limit, or else a loop-mounted ext4 image. Returns how, or raises
    pytest.skip with the reason when this machine allows neither (not root, no loop devices)."""
    mount_point.mkdir()
    tmpfs = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={FILESYSTEM_MEGABYTES}m", "tmpfs", str(mount_point)],
                           capture_output=True, text=True)
    if tmpfs.returncode == 0:
        return "tmpfs"
    subprocess.run(["truncate", "-s", f"{FILESYSTEM_MEGABYTES}M", str(image)], check=True)
    make = subprocess.run(["mkfs.ext4", "-q", "-F", str(image)], capture_output=True, text=True)
    loop = subprocess.run(["mount", "-o", "loop", str(image), str(mount_point)], capture_output=True, text=True)
    if make.returncode == 0 and loop.returncode == 0:
        return "ext4 image"
    pytest.skip(f"cannot mount a small filesystem here: tmpfs: {tmpfs.stderr.strip()}; "
                f"loop ext4: {(make.stderr + loop.stderr).strip()}")


@pytest.fixture
def small_disk(tmp_path):
    mount_point = tmp_path / "small-disk"
    mount_small_filesystem(mount_point, tmp_path / "small-disk.img")
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=True)


def fill(directory):
    """Writes a filler file until the filesystem refuses another byte."""
    filler = directory / "filler"
    with open(filler, "wb", buffering=0) as file:
        for size in (1 << 20, 1 << 12, 1):
            try:
                while True:
                    file.write(b"\0" * size)
            except OSError as error:
                assert error.errno == errno.ENOSPC, error
    return filler


def test_full_disk_refuses_writes_clearly_and_recovers(small_disk, tmp_path, jpeg_factory):
    server = WishlistServer(small_disk / "data")
    server.log = tmp_path / "server.log"  # off the small disk, so it stays readable
    server.start()
    try:
        client = Client(server)
        trip_path = f"/trips/{json.loads(client.get('/api/trips?limit=1')[1])['trips'][0]['id']}"
        acknowledged = []
        filler = fill(small_disk)

        # Small changes may still fit in pages SQLite already owns: keep writing until the
        # disk refuses, which must happen soon and must be a clear 507 page, not a 500.
        for attempt in range(2000):
            name = f"written while full {attempt} " + "x" * 150
            status, body, _ = client.post_form(f"{trip_path}/activities", {"name": name})
            if status != 303:
                break
            acknowledged.append(name)
        assert status == 507, f"a write on a full disk answered {status}: {body[:300]!r}"
        assert b"The disk is full" in body and b"not saved" in body, body[:500]

        # Reads keep working while the disk is full.
        for path in ("/", "/goals", "/search?q=x", trip_path, "/api/trips"):
            assert client.get(path)[0] == 200, f"GET {path} failed while the disk is full"

        # A photo upload fails as clearly, and leaves no partial file (checked at the end).
        status, body, _ = client.post_multipart("/trips", {"name": "Photo while full", "collection": "fallGetaways"},
                                                {"photo": ("full.jpg", "image/jpeg", jpeg_factory(800, 600))})
        assert status == 507, f"an upload on a full disk answered {status}: {body[:300]!r}"
        assert b"The disk is full" in body
        with connect(server.data_dir) as db:
            stored = [name for (name,) in db.execute("SELECT name FROM Activity WHERE name LIKE 'written while full %'")]
            photo_trips = db.execute("SELECT count(*) FROM Trip WHERE name = 'Photo while full'").fetchone()[0]
        assert sorted(stored) == sorted(acknowledged), "the refused write left something behind"
        assert photo_trips == 0
        assert database_problems(server.data_dir) == []

        # Space returns: writes work again, without a restart.
        filler.unlink()
        status, _, _ = client.post_form(f"{trip_path}/activities", {"name": "written after space returned"})
        assert status == 303
        with connect(server.data_dir) as db:
            assert db.execute("SELECT count(*) FROM Activity WHERE name = 'written after space returned'").fetchone()[0] == 1
        client.close()
    finally:
        server.stop()
    assert database_problems(server.data_dir) == []
    assert image_problems(server.data_dir) == []


def test_full_disk_bulk_upload_names_each_file_and_every_write_is_507(small_disk, tmp_path, jpeg_factory):
    """A bulk upload (the form without its script) that fills the disk names each file as stored
    or not, and what it stored is exactly what the page says; the system's own disk-full errors
    (Download Archive's document, a photo sent as the raw body) are 507 too, never 500."""
    server = WishlistServer(small_disk / "data")
    server.log = tmp_path / "server.log"
    server.start()
    try:
        client = Client(server)
        trip_id = json.loads(client.get('/api/trips?limit=1')[1])['trips'][0]['id']
        photos_before = len(json.loads(client.get(f"/api/trips/{trip_id}/photos")[1])["photos"])
        files = [(f"bulk-{number}.jpg", jpeg_factory(1200, 900)) for number in range(8)]
        body_bytes = sum(len(content) for _, content in files)

        # Room for the upload to be received and a few of its photos stored, not all of them.
        filler = fill(small_disk)
        with open(filler, "r+b") as file:
            file.truncate(max(0, filler.stat().st_size - body_bytes - 3 * body_bytes // len(files)))
        status, body, _ = client.post_multipart(f"/trips/{trip_id}/photos", {},
                                                [("photos", (name, "image/jpeg", content)) for name, content in files])
        assert status == 507, f"a bulk upload that filled the disk answered {status}: {body[:300]!r}"
        page = body.decode()
        stored = [name for name, _ in files if f"<strong>{name}</strong>: Stored." in page]
        not_stored = [name for name, _ in files if f"<strong>{name}</strong>: Not stored: the disk is full" in page]
        assert sorted(stored + not_stored) == sorted(name for name, _ in files), page[:2000]
        assert stored and not_stored, f"expected some stored and some not: {stored} / {not_stored}"
        photos_after = len(json.loads(client.get(f"/api/trips/{trip_id}/photos")[1])["photos"])
        assert photos_after - photos_before == len(stored), "the page must name exactly what was stored"

        fill(small_disk)
        status, body, _ = client.post_form("/data/export", {})
        assert status == 507, f"Download Archive on a full disk answered {status}: {body[:300]!r}"
        assert b"The disk is full" in body
        status, body = client.post_raw(f"/api/trips/{trip_id}/photos", jpeg_factory(800, 600), "image/jpeg")
        assert status == 507, f"a raw-body photo on a full disk answered {status}: {body[:300]!r}"
        assert b"The disk is full" in body
        client.close()
    finally:
        server.stop()
    assert database_problems(server.data_dir) == []
    assert image_problems(server.data_dir) == []
