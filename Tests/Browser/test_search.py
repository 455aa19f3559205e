"""Search paging in a real browser: "Show more" grows a list in place (and as a plain link),
and typing a new search starts again from the first page."""

import json
import subprocess

import pytest
from selenium.webdriver.common.by import By

from conftest import BINARY, WishlistServer, screenshot, wait_until

TRIPS = 45
ACTIVITIES = 25


@pytest.fixture
def atoll_server(tmp_path):
    """A wishlist of 45 trips called "Blue Atoll N", the last with 25 activities "Swim the atoll N"."""
    stamp = "2024-01-01T00:00:00.000Z"
    trips = [{"name": f"Blue Atoll {number}", "collection": "summerVibes", "creationDate": stamp, "activities": []}
             for number in range(1, TRIPS + 1)]
    trips[-1]["activities"] = [{"name": f"Swim the atoll {number}", "isComplete": number % 2 == 0,
                                "dateCreated": stamp, "dateEdited": stamp} for number in range(1, ACTIVITIES + 1)]
    archive = tmp_path / "atolls.json"
    archive.write_text(json.dumps({"format": "wishlist-archive", "formatVersion": 1, "exportedAt": stamp,
                                   "goals": [], "preferences": {}, "trips": trips}))
    data_dir = tmp_path / "data"
    subprocess.run([str(BINARY), "import", str(archive), "--data-dir", str(data_dir)], check=True, capture_output=True)
    server = WishlistServer(data_dir)
    server.start()
    yield server
    server.stop()


def shown(driver):
    """(trips, activities, counts) as on screen, read in one script call."""
    return driver.execute_script("""
        const results = document.getElementById('search-results');
        return [results.querySelectorAll('[id^=trip-result-]').length,
                results.querySelectorAll('[id^=activity-result-]').length,
                [...results.querySelectorAll('.result-count')].map(e => e.textContent.trim())];""")


def show_more(driver, noun):
    return driver.find_element(By.XPATH, f"//a[@data-show-more][normalize-space()='Show more {noun}']")


def click_show_more(driver, noun):
    link = show_more(driver, noun)
    # Centered first: at the edge of the window the fixed tab bar would take the click.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()


def in_view_below_the_tab_bar(driver, element_id):
    return driver.execute_script("""
        const box = document.getElementById(arguments[0]).getBoundingClientRect();
        const bar = document.querySelector('.tabbar').getBoundingClientRect();
        const top = bar.top < 1 ? bar.bottom : 0, bottom = bar.top < 1 ? innerHeight : bar.top;
        return window.scrollY > 0 && box.top >= top && box.bottom <= bottom;""", element_id)


def test_show_more_grows_the_list_in_place_and_a_new_search_starts_over(atoll_server, browser):
    browser.get(atoll_server.url + "/search")
    browser.execute_script("window.__notReloaded = true")
    browser.find_element(By.ID, "search-field").send_keys("atoll")
    wait_until(browser, lambda d: shown(d) == [20, 20, ["20 of 45", "20 of 25"]])

    click_show_more(browser, "trips")
    wait_until(browser, lambda d: shown(d) == [40, 20, ["40 of 45", "20 of 25"]])
    assert browser.execute_script("return window.__notReloaded === true")
    assert browser.current_url == atoll_server.url + "/search?q=atoll&trips=2"
    # Focus lands on the first new result, which is scrolled into view.
    wait_until(browser, lambda d: d.execute_script(
        "return document.activeElement === document.querySelector('#trip-result-21 a')"))
    assert in_view_below_the_tab_bar(browser, "trip-result-21")
    screenshot(browser, "search-show-more")

    click_show_more(browser, "activities")
    wait_until(browser, lambda d: shown(d) == [40, 25, ["40 of 45", "25"]])
    assert not browser.find_elements(By.XPATH, "//a[normalize-space()='Show more activities']")
    click_show_more(browser, "trips")
    wait_until(browser, lambda d: shown(d) == [45, 25, ["45", "25"]])
    assert not browser.find_elements(By.CSS_SELECTOR, "a[data-show-more]")

    field = browser.find_element(By.ID, "search-field")
    field.send_keys(" 1")  # "atoll" and "1": Blue Atoll 1, 10–19, 21, 31, 41; Swim the atoll 1, 10–19, 21
    wait_until(browser, lambda d: shown(d) == [14, 12, ["14", "12"]])
    assert browser.current_url == atoll_server.url + "/search?q=atoll%201"
    assert browser.execute_script("return window.__notReloaded === true")


def test_show_more_is_a_plain_link_that_scrolls_to_the_new_results(atoll_server, browser):
    browser.get(atoll_server.url + "/search?q=ATOLL")
    href = show_more(browser, "trips").get_attribute("href")
    assert href == atoll_server.url + "/search?q=ATOLL&trips=2#trip-result-21"
    browser.get(href)  # a navigation, as without JavaScript
    assert shown(browser) == [40, 20, ["40 of 45", "20 of 25"]]
    assert in_view_below_the_tab_bar(browser, "trip-result-21")
