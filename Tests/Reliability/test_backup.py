"""Backups: `wishlist backup PATH` copies a live wishlist while it is being written to. Each copy
passes every check, holds every change acknowledged before it began (and nothing never
acknowledged), has exactly the photo files its database refers to, and opens with the app."""

import subprocess
import time

from conftest import Client, WishlistServer, browser_conftest, database_problems, image_problems
from writers import prepare_writers

BACKUPS = 3


def trip_names(writers):
    return {name for writer in writers for name in writer.acknowledged_trips}


def test_backups_of_a_live_wishlist_are_consistent_and_restorable(server, jpeg_factory, tmp_path):
    writers = prepare_writers(server, jpeg_factory, "backup")
    for writer in writers:
        writer.start()
    backups = []
    try:
        for number in range(BACKUPS):
            time.sleep(0.4)
            before = trip_names(writers)
            folder = tmp_path / f"backup-{number}"
            result = subprocess.run([str(browser_conftest.BINARY), "backup", str(folder), "--data-dir", str(server.data_dir)],
                                    capture_output=True, text=True, timeout=60)
            assert result.returncode == 0, result.stderr
            backups.append((folder, before, trip_names(writers) | {w.in_flight[1] for w in writers if w.in_flight and w.in_flight[0] == "trip"}))
    finally:
        for writer in writers:
            writer.stopping.set()
        for writer in writers:
            writer.join(timeout=20)
    assert not [writer.refusals for writer in writers if writer.refusals]

    for folder, acknowledged_before, possible in backups:
        assert sorted(path.name for path in folder.iterdir()) in (["wishlist.sqlite"], ["images", "wishlist.sqlite"])
        assert database_problems(folder) == []
        assert image_problems(folder) == []
        # Restore = use the folder as a data directory: the app opens it and shows the trips.
        restored = WishlistServer(folder)
        restored.log = tmp_path / f"{folder.name}.log"
        restored.start()
        try:
            client = Client(restored)
            names = {name for name in client.all_trip_names() if name.startswith("backup writer")}
            assert client.get("/")[0] == 200
            client.close()
        finally:
            restored.stop()
        names -= {f"backup writer{n} home" for n in range(len(writers))}
        assert acknowledged_before <= names, f"acknowledged before the backup but not in it: {sorted(acknowledged_before - names)}"
        assert names <= possible, f"in the backup but never acknowledged: {sorted(names - possible)}"


def test_backup_refuses_an_existing_folder(server, tmp_path):
    folder = tmp_path / "exists"
    folder.mkdir()
    result = subprocess.run([str(browser_conftest.BINARY), "backup", str(folder), "--data-dir", str(server.data_dir)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0 and "already exists" in result.stderr
    assert list(folder.iterdir()) == []
