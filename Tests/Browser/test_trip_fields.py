"""Destination and dates in a real Chromium: picking a place from the suggestions with the
keyboard, the same without script through Find place, a refused end date that keeps what was
typed, and long destinations on every screen that shows them."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import make_driver, screenshot, wait_until
from test_a11y import violations
from test_layout import OVERFLOWING, WIDTHS

LONG_DESTINATION = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch, Anglesey, by the long coast path of Wales"
KYOTO_LINE = "Kyoto, Japan · 28 Mar – 6 Apr 2027"


def card_where_and_when(card):
    """A card's destination and dates, as the trip header shows them on one line."""
    return " · ".join(card.find_element(By.CSS_SELECTOR, selector).text for selector in (".card-where", ".card-when"))


def type_dates(driver, start, end):
    # Chromium's date field takes the digits in the order it shows them (month, day, year here).
    for name, (year, month, day) in (("startDate", start), ("endDate", end)):
        field = driver.find_element(By.NAME, name)
        field.click()
        field.send_keys(f"{month:02d}{day:02d}{year}")


def pick_kyoto_from_suggestions(driver):
    destination = driver.find_element(By.NAME, "destination")
    destination.send_keys("kyoto")
    listbox = driver.find_element(By.CSS_SELECTOR, "[data-place-suggestions]")
    wait_until(driver, lambda d: listbox.is_displayed() and "Kyoto, Japan" in listbox.text)
    assert destination.get_attribute("aria-expanded") == "true"
    assert destination.get_attribute("role") == "combobox" and destination.get_attribute("aria-controls") == listbox.get_attribute("id")
    destination.send_keys(Keys.ARROW_DOWN)
    active = destination.get_attribute("aria-activedescendant")
    option = driver.find_element(By.ID, active)
    assert option.get_attribute("aria-selected") == "true" and option.text == "Kyoto, Japan"
    return destination


def test_a_trip_is_created_by_typing_kyoto_and_picking_kyoto_japan_with_dates(server, browser):
    browser.get(server.url + "/trips/new")
    assert not browser.find_element(By.CSS_SELECTOR, "[data-place-find]").is_displayed(), "suggestions replace Find place"
    browser.find_element(By.NAME, "name").send_keys("Temples at Dawn")
    destination = pick_kyoto_from_suggestions(browser)
    assert violations(browser) == [], "the open suggestions are a valid combobox and listbox"
    screenshot(browser, "new-trip-place-suggestions")
    destination.send_keys(Keys.ENTER)
    assert destination.get_attribute("value") == "Kyoto, Japan"
    assert browser.find_element(By.NAME, "place").get_attribute("value") != ""
    assert browser.current_url.endswith("/trips/new"), "Enter picks the suggestion and does not submit"
    type_dates(browser, (2027, 3, 28), (2027, 4, 6))
    browser.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
    wait_until(browser, lambda d: d.current_url.rstrip("/") == server.url)
    card = browser.find_element(By.CSS_SELECTOR, ".card[title='Temples at Dawn']")
    assert card_where_and_when(card) == KYOTO_LINE
    card.click()
    wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".trip-where").text == KYOTO_LINE)
    screenshot(browser, "trip-header-destination")
    trip_url = browser.current_url
    # In its destination's section on the Trips tab, beside the other Kyoto trip, and a pin on the map.
    browser.get(server.url + "/trips?group=destination")
    kyoto = browser.find_element(By.XPATH, "//section[contains(@class, 'destination')][.//*[contains(@class, 'destination-name')][.='Kyoto, Japan']]")
    assert "Temples at Dawn" in kyoto.text and "Japan Mystique" in kyoto.text
    browser.get(server.url + "/map")
    # Two trips in Kyoto now: one pin, its list naming both.
    place = browser.find_element(By.XPATH, "//*[contains(@class, 'map-place')][.//a[.='Temples at Dawn']]")
    assert "2 trips · Kyoto, Japan" in place.text and "Japan Mystique" in place.text
    assert place.find_element(By.LINK_TEXT, "Temples at Dawn").get_attribute("href") == trip_url
    browser.get(trip_url)
    # Typing after a pick makes the destination free text again.
    browser.get(browser.current_url + "?edit=1")
    destination = browser.find_element(By.NAME, "destination")
    assert browser.find_element(By.NAME, "place").get_attribute("value") != ""
    destination.send_keys(" old town")
    assert browser.find_element(By.NAME, "place").get_attribute("value") == ""


def test_without_script_find_place_offers_the_places_and_saves_the_one_chosen(server):
    driver = make_driver(javascript=False)
    try:
        driver.get(server.url + "/trips/new")
        driver.find_element(By.NAME, "name").send_keys("Temples by Radio")
        driver.find_element(By.NAME, "destination").send_keys("kyoto")
        type_dates(driver, (2027, 3, 28), (2027, 4, 6))
        driver.find_element(By.CSS_SELECTOR, "[data-place-find]").click()
        wait_until(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".place-choices"))
        assert driver.find_element(By.NAME, "name").get_attribute("value") == "Temples by Radio"
        assert driver.find_element(By.NAME, "startDate").get_attribute("value") == "2027-03-28"
        choice = driver.find_element(By.XPATH, "//label[contains(@class, 'place-choice')][normalize-space()='Kyoto, Japan']")
        screenshot(driver, "new-trip-find-place-without-script")
        choice.click()
        driver.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
        wait_until(driver, lambda d: d.current_url.rstrip("/") == server.url)
        card = driver.find_element(By.CSS_SELECTOR, ".card[title='Temples by Radio']")
        assert card_where_and_when(card) == KYOTO_LINE
    finally:
        driver.quit()


def test_an_end_before_the_start_shows_the_message_and_keeps_every_value(server, browser):
    browser.get(server.url + "/trips/new")
    browser.find_element(By.NAME, "name").send_keys("Backwards")
    pick_kyoto_from_suggestions(browser).send_keys(Keys.ENTER)
    token = browser.find_element(By.NAME, "place").get_attribute("value")
    type_dates(browser, (2027, 4, 6), (2027, 3, 28))
    browser.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
    wait_until(browser, lambda d: d.find_elements(By.ID, "new-trip-endDate-error"))
    message = browser.find_element(By.ID, "new-trip-endDate-error").text
    assert message.startswith("The end date is before the start date")
    end = browser.find_element(By.NAME, "endDate")
    assert end.get_attribute("aria-invalid") == "true" and end.get_attribute("aria-describedby") == "new-trip-endDate-error"
    values = {name: browser.find_element(By.NAME, name).get_attribute("value") for name in ("name", "destination", "place", "startDate", "endDate")}
    assert values == {"name": "Backwards", "destination": "Kyoto, Japan", "place": token, "startDate": "2027-04-06", "endDate": "2027-03-28"}
    screenshot(browser, "new-trip-end-before-start")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_long_destination_breaks_no_layout(server, browser, width):
    browser.get(server.url + "/trips/new")
    browser.find_element(By.NAME, "name").send_keys("Anglesey")
    browser.find_element(By.NAME, "destination").send_keys(LONG_DESTINATION)
    type_dates(browser, (2027, 12, 27), (2028, 1, 3))
    browser.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
    wait_until(browser, lambda d: d.current_url.rstrip("/") == server.url)
    trip_url = browser.find_element(By.CSS_SELECTOR, ".card[title='Anglesey']").get_attribute("href")
    browser.set_window_size(*WIDTHS[width])
    for url in (server.url + "/", trip_url, trip_url + "?edit=1", server.url + "/search?q=anglesey"):
        browser.get(url)
        assert browser.execute_script(OVERFLOWING) == [], url
    browser.get(server.url + "/")
    meta = browser.find_element(By.CSS_SELECTOR, ".card[title='Anglesey'] .card-where")
    assert meta.size["height"] < 1.5 * float(meta.value_of_css_property("line-height").rstrip("px")), "cut to one line"
    when = browser.find_element(By.CSS_SELECTOR, ".card[title='Anglesey'] .card-when")
    assert when.text == "27 Dec 2027 – 3 Jan 2028", "the dates stay whole beside a long destination"
    assert browser.execute_script("return arguments[0].scrollHeight <= arguments[0].clientHeight + 1", when)
    if width == "desktop":
        screenshot(browser, "card-long-destination")
        browser.get(trip_url)
        screenshot(browser, "trip-header-long-destination")


def test_grouped_by_destination_cards_say_their_dates_not_the_place_again(server, browser):
    browser.get(server.url + "/trips?group=destination")
    section = browser.find_element(By.CSS_SELECTOR, "section[aria-labelledby='destination-1']")
    cards = section.find_elements(By.CSS_SELECTOR, ".card")
    assert cards and not section.find_elements(By.CSS_SELECTOR, ".card-where")
    assert all(card.find_element(By.CSS_SELECTOR, ".card-when").text for card in cards)

