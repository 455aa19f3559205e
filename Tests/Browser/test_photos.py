"""Trip photos in a real Chromium: an upload through the New Trip form shows up as a thumbnail
on the Wishlist page; the form checks a file before sending it (size, whether it is an image),
says when it cannot preview one (HEIC), shows the processing step, and saves once however often
Save is clicked."""

import json
import re
import subprocess
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import DESKTOP, PHONE, WishlistServer, screenshot, wait_until

UNPREVIEWABLE = "Preview not available — it will be converted when you save."
# Enough of an HEIC's header for the form to know it: a box of type ftyp, brand heic.
HEIC_BYTES = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(4096)


def make_jpeg(tmp_path):
    """A 1200×800 JPEG drawn by libvips' command-line tool (Debian's libvips-tools)."""
    noise = tmp_path / "noise.v"
    photo = tmp_path / "harbor.jpg"
    subprocess.run(["vips", "gaussnoise", str(noise), "1200", "800", "--mean", "120", "--sigma", "40"], check=True)
    subprocess.run(["vips", "cast", str(noise), f"{photo}[Q=85]", "uchar"], check=True)
    return photo


def fill_new_trip(browser, server, name, photo_path):
    browser.get(server.url + "/trips/new")
    browser.find_element(By.NAME, "name").send_keys(name)
    Select(browser.find_element(By.NAME, "collection")).select_by_visible_text("Summer Vibes")
    browser.find_element(By.CSS_SELECTOR, "input[type=file][name=photo]").send_keys(str(photo_path))


def test_uploaded_photo_appears_as_thumbnail_on_the_wishlist(server, browser, tmp_path):
    fill_new_trip(browser, server, "Harbor Lights", make_jpeg(tmp_path))
    preview = browser.find_element(By.CSS_SELECTOR, ".photo-preview")
    wait_until(browser, lambda d: preview.get_attribute("src").startswith("blob:"))
    browser.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()
    wait_until(browser, lambda d: d.current_url.rstrip("/") == server.url, timeout=15)

    first_slide = browser.find_element(By.CSS_SELECTOR, "#carousel .slide")
    assert first_slide.find_element(By.CSS_SELECTOR, ".slide-name").text == "Harbor Lights"
    image = first_slide.find_element(By.TAG_NAME, "img")
    assert re.search(r"/trips/\d+/thumbnail\?v=[0-9a-f]{16}$", image.get_attribute("src"))
    assert (image.get_dom_attribute("width"), image.get_dom_attribute("height")) == ("480", "320")
    # The carousel is a full-width hero: at 1280 px it takes the 1024 px rendition from the srcset.
    wait_until(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image))
    assert "/photo/1024?v=" in image.get_property("currentSrc")
    screenshot(browser, "photo-uploaded")


def trip_names(server):
    with urllib.request.urlopen(server.url + "/api/trips?limit=100") as reply:
        return [trip["name"] for trip in json.load(reply)["trips"]]


def requests_sent(browser):
    """Requests the page's script made (resource timing lists every XMLHttpRequest it finished)."""
    return browser.execute_script(
        "return performance.getEntriesByType('resource').filter(e => e.initiatorType === 'xmlhttprequest').length")


def click_save(browser):
    browser.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()


def problem_text(browser):
    problem = browser.find_element(By.CSS_SELECTOR, "[data-photo-problem]")
    return problem.text if problem.is_displayed() else ""


@pytest.fixture
def small_limit_server(tmp_path, seeded_folder):
    server = WishlistServer(tmp_path / "data", arguments=["--max-photo-mb", "1"], template=seeded_folder)
    server.start()
    yield server
    server.stop()


def test_a_photo_over_the_limit_is_refused_inline_and_nothing_is_sent(small_limit_server, browser, tmp_path):
    big = tmp_path / "big.jpg"
    big.write_bytes(b"\xff\xd8\xff" + bytes(2 * 1024 * 1024 - 3))
    fill_new_trip(browser, small_limit_server, "Too Big", big)
    wait_until(browser, lambda d: problem_text(d))
    assert problem_text(browser) == "This photo is 2 MB; photos can be up to 1 MB. Choose a smaller one."
    assert browser.find_element(By.CSS_SELECTOR, "input[name=photo]").get_attribute("aria-invalid") == "true"
    click_save(browser)
    wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".form-actions button").is_enabled())
    assert browser.current_url.endswith("/trips/new") and requests_sent(browser) == 0
    screenshot(browser, "photo-too-large")
    assert "Too Big" not in trip_names(small_limit_server)


def test_a_file_that_is_not_an_image_gets_a_message_not_a_broken_preview(server, browser, tmp_path):
    notes = tmp_path / "notes.jpg"
    notes.write_text("Packing list: socks, charger, passport.\n")
    fill_new_trip(browser, server, "Not a Photo", notes)
    wait_until(browser, lambda d: problem_text(d))
    assert problem_text(browser) == "“notes.jpg” isn’t a photo. Choose a JPEG, PNG, WebP or HEIC image."
    preview = browser.find_element(By.CSS_SELECTOR, ".photo-preview")
    assert preview.is_displayed() and preview.get_attribute("src").endswith("/images/placeholder.svg")
    click_save(browser)
    assert browser.current_url.endswith("/trips/new") and requests_sent(browser) == 0
    screenshot(browser, "photo-not-an-image")
    assert "Not a Photo" not in trip_names(server)


def damaged_photo(tmp_path):
    """A JPEG cut short: the page's check passes it (a JPEG's first bytes), the server refuses it.
    A whole one, `harbor.jpg`, lies beside it."""
    damaged = tmp_path / "damaged.jpg"
    damaged.write_bytes(make_jpeg(tmp_path).read_bytes()[:900])
    return damaged


def assert_the_servers_word_is_beside_the_photo_field(browser, form_id, tmp_path):
    """Once the form came back refused: the message under the photo field, which is marked and
    focused, until another file is chosen."""
    error = (By.ID, f"{form_id}-photo-error")
    photo_field = (By.CSS_SELECTOR, f"#{form_id} input[name=photo]")
    wait_until(browser, lambda d: d.find_element(*error).is_displayed(), timeout=15)
    assert browser.find_element(*error).text == "That image is damaged or incomplete and can't be read. Try exporting it again."
    field = browser.find_element(*photo_field)
    assert field.get_attribute("aria-invalid") == "true"
    assert field.get_attribute("aria-describedby") == f"{form_id}-photo-error"
    wait_until(browser, lambda d: d.switch_to.active_element == d.find_element(*photo_field))
    screenshot(browser, f"photo-damaged-{form_id}")
    browser.find_element(*photo_field).send_keys(str(tmp_path / "harbor.jpg"))
    wait_until(browser, lambda d: not d.find_element(*error).is_displayed())
    assert browser.find_element(*photo_field).get_attribute("aria-invalid") is None


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_damaged_photo_on_new_trip_is_named_beside_the_photo_field(server, browser, tmp_path, size):
    browser.set_window_size(*size)
    fill_new_trip(browser, server, "Broken Harbor", damaged_photo(tmp_path))
    browser.find_element(By.CSS_SELECTOR, ".form-head button[type=submit]").click()
    assert_the_servers_word_is_beside_the_photo_field(browser, "new-trip", tmp_path)
    assert "Broken Harbor" not in trip_names(server)


def test_heic_says_it_will_be_converted_instead_of_a_broken_preview(server, browser, tmp_path):
    photo = tmp_path / "IMG_0042.heic"
    photo.write_bytes(HEIC_BYTES)
    fill_new_trip(browser, server, "From an iPhone", photo)
    note = browser.find_element(By.CSS_SELECTOR, ".photo-unpreviewable")
    wait_until(browser, lambda d: note.is_displayed())
    assert note.text.splitlines() == ["IMG_0042.heic", UNPREVIEWABLE]
    assert not browser.find_element(By.CSS_SELECTOR, ".photo-preview").is_displayed()
    assert problem_text(browser) == ""
    screenshot(browser, "photo-heic")


def test_processing_is_shown_and_a_double_click_saves_once(server, browser, tmp_path):
    fill_new_trip(browser, server, "Twice Clicked", make_jpeg(tmp_path))
    preview = browser.find_element(By.CSS_SELECTOR, ".photo-preview")
    wait_until(browser, lambda d: preview.get_attribute("src").startswith("blob:"))
    # Holds the server's answer in the browser: the page stays in its processing state.
    browser.execute_cdp_cmd("Fetch.enable", {"patterns": [{"urlPattern": "*/trips", "requestStage": "Response"}]})
    # Two clicks in one task: nothing of the first upload has happened yet when the second comes.
    browser.execute_script("const save = document.querySelector('.form-actions button[type=submit]'); save.click(); save.click();")
    status = browser.find_element(By.CSS_SELECTOR, "[data-upload-status]")
    wait_until(browser, lambda d: status.text == "Processing photo…", timeout=15)
    assert all(not button.is_enabled() for button in browser.find_elements(By.CSS_SELECTOR, ".trip-form button[type=submit]"))
    assert browser.execute_script("return document.querySelector('.upload-progress progress').hasAttribute('value')") is False
    screenshot(browser, "photo-processing")
    browser.execute_cdp_cmd("Fetch.disable", {})
    wait_until(browser, lambda d: d.current_url.rstrip("/") == server.url, timeout=15)
    assert trip_names(server).count("Twice Clicked") == 1
