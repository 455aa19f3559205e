"""The map is explored, not just looked at (#33, item 10): its buttons, the keyboard, the wheel
and a drag zoom and pan it over the bundled basemap, pins keep their size on screen, and Fit
brings every pin back into view."""

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import screenshot, wait_until


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
