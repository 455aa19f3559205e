"""Without a network: the pages a person opened stay readable, from what the service worker kept,
with the time they were kept; a page never opened says so and links to the ones kept. Tested
with the server process really stopped."""

import sqlite3

import pytest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait_until
from test_edits import open_edit_mode, press_done
from test_in_place import rename_values
from test_security import PASSWORD, protected_server, sign_in  # noqa: F401 (a fixture)
from test_screens import activity_names, check, open_trip, remaining_text


def controlled(driver):
    return driver.execute_script("return !!navigator.serviceWorker.controller")


def test_pages_opened_before_stay_readable_with_the_server_stopped(server, browser):
    browser.get(server.url + "/")
    wait_until(browser, lambda d: d.execute_script(
        "return navigator.serviceWorker.ready.then(() => true)"), timeout=10)
    browser.refresh()  # now under the worker's control, the page is kept as it answers
    wait_until(browser, controlled, timeout=10)
    browser.get(server.url + "/trips/1")
    trip = browser.find_element(By.TAG_NAME, "h1").text
    browser.get(server.url + "/trips/1?edit=1")  # the same trip, in edit mode
    browser.get(server.url + "/")
    carousel = browser.find_element(By.ID, "carousel").text

    server.stop()
    browser.get(server.url + "/trips/1")
    assert browser.find_element(By.TAG_NAME, "h1").text == trip
    note = wait_until(browser, lambda d: d.find_element(By.ID, "offline-note"))
    assert note.is_displayed() and note.text.startswith("Offline — as of ")
    assert browser.execute_script("return getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)", "styled"
    browser.get(server.url + "/")
    assert browser.find_element(By.ID, "carousel").text == carousel

    browser.get(server.url + "/search?q=kyoto")
    assert browser.find_element(By.TAG_NAME, "h1").text == "You are offline"
    kept = [a.get_attribute("pathname") for a in browser.find_elements(By.CSS_SELECTOR, "main a")]
    assert {"/", "/trips/1"} <= set(kept) and "/search" not in kept
    assert len(kept) == len(set(kept)), "each page listed once"
    server.start()
    browser.get(server.url + "/goals")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Goals"
    assert not browser.find_element(By.ID, "offline-note").is_displayed()


def kept_token(driver):
    """The history token of the last background keep that ended; None before one has."""
    return driver.execute_script(
        "return caches.open('offline-settings').then(c => c.match('token')).then(r => r ? r.json() : null)")


def kept_page(driver, path):
    """When the kept copy of `path` was kept, and its text; None when none is kept."""
    return driver.execute_script("""
        return caches.open('pages').then(c => c.match(arguments[0])).then(async (r) => r && [r.headers.get('X-Wishlist-Kept-At'), await r.text()])""",
        path)


def kept_bytes(driver):
    return driver.execute_script("""
        const sizes = (name) => caches.open(name).then(c => c.matchAll()).then(rs => rs.map(r => Number(r.headers.get('X-Wishlist-Size'))));
        return Promise.all([sizes('pages'), sizes('photos')]).then(([p, f]) => [...p, ...f].reduce((a, b) => a + b, 0))""")


def trip_paths(server):
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        return [f"/trips/{id}" for (id,) in database.execute("SELECT id FROM Trip ORDER BY creation_date DESC, id DESC")]


def test_every_trip_is_kept_in_the_background_and_reads_offline_with_its_photo(server, browser):
    browser.get(server.url + "/")
    wait_until(browser, lambda d: kept_token(d) is not None, timeout=30)
    never_opened = trip_paths(server)[-1]

    server.stop()
    for path, title in (("/goals", "Goals"), ("/trips", "Trips"), ("/map", "Map")):
        browser.get(server.url + path)
        assert browser.find_element(By.TAG_NAME, "h1").text == title
        assert wait_until(browser, lambda d: d.find_element(By.ID, "offline-note")).text.startswith("Offline — as of ")
    browser.get(server.url + never_opened)
    assert browser.find_element(By.TAG_NAME, "h1").text != "You are offline"
    assert wait_until(browser, lambda d: d.find_element(By.ID, "offline-note")).text.startswith("Offline — as of ")
    # The photo at a phone's size answers whichever size this screen asks for.
    wait_until(browser, lambda d: d.execute_script(
        "const img = document.querySelector('.hero-photo img'); return img.complete && img.naturalWidth > 0"))


def test_a_trips_gallery_is_kept_in_the_background_and_shows_offline(server, browser, tmp_path):
    from test_gallery import gallery_count, photo_files
    files = photo_files(tmp_path, 2)[:2]
    open_trip(browser, server, "Japan Mystique")
    trip = browser.execute_script("return location.pathname")
    browser.find_element(By.ID, "gallery-files").send_keys("\n".join(str(path) for path in files))
    wait_until(browser, lambda d: gallery_count(d) == 3, timeout=30)
    browser.get(server.url + "/")  # a keep after this load takes the new photos along
    wait_until(browser, lambda d: (kept_page(d, trip) or ("", ""))[1].count('class="gallery-item"') == 3, timeout=30)
    wait_until(browser, lambda d: d.execute_script("""
        const shown = arguments[0].match(/\\/photos\\/\\d+\\/thumbnail\\?v=[0-9a-f]+/g);
        return caches.open('photos').then(c => Promise.all(shown.map(path => c.match(path)))).then(found => found.every(Boolean))""",
        kept_page(d, trip)[1]), timeout=30)

    server.stop()
    browser.get(server.url + trip)
    assert wait_until(browser, lambda d: d.find_element(By.ID, "offline-note")).text.startswith("Offline — as of ")
    assert gallery_count(browser) == 3
    for image in browser.find_elements(By.CSS_SELECTOR, "#trip-gallery img"):
        browser.execute_script("arguments[0].scrollIntoView()", image)  # lazy: loaded when near
        wait_until(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    # Full screen offline: a size never kept is answered with the photo's thumbnail.
    browser.execute_script("document.querySelectorAll('#trip-gallery .gallery-link')[1].click()")
    wait_until(browser, lambda d: d.execute_script(
        "const img = document.querySelector('.viewer-image'); return img && img.complete && img.naturalWidth > 0"))


def test_a_change_made_elsewhere_is_kept_again_and_nothing_else_is(server, browser, second_browser):
    browser.get(server.url + "/")
    first = wait_until(browser, kept_token, timeout=30)
    open_trip(second_browser, server, "Mont Blanc Powder")
    changed = second_browser.execute_script("return location.pathname")
    unchanged = next(path for path in trip_paths(server) if path != changed)
    unchanged_kept_at, _ = kept_page(browser, unchanged)
    name = activity_names(second_browser)[0]
    check(second_browser, name)
    remaining = second_browser.find_element(By.ID, "remaining-count").text

    browser.get(server.url + "/goals")  # any page that loads asks the worker to keep what changed
    wait_until(browser, lambda d: kept_token(d) != first, timeout=30)
    assert kept_page(browser, unchanged)[0] == unchanged_kept_at, "an unchanged trip is not fetched again"
    server.stop()
    browser.get(server.url + changed)
    assert browser.find_element(By.ID, "remaining-count").text == remaining


def test_a_budget_is_never_exceeded(server, browser):
    budget = 0.3  # megabytes: less than the seeded trips’ pages and photos
    browser.get(server.url + "/data")
    field = wait_until(browser, lambda d: d.find_element(By.ID, "offline-budget-size"))
    browser.get_log("browser")  # what came before
    field.send_keys(Keys.CONTROL, "a", Keys.NULL, str(budget), Keys.ENTER)
    section = browser.find_element(By.ID, "offline")
    wait_until(browser, lambda d: section.get_attribute("aria-busy") == "true")
    wait_until(browser, lambda d: section.get_attribute("aria-busy") is None, timeout=30)
    assert not [e for e in browser.get_log("browser") if e["source"] == "javascript"], "no script error on the way"
    kept = [path for path in trip_paths(server) if kept_page(browser, path)]
    assert kept and len(kept) < len(trip_paths(server)), "the newest trips, as many as fit"
    assert kept == trip_paths(server)[:len(kept)]
    assert f"of {budget:.1f} MB on this device" in wait_until(browser, lambda d: d.find_element(By.ID, "offline-summary").text)
    # Pages opened and kept again in the background stay within it too.
    sizes = [kept_bytes(browser)]
    for path in trip_paths(server):
        browser.get(server.url + path)
        sizes.append(kept_bytes(browser))
    wait_until(browser, lambda d: kept_page(d, trip_paths(server)[-1]))  # the page opened last: kept pages dropped for it
    sizes.append(kept_bytes(browser))
    assert 0 < max(sizes) <= budget * 1024 * 1024, sizes


def test_a_check_off_made_while_the_server_is_down_is_kept_and_sent_once_it_is_back(server, browser):
    open_trip(browser, server, "Mont Blanc Powder")
    name = activity_names(browser)[0]
    button = lambda d: d.find_element(By.CSS_SELECTOR, f"#activity-list button.check[aria-label='{name}']")
    was = button(browser).get_attribute("aria-checked")

    server.stop()
    button(browser).click()
    note = wait_until(browser, lambda d: d.find_element(By.ID, "pending-note").is_displayed() and d.find_element(By.ID, "pending-note"))
    assert name in note.text and "Waiting to send" in note.text
    assert button(browser).get_attribute("aria-checked") != was, "the check-off shows at once"
    browser.refresh()  # kept in the browser, not in the page: a reload (from the kept copy) still has it waiting
    wait_until(browser, lambda d: d.find_element(By.ID, "pending-note").is_displayed())
    wait_until(browser, lambda d: button(d).get_attribute("aria-checked") != was)

    server.start()
    wait_until(browser, lambda d: not d.find_element(By.ID, "pending-note").is_displayed(), timeout=20)
    browser.get(server.url + browser.execute_script("return location.pathname"))
    assert button(browser).get_attribute("aria-checked") != was, "the server has it"


def rename_offline_while_changed_elsewhere(server, browser, change_sql):
    """Renames a trip's first activity to "Mine" with the server stopped, changes that activity in
    the database meanwhile (`change_sql`, given its id), starts the server and returns the dialog
    that asks, and the activity's id."""
    open_trip(browser, server, "Mont Blanc Powder")
    browser.get(browser.current_url + "?edit=1")
    field = browser.find_element(By.CSS_SELECTOR, "#activity-list input[data-rename-url]")
    activity_id = field.get_attribute("data-rename-url").rsplit("/", 1)[1]
    server.stop()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Mine", Keys.ENTER)
    wait_until(browser, lambda d: "Rename to “Mine”" in d.find_element(By.ID, "pending-note").text)
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:  # another device, meanwhile
        database.execute(change_sql, (activity_id,))
    server.start()
    return wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert"), timeout=20), activity_id


def test_a_rename_kept_offline_overwrites_no_rename_made_meanwhile_unasked(server, browser):
    box, _ = rename_offline_while_changed_elsewhere(server, browser, "UPDATE Activity SET name = 'Theirs' WHERE id = ?")
    assert "Changed elsewhere" in box.text and "renamed to “Theirs”" in box.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "dialog")) == 1, "asked once"
    box.find_element(By.XPATH, ".//button[.='Keep mine']").click()
    wait_until(browser, lambda d: not d.find_element(By.ID, "pending-note").is_displayed(), timeout=20)
    browser.refresh()
    assert "Mine" in rename_values(browser) and "Theirs" not in rename_values(browser)


def activity_ids(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#activity-list .activity')].map(e => e.id.replace('activity-', ''))")


def history(driver, after):
    """The history's transactions after the token `after`, read as a sync tool reads them."""
    return driver.execute_script(
        "return fetch(`/api/history?after=${arguments[0]}&limit=1000`).then(r => r.json()).then(j => j.transactions)", after)


def newest_token(driver):
    return driver.execute_script("return fetch('/api/history?limit=1').then(r => r.json()).then(j => j.newestToken)")


def tap_check(driver, activity):
    """Taps an activity's check button, brought clear of the tab bar first."""
    button = driver.find_element(By.CSS_SELECTOR, f"#activity-{activity} button.check")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def checked(driver, activity):
    return driver.find_element(By.CSS_SELECTOR, f"#activity-{activity} button.check").get_attribute("aria-checked") == "true"


# Records, in a tab, the idempotency key of each write the server answered.
RECORD_SENT_KEYS = """
    window.sentKeys = [];
    const send = window.fetch;
    window.fetch = (url, init) => send(url, init).then((response) => {
        const key = init?.headers?.["Idempotency-Key"];
        if (key) window.sentKeys.push(key);
        return response;
    });"""


def test_check_offs_and_new_activities_made_offline_in_three_tabs_are_each_sent_once(server, browser):
    tabs = {}  # each tab's activities, and what each should show once its check-offs are sent
    for index, trip in enumerate(("Mont Blanc Powder", "Japan Mystique", "Kona Deep Dive")):
        if index:
            browser.switch_to.new_window("tab")
        open_trip(browser, server, trip)
        browser.get(browser.current_url + "?edit=1")
        ids = activity_ids(browser)[:2]
        taps = [ids[i % 2] for i in range(5)]  # 5 check-offs: the first activity 3 times, the second twice
        tabs[browser.current_window_handle] = (taps, {a: checked(browser, a) != (taps.count(a) % 2 == 1) for a in ids})
        browser.execute_script(RECORD_SENT_KEYS)
    token = newest_token(browser)

    server.stop()
    for handle, (taps, _) in tabs.items():
        browser.switch_to.window(handle)
        for activity in taps:
            browser.find_element(By.CSS_SELECTOR, f"#activity-{activity} button.check").click()
        browser.find_element(By.ID, "new-activity-name").send_keys(f"Offline stop {handle[-4:]}", Keys.ENTER)
    browser.switch_to.window(next(iter(tabs)))
    wait_until(browser, lambda d: d.find_element(By.ID, "pending-note").text == "18 changes waiting to send")
    server.start()

    sent = []
    for handle in tabs:
        browser.switch_to.window(handle)
        wait_until(browser, lambda d: not d.find_element(By.ID, "pending-note").is_displayed(), timeout=30)
    for handle in tabs:
        browser.switch_to.window(handle)
        sent += browser.execute_script("return window.sentKeys")
    assert len(sent) == 18 and len(set(sent)) == 18, "each write sent by one tab, once"
    transactions = history(browser, token)
    kinds = [{change["kind"] for change in t["changes"] if change["entity"] == "Activity"} for t in transactions]
    assert kinds.count({"update"}) == 15 and kinds.count({"insert"}) == 3, transactions
    for handle, (_, expected) in tabs.items():  # each tab shows what the server has, without a reload
        browser.switch_to.window(handle)
        wait_until(browser, lambda d: {a: checked(d, a) for a in expected} == expected, timeout=10)
        wait_until(browser, lambda d: f"Offline stop {handle[-4:]}" in rename_values(d), timeout=10)


def test_a_trip_edited_and_a_trip_added_offline_are_kept_and_saved_once_the_server_is_back(server, browser):
    open_edit_mode(browser, server, "Mont Blanc Powder")
    trip = browser.execute_script("return location.pathname")
    browser.get(server.url + "/")  # kept, with the New Trip sheet
    browser.get(server.url + trip + "?edit=1")
    server.stop()

    name = browser.find_element(By.ID, "edit-trip-name")
    name.send_keys(Keys.CONTROL, "a", Keys.NULL, "Mont Blanc by Night")
    press_done(browser)
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Kept on this device")
    assert "so “Mont Blanc by Night” is kept on this device" in browser.find_element(By.TAG_NAME, "main").text
    browser.get(server.url + "/")
    browser.find_element(By.CSS_SELECTOR, "[data-opens-dialog]").click()
    browser.switch_to.active_element.send_keys("Lofoten in June", Keys.ENTER)
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Kept on this device")
    browser.get(server.url + "/")
    wait_until(browser, lambda d: d.find_element(By.ID, "pending-note").text == "2 changes waiting to send")

    server.start()
    wait_until(browser, lambda d: not d.find_element(By.ID, "pending-note").is_displayed(), timeout=20)
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        names = [name for (name,) in database.execute("SELECT name FROM Trip")]
    assert "Mont Blanc by Night" in names and names.count("Lofoten in June") == 1


def test_a_trip_edited_offline_and_changed_elsewhere_meanwhile_asks_whose_to_keep(server, browser):
    open_edit_mode(browser, server, "Mont Blanc Powder")
    trip_id = browser.execute_script("return location.pathname").rsplit("/", 1)[1]
    server.stop()
    browser.find_element(By.ID, "edit-trip-name").send_keys(Keys.CONTROL, "a", Keys.NULL, "Mine")
    press_done(browser)
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Kept on this device")
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:  # another device, meanwhile
        database.execute("UPDATE Trip SET subtitle = 'Theirs' WHERE id = ?", (trip_id,))
    browser.get(server.url + "/")

    server.start()
    box = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert"), timeout=20)
    assert "Changed elsewhere: Save “Mine”" in box.text
    box.find_element(By.XPATH, ".//button[.='Keep mine']").click()
    wait_until(browser, lambda d: not d.find_element(By.ID, "pending-note").is_displayed(), timeout=20)
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        assert database.execute("SELECT name FROM Trip WHERE id = ?", (trip_id,)).fetchone() == ("Mine",)


@pytest.mark.parametrize("choice", ["Add It Back", "Let It Go"])
def test_a_rename_kept_offline_of_an_activity_deleted_meanwhile_asks_whether_it_comes_back(server, browser, choice):
    box, activity_id = rename_offline_while_changed_elsewhere(server, browser, "DELETE FROM Activity WHERE id = ?")
    assert "Deleted elsewhere: “Mine”" in box.text and "Rename to “Mine”" in box.text
    box.find_element(By.XPATH, f".//button[.='{choice}']").click()
    wait_until(browser, lambda d: not d.find_element(By.ID, "pending-note").is_displayed(), timeout=20)
    browser.refresh()
    assert ("Mine" in rename_values(browser)) == (choice == "Add It Back")
    assert f"/activities/{activity_id}" not in browser.page_source


def test_the_data_page_says_what_is_kept_offline_and_can_keep_nothing(server, browser):
    browser.get(server.url + "/trips/1")
    browser.get(server.url + "/trips/2")  # under the worker's control: kept
    browser.get(server.url + "/data")
    # The pages are kept as they stream to the tab; the summary follows within seconds.
    wait_until(browser, lambda d: "MB on this device" in d.find_element(By.ID, "offline-summary").text, timeout=10)
    browser.find_element(By.ID, "keep-offline").click()
    wait_until(browser, lambda d: d.find_element(By.ID, "offline-summary").text == "Nothing is kept for reading offline on this device.")
    browser.get(server.url + "/trips/3")  # opened after: not kept either
    server.stop()
    for path in ("/trips/2", "/trips/3"):
        browser.get(server.url + path)
        assert browser.find_element(By.TAG_NAME, "h1").text == "You are offline"
    server.start()
    browser.get(server.url + "/data")
    wait_until(browser, lambda d: d.find_element(By.ID, "keep-offline").text == "Keep Pages Offline")
    browser.find_element(By.ID, "keep-offline").click()
    wait_until(browser, lambda d: d.find_element(By.ID, "keep-offline").text == "Keep Nothing Offline")


def pills_clear_of_content(driver):
    """Whether, scrolled to the end, no status pill shown covers the page's content."""
    return driver.execute_script("""
        window.scrollTo(0, document.documentElement.scrollHeight);
        const main = document.getElementById('main');
        const end = main.getBoundingClientRect().bottom - parseFloat(getComputedStyle(main).paddingBottom);
        const pills = [...document.querySelectorAll('.live-status')].filter(p => !p.hidden);
        return pills.length > 0 && pills.every(p => p.getBoundingClientRect().top >= end)""")


def progress(driver):
    return driver.execute_script("return document.querySelector('.hero-progress progress').value")


def test_a_trip_never_opened_is_edited_offline_and_shows_what_waits_where_it_will_land(server, browser):
    browser.get(server.url + "/")
    wait_until(browser, lambda d: kept_token(d) is not None, timeout=60)
    never_opened = trip_paths(server)[-1]

    server.stop()
    browser.get(server.url + never_opened + "?edit=1")
    assert browser.find_element(By.TAG_NAME, "h1").text != "You are offline"
    assert browser.find_elements(By.ID, "edit-trip") and browser.find_elements(By.ID, "new-activity-name")
    remaining, percent = remaining_text(browser), progress(browser)
    browser.find_element(By.ID, "new-activity-name").send_keys("Offline stop", Keys.ENTER)
    waiting = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#activity-list .activity.is-pending"))
    assert "Offline stop" in waiting.text and "Waiting to send" in waiting.text, "listed, marked waiting"
    assert remaining_text(browser) != remaining and progress(browser) < percent, "counted as not done yet"
    first = activity_ids(browser)[0]
    before_check = remaining_text(browser)
    tap_check(browser, first)
    wait_until(browser, lambda d: remaining_text(d) != before_check)
    counts = (remaining_text(browser), progress(browser))
    assert pills_clear_of_content(browser)

    browser.refresh()  # drawn from the kept copy again: what waits is drawn again
    wait_until(browser, lambda d: "Offline stop" in d.find_element(By.ID, "activity-list").text)
    wait_until(browser, lambda d: (remaining_text(d), progress(d)) == counts)

    server.start()
    wait_until(browser, lambda d: not any(p.is_displayed() for p in d.find_elements(By.CSS_SELECTOR, ".live-status")), timeout=30)
    wait_until(browser, lambda d: "Offline stop" in rename_values(d) and not d.find_elements(By.CSS_SELECTOR, ".is-pending"), timeout=10)
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        assert database.execute("SELECT count(*) FROM Activity WHERE name = 'Offline stop'").fetchone() == (1,)


@pytest.mark.parametrize("refused", ["", "   "], ids=["empty", "blank"])
def test_a_rename_refused_offline_leaves_the_next_rename_its_version(server, browser, refused):
    """An empty name is not even kept (the field says why); a blank one is kept, refused once
    sent, and the rename after it is sent against the name the server still has."""
    open_trip(browser, server, "Mont Blanc Powder")
    browser.get(browser.current_url + "?edit=1")
    field = browser.find_element(By.CSS_SELECTOR, "#activity-list input[data-rename-url]")
    activity_id = field.get_attribute("data-rename-url").rsplit("/", 1)[1]
    server.stop()
    field.send_keys(Keys.CONTROL, "a", Keys.DELETE)
    field.send_keys(refused, Keys.ENTER)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Mine", Keys.ENTER)
    wait_until(browser, lambda d: writes_waiting(d) == (2 if refused else 1))

    server.start()
    wait_until(browser, lambda d: writes_waiting(d) == 0, timeout=20)
    if refused:
        box = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert"))
        assert box.text.startswith("Not saved: Rename to")
        box.find_element(By.XPATH, ".//button[.='OK']").click()
    wait_until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.alert"))
    assert not browser.find_elements(By.CSS_SELECTOR, "dialog"), "no Changed elsewhere"
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        assert database.execute("SELECT name FROM Activity WHERE id = ?", (activity_id,)).fetchone() == ("Mine",)


def writes_waiting(driver):
    return driver.execute_script("return keptWrites().then(writes => writes.length)")


def first_check_off_and_an_add_kept_offline(server, browser):
    """On Mont Blanc Powder in edit mode, with the server stopped: checks off its first activity
    and adds "Offline stop". Returns the history token before, and the activity's id."""
    open_trip(browser, server, "Mont Blanc Powder")
    browser.get(browser.current_url + "?edit=1")
    token = newest_token(browser)
    first = activity_ids(browser)[0]
    server.stop()
    tap_check(browser, first)
    browser.find_element(By.ID, "new-activity-name").send_keys("Offline stop", Keys.ENTER)
    wait_until(browser, lambda d: d.find_element(By.ID, "pending-note").text == "2 changes waiting to send")
    return token, first


def assert_written_once(server, browser, token, activity):
    transactions = history(browser, token)
    kinds = [{change["kind"] for change in t["changes"] if change["entity"] == "Activity"} for t in transactions]
    assert kinds.count({"update"}) == 1 and kinds.count({"insert"}) == 1, [t["changes"] for t in transactions]
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        assert database.execute("SELECT count(*) FROM Activity WHERE name = 'Offline stop'").fetchone() == (1,)


def test_writes_kept_offline_wait_for_the_sign_in_a_restart_in_password_mode_asks_for(protected_server, browser):
    server = protected_server
    browser.get(server.url + "/login")
    sign_in(browser, PASSWORD)
    wait_until(browser, lambda d: d.current_url == server.url + "/")
    token, activity = first_check_off_and_an_add_kept_offline(server, browser)

    server.start()  # a restart ends every session: each write is refused, 401
    wait_until(browser, lambda d: d.find_element(By.ID, "pending-note").text == "2 changes waiting for sign-in", timeout=20)
    browser.get(server.url + "/trips")
    wait_until(browser, lambda d: d.current_url == server.url + "/login?return=%2Ftrips")
    wait_until(browser, lambda d: d.find_element(By.ID, "pending-note").text == "2 changes waiting for sign-in", timeout=10)
    assert not browser.find_elements(By.CSS_SELECTOR, "dialog.alert"), "nothing refused for good"

    sign_in(browser, PASSWORD)
    wait_until(browser, lambda d: d.current_url == server.url + "/trips")
    wait_until(browser, lambda d: writes_waiting(d) == 0, timeout=20)
    assert_written_once(server, browser, token, activity)


def test_writes_kept_offline_are_sent_with_the_token_the_browser_has_now(server, browser):
    token, activity = first_check_off_and_an_add_kept_offline(server, browser)
    # The browser's token changed while the page waited: the one it was drawn with is stale.
    browser.execute_cdp_cmd("Network.deleteCookies", {"name": "csrf_token", "url": server.url})

    server.start()
    wait_until(browser, lambda d: not d.find_element(By.ID, "pending-note").is_displayed(), timeout=20)
    assert not browser.find_elements(By.CSS_SELECTOR, "dialog.alert"), "nothing refused"
    assert_written_once(server, browser, token, activity)


def test_a_trip_form_refused_for_want_of_a_session_is_kept_and_saved_after_the_sign_in(protected_server, browser):
    server = protected_server
    browser.get(server.url + "/login")
    sign_in(browser, PASSWORD)
    wait_until(browser, lambda d: d.current_url == server.url + "/")
    open_edit_mode(browser, server, "Mont Blanc Powder")
    trip_id = browser.execute_script("return location.pathname").rsplit("/", 1)[1]
    wait_until(browser, controlled, timeout=10)
    server.restart()  # the session ends with it

    browser.find_element(By.ID, "edit-trip-name").send_keys(Keys.CONTROL, "a", Keys.NULL, "Mont Blanc, signed out")
    press_done(browser)
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Kept on this device")
    assert "will be saved once you sign in" in browser.find_element(By.TAG_NAME, "main").text
    browser.get(server.url + "/login")
    sign_in(browser, PASSWORD)
    wait_until(browser, lambda d: d.current_url == server.url + "/")
    wait_until(browser, lambda d: writes_waiting(d) == 0, timeout=20)
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:
        assert database.execute("SELECT name FROM Trip WHERE id = ?", (trip_id,)).fetchone() == ("Mont Blanc, signed out",)
