"""The data folder under hostile operations: a second `serve` on it, a port in use, the database
deleted under a running server, an import while serving. Each either refuses with words that say
why or answers a retryable 503; no acknowledged change is lost."""

import socket
import subprocess
import time

from conftest import Client, WishlistServer, browser_conftest, image_problems
from writers import prepare_writers

BINARY = str(browser_conftest.BINARY)


def serve(data_dir, port, timeout=20):
    return subprocess.run([BINARY, "serve", "--port", str(port), "--data-dir", str(data_dir),
                           "--resources", str(browser_conftest.ROOT)], capture_output=True, text=True, timeout=timeout)


def test_a_second_serve_on_the_same_folder_refuses_and_no_photo_is_lost(server, jpeg_factory):
    writers = prepare_writers(server, jpeg_factory, "second-serve")
    for writer in writers:
        writer.start()
    try:
        time.sleep(0.5)
        second = serve(server.data_dir, browser_conftest.free_port())
        time.sleep(0.5)
    finally:
        for writer in writers:
            writer.stopping.set()
        for writer in writers:
            writer.join(timeout=20)
    assert second.returncode != 0
    assert f"pid {server.process.pid} (wishlist serve)" in second.stderr, second.stderr
    assert not [writer.refusals for writer in writers if writer.refusals]
    assert sum(with_photo for writer in writers for with_photo in writer.acknowledged_trips.values()) > 0
    assert image_problems(server.data_dir) == []


def test_serve_on_a_port_in_use_leaves_no_data_folder(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = serve(tmp_path / "data", taken.getsockname()[1])
    assert result.returncode != 0 and "in use" in result.stderr, result.stderr
    assert not (tmp_path / "data").exists()


def test_deleting_the_database_stops_writes_with_the_restore_page(server):
    client = Client(server)
    assert client.post_form("/trips", {"name": "Before the deletion", "collection": "summerVibes"})[0] == 303
    (server.data_dir / "wishlist.sqlite").unlink()
    status, body, _ = client.post_form("/trips", {"name": "After the deletion", "collection": "summerVibes"})
    assert status == 503, body[:300]
    assert b"was deleted or moved while it was open" in body and b"wishlist restore" in body
    assert b'value="After the deletion"' in body
    client.close()
    server.stop()
    restart = serve(server.data_dir, browser_conftest.free_port())
    assert restart.returncode != 0 and "is missing" in restart.stderr, restart.stderr
    assert not (server.data_dir / "wishlist.sqlite").exists()


def test_a_write_during_an_import_gets_503_and_loses_nothing(server, tmp_path):
    # 10,000 trips (110,000 rows) keep the import's one transaction open for seconds, and a
    # refused write waits 1 s for the lock: several writes meet it, on a machine twice as fast too.
    archive = tmp_path / "large.json"
    subprocess.run([BINARY, "generate-sample", str(archive), "--trips", "10000"], check=True, capture_output=True)
    client = Client(server)
    client.ensure_token()
    importer = subprocess.Popen([BINARY, "import", str(archive), "--data-dir", str(server.data_dir), "--replace"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    refused, statuses = [], []
    try:
        number = 0
        while importer.poll() is None:
            number += 1
            name = f"During the import {number}"
            status, body, _ = client.post_form("/trips", {"name": name, "collection": "fallGetaways"})
            statuses.append(status)
            if status == 503:
                assert f'value="{name}"'.encode() in body and b"busy importing" in body
                refused.append(name)
    finally:
        _, errors = importer.communicate(timeout=300)
    assert importer.returncode == 0, errors
    assert set(statuses) <= {303, 503}, statuses
    assert refused, "no write met the import's lock"
    # Told "not saved", the person sends it again: now it is saved.
    for name in refused:
        assert client.post_form("/trips", {"name": name, "collection": "fallGetaways"})[0] == 303
    assert set(refused) <= set(client.all_trip_names())
    client.close()
