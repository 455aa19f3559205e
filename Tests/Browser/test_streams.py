"""Live updates never block the browser: one event stream per browser, however many tabs and
pages in the back/forward cache it has. A browser opens at most six HTTP/1.1 connections to a
host; with a stream per page, the seventh tab (or the sixth page walked in one tab) never loaded.

The server counts streams in its access log (`--access-log`): a line `GET /events 200` when one
opens and `END /events` when it closes, so the streams open at a moment are the first minus the
second. A stream the browser replaces is closed a moment before the server notices, so each
count is taken once the browser is idle: it must come down to one. A page held behind the
browser's six connections never loads: the driver's page-load timeout fails it (conftest), and
how fast pages load is measured in Benchmarks/, not here."""

import re
import time

import pytest
from selenium.webdriver.common.by import By

from conftest import WishlistServer, wait_until
from test_live import achieved_names, live_connected
from test_screens import check, open_trip

TENTH_ACTIVITY = ("Surf Steamer Lane", "Surf at Pleasure Point")  # completing it earns "10 Activities"


@pytest.fixture
def logged_server(tmp_path, seeded_folder):
    server = WishlistServer(tmp_path / "data", arguments=["--access-log"], template=seeded_folder)
    server.start()
    yield server
    server.stop()


def open_streams(server):
    log = server.log.read_text()
    return len(re.findall(r"^GET /events 200 ", log, re.M)) - len(re.findall(r"^END /events ", log, re.M))


def settles_to_one_stream(server):
    deadline = time.monotonic() + 3
    while open_streams(server) > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    return open_streams(server)


def test_twenty_tabs_all_load_and_the_goals_tabs_update_live(logged_server, browser):
    """The issue's numbers: 20 tabs, 5 of them on Goals, a check-off in another."""
    server = logged_server
    others = ["/", "/trips", "/map", "/trips?group=destination"] + [f"/trips/{n}" for n in range(1, 12)]
    paths = [others.pop(0) if index % 4 else "/goals" for index in range(19)]
    goals_tabs = []
    for index, path in enumerate(paths):
        if index:
            browser.switch_to.new_window("tab")
        browser.get(server.url + path)
        if path == "/goals":
            goals_tabs.append(browser.current_window_handle)
    assert len(goals_tabs) == 5
    browser.switch_to.window(goals_tabs[0])
    live_connected(browser)
    assert "10 Activities" not in achieved_names(browser)
    browser.switch_to.new_window("tab")  # the 20th
    trip, activity = TENTH_ACTIVITY
    open_trip(browser, server, trip)
    assert settles_to_one_stream(server) == 1
    check(browser, activity)
    for handle in goals_tabs:
        browser.switch_to.window(handle)
        wait_until(browser, lambda d: "10 Activities" in achieved_names(d))
    assert settles_to_one_stream(server) == 1


def test_one_tab_walks_forty_pages_back_and_forward_without_waiting(logged_server, browser):
    """Every screen, then back and forward through them: each page kept in the back/forward
    cache let its stream go, so no navigation waits for a connection."""
    server = logged_server
    screens = ["/", "/trips/1", "/goals", "/trips", "/map", "/trips/2", "/search?q=kyoto", "/collections/summerVibes",
               "/trips?group=destination", "/trips/3", "/data", "/trips/new"]
    restored = 0
    for path in screens * 2:
        browser.get(server.url + path)
        browser.execute_script("window.__walked = true")  # survives only in the back/forward cache
    for step in range(16):
        browser.back() if step < 8 else browser.forward()
        restored += browser.execute_script("return window.__walked === true")
    assert restored >= 8, "pages did not come from the back/forward cache, which this test is about"
    assert settles_to_one_stream(server) <= 1  # the last page, New Trip, follows nothing


def test_two_browsers_each_update_live(logged_server, browser, second_browser):
    server = logged_server
    for driver in (browser, second_browser):
        driver.get(server.url + "/goals")
        live_connected(driver)
    editor = browser
    editor.switch_to.new_window("tab")
    trip, activity = TENTH_ACTIVITY
    open_trip(editor, server, trip)
    check(editor, activity)
    second_browser_sees = lambda d: "10 Activities" in achieved_names(d)
    wait_until(second_browser, second_browser_sees)
    editor.switch_to.window(editor.window_handles[0])
    wait_until(editor, second_browser_sees)
    deadline = time.monotonic() + 3
    while open_streams(server) > 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert open_streams(server) == 2


def test_without_shared_workers_a_page_lets_its_stream_go_when_it_leaves(logged_server, browser, second_browser):
    """The fallback, a stream per page: a page kept in the back/forward cache closes it, and
    shown again it catches up with what changed meanwhile."""
    server = logged_server
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.SharedWorker"})
    browser.get(server.url + "/goals")
    live_connected(browser)
    browser.execute_script("window.__kept = true")
    for path in ("/trips", "/map", "/", "/trips/2", "/goals", "/trips/3"):
        browser.get(server.url + path)
    assert settles_to_one_stream(server) == 1
    trip, activity = TENTH_ACTIVITY
    open_trip(second_browser, server, trip)
    check(second_browser, activity)
    for _ in range(8):
        browser.back()
        if browser.execute_script("return window.__kept === true"):
            break
    assert browser.current_url.endswith("/goals")
    assert browser.execute_script("return window.__kept === true"), "shown from the back/forward cache, which this test is about"
    wait_until(browser, lambda d: "10 Activities" in achieved_names(d))
