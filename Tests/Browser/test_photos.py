"""Trip photos in a real Chromium: an upload through the New Trip form shows up as a thumbnail
on the Wishlist page; a file that is not a picture gets the form back with the message."""

import re
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import screenshot, wait_until

UNSUPPORTED = "That file isn't a supported image (JPEG, PNG, WebP, HEIC)."


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
    wait_until(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 480)
    screenshot(browser, "photo-uploaded")


def test_text_file_gets_the_form_back_with_the_message(server, browser, tmp_path):
    notes = tmp_path / "notes.jpg"
    notes.write_text("Packing list: socks, charger, passport.\n")
    fill_new_trip(browser, server, "Not a Photo", notes)
    browser.find_element(By.CSS_SELECTOR, ".form-actions button[type=submit]").click()

    wait_until(browser, lambda d: d.find_elements(By.ID, "new-trip-photo-error"), timeout=15)
    assert browser.find_element(By.ID, "new-trip-photo-error").text == UNSUPPORTED
    assert browser.find_element(By.NAME, "name").get_attribute("value") == "Not a Photo"
    screenshot(browser, "photo-refused")
    browser.get(server.url + "/")
    assert "Not a Photo" not in browser.page_source
