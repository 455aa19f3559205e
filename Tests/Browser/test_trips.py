"""The Trips tab (by start date, grouped by destination) and the Map tab (pins over an offline
SVG world that refits live when trips change)."""

from selenium.webdriver.common.by import By

from conftest import screenshot, wait_until
from test_layout import set_theme
from test_live import live_connected, mark_page, not_reloaded

SANTA_CRUZ = "Santa Cruz, California, United States of America"


def sections(driver):
    """Each destination section's name, count and trip names, read in one script call."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#trips-list section.destination')].map(s => [
            s.querySelector('.destination-name').textContent, s.querySelector('.count').textContent,
            [...s.querySelectorAll('.card-name')].map(t => t.textContent.trim())]);""")


def view_box(driver):
    return driver.execute_script("return document.querySelector('#trip-map svg').getAttribute('viewBox')")


def test_seed_trips_sit_in_their_destinations_sections(server, browser):
    browser.get(server.url + "/trips")
    assert browser.find_element(By.CSS_SELECTOR, ".tab-trips").get_attribute("aria-current") == "page"
    browser.find_element(By.LINK_TEXT, "Group by destination").click()
    wait_until(browser, lambda d: len(sections(d)) == 11)
    by_name = {name: (count, trips) for name, count, trips in sections(browser)}
    count, trips = by_name[SANTA_CRUZ]
    assert count == "2 trips"
    assert trips == ["Cali Coastal Trails", "Surf Steamer Lane"]  # by start date: April, then July
    assert by_name["Kyoto, Japan"][0] == "1 trip"
    assert [name for name, _, _ in sections(browser)] == sorted(by_name)


def test_the_map_shows_a_pin_per_place_and_lists_its_trips(server, browser):
    browser.get(server.url + "/map")
    # Twelve trips at eleven places: the two in Santa Cruz share a pin.
    assert len(browser.find_elements(By.CSS_SELECTOR, "#trip-map svg circle")) == 11
    links = browser.find_elements(By.CSS_SELECTOR, ".map-list li a")
    assert len(links) == 12
    kyoto = next(link for link in links if "Kyoto, Japan" in link.text)
    kyoto.click()
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Japan Mystique")


def test_deleting_a_trip_in_another_window_refits_the_map(server, browser, second_browser):
    viewer, editor = browser, second_browser
    viewer.get(server.url + "/map")
    live_connected(viewer)
    mark_page(viewer)
    before = view_box(viewer)
    editor.get(server.url + "/map")
    annecy = editor.find_element(By.XPATH, "//section[@class='map-list']//a[contains(., 'Annecy')]").get_attribute("href")
    editor.get(annecy + "/delete")
    editor.find_element(By.CSS_SELECTOR, "form button.danger").click()
    wait_until(editor, lambda d: "/trips/" not in d.current_url or d.find_element(By.TAG_NAME, "h1").text != "Mont Blanc Powder")
    # Annecy was the westmost pin past the Atlantic, the widest gap: the view narrows.
    wait_until(viewer, lambda d: view_box(d) != before)
    assert len(viewer.find_elements(By.CSS_SELECTOR, "#trip-map svg circle")) == 10
    assert float(view_box(viewer).split()[2]) < float(before.split()[2])
    assert not_reloaded(viewer)


def test_screenshots_of_the_trips_and_map_tabs(server, browser):
    for theme in ("dark", "light"):
        set_theme(browser, theme)
        for name, path in (("trips", "/trips"), ("trips-by-destination", "/trips?group=destination"), ("map", "/map")):
            browser.get(server.url + path)
            screenshot(browser, f"{name}-{theme}")
