"""The four screens in a real Chromium, against a real server on seeded data."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import screenshot, wait_until

SEEDED_NEWEST_FIRST = ["Maui Rainforest", "Desert Off-Road", "Kona Deep Dive", "Hunting Auroras", "Hike Joshua Tree"]


def carousel_names(driver):
    return [el.text for el in driver.find_elements(By.CSS_SELECTOR, "#carousel .slide-name")]


def open_trip(driver, server, name):
    driver.get(server.url + "/search?q=" + name.replace(" ", "+"))
    driver.find_element(By.XPATH, f"//section[h2='Trips']//a[contains(., '{name}')]").click()
    wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == name)


# Read in one script call: fragments may be swapped between two WebDriver round trips.
def remaining_text(driver):
    return driver.execute_script("return document.getElementById('remaining-count').textContent.trim()")


def activity_names(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#activity-list .activity-name')].map(e => e.textContent.trim())")


def check(driver, activity_name):
    before = remaining_text(driver)
    driver.find_element(By.CSS_SELECTOR, f"#activity-list button.check[aria-label='{activity_name}']").click()
    wait_until(driver, lambda d: remaining_text(d) != before)


def test_wishlist_shows_recent_trips_and_four_collections(server, browser):
    browser.get(server.url + "/")
    assert browser.title == "Wishlist"
    assert carousel_names(browser) == SEEDED_NEWEST_FIRST
    titles = [el.text for el in browser.find_elements(By.CSS_SELECTOR, ".collection h2")]
    assert titles == ["Spring Escapes", "Summer Vibes", "Fall Getaways", "Winter Retreats"]
    summer = browser.find_element(By.ID, "collection-summerVibes")
    assert "Soak up open roads, salt water, and endless daylight" in summer.text
    spring_cards = [el.text for el in browser.find_elements(By.CSS_SELECTOR, "#collection-springEscapes .card-name")]
    assert spring_cards == ["Cali Coastal Trails", "Japan Mystique", "Mont Blanc Powder"]
    assert "6 ACTIVITIES" in browser.find_element(By.ID, "collection-springEscapes").text.upper()
    current = browser.find_element(By.CSS_SELECTOR, ".tabbar a[aria-current='page']")
    assert current.text == "Wishlist"
    screenshot(browser, "wishlist")


def test_new_trip_is_first_in_the_carousel(server, browser):
    browser.get(server.url + "/trips/new")
    browser.find_element(By.NAME, "name").send_keys("Lisbon Trams")
    Select(browser.find_element(By.NAME, "collection")).select_by_visible_text("Spring Escapes")
    browser.find_element(By.NAME, "subtitle").send_keys("Custard tarts and yellow trams")
    screenshot(browser, "new-trip")
    browser.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
    wait_until(browser, lambda d: d.current_url.rstrip("/") == server.url)
    assert carousel_names(browser)[0] == "Lisbon Trams"
    assert len(carousel_names(browser)) == 5


def test_new_trip_dialog_from_plus_and_title_required(server, browser):
    browser.get(server.url + "/")
    browser.find_element(By.CSS_SELECTOR, "a.add-trip").click()
    dialog = browser.find_element(By.ID, "new-trip-dialog")
    wait_until(browser, lambda d: dialog.is_displayed())
    screenshot(browser, "new-trip-dialog")
    dialog.find_element(By.CSS_SELECTOR, ".form-head button[type=submit]").click()
    # No title: the server answers with the form again and a message next to the field.
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".field-error"))
    assert "Enter a trip title" in browser.find_element(By.CSS_SELECTOR, ".field-error").text
    assert browser.find_element(By.NAME, "name").get_attribute("aria-invalid") == "true"


def test_check_off_activity_drops_remaining_count(server, browser):
    open_trip(browser, server, "Japan Mystique")
    assert remaining_text(browser) == "3 remaining activities"
    check(browser, "Visit the hillside wooden temples")
    assert remaining_text(browser) == "2 remaining activities"
    # The header is its own fragment: it may be swapped in a moment after the list.
    wait_until(browser, lambda d: "33%" in d.execute_script("return document.querySelector('.hero-progress-value').textContent"))
    screenshot(browser, "trip")


def test_sort_by_date_edited_moves_checked_activity_to_top_and_is_remembered(server, browser):
    open_trip(browser, server, "Japan Mystique")
    assert activity_names(browser) == ["Get Matcha soft serve in Gion", "Visit the hillside wooden temples",
                                       "Walk the canal paths at sunrise"]
    Select(browser.find_element(By.ID, "activity-sort")).select_by_visible_text("Date Edited")
    wait_until(browser, lambda d: Select(d.find_element(By.ID, "activity-sort")).first_selected_option.text == "Date Edited")
    check(browser, "Walk the canal paths at sunrise")
    wait_until(browser, lambda d: activity_names(d)[0] == "Walk the canal paths at sunrise")
    browser.refresh()
    assert Select(browser.find_element(By.ID, "activity-sort")).first_selected_option.text == "Date Edited"
    assert activity_names(browser)[0] == "Walk the canal paths at sunrise"
    # Remembered across pages too.
    open_trip(browser, server, "Kona Deep Dive")
    assert Select(browser.find_element(By.ID, "activity-sort")).first_selected_option.text == "Date Edited"


def test_edit_mode_adds_renames_and_deletes_activities(server, browser):
    open_trip(browser, server, "Mont Blanc Powder")
    browser.find_element(By.LINK_TEXT, "Edit").click()
    field = browser.find_element(By.ID, "new-activity-name")
    field.send_keys("Fondue at the hut", Keys.ENTER)
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "input[value='Fondue at the hut']"))
    screenshot(browser, "trip-edit")
    # Typed over, not cleared: Selenium's clear() leaves the field, which saves it.
    rename = browser.find_element(By.CSS_SELECTOR, "input[value='Snowshoe hike']")
    rename.send_keys(Keys.CONTROL, "a", Keys.NULL, "Snowshoe hike at dawn", Keys.ENTER)
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "input[value='Snowshoe hike at dawn']"))
    # A blank name is refused beside its field, and the other activities are untouched.
    blank = browser.find_element(By.CSS_SELECTOR, "input[value='Snowshoe hike at dawn']")
    blank.send_keys(Keys.CONTROL, "a", Keys.NULL, "   ", Keys.ENTER)
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".rename-form .field-error"))
    assert browser.find_element(By.CSS_SELECTOR, ".rename-form .field-error").text == "Enter an activity name."
    assert browser.find_element(By.CSS_SELECTOR, "input[aria-invalid='true']").get_attribute("name").startswith("activity-name-")
    browser.get(browser.current_url.split("?")[0] + "?edit=1")
    browser.find_element(By.CSS_SELECTOR, "[data-confirm-delete][aria-label='Delete “Fondue at the hut”']").click()
    dialog = browser.find_element(By.CSS_SELECTOR, "dialog.alert")
    assert "Are you sure you want to delete this activity?" in dialog.text
    dialog.find_element(By.XPATH, ".//button[.='Delete']").click()
    wait_until(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "input[value='Fondue at the hut']"))
    browser.execute_script("window.scrollTo(0, 0)")
    browser.find_element(By.CSS_SELECTOR, "[data-done]").click()
    wait_until(browser, lambda d: "edit=1" not in d.current_url)
    assert activity_names(browser) == ["Snowboarding in a t-shirt", "Snowshoe hike at dawn"]


def test_search_finds_activities_and_folds_accents(server, browser):
    browser.get(server.url + "/search")
    assert browser.find_element(By.ID, "recent-title").text == "Recent Trips"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#search-results .result")) == 3
    field = browser.find_element(By.ID, "search-field")
    field.send_keys("point reyes")
    wait_until(browser, lambda d: "See the elk herd at Point Reyes" in d.find_element(By.ID, "search-results").text)
    result = browser.find_element(By.CSS_SELECTOR, "#search-results .activity-result")
    assert "Cali Coastal Trails" in result.text
    # Each word of the query is marked on its own.
    assert [mark.text for mark in result.find_elements(By.TAG_NAME, "mark")] == ["Point", "Reyes"]
    screenshot(browser, "search")

    browser.get(server.url + "/trips/new")
    browser.find_element(By.NAME, "name").send_keys("Café Crawl in Montréal")
    browser.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
    wait_until(browser, lambda d: d.current_url.rstrip("/") == server.url)
    browser.get(server.url + "/search?q=CAFE+crawl")
    assert "Café Crawl in Montréal" in browser.find_element(By.ID, "search-results").text
    browser.get(server.url + "/search?q=montreal")
    assert browser.find_element(By.CSS_SELECTOR, "#search-results mark").text == "Montréal"


def test_search_without_results_says_so(server, browser):
    browser.get(server.url + "/search?q=zanzibar")
    text = browser.find_element(By.ID, "search-results").text
    assert "No results for “zanzibar”" in text
    assert "Check spelling or try a new search." in text


def test_goal_moves_from_upcoming_to_achieved(server, browser):
    browser.get(server.url + "/goals")
    achieved = [el.text for el in browser.find_elements(By.CSS_SELECTOR, "#goals-achieved h3")]
    assert set(achieved) == {"First Activity", "5 Activities", "First Trip", "Fall Explorer"}
    upcoming = browser.find_element(By.XPATH, "//li[@class='goal'][h3='10 Activities']")
    assert "9 of 10" in upcoming.text
    screenshot(browser, "goals")
    open_trip(browser, server, "Surf Steamer Lane")
    check(browser, "Surf at Pleasure Point")
    browser.get(server.url + "/goals")
    achieved = [el.text for el in browser.find_elements(By.CSS_SELECTOR, "#goals-achieved h3")]
    assert achieved[0] == "10 Activities"
    assert not browser.find_elements(By.XPATH, "//li[@class='goal'][h3='10 Activities']")


def test_everything_survives_a_restart(server, browser):
    open_trip(browser, server, "Into the Green")
    check(browser, "Cliff jump!")
    Select(browser.find_element(By.ID, "activity-sort")).select_by_visible_text("Completed")
    wait_until(browser, lambda d: activity_names(d)[0] == "Cliff jump!")
    server.restart()
    open_trip(browser, server, "Into the Green")
    assert remaining_text(browser) == "2 remaining activities"
    assert Select(browser.find_element(By.ID, "activity-sort")).first_selected_option.text == "Completed"
    assert activity_names(browser)[0] == "Cliff jump!"


def test_unknown_trip_is_a_friendly_404(server, browser):
    browser.get(server.url + "/trips/999999")
    assert "Not found" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_element(By.LINK_TEXT, "Back to Wishlist").get_attribute("href").rstrip("/") == server.url
    screenshot(browser, "not-found")
