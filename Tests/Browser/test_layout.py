"""Layouts that hold any name, the paged carousel, card styles, empty states and the light theme,
in a real Chromium at phone and desktop width."""

import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from conftest import DESKTOP, PHONE, screenshot, wait_until

WELSH = "Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch"
LONG_NAME = f"Walk to {WELSH} by the Anglesey coast path, a night in every harbour between the Menai bridges"
WIDTHS = {"phone": PHONE, "desktop": DESKTOP}

# Elements wider than the viewport, leaving out what a clipping or scrolling ancestor keeps in
# bounds (card rows and the carousel scroll sideways on purpose) and the off-screen skip link.
OVERFLOWING = """
const width = document.documentElement.clientWidth;
const clipped = (element) => {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    if (getComputedStyle(parent).overflowX !== "visible") {
      const box = parent.getBoundingClientRect();
      if (box.left >= -1 && box.right <= width + 1) return true;
    }
  }
  return false;
};
return [...document.body.querySelectorAll("*")].filter((element) => {
  const box = element.getBoundingClientRect();
  if (box.width === 0 || element.closest(".skip-link, .visually-hidden")) return false;
  return (box.right > width + 1 || box.left < -1) && !clipped(element);
}).map((element) => element.tagName + "." + element.className + " " + element.textContent.slice(0, 40));
"""


def add_trip(driver, server, name, collection):
    driver.get(server.url + "/trips/new")
    driver.find_element(By.NAME, "name").send_keys(name)
    Select(driver.find_element(By.NAME, "collection")).select_by_visible_text(collection)
    driver.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
    wait_until(driver, lambda d: d.current_url.rstrip("/") == server.url)
    return driver.find_element(By.CSS_SELECTOR, f".card[title='{name}']").get_attribute("href")


def boxes(driver, selector):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => { const b = e.getBoundingClientRect();"
        " return {left: b.left, top: b.top, width: b.width, height: b.height}; })", selector)


def set_theme(driver, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


@pytest.mark.parametrize("width", WIDTHS)
def test_a_long_single_word_on_a_photos_page_overflows_nothing(server, browser, tmp_path, width):
    trip_url = add_trip(browser, server, LONG_NAME, "Spring Escapes")
    photo = tmp_path / "photo.jpg"
    subprocess.run(["vips", "gaussnoise", str(photo), "600", "400"], check=True)
    browser.get(trip_url)
    browser.find_element(By.ID, "gallery-files").send_keys(str(photo))
    link = wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#trip-gallery .gallery-link"), timeout=30)
    page = link[0].get_attribute("href")
    browser.set_window_size(*WIDTHS[width])
    browser.get(page)
    assert browser.execute_script(OVERFLOWING) == [], page


@pytest.mark.parametrize("width", WIDTHS)
def test_a_long_single_word_keeps_its_row_even_and_nothing_overflows(server, browser, width):
    assert len(WELSH) == 58 and len(LONG_NAME) == 145
    trip_url = add_trip(browser, server, LONG_NAME, "Spring Escapes")
    browser.set_window_size(*WIDTHS[width])
    for url in (server.url + "/", trip_url, server.url + "/search?q=Llanfair", server.url + "/collections/springEscapes"):
        browser.get(url)
        assert browser.execute_script(OVERFLOWING) == [], url
    browser.get(server.url + "/")
    cards = boxes(browser, "#collection-springEscapes .card")
    images = boxes(browser, "#collection-springEscapes .card-image")
    assert len(cards) == 4
    assert len({(round(c["width"]), round(c["height"])) for c in cards}) == 1, cards
    assert len({(round(i["width"]), round(i["height"])) for i in images}) == 1, images
    card = browser.find_element(By.CSS_SELECTOR, f".card[title='{LONG_NAME}']")
    assert LONG_NAME in card.accessible_name, "the clamped name is still whole for a screen reader"
    slide = browser.find_element(By.CSS_SELECTOR, "#carousel .slide a")
    assert slide.get_attribute("title") == LONG_NAME and LONG_NAME in slide.accessible_name


# A text element's lines, height and whether it is cut short (clamped or clipped).
TEXT_BOX = """
const element = document.querySelector(arguments[0]);
const lineHeight = parseFloat(getComputedStyle(element).lineHeight);
return {text: element.textContent, height: element.getBoundingClientRect().height,
        lines: Math.round(element.getBoundingClientRect().height / lineHeight), cut: element.scrollHeight > element.clientHeight + 1};
"""
# The 200-character limit, of long words and short.
LIMIT_NAME = (LONG_NAME + " and back along the " + WELSH)[:200]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", [LONG_NAME, LIMIT_NAME], ids=["145", "200"])
def test_a_long_trip_name_scales_down_whole_on_the_trip_page_and_clamps_in_the_carousel(server, browser, width, name):
    trip_url = add_trip(browser, server, name, "Summer Vibes")
    browser.set_window_size(*WIDTHS[width])
    viewport = browser.execute_script("return window.innerHeight")
    for url in (trip_url, trip_url + "?edit=1"):
        browser.get(url)
        title = browser.execute_script(TEXT_BOX, ".trip-title h1")
        assert title["text"] == name and not title["cut"], "read in full on its own page"
        assert title["height"] <= 0.25 * viewport, title
        assert browser.execute_script(OVERFLOWING) == [], url
        screenshot(browser, f"long-name-{len(name)}{'-edit' if 'edit' in url else ''}")
    browser.get(server.url + "/")
    slide_name = browser.execute_script(TEXT_BOX, "#carousel .slide-name")
    assert slide_name["lines"] <= 3, slide_name
    slide = browser.find_element(By.CSS_SELECTOR, "#carousel .slide a")
    assert slide.get_attribute("title") == name and name in slide.accessible_name


def visible_slide(driver):
    """The 1-based position of the slide filling the track, once it has come to rest."""
    return driver.execute_script("""
      const track = document.querySelector("[data-carousel-track]"); const box = track.getBoundingClientRect();
      const slides = [...track.children];
      const index = slides.findIndex(s => Math.abs(s.getBoundingClientRect().left - box.left) < 2);
      return index + 1;""")


@pytest.mark.parametrize("width", WIDTHS)
def test_slide_five_is_reachable_by_button_and_by_keyboard(server, browser, width):
    browser.set_window_size(*WIDTHS[width])
    browser.get(server.url + "/")
    track, = boxes(browser, "[data-carousel-track]")
    slides = boxes(browser, "#carousel .slide")
    assert len(slides) == 5 and all(abs(s["width"] - track["width"]) < 1 for s in slides), "one full-width slide at a time"
    if width == "phone":
        hero = boxes(browser, "#carousel .slide a")[0]
        assert hero["height"] >= 0.6 * browser.execute_script("return innerHeight"), "the hero fills most of the phone screen"
    nxt = browser.find_element(By.CSS_SELECTOR, ".carousel-button.next")
    for expected in range(2, 6):
        nxt.click()
        wait_until(browser, lambda d: visible_slide(d) == expected)
    wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "[data-carousel-status]").get_attribute("textContent")
               == "Slide 5 of 5: Hike Joshua Tree")
    current = browser.find_element(By.CSS_SELECTOR, ".carousel-dot[aria-current='true']")
    assert current.get_attribute("aria-label") == "Slide 5 of 5: Hike Joshua Tree"
    nxt.click()  # wraps around: neither button is a dead end
    wait_until(browser, lambda d: visible_slide(d) == 1)

    browser.get(server.url + "/")
    track = browser.find_element(By.CSS_SELECTOR, "[data-carousel-track]")
    browser.execute_script("arguments[0].focus()", track)
    for expected in range(2, 6):
        track.send_keys(Keys.ARROW_RIGHT)
        wait_until(browser, lambda d: visible_slide(d) == expected)
    track.send_keys(Keys.HOME)
    wait_until(browser, lambda d: visible_slide(d) == 1)
    browser.find_elements(By.CSS_SELECTOR, ".carousel-dot")[3].click()
    wait_until(browser, lambda d: visible_slide(d) == 4)


def test_rows_have_expanded_compact_and_standard_cards_that_fill_the_desktop_column(server, browser):
    browser.get(server.url + "/")
    shape = {}
    for collection in ("springEscapes", "summerVibes", "fallGetaways"):
        image = boxes(browser, f"#collection-{collection} .card-image")[0]
        shape[collection] = image["width"] / image["height"]
    assert shape["summerVibes"] > 1.4, "Summer Vibes has wide cards"
    assert shape["fallGetaways"] < 0.8, "Fall Getaways has portrait cards"
    assert abs(shape["springEscapes"] - 1) < 0.02
    row, = boxes(browser, "#collection-springEscapes .card-row")
    cards = boxes(browser, "#collection-springEscapes .card")
    assert cards[-1]["left"] + cards[-1]["width"] > row["left"] + 0.7 * row["width"], "cards share the column"


def test_an_empty_wishlist_says_so_once_and_search_has_no_orphan_heading(server, browser):
    for trip_id in range(1, 13):
        browser.get(f"{server.url}/trips/{trip_id}/delete")
        browser.find_element(By.CSS_SELECTOR, ".confirm button[type=submit]").click()
        wait_until(browser, lambda d: "/delete" not in d.current_url)
    browser.get(server.url + "/")
    assert browser.find_element(By.CSS_SELECTOR, "#carousel .empty-title").text == "Your wishlist is empty"
    assert "No trips yet" not in browser.find_element(By.TAG_NAME, "main").text
    assert [s for s in browser.find_elements(By.CSS_SELECTOR, ".collection") if s.is_displayed()] == []
    browser.get(server.url + "/search")
    assert browser.find_elements(By.CSS_SELECTOR, ".search-results h2") == []


def test_no_results_shows_its_symbol(server, browser):
    browser.get(server.url + "/search?q=zzzzqx")
    symbol = browser.find_element(By.CSS_SELECTOR, ".empty-state .empty-symbol")
    assert symbol.is_displayed() and symbol.size["width"] >= 40


def test_goal_tiles_keep_their_counts_in_line(server, browser):
    browser.get(server.url + "/goals")
    bars = boxes(browser, ".goal-grid .progress")
    first_row = [b for b in bars if abs(b["top"] - bars[0]["top"]) < 40]
    assert len(first_row) > 1 and len({round(b["top"]) for b in first_row}) == 1, first_row
    names = browser.execute_script(
        "return [...document.querySelectorAll('.goal h3')].map(h => h.getBoundingClientRect().height)")
    assert max(names) < 2.5 * min(names), "no name breaks into a column of words"


def test_phone_edit_mode_gives_the_name_room(server, browser):
    browser.set_window_size(*PHONE)
    browser.get(server.url + "/search?q=Japan+Mystique")
    browser.find_element(By.CSS_SELECTOR, ".result").click()
    browser.get(browser.current_url + "?edit=1")
    field = browser.find_element(By.CSS_SELECTOR, ".rename-form input[name^=activity-name-]")
    assert field.size["width"] >= 220, "about 28 characters at least"
    assert browser.execute_script(OVERFLOWING) == []


# WCAG contrast of two computed colours, over the page's background where one is translucent.
CONTRAST = """
const channels = (color) => color.match(/[\\d.]+/g).map(Number);
const luminance = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
  .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
const ratio = (a, b) => { const [x, y] = [luminance(channels(a)), luminance(channels(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const field = document.querySelector("#search-field");
const page = getComputedStyle(document.body).backgroundColor;
const style = getComputedStyle(field);
return {border: Math.min(ratio(style.borderTopColor, style.backgroundColor), ratio(style.borderTopColor, page)),
        placeholder: ratio(getComputedStyle(field, "::placeholder").color, style.backgroundColor)};
"""


@pytest.mark.parametrize("scheme, background, text", [
    ("dark", "rgb(11, 11, 16)", "rgb(244, 244, 247)"),
    ("light", "rgb(242, 242, 247)", "rgb(17, 17, 24)"),
])
def test_the_theme_follows_prefers_color_scheme_and_fields_have_contrast(server, browser, scheme, background, text):
    set_theme(browser, scheme)
    browser.get(server.url + "/search")
    style = browser.execute_script("const s = getComputedStyle(document.body); return [s.backgroundColor, s.color]")
    assert style == [background, text]
    contrast = browser.execute_script(CONTRAST)
    assert contrast["border"] >= 3, "a field's border against the field and the page (WCAG 1.4.11)"
    assert contrast["placeholder"] >= 4.5, "placeholder text (WCAG 1.4.3)"
