"""The map is explored, not just looked at (#33, item 10): its buttons, the keyboard, the wheel
and a drag zoom and pan it over the bundled basemap, pins keep their size on screen, Fit
brings every pin back into view, and trips at one place share a pin that opens their list."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import pytest

from conftest import make_driver, screenshot, wait_until
from test_layout import WIDTHS
from test_trip_fields import pick_kyoto_from_suggestions


def view_box(driver):
    return [float(value) for value in driver.execute_script("return document.querySelector('.map-drawing').getAttribute('viewBox')").split()]


def first_pin_radius(driver):
    return float(driver.execute_script("return document.querySelector('.map-pins circle').getAttribute('r')"))


def test_the_map_zooms_and_pans_by_buttons_keys_wheel_and_drag(server, browser):
    browser.get(server.url + "/map")
    zoom_in = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "button[aria-label='Zoom in']"))
    fitted, radius = view_box(browser), first_pin_radius(browser)

    zoom_in.click()
    x, y, width, height = view_box(browser)
    assert abs(width - fitted[2] / 2) < 0.01 and abs(height - fitted[3] / 2) < 0.01
    assert abs(first_pin_radius(browser) - radius / 2) < 0.01, "a pin keeps its size on screen"
    screenshot(browser, "map-zoomed")

    figure = browser.find_element(By.CSS_SELECTOR, ".map-figure")
    figure.send_keys(Keys.ARROW_RIGHT)
    assert view_box(browser)[0] > x
    figure.send_keys("0")
    assert view_box(browser) == fitted

    browser.execute_script("""
        const svg = arguments[0], box = svg.getBoundingClientRect();
        svg.dispatchEvent(new WheelEvent('wheel', {deltaY: -100, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2,
                                                   bubbles: true, cancelable: true}));""",
                           browser.find_element(By.CSS_SELECTOR, ".map-drawing"))
    assert view_box(browser)[2] < fitted[2]

    browser.find_element(By.CSS_SELECTOR, "button[aria-label='Fit every pin']").click()
    assert view_box(browser) == fitted
    drawing = browser.find_element(By.CSS_SELECTOR, ".map-drawing")
    ActionChains(browser).move_to_element_with_offset(drawing, 10, 60).click_and_hold().move_by_offset(-40, 0).release().perform()
    assert view_box(browser)[0] > fitted[0], "dragging left shows what lies east"
    assert browser.current_url == server.url + "/map"


def add_a_second_trip_to_kyoto(driver, server):
    driver.get(server.url + "/trips/new")
    driver.find_element(By.NAME, "name").send_keys("Maple Season")
    pick_kyoto_from_suggestions(driver).send_keys(Keys.ENTER)
    driver.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
    wait_until(driver, lambda d: d.current_url.rstrip("/") == server.url)


def kyoto_pins(driver):
    return [pin for pin in driver.find_elements(By.CSS_SELECTOR, ".map-pins a")
            if "Kyoto" in pin.find_element(By.TAG_NAME, "title").get_attribute("textContent")]


@pytest.mark.parametrize("width", WIDTHS)
def test_trips_at_one_place_share_a_pin_that_opens_their_list(server, browser, width):
    add_a_second_trip_to_kyoto(browser, server)
    browser.set_window_size(*WIDTHS[width])
    browser.get(server.url + "/map")
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".map-controls"))
    [pin] = kyoto_pins(browser)
    assert pin.find_element(By.TAG_NAME, "text").text == "2", "one pin with the count, not two dots on one spot"
    place = browser.find_element(By.CSS_SELECTOR, ".map-list .map-place")

    pin.click()
    wait_until(browser, lambda d: d.execute_script("return arguments[0].matches(':target')", place))
    assert browser.switch_to.active_element == place, "the keyboard goes on from the list"
    assert browser.current_url.startswith(server.url + "/map#"), "the list beside the map, not a search"
    names = [link.text for link in place.find_elements(By.CSS_SELECTOR, "ul a")]
    assert "Maple Season" in names and len(names) == 2
    screenshot(browser, f"map-place-open-{width}")
    place.find_element(By.LINK_TEXT, "Maple Season").click()
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Maple Season")


def test_without_script_a_shared_pin_links_to_its_list(server, browser):
    add_a_second_trip_to_kyoto(browser, server)
    driver = make_driver(javascript=False)
    try:
        driver.get(server.url + "/map")
        [pin] = kyoto_pins(driver)
        place = driver.find_element(By.CSS_SELECTOR, ".map-list .map-place")
        assert pin.get_dom_attribute("href") == "#" + place.get_attribute("id")
        assert len(place.find_elements(By.CSS_SELECTOR, "ul a")) == 2
    finally:
        driver.quit()
