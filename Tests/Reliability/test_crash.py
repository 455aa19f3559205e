"""Crash safety: kill the server (SIGKILL, then SIGTERM) in the middle of a stream of writes and
uploads, restart it, and prove that every acknowledged change is there, nothing else is half
there, the database is intact and no orphan or partial image file survives the restart."""

import signal
import time

from conftest import Client, connect, database_problems, image_problems
from writers import prepare_writers


def plant_leftovers(data_dir):
    """What a crash mid-write leaves behind: a partial photo, a complete one whose row was never
    committed, an API upload, a multipart upload, an import's and an export's staging folders (and
    what older versions left). The restart's sweeps must remove them all."""
    folder = data_dir / "images"
    if not folder.exists():
        return []
    planted = [folder / ".partial-planted-by-test", folder / ("ab" * 32 + ".jpg"), folder / ".api-upload-planted",
               data_dir / ".uploads" / "planted", data_dir / ".import-planted" / "photos" / ("cd" * 32 + ".jpg"),
               data_dir / ".export-planted" / "wishlist.json", data_dir / ".downloads" / "planted.zip"]
    for path in planted:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"\xff\xd8\xff\xe0 not a whole image")
    return planted


def verify_after_restart(server, writers):
    # The restarted app itself shows every acknowledged trip (WAL recovered on open).
    client = Client(server)
    shown = set(client.all_trip_names())
    client.close()
    for writer in writers:
        lost = set(writer.acknowledged_trips) - shown
        assert not lost, f"acknowledged trips missing from the restarted app: {sorted(lost)}"

    with connect(server.data_dir) as db:
        trips = {name: image_id for name, image_id in db.execute("SELECT name, image_id FROM Trip WHERE subtitle = 'crash test'")}
        activities = [name for (name,) in db.execute("SELECT name FROM Activity")]
        photos_stored = any(image_id is not None for image_id in trips.values())
        for writer in writers:
            unknown = writer.in_flight or ()
            expected_trips = set(writer.acknowledged_trips)
            mine = {name for name in trips if name.startswith(f"{writer.prefix} ")}
            extra = mine - expected_trips - ({unknown[1]} if unknown[:1] == ("trip",) else set())
            assert expected_trips <= mine, f"acknowledged trips lost: {sorted(expected_trips - mine)}"
            assert not extra, f"trips never acknowledged: {sorted(extra)}"
            if photos_stored:
                lost = [name for name, had_photo in writer.acknowledged_trips.items() if had_photo and trips[name] is None]
                assert not lost, f"acknowledged photos lost: {lost}"

            mine = [name for name in activities if name.startswith(f"{writer.prefix} activity ")]
            assert len(mine) == len(set(mine)), "an activity was stored twice"
            missing = set(writer.acknowledged_activities) - set(mine)
            extra = set(mine) - set(writer.acknowledged_activities) - ({unknown[1]} if unknown[:1] == ("activity",) else set())
            assert not missing, f"acknowledged activities lost: {sorted(missing)}"
            assert not extra, f"activities never acknowledged: {sorted(extra)}"

            for activity_id, complete in writer.completion.items():
                (stored,) = db.execute("SELECT is_complete FROM Activity WHERE id = ?", (activity_id,)).fetchone()
                allowed = {complete} | ({unknown[2]} if unknown[:2] == ("complete", activity_id) else set())
                assert bool(stored) in allowed, f"activity {activity_id} is {bool(stored)}, acknowledged {complete}"


def stream_and_stop(server, jpeg_factory, stop, seconds, round_name):
    writers = prepare_writers(server, jpeg_factory, round_name)
    for writer in writers:
        writer.start()
    time.sleep(seconds)
    stop()
    for writer in writers:
        writer.join(timeout=20)
        assert not writer.is_alive(), "a writer is stuck after the server stopped"
        assert not writer.refusals, f"the server refused a valid write: {writer.refusals}"
    assert sum(len(w.acknowledged_trips) + len(w.acknowledged_activities) for w in writers) > 20, \
        "too few writes were acknowledged to prove anything"
    return writers


def kill(server):
    server.process.send_signal(signal.SIGKILL)
    server.process.wait(timeout=10)


def test_sigkill_mid_stream_loses_nothing_acknowledged(server, jpeg_factory):
    # Three rounds on the same data, killed at different moments of the stream.
    for round_number, seconds in enumerate((0.7, 1.3, 2.1)):
        writers = stream_and_stop(server, jpeg_factory, lambda: kill(server), seconds, f"round{round_number}")
        planted = plant_leftovers(server.data_dir)
        server.start()
        verify_after_restart(server, writers)
        # The sweep runs in the background right after start.
        deadline = time.monotonic() + 10
        while any(path.exists() for path in planted) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [path.name for path in planted if path.exists()], "the startup sweep left planted files"
        server.stop()
        assert database_problems(server.data_dir) == []
        assert image_problems(server.data_dir) == []
        server.start()


def test_sigterm_mid_stream_is_graceful(server, jpeg_factory):
    def terminate():
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=15) == 0, "SIGTERM did not end the server cleanly"
    writers = stream_and_stop(server, jpeg_factory, terminate, 2.0, "sigterm")
    server.start()
    verify_after_restart(server, writers)
    server.stop()
    assert database_problems(server.data_dir) == []
    assert image_problems(server.data_dir) == []
