"""Without a network: the pages a person opened stay readable, from what the service worker kept,
with the time they were kept; a page never opened says so and links to the ones kept. Tested
with the server process really stopped."""

import sqlite3

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait_until
from test_screens import activity_names, open_trip


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

    browser.get(server.url + "/goals")
    assert browser.find_element(By.TAG_NAME, "h1").text == "You are offline"
    kept = {a.get_attribute("pathname") for a in browser.find_elements(By.CSS_SELECTOR, "main a")}
    assert {"/", "/trips/1"} <= kept and "/goals" not in kept
    server.start()
    browser.get(server.url + "/goals")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Goals"
    assert not browser.find_element(By.ID, "offline-note").is_displayed()


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


def test_a_rename_kept_offline_overwrites_no_rename_made_meanwhile_unasked(server, browser):
    open_trip(browser, server, "Mont Blanc Powder")
    browser.get(browser.current_url + "?edit=1")
    field = browser.find_element(By.CSS_SELECTOR, "#activity-list input[data-rename-url]")
    activity_id = field.get_attribute("data-rename-url").rsplit("/", 1)[1]
    server.stop()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Mine", Keys.ENTER)
    wait_until(browser, lambda d: "Rename to “Mine”" in d.find_element(By.ID, "pending-note").text)
    with sqlite3.connect(server.data_dir / "wishlist.sqlite") as database:  # another device, meanwhile
        database.execute("UPDATE Activity SET name = 'Theirs' WHERE id = ?", (activity_id,))

    server.start()
    box = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert"), timeout=20)
    assert "Changed elsewhere" in box.text and "renamed to “Theirs”" in box.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "dialog")) == 1, "asked once"
    box.find_element(By.XPATH, ".//button[.='Keep mine']").click()
    wait_until(browser, lambda d: not d.find_element(By.ID, "pending-note").is_displayed(), timeout=20)
    browser.refresh()
    names = [e.get_attribute("value") for e in browser.find_elements(By.CSS_SELECTOR, "#activity-list input[data-rename-url]")]
    assert "Mine" in names and "Theirs" not in names


def test_the_data_page_says_what_is_kept_offline_and_can_keep_nothing(server, browser):
    browser.get(server.url + "/trips/1")
    browser.get(server.url + "/trips/2")  # under the worker's control: kept
    browser.get(server.url + "/data")
    summary = wait_until(browser, lambda d: d.find_element(By.ID, "offline-summary").text)
    assert "kept for reading offline" in summary and "MB on this device" in summary
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
