"""Deletes offer an undo: the notice "Deleted “X”." with its Undo button is focused, and Undo puts
back what went where it was, with and without JavaScript; another tab sees it come back live."""

import pytest
from selenium.webdriver.common.by import By

from conftest import make_driver, screenshot, wait_until
from test_edits import TRIP, open_edit_mode
from test_screens import activity_names, open_trip

# Each activity's name and checked state, in the order shown (edit mode: the names are in fields).
CHECKLIST = """
return [...document.querySelectorAll('#activity-list .activity')].map((row) =>
  [row.querySelector('input[data-rename-url]')?.value ?? row.querySelector('.activity-name').textContent.trim(),
   row.querySelector('.check').getAttribute('aria-checked')]);
"""


@pytest.fixture
def scriptless_browser():
    driver = make_driver(javascript=False)
    yield driver
    driver.quit()


def notice(driver):
    return wait_until(driver, lambda d: d.find_elements(By.ID, "undo-notice"))[0]


def test_undoing_an_activity_delete_puts_it_back_in_place_and_other_tabs_see_it(server, browser, second_browser):
    open_edit_mode(browser, server)
    open_trip(second_browser, server, TRIP)
    browser.find_element(By.CSS_SELECTOR, "button.check[aria-label='Snowshoe hike']").click()
    wait_until(browser, lambda d: ["Snowshoe hike", "true"] in d.execute_script(CHECKLIST))
    before = browser.execute_script(CHECKLIST)

    browser.find_element(By.CSS_SELECTOR, "[data-confirm-delete][aria-label='Delete “Snowshoe hike”']").click()
    browser.find_element(By.CSS_SELECTOR, "dialog.alert[open]").find_element(By.XPATH, ".//button[.='Delete']").click()
    box = notice(browser)
    assert box.text.startswith("Deleted “Snowshoe hike”.") and box.get_attribute("role") == "status"
    assert browser.switch_to.active_element == box, "focused, so it is read out and Undo is next"
    wait_until(second_browser, lambda d: "Snowshoe hike" not in activity_names(d))
    screenshot(browser, "undo-notice-activity")

    box.find_element(By.XPATH, ".//button[.='Undo']").click()
    wait_until(browser, lambda d: not d.find_elements(By.ID, "undo-notice") and d.execute_script(CHECKLIST) == before)
    wait_until(second_browser, lambda d: "Snowshoe hike" in activity_names(d))


def test_undoing_a_trip_delete_without_javascript_brings_it_back_whole(server, scriptless_browser):
    driver = scriptless_browser
    open_trip(driver, server, TRIP)
    before = (driver.execute_script(CHECKLIST), driver.find_element(By.CSS_SELECTOR, "#trip-header img").get_attribute("src"),
              driver.find_element(By.CSS_SELECTOR, "#trip-header .eyebrow").text)
    driver.get(driver.current_url + "?edit=1")
    driver.find_element(By.XPATH, "//button[normalize-space()='Delete Trip']").click()
    # The confirmation is a page of its own: found once it has loaded.
    wait_until(driver, lambda d: d.find_element(By.XPATH, "//button[.='Delete']")).click()
    box = notice(driver)
    assert box.text.startswith(f"Deleted “{TRIP}”.")
    assert not driver.find_elements(By.CSS_SELECTOR, f".card[title='{TRIP}']")
    screenshot(driver, "undo-notice-trip")

    box.find_element(By.XPATH, ".//button[.='Undo']").click()
    wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == TRIP)
    assert (driver.execute_script(CHECKLIST), driver.find_element(By.CSS_SELECTOR, "#trip-header img").get_attribute("src"),
            driver.find_element(By.CSS_SELECTOR, "#trip-header .eyebrow").text) == before
