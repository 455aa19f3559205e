"""Back and Forward bring a screen back from the browser's back/forward cache, at once and as
it was left (scroll, typed text), and a change made elsewhere meanwhile shows on it: the live
stream catches up from the token the page holds."""

import pytest
from selenium.webdriver.common.by import By

from conftest import wait_until

SCREENS = ["/", "/trips", "/trips?group=destination", "/map", "/goals", "/search?q=kyoto", "/trips/1", "/data"]

MARK_RESTORE = "window.__restored = null; addEventListener('pageshow', e => { window.__restored = e.persisted })"


def go_back(driver):
    driver.back()
    wait_until(driver, lambda d: d.execute_script("return document.readyState") == "complete")


@pytest.mark.parametrize("path", SCREENS)
def test_back_restores_the_screen_from_the_back_forward_cache(server, browser, path):
    browser.get(server.url + path)
    browser.execute_script(MARK_RESTORE)
    browser.get(server.url + "/goals?elsewhere")
    go_back(browser)
    reasons = browser.execute_script(
        "return JSON.stringify(performance.getEntriesByType('navigation')[0].notRestoredReasons ?? null)")
    assert browser.execute_script("return window.__restored") is True, f"{path} was loaded again: {reasons}"


def test_a_screen_restored_by_back_shows_what_changed_while_it_was_away(server, browser):
    browser.get(server.url + "/goals")
    browser.execute_script(MARK_RESTORE)
    main_text = lambda d: d.execute_script("return document.querySelector('main').innerText")
    left = main_text(browser)
    browser.get(server.url + "/trips/4")
    remaining = browser.find_element(By.ID, "remaining-count").text
    browser.find_element(By.CSS_SELECTOR, "#activity-list button.check[aria-checked='false']").click()
    wait_until(browser, lambda d: d.find_element(By.ID, "remaining-count").text != remaining)
    browser.switch_to.new_window("tab")
    browser.get(server.url + "/goals")
    fresh = main_text(browser)
    browser.close()
    browser.switch_to.window(browser.window_handles[0])
    assert fresh != left
    go_back(browser)
    assert browser.execute_script("return window.__restored") is True
    # Several fragments may arrive one after another: wait for all of them, not the first.
    wait_until(browser, lambda d: main_text(d) == fresh)
