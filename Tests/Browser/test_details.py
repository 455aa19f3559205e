"""The small things a person trips over (#33, item 11): a 0-byte photo is called empty, a phone
is not told to drop photos, the tab bar stays put between short and long pages, the "Saved"
note covers no button, a new trip's collection follows its dates' season, and the carousel's
focus ring shows over the photo."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import DESKTOP, PHONE, wait_until
from test_edits import open_edit_mode
from test_in_place import rename_values
from test_trip_fields import type_dates


def test_an_empty_photo_is_called_empty(server, browser, tmp_path):
    empty = tmp_path / "beach.jpg"
    empty.write_bytes(b"")
    browser.get(server.url + "/trips/new")
    browser.find_element(By.CSS_SELECTOR, "input[type=file][name=photo]").send_keys(str(empty))
    problem = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-photo-problem]:not([hidden])"))
    assert problem.text == "“beach.jpg” is empty (0 bytes). Choose the photo again."


def test_a_phone_is_not_told_to_drop_a_photo(server, browser):
    for size, shown in ((PHONE, False), (DESKTOP, True)):
        browser.set_window_size(*size)
        browser.get(server.url + "/trips/new")
        assert browser.find_element(By.CSS_SELECTOR, ".drop-hint").is_displayed() == shown, size


def test_the_tab_bar_stays_put_between_a_short_page_and_a_long_one(server, browser):
    def tab_positions(path, scrolls):
        browser.get(server.url + path)
        assert browser.execute_script("return document.documentElement.scrollHeight > innerHeight") == scrolls, path
        return browser.execute_script("return [...document.querySelectorAll('.tabbar .tab')].map(t => Math.round(t.getBoundingClientRect().left))")
    assert tab_positions("/", scrolls=True) == tab_positions("/trips/999999", scrolls=False)


def test_the_saved_note_covers_no_button(server, browser):
    browser.set_window_size(*PHONE)
    open_edit_mode(browser, server)
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    field = browser.find_element(By.CSS_SELECTOR, "#activity-list input[data-rename-url]")
    field.send_keys(Keys.CONTROL, "a", Keys.NULL, "Glacier walk at noon", Keys.ENTER)
    wait_until(browser, lambda d: "Glacier walk at noon" in rename_values(d))
    # The field shows what was typed at once; the note comes with the save's answer.
    wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#save-note.is-shown"))
    covered = browser.execute_script("""
        const note = document.getElementById('save-note').getBoundingClientRect();
        return [...document.querySelectorAll('button, a')].filter((el) => {
          const box = el.getBoundingClientRect();
          return box.width && box.bottom > note.top && box.top < note.bottom && box.right > note.left && box.left < note.right;
        }).map((el) => el.textContent.trim());""")
    assert covered == [], covered


def test_a_new_trips_collection_follows_the_season_of_its_start_until_one_is_picked(server, browser):
    browser.get(server.url + "/trips/new?collection=springEscapes")
    collection = Select(browser.find_element(By.NAME, "collection"))
    type_dates(browser, (2027, 7, 10), (2027, 7, 20))
    assert collection.first_selected_option.text == "Summer Vibes"
    collection.select_by_visible_text("Fall Getaways")
    type_dates(browser, (2027, 12, 27), (2028, 1, 3))
    assert collection.first_selected_option.text == "Fall Getaways", "a collection picked by hand stays"


def test_the_carousel_focus_ring_shows_over_the_photo(server, browser):
    browser.get(server.url + "/")
    link = browser.find_element(By.CSS_SELECTOR, "#carousel .slide a")
    for _ in range(20):  # by keyboard, as :focus-visible wants
        if browser.switch_to.active_element == link:
            break
        browser.switch_to.active_element.send_keys(Keys.TAB)
    assert browser.switch_to.active_element == link
    ring = browser.execute_script("return getComputedStyle(arguments[0], '::after').boxShadow", link)
    assert "inset" in ring, ring


CONTRAST = """
const parse = (color) => color.match(/[\\d.]+/g).slice(0, 3).map(Number);
const luminance = (rgb) => { const [r, g, b] = rgb.map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
                             return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const probe = document.createElement("div");
document.body.append(probe);
const resolved = (variable) => { probe.style.color = `var(${variable})`; return parse(getComputedStyle(probe).color); };
const ratio = (a, b) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const rings = ["--focus", "--accent"], behind = ["--bg", "--surface", "--surface-2"];
const result = rings.flatMap((ring) => behind.map((under) => [ring, under, ratio(resolved(ring), resolved(under))]));
probe.remove();
return result;
"""


def test_every_focus_ring_stands_out_from_what_is_behind_it_in_both_themes(server, browser):
    from test_layout import set_theme
    browser.get(server.url + "/")
    for scheme in ("dark", "light"):
        set_theme(browser, scheme)
        for ring, under, ratio in browser.execute_script(CONTRAST):
            assert ratio >= 3, f"{scheme}: {ring} on {under} is {ratio:.2f}:1"


def test_place_suggestions_in_the_new_trip_sheet_on_a_phone_show_whole(server, browser):
    browser.set_window_size(*PHONE)
    browser.get(server.url + "/")
    browser.find_element(By.CSS_SELECTOR, "[data-opens-dialog]").click()
    sheet = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.sheet[open]"))
    sheet.find_element(By.NAME, "destination").send_keys("santa")
    wait_until(browser, lambda d: len(sheet.find_elements(By.CSS_SELECTOR, "[role=option]")) >= 6)
    visible = browser.execute_script("""
        const sheet = arguments[0].getBoundingClientRect(), list = arguments[0].querySelector('.place-suggestions').getBoundingClientRect();
        return [...arguments[0].querySelectorAll('[role=option]')].filter((option) => {
          const box = option.getBoundingClientRect();
          return box.top >= Math.max(sheet.top, list.top) - 1 && box.bottom <= Math.min(sheet.bottom, list.bottom) + 1;
        }).length;""", sheet)
    assert visible >= 5, f"{visible} places show whole"
