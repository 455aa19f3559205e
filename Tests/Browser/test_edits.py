"""Edits are never lost and in-place updates never break the page: Done saves what was typed
(with and without JavaScript); after a photo save or a validation error answered in place the
sort menu, the photo preview and the hidden controls still behave as on a fresh page; a failed
in-place action is an alert over the page that keeps what was typed."""

import urllib.request

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import DESKTOP, PHONE, make_driver, screenshot, wait_until
from test_layout import add_trip
from test_photos import assert_the_servers_word_is_beside_the_photo_field, damaged_photo, make_jpeg
from test_screens import activity_names, open_trip

TRIP = "Mont Blanc Powder"


@pytest.fixture
def scriptless_browser():
    driver = make_driver(javascript=False)
    yield driver
    driver.quit()


def open_edit_mode(driver, server, name=TRIP):
    open_trip(driver, server, name)
    driver.find_element(By.LINK_TEXT, "Edit").click()
    wait_until(driver, lambda d: d.find_elements(By.ID, "edit-trip"))


def press_done(driver):
    driver.execute_script("window.scrollTo(0, 0)")  # the toolbar, not under the desktop tab bar
    driver.find_element(By.CSS_SELECTOR, "[data-done]").click()


def rename_field(driver, activity):
    return driver.find_element(By.XPATH, f"//input[@data-rename-url][@value='{activity}']")


def type_edits_without_saving(driver, photo):
    """Changes every field of edit mode and presses no Save: the typing is still in its field."""
    driver.find_element(By.ID, "edit-trip-name").send_keys(Keys.CONTROL, "a", Keys.NULL, "Mont Blanc at Dawn")
    Select(driver.find_element(By.ID, "edit-trip-collection")).select_by_visible_text("Spring Escapes")
    driver.find_element(By.ID, "edit-trip-subtitle").send_keys("First light on the glacier")
    if photo:
        driver.find_element(By.CSS_SELECTOR, "input[type=file][name=photo]").send_keys(str(photo))
    # Typed over, not cleared: Selenium's clear() leaves the field, which saves it.
    rename_field(driver, "Snowshoe hike").send_keys(Keys.CONTROL, "a", Keys.NULL, "Snowshoe hike at dawn")


def assert_edits_saved(driver, with_photo):
    wait_until(driver, lambda d: "edit=1" not in d.current_url and d.find_element(By.TAG_NAME, "h1").text == "Mont Blanc at Dawn",
               timeout=20)
    assert driver.find_element(By.CSS_SELECTOR, "#trip-header .eyebrow").text.upper() == "SPRING ESCAPES"
    assert driver.find_element(By.CSS_SELECTOR, ".trip-subtitle").text == "First light on the glacier"
    assert "Snowshoe hike at dawn" in activity_names(driver)
    if with_photo:
        assert "/photo" in driver.find_element(By.CSS_SELECTOR, "#trip-header img").get_attribute("src")


def test_done_keeps_every_unsaved_edit_with_javascript(server, browser, tmp_path):
    open_edit_mode(browser, server)
    type_edits_without_saving(browser, make_jpeg(tmp_path))
    press_done(browser)
    assert_edits_saved(browser, with_photo=True)


def test_done_keeps_every_unsaved_edit_without_javascript(server, scriptless_browser, tmp_path):
    open_edit_mode(scriptless_browser, server)
    type_edits_without_saving(scriptless_browser, make_jpeg(tmp_path))
    press_done(scriptless_browser)
    assert_edits_saved(scriptless_browser, with_photo=True)


def test_leaving_by_the_tab_with_unsaved_edits_asks_and_saves(server, browser):
    open_edit_mode(browser, server)
    type_edits_without_saving(browser, photo=None)
    browser.find_element(By.CSS_SELECTOR, ".tabbar .tab-wishlist").click()
    dialog = browser.find_element(By.CSS_SELECTOR, "dialog.alert[open]")
    assert "Save your changes?" in dialog.text
    dialog.find_element(By.XPATH, ".//button[.='Save']").click()
    wait_until(browser, lambda d: d.current_url.rstrip("/") == server.url)
    open_trip(browser, server, "Mont Blanc at Dawn")
    assert "Snowshoe hike at dawn" in activity_names(browser)


def test_leaving_by_the_tab_without_javascript_saves_first(server, scriptless_browser):
    driver = scriptless_browser
    open_edit_mode(driver, server)
    driver.find_element(By.ID, "edit-trip-name").send_keys(Keys.CONTROL, "a", Keys.NULL, "Mont Blanc at Dawn")
    screenshot(driver, "edit-mode-scriptless-1280")
    driver.find_element(By.CSS_SELECTOR, ".tabbar .tab-wishlist").click()
    wait_until(driver, lambda d: d.current_url.rstrip("/") == server.url)
    open_trip(driver, server, "Mont Blanc at Dawn")


def test_leaving_by_back_without_javascript_saves_the_renames(server, scriptless_browser):
    driver = scriptless_browser
    open_edit_mode(driver, server)
    rename_field(driver, "Snowshoe hike").send_keys(Keys.CONTROL, "a", Keys.NULL, "Snowshoe hike at dawn")
    driver.execute_script("window.scrollTo(0, 0)")
    driver.find_element(By.CSS_SELECTOR, ".trip-toolbar .back").click()
    wait_until(driver, lambda d: d.current_url.rstrip("/") == server.url)
    open_trip(driver, server, TRIP)
    assert "Snowshoe hike at dawn" in activity_names(driver)


@pytest.mark.parametrize("driver_name", ["scriptless_browser", "browser"])
def test_deleting_an_activity_in_edit_mode_saves_what_was_typed_first(server, driver_name, request):
    # Without a script the trash button submits the trip form; with one, a changed form does too.
    driver = request.getfixturevalue(driver_name)
    open_edit_mode(driver, server)
    driver.find_element(By.ID, "edit-trip-name").send_keys(Keys.CONTROL, "a", Keys.NULL, "Mont Blanc at Dawn")
    driver.find_element(By.CSS_SELECTOR, "[data-confirm-delete][aria-label='Delete “Snowshoe hike”']").click()
    wait_until(driver, lambda d: "Delete Activity" in d.find_element(By.TAG_NAME, "main").text)
    open_trip(driver, server, "Mont Blanc at Dawn")


def test_leaving_by_the_goals_tab_unchanged_with_javascript_just_goes(server, browser):
    open_edit_mode(browser, server)
    browser.find_element(By.CSS_SELECTOR, ".tabbar .tab-goals").click()
    wait_until(browser, lambda d: d.current_url == server.url + "/goals")
    assert not browser.find_elements(By.CSS_SELECTOR, "dialog.alert[open]")


def mark_page(driver):
    driver.execute_script("window.__notReloaded = true")


def choose_sort(driver, label):
    # Live updates from the save may still be swapping the list in: a menu replaced mid-choice is found again.
    for _ in range(5):
        try:
            return Select(driver.find_element(By.ID, "activity-sort")).select_by_visible_text(label)
        except StaleElementReferenceException:
            pass
    raise AssertionError("the sort menu kept being replaced")


def assert_page_still_behaves(driver, tmp_path):
    """What broke after a whole-page swap: the hidden Sort button, the sort menu, the preview."""
    assert driver.execute_script("return window.__notReloaded === true"), "answered in place, not by a reload"
    assert not driver.find_element(By.CSS_SELECTOR, ".sort-form button[type=submit]").is_displayed()
    hidden_shown = driver.execute_script(
        "return [...document.querySelectorAll('[data-hide-when-scripted]')].filter(e => e.offsetParent).length")
    assert hidden_shown == 0
    choose_sort(driver, "Completed")
    # Sent and remembered: the server renders the page sorted so.
    wait_until(driver, lambda d: d.execute_script(
        "return fetch(location.href).then(r => r.text()).then(t => t.includes('selected>Completed<'))"))
    preview_before = driver.find_element(By.CSS_SELECTOR, ".photo-preview").get_attribute("src")
    other = tmp_path / "other"
    other.mkdir(exist_ok=True)
    driver.find_element(By.CSS_SELECTOR, "input[type=file][name=photo]").send_keys(str(make_jpeg(other)))
    wait_until(driver, lambda d: (src := d.find_element(By.CSS_SELECTOR, ".photo-preview").get_attribute("src")).startswith("blob:")
               and src != preview_before)
    with urllib.request.urlopen(driver.current_url.split("/trips")[0] + "/favicon.ico") as reply:
        assert reply.status == 200


def test_after_a_photo_save_in_place_the_page_still_behaves(server, browser, tmp_path):
    open_edit_mode(browser, server, "Japan Mystique")
    mark_page(browser)
    browser.find_element(By.CSS_SELECTOR, "input[type=file][name=photo]").send_keys(str(make_jpeg(tmp_path)))
    browser.find_element(By.CSS_SELECTOR, "#edit-trip .form-actions button[type=submit]").click()
    # Saved and answered: the form swapped in shows the new photo's thumbnail, not the chosen file.
    wait_until(browser, lambda d: "/thumbnail" in d.find_element(By.CSS_SELECTOR, "#edit-trip .photo-preview").get_attribute("src"),
               timeout=20)
    assert "/photo" in browser.find_element(By.CSS_SELECTOR, "#trip-header img").get_attribute("src")
    assert_page_still_behaves(browser, tmp_path)


def test_after_a_validation_error_in_place_the_page_still_behaves(server, browser, tmp_path):
    open_edit_mode(browser, server, "Japan Mystique")
    mark_page(browser)
    browser.find_element(By.ID, "edit-trip-name").clear()
    browser.find_element(By.CSS_SELECTOR, "input[type=file][name=photo]").send_keys(str(make_jpeg(tmp_path)))
    browser.find_element(By.CSS_SELECTOR, "#edit-trip .form-actions button[type=submit]").click()
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#edit-trip .field-error"), timeout=20)
    assert "Enter a trip title" in browser.find_element(By.CSS_SELECTOR, "#edit-trip .field-error").text
    # The chosen photo stays chosen, to be sent with the corrected form.
    assert browser.execute_script("return document.querySelector('#edit-trip input[type=file]').files.length") == 1
    screenshot(browser, "edit-validation-error")
    assert_page_still_behaves(browser, tmp_path)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_damaged_photo_on_the_edit_form_is_named_beside_the_photo_field(server, browser, tmp_path, size):
    browser.set_window_size(*size)
    open_edit_mode(browser, server, "Japan Mystique")
    browser.find_element(By.CSS_SELECTOR, "#edit-trip input[type=file][name=photo]").send_keys(str(damaged_photo(tmp_path)))
    press_done(browser)
    assert_the_servers_word_is_beside_the_photo_field(browser, "edit-trip", tmp_path)


def delete_in_another_window(driver, server, trip, activity):
    open_edit_mode(driver, server, trip)
    driver.find_element(By.CSS_SELECTOR, f"[data-confirm-delete][aria-label='Delete “{activity}”']").click()
    driver.find_element(By.CSS_SELECTOR, "dialog.alert").find_element(By.XPATH, ".//button[.='Delete']").click()
    wait_until(driver, lambda d: activity not in [e.get_attribute("value") for e in d.find_elements(By.CSS_SELECTOR, "input[data-rename-url]")])


def test_a_stale_check_off_is_an_alert_that_keeps_the_page(server, browser, second_browser):
    # The live connection is down (blocked), so this window still shows the deleted activity. Its
    # page holds a stream of its own (no SharedWorker), which the tab's blocked URLs apply to.
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.SharedWorker"})
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/events*"]})
    open_edit_mode(browser, server, "Japan Mystique")
    mark_page(browser)
    title = browser.find_element(By.ID, "edit-trip-name")
    title.send_keys(" by Night")
    stale = activity_names_in_edit_mode(browser)[0]
    delete_in_another_window(second_browser, server, "Japan Mystique", stale)

    browser.find_element(By.CSS_SELECTOR, f"button.check[aria-label='{stale}']").click()
    alert = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[role=alertdialog][open]"))
    assert "It may have been deleted." in alert.text
    assert browser.switch_to.active_element.text == "OK"  # focus moved to the alert
    screenshot(browser, "stale-check-off-alert")
    alert.find_element(By.XPATH, ".//button[.='OK']").click()
    assert browser.execute_script("return window.__notReloaded === true")
    assert "edit=1" in browser.current_url
    assert browser.find_element(By.ID, "edit-trip-name").get_attribute("value") == "Japan Mystique by Night"


def test_a_stale_check_off_without_javascript_links_back_to_the_trip(server, scriptless_browser, second_browser):
    open_trip(scriptless_browser, server, "Japan Mystique")
    trip_url = scriptless_browser.current_url
    stale = activity_names(scriptless_browser)[0]
    delete_in_another_window(second_browser, server, "Japan Mystique", stale)
    scriptless_browser.find_element(By.CSS_SELECTOR, f"button.check[aria-label='{stale}']").click()
    wait_until(scriptless_browser, lambda d: "It may have been deleted." in d.find_element(By.TAG_NAME, "main").text)
    scriptless_browser.find_element(By.LINK_TEXT, "Go Back").click()
    wait_until(scriptless_browser, lambda d: d.current_url == trip_url)


def activity_names_in_edit_mode(driver):
    return [e.get_attribute("value") for e in driver.find_elements(By.CSS_SELECTOR, "input[data-rename-url]")]


def test_a_badge_earned_by_a_check_off_is_said_on_the_trip_page(server, browser):
    open_trip(browser, server, "Surf Steamer Lane")
    mark_page(browser)
    browser.find_element(By.CSS_SELECTOR, "#activity-list button.check[aria-label='Surf at Pleasure Point']").click()
    wait_until(browser, lambda d: "You earned the “10 Activities” badge." in d.find_element(By.ID, "trip-notice").text)
    assert "10 Activities" in browser.find_element(By.CSS_SELECTOR, "#trip-notice [role=status]").text  # announced
    assert browser.execute_script("return window.__notReloaded === true")
    screenshot(browser, "badge-earned")


RECORD_ANSWERS = """
window.__answers = [];
const fetchAsBefore = window.fetch;
window.fetch = async (...request) => {
  const response = await fetchAsBefore(...request);
  response.clone().text().then((text) => window.__answers.push(text));
  return response;
};
"""


def test_a_check_off_in_place_fetches_no_whole_page(server, browser):
    open_trip(browser, server, "Surf Steamer Lane")
    mark_page(browser)
    browser.execute_script(RECORD_ANSWERS)
    browser.find_element(By.CSS_SELECTOR, "#activity-list button.check[aria-label='Surf at Pleasure Point']").click()
    wait_until(browser, lambda d: "You earned the “10 Activities” badge." in d.find_element(By.ID, "trip-notice").text)
    answers = browser.execute_script("return window.__answers")
    assert answers and not any("<html" in answer for answer in answers), [answer[:120] for answer in answers]
    assert browser.execute_script("return window.__notReloaded === true")
    checked = browser.find_element(By.CSS_SELECTOR, "#activity-list button.check[aria-label='Surf at Pleasure Point']")
    assert checked.get_attribute("aria-checked") == "true"


def test_search_results_typed_in_place_update_live(server, browser, second_browser):
    browser.get(server.url + "/search")
    browser.find_element(By.CSS_SELECTOR, "input[data-live-search]").send_keys("Lisbon")
    wait_until(browser, lambda d: "q=Lisbon" in d.current_url and "search.1.1.Lisbon" in d.execute_script("return document.body.dataset.liveTopics"))
    mark_page(browser)
    add_trip(second_browser, server, "Lisbon Trams", "Spring Escapes")
    wait_until(browser, lambda d: "Lisbon Trams" in d.find_element(By.ID, "search-results").text)
    assert browser.execute_script("return window.__notReloaded === true")


def test_show_all_collection_page_updates_live(server, browser, second_browser):
    browser.get(server.url + "/collections/springEscapes")
    wait_until(browser, lambda d: d.execute_script("return document.getElementById('live-status').hidden"))
    mark_page(browser)
    add_trip(second_browser, server, "Lisbon Trams", "Spring Escapes")
    wait_until(browser, lambda d: "Lisbon Trams" in d.find_element(By.ID, "collection-listing").text)
    assert browser.execute_script("return window.__notReloaded === true")
