"""Writes kept offline in three tabs survive a server that really stops, is killed (SIGKILL) while
they are being sent and starts again on the same data folder: each is in the history exactly once,
and every tab shows the result. The same in password mode, where each restart ends the session
and the writes wait for the sign-in."""

import signal
import sqlite3

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import WishlistServer, wait_until
from test_edits import press_done
from test_in_place import rename_values
from test_offline import activity_ids, checked, history, kept_page, kept_token, tap_check, writes_waiting
from test_security import PASSWORD, sign_in

# Per tab: a trip never opened in edit mode, the check-offs (indexes into its activities), the
# activities added and the renames (index, new name) made in it offline.
TABS = [
    ("/trips/1", [0, 1, 0], ["First offline stop", "Second offline stop"], [(2, "Renamed offline"), (3, "Also renamed")]),
    ("/trips/7", [0, 1, 2], ["Temple at dawn", "Night market"], [(3, "Moved offline"), (3, "Moved twice"), (4, "Third rename")]),
    ("/trips/3", [0, 1], ["Tea house"], []),
]
TRIP_EDIT = ("/trips/3", "Japan, kept offline")
NEW_TRIP = "Lofoten, kept offline"
WRITES = sum(len(checks) + len(adds) + len(renames) for _, checks, adds, renames in TABS) + 2
LATENCY_MS = 150  # each request of the tabs: the sending lasts long enough to be killed midway


def transactions_since(server, token):
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        return database.execute("SELECT count(*) FROM history_transaction WHERE token > ?", (token,)).fetchone()[0]


def kill(server):
    server.process.send_signal(signal.SIGKILL)
    server.process.wait()


def signed_in(browser, server, password):
    """Signs in from a tab (password mode): the page it leads to sends what waits."""
    if password:
        browser.get(server.url + "/login")
        sign_in(browser, PASSWORD)
        wait_until(browser, lambda d: d.current_url == server.url + "/")


@pytest.mark.parametrize("password", [False, True], ids=["open", "password"])
def test_writes_kept_in_three_tabs_survive_a_restart_and_a_kill_midway_each_written_once(tmp_path, seeded_folder, browser, password):
    server = WishlistServer(tmp_path / "data", template=seeded_folder, environment={"WISHLIST_PASSWORD": PASSWORD} if password else None,
                            ready_path="/login" if password else "/")
    server.start()
    try:
        run_scenario(server, browser, password)
    finally:
        server.stop()


def run_scenario(server, browser, password):
    signed_in(browser, server, password)
    browser.get(server.url + "/")
    wait_until(browser, lambda d: kept_token(d) is not None and all(kept_page(d, trip + "?edit=1") for trip, *_ in TABS), timeout=60)
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        token = database.execute("SELECT max(token) FROM history_transaction").fetchone()[0]
    handles = []
    for index, (trip, *_) in enumerate(TABS):  # each trip read, never opened in edit mode
        if index:
            browser.switch_to.new_window("tab")
        browser.get(server.url + trip)
        handles.append(browser.current_window_handle)

    server.stop()
    expected = {}  # per trip tab: the activities' check states and the names it should show
    kept = 0  # the writes waiting in the browser

    def waits(count):
        wait_until(browser, lambda d: writes_waiting(d) == count)
        return count

    for handle, (trip, checks, adds, renames) in zip(handles, TABS):
        browser.switch_to.window(handle)
        browser.get(server.url + trip + "?edit=1")  # from what was kept
        ids = activity_ids(browser)
        states = {ids[i]: checked(browser, ids[i]) != (checks.count(i) % 2 == 1) for i in set(checks)}
        for i in checks:
            tap_check(browser, ids[i])
            kept = waits(kept + 1)
        for name in adds:
            browser.find_element(By.ID, "new-activity-name").send_keys(name, Keys.ENTER)
            kept = waits(kept + 1)
        for i, name in renames:
            field = browser.find_element(By.ID, f"activity-name-{ids[i]}")
            field.send_keys(Keys.CONTROL, "a")
            field.send_keys(name, Keys.ENTER)
            kept = waits(kept + 1)
        expected[handle] = (states, adds + list(dict(renames).values()))
    # The last tab edits its trip and adds a trip, both forms posted as pages.
    browser.find_element(By.ID, "edit-trip-name").send_keys(Keys.CONTROL, "a", Keys.NULL, TRIP_EDIT[1])
    press_done(browser)
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Kept on this device")
    browser.get(server.url + "/")
    browser.find_element(By.CSS_SELECTOR, "[data-opens-dialog]").click()
    browser.switch_to.active_element.send_keys(NEW_TRIP, Keys.ENTER)
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Kept on this device")
    browser.get(server.url + "/")
    wait_until(browser, lambda d: d.find_element(By.ID, "pending-note").text == f"{WRITES} changes waiting to send")
    for handle in handles:
        browser.switch_to.window(handle)
        browser.execute_cdp_cmd("Network.emulateNetworkConditions",
                                {"offline": False, "latency": LATENCY_MS, "downloadThroughput": -1, "uploadThroughput": -1})

    server.start()
    if password:  # the restart ended the session: nothing is sent, nothing dropped, until the sign-in
        wait_until(browser, lambda d: d.find_element(By.ID, "pending-note").text == f"{WRITES} changes waiting for sign-in", timeout=30)
        assert transactions_since(server, token) == 0
        signed_in(browser, server, password)
    wait_until(browser, lambda d: transactions_since(server, token) > 0, timeout=30)
    kill(server)
    assert transactions_since(server, token) < WRITES, "killed while sending"
    server.start()
    signed_in(browser, server, password)

    wait_until(browser, lambda d: writes_waiting(d) == 0, timeout=60)
    for handle in handles:
        browser.switch_to.window(handle)
        browser.execute_cdp_cmd("Network.emulateNetworkConditions",
                                {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        # Sent, and live again: no note stays (waiting, offline, reconnecting).
        wait_until(browser, lambda d: not any(note.is_displayed() for note in d.find_elements(By.CSS_SELECTOR, ".live-status")), timeout=30)
    transactions = history(browser, token)
    assert len(transactions) == WRITES, [t["changes"] for t in transactions]
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        names = [name for (name,) in database.execute("SELECT name FROM Trip")]
        assert names.count(NEW_TRIP) == 1 and names.count(TRIP_EDIT[1]) == 1
        for _, _, adds, _ in TABS:
            for name in adds:
                assert database.execute("SELECT count(*) FROM Activity WHERE name = ?", (name,)).fetchone() == (1,), name
    # Every tab shows the result: the trip tabs their lists, the last one (now the wishlist) the new trip.
    for handle in handles[:-1]:
        browser.switch_to.window(handle)
        states, names = expected[handle]
        wait_until(browser, lambda d: {a: checked(d, a) for a in states} == states and set(names) <= set(rename_values(d)), timeout=30)
    browser.switch_to.window(handles[-1])
    wait_until(browser, lambda d: NEW_TRIP in d.find_element(By.TAG_NAME, "main").text, timeout=30)
