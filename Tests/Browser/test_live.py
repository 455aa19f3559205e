"""Live updates across windows: server-sent events swap fragments without a reload; the
history feed's documented example keeps a mirror in step."""

import contextlib
import json
import re
import subprocess
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import BINARY, ROOT, wait_until
from test_screens import activity_names, carousel_names, check, open_trip, remaining_text
from test_security import PASSWORD, protected_server, sign_in  # noqa: F401 (a fixture)


def mark_page(driver):
    """A marker that a reload would wipe: proves updates arrive in place."""
    driver.execute_script("window.__notReloaded = true")


def not_reloaded(driver):
    return driver.execute_script("return window.__notReloaded === true")


def achieved_names(driver):
    return [el.text for el in driver.find_elements(By.CSS_SELECTOR, "#goals-achieved h3")]


def live_connected(driver):
    wait_until(driver, lambda d: d.execute_script(
        "return !!document.body.dataset.liveTopics && document.getElementById('live-status').hidden"))


def test_badge_moves_to_achieved_in_another_window(server, browser, second_browser):
    goals, editor = browser, second_browser
    goals.get(server.url + "/goals")
    live_connected(goals)
    mark_page(goals)
    assert "10 Activities" not in achieved_names(goals)

    open_trip(editor, server, "Surf Steamer Lane")
    check(editor, "Surf at Pleasure Point")  # the 10th completed activity

    wait_until(goals, lambda d: "10 Activities" in achieved_names(d))
    assert not goals.find_elements(By.XPATH, "//li[@class='goal'][h3='10 Activities']")
    new_tile = goals.find_element(By.XPATH, "//li[contains(@class,'achieved-tile')][.//h3='10 Activities']")
    assert "is-new" in new_tile.get_attribute("class")
    assert not_reloaded(goals)


def test_new_trip_appears_in_other_windows_carousel(server, browser, second_browser):
    watcher, editor = browser, second_browser
    watcher.get(server.url + "/")
    live_connected(watcher)
    mark_page(watcher)
    editor.get(server.url + "/trips/new")
    editor.find_element(By.NAME, "name").send_keys("Patagonia Winds")
    Select(editor.find_element(By.NAME, "collection")).select_by_visible_text("Winter Retreats")
    editor.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
    wait_until(watcher, lambda d: carousel_names(d)[:1] == ["Patagonia Winds"])
    wait_until(watcher, lambda d: "Patagonia Winds" in d.find_element(By.ID, "collection-winterRetreats").text)
    assert not_reloaded(watcher)


def test_trip_page_in_two_windows_stays_in_step(server, browser, second_browser):
    first, second = browser, second_browser
    open_trip(first, server, "Hunting Auroras")
    open_trip(second, server, "Hunting Auroras")
    live_connected(second)
    mark_page(second)
    keyboard_place = "Walk behind the Seljalandsfoss waterfall"
    second.find_element(By.CSS_SELECTOR, f"button.check[aria-label='{keyboard_place}']").send_keys("")  # focuses it
    check(first, "Take a tour to hunt the lights!")
    wait_until(second, lambda d: remaining_text(d) == "2 remaining activities")
    assert second.switch_to.active_element.get_attribute("aria-label") == keyboard_place
    wait_until(second, lambda d: "33%" in d.find_element(By.CSS_SELECTOR, ".hero-progress-value").text)
    Select(first.find_element(By.ID, "activity-sort")).select_by_visible_text("Completed")
    wait_until(second, lambda d: activity_names(d)[0] == "Take a tour to hunt the lights!")
    assert not_reloaded(second)


def wishlist_command(server, *arguments):
    subprocess.run([str(BINARY), *map(str, arguments), "--data-dir", str(server.data_dir)], check=True,
                   capture_output=True)


def test_a_dropped_stream_says_reconnecting_and_catches_up_when_it_returns(server, browser, tmp_path):
    browser.get(server.url + "/goals")
    live_connected(browser)
    mark_page(browser)
    # While the server is down, `wishlist import` completes the 10th activity.
    archive = tmp_path / "wishlist.json"
    wishlist_command(server, "export", archive)
    data = json.loads(archive.read_text())
    tenth = [a for trip in data["trips"] for a in trip["activities"] if a["name"] == "Surf at Pleasure Point"]
    assert [a.get("isComplete", False) for a in tenth] == [False]
    tenth[0]["isComplete"] = True
    archive.write_text(json.dumps(data))

    server.stop()
    wait_until(browser, lambda d: d.find_element(By.ID, "live-status").is_displayed())
    assert browser.find_element(By.ID, "live-status").text == "Reconnecting…"
    wishlist_command(server, "import", archive, "--replace")
    server.start()

    wait_until(browser, lambda d: "10 Activities" in achieved_names(d), timeout=10)
    wait_until(browser, lambda d: not d.find_element(By.ID, "live-status").is_displayed())
    assert not_reloaded(browser)


@contextlib.contextmanager
def refusing_streams(port):
    """Answers 401 on `port`, as a server does to a stream without a session; yields an Event set
    once a stream was refused."""
    refused = threading.Event()

    class Refuse(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(401)
            self.send_header("Content-Length", "0")
            self.end_headers()
            if self.path.startswith("/events"):
                refused.set()

        def log_message(self, *arguments):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Refuse)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield refused
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("stream", ["shared", "own"])
def test_live_updates_come_back_after_the_session_ends_and_a_sign_in(protected_server, browser, stream):
    server = protected_server
    if stream == "own":
        # As in a browser without SharedWorker (Chrome on Android): the tab holds its own stream.
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.SharedWorker"})
    browser.get(server.url + "/")
    sign_in(browser, PASSWORD)
    wait_until(browser, lambda d: d.current_url == server.url + "/")
    live_connected(browser)
    assert browser.execute_script("return 'SharedWorker' in window") == (stream == "shared")
    watcher = browser.current_window_handle
    mark_page(browser)
    # A restart with a password ends every session: the stream is refused (401) from then on.
    # While the server is down, what answers on its port refuses the stream as it would, so the
    # refusal surely comes before the sign-in below.
    server.stop()
    wait_until(browser, lambda d: d.find_element(By.ID, "live-status").is_displayed())
    with refusing_streams(server.port) as refused:
        assert refused.wait(timeout=30), "the browser tried the stream again"
    token = subprocess.run([str(BINARY), "token", "create", "editor", "--data-dir", str(server.data_dir)],
                           capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    server.start()

    # Signed in again in another window (this one stays shown), on a page of the same topics (the
    # shared stream's).
    browser.switch_to.new_window("window")
    browser.get(server.url + "/")
    sign_in(browser, PASSWORD)
    wait_until(browser, lambda d: d.current_url == server.url + "/")
    live_connected(browser)
    browser.switch_to.window(watcher)
    # A stream of its own is tried again after a wait that doubles: seconds by now.
    wait_until(browser, lambda d: not d.find_element(By.ID, "live-status").is_displayed(), timeout=40)
    request = urllib.request.Request(server.url + "/api/trips", method="POST",
                                     data=json.dumps({"name": "Patagonia Winds", "collection": "winterRetreats"}).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=10).read()
    wait_until(browser, lambda d: carousel_names(d)[:1] == ["Patagonia Winds"])
    assert not_reloaded(browser)


def test_text_being_typed_survives_a_live_update_of_its_list(server, browser, second_browser):
    viewer, editor = browser, second_browser
    open_trip(viewer, server, "Hunting Auroras")
    editor.get(viewer.current_url + "?edit=1")
    live_connected(editor)
    field = editor.find_element(By.CSS_SELECTOR, "input[data-rename-url][value='Walk behind the Seljalandsfoss waterfall']")
    field.send_keys(" at dusk")
    check(viewer, "Take a tour to hunt the lights!")
    wait_until(editor, lambda d: remaining_text(d) == "2 remaining activities")
    focused = editor.switch_to.active_element
    assert focused.get_attribute("value") == "Walk behind the Seljalandsfoss waterfall at dusk"
    assert focused.get_attribute("name").startswith("activity-name-")


def mirrored_trips(path):
    try:
        return json.loads(path.read_text())["trips"]
    except (OSError, ValueError):  # not written yet
        return {}


def test_history_feed_example_mirrors_trips(server, browser, tmp_path):
    """Runs the Python example of docs/HISTORY-FEED.md, as printed there, against the server."""
    doc = (ROOT / "docs" / "HISTORY-FEED.md").read_text()
    (tmp_path / "mirror_trips.py").write_text(re.search(r"```python\n(.*?)```", doc, re.S).group(1))
    mirror = subprocess.Popen([sys.executable, "mirror_trips.py", server.url], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        file = tmp_path / "trips.json"
        wait_until(browser, lambda d: len(mirrored_trips(file)) == 12)
        surf = lambda: [t for t in mirrored_trips(file).values() if t["name"] == "Surf Steamer Lane"]
        assert [t["completedActivityCount"] for t in surf()] == [0]

        open_trip(browser, server, "Surf Steamer Lane")
        check(browser, "Surf at Pleasure Point")
        wait_until(browser, lambda d: [t["completedActivityCount"] for t in surf()] == [1])
        assert mirror.poll() is None, mirror.stdout.read().decode()
    finally:
        mirror.kill()
        mirror.wait()
