"""The Data page in a real Chromium: an archive downloaded from it restores, after the preview
and the confirmation, a trip deleted meanwhile, photo and all; a file that is no archive gets the
page back naming the problem; an API token is made, shown once and revoked."""

import time
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import make_driver, screenshot, wait_until
from test_screens import SEEDED_NEWEST_FIRST, open_trip
from test_security import RECORD_VIOLATIONS, violations


@pytest.fixture
def downloads(tmp_path):
    folder = tmp_path / "downloads"
    folder.mkdir()
    return folder


@pytest.fixture
def saving_browser(downloads):
    driver = make_driver(download_dir=downloads)
    yield driver
    driver.quit()


def downloaded_archive(folder, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = [f for f in folder.iterdir() if f.suffix == ".zip"]
        if done and not any(f.suffix == ".crdownload" for f in folder.iterdir()):
            return done[0]
        time.sleep(0.1)
    raise AssertionError(f"no archive in {folder}: {list(folder.iterdir())}")


def open_data_page_by_keyboard(driver, server):
    driver.get(server.url + "/")
    link = driver.find_element(By.LINK_TEXT, "Back Up & Restore")
    assert link.is_displayed()
    link.send_keys(Keys.ENTER)
    wait_until(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Back Up & Restore")


def test_a_downloaded_archive_restores_a_deleted_trip_with_its_photo(server, saving_browser, downloads):
    browser = saving_browser
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
    open_data_page_by_keyboard(browser, server)
    assert "12 trips" in browser.find_element(By.ID, "export-title").find_element(By.XPATH, "..").text
    screenshot(browser, "data")
    browser.find_element(By.XPATH, "//button[normalize-space()='Download Archive']").click()
    archive = downloaded_archive(downloads)
    assert archive.name.startswith("wishlist-") and archive.read_bytes()[:4] == b"PK\x03\x04"
    assert browser.find_element(By.TAG_NAME, "h1").text == "Back Up & Restore", "the download leaves the page as it was"
    assert violations(browser) == [], "the download stays inside the CSP"

    deleted = SEEDED_NEWEST_FIRST[0]
    open_trip(browser, server, deleted)
    browser.get(browser.current_url.split("?")[0] + "?edit=1")
    browser.find_element(By.XPATH, "//button[normalize-space()='Delete Trip']").click()
    wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert .button.danger")).click()
    wait_until(browser, lambda d: d.current_url.startswith(server.url + "/?deleted="))  # with its undo notice
    assert deleted not in browser.find_element(By.ID, "carousel").text

    browser.get(server.url + "/data")
    browser.find_element(By.CSS_SELECTOR, "input[type=file][name=archive]").send_keys(str(archive))
    browser.find_element(By.XPATH, "//button[normalize-space()='Preview Restore']").click()
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Restore this Archive?", timeout=20)
    holds, replaces = (el.text for el in browser.find_elements(By.CSS_SELECTOR, ".data-card"))
    assert "12 trips" in holds and "12 photos" in holds
    assert "11 trips" in replaces and "11 photos" in replaces
    assert violations(browser) == [], "the upload stays inside the CSP"
    screenshot(browser, "data-preview")

    browser.find_element(By.XPATH, "//button[normalize-space()='Replace My Wishlist']").click()
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Archive Restored", timeout=20)
    summary = browser.find_element(By.CSS_SELECTOR, ".data-summary").text
    assert "12 trips" in summary
    backup = browser.find_element(By.CSS_SELECTOR, ".data-path").text
    assert Path(backup).parent == server.data_dir / "backups" and (Path(backup) / "wishlist.sqlite").exists()
    assert f"wishlist restore {backup}" in browser.find_element(By.CSS_SELECTOR, ".data-command").text
    assert violations(browser) == [], "the confirmation stays inside the CSP"
    screenshot(browser, "data-result")

    browser.find_element(By.LINK_TEXT, "Go to Wishlist").click()
    slide = wait_until(browser, lambda d: d.find_element(By.XPATH, f"//*[@id='carousel']//a[.//*[normalize-space()='{deleted}']]"))
    image = slide.find_element(By.TAG_NAME, "img")
    assert "/thumbnail?v=" in image.get_attribute("src")
    wait_until(browser, lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) > 0)

    # Changed their mind: the backup taken before the restore is listed, and restoring it
    # (after a confirmation) puts the wishlist back as it was, without the deleted trip.
    browser.get(server.url + "/data")
    browser.find_element(By.CSS_SELECTOR, ".backup-list button").click()
    confirm = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert .button.danger"))
    assert confirm.text == "Restore"
    confirm.click()
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Backup Restored", timeout=20)
    screenshot(browser, "data-backup-restored")
    browser.find_element(By.LINK_TEXT, "Go to Wishlist").click()
    wait_until(browser, lambda d: d.find_element(By.ID, "carousel"))
    assert deleted not in browser.find_element(By.ID, "carousel").text


def test_a_file_that_is_no_archive_gets_the_page_back_naming_the_problem(server, browser, tmp_path):
    notes = tmp_path / "notes.zip"
    notes.write_text("Packing list: socks, charger, passport.\n")
    browser.get(server.url + "/data")
    browser.find_element(By.CSS_SELECTOR, "input[type=file][name=archive]").send_keys(str(notes))
    browser.find_element(By.XPATH, "//button[normalize-space()='Preview Restore']").click()
    problem = wait_until(browser, lambda d: d.find_element(By.ID, "archive-problem"), timeout=20)
    assert problem.text.startswith("That file can’t be restored: ")
    assert browser.find_element(By.CSS_SELECTOR, "input[type=file][name=archive]").get_attribute("aria-invalid") == "true"
    screenshot(browser, "data-problem")
    browser.get(server.url + "/")
    assert SEEDED_NEWEST_FIRST[0] in browser.find_element(By.ID, "carousel").text


def test_an_api_token_is_made_shown_once_opens_the_api_and_is_revoked(server, browser):
    browser.get(server.url + "/data")
    assert "No tokens yet." in browser.find_element(By.ID, "tokens").text
    long_name = "laptop-sync-for-the-kitchen-tablet-2026x"
    browser.find_element(By.ID, "token-name").send_keys(long_name)
    browser.find_element(By.XPATH, "//button[normalize-space()='Create Token']").click()
    secret = wait_until(browser, lambda d: d.find_element(By.ID, "new-token-secret")).text.strip()
    assert secret.startswith("wlt_") and len(secret) == 68
    screenshot(browser, "data-token-created")

    request = urllib.request.Request(server.url + "/api/token", headers={"Authorization": f"Bearer {secret}"})
    assert long_name in urllib.request.urlopen(request, timeout=10).read().decode()

    browser.get(server.url + "/data")
    assert long_name in browser.find_element(By.ID, "tokens").text and secret not in browser.page_source
    browser.find_element(By.ID, "token-name").send_keys("has space")
    browser.find_element(By.XPATH, "//button[normalize-space()='Create Token']").click()
    problem = wait_until(browser, lambda d: d.find_element(By.ID, "token-problem"))
    assert "letters, digits" in problem.text
    screenshot(browser, "data-token-problem")
    browser.find_element(By.CSS_SELECTOR, f"button[aria-label='Revoke token {long_name}']").click()
    wait_until(browser, lambda d: "No tokens yet." in d.find_element(By.ID, "tokens").text)
