"""A trip's gallery in a real Chromium (#36): many files chosen at once, each sent on its own with
its progress and outcome, the broken one refused by name, each photo in the gallery as it is
stored (no reload), and its page, where it is captioned, made the cover and deleted with Undo."""

import base64
import subprocess

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import screenshot, wait_until
from test_layout import WIDTHS
from test_live import live_connected, mark_page, not_reloaded
from test_photos import requests_sent
from test_screens import open_trip


def photo_files(folder, count):
    """`count` JPEGs of distinct noise, a PNG, a HEIC and a file cut short, made by libvips' CLI."""
    paths = []
    for index in range(count):
        path = folder / f"photo-{index}.jpg"
        subprocess.run(["vips", "gaussnoise", str(path), str(900 + index), "600"], check=True)
        paths.append(path)
    png = folder / "drawing.png"
    subprocess.run(["vips", "copy", str(paths[0]), str(png)], check=True)
    heic = folder / "phone.heic"
    subprocess.run(["vips", "gaussnoise", str(heic), "320", "200"], check=True)
    broken = folder / "broken.jpg"
    broken.write_bytes(paths[-1].read_bytes()[:700])
    return paths + [png, heic, broken]


def press(driver, label):
    """The button labelled `label`, scrolled to the middle first (not under the fixed tab bar)."""
    button = driver.find_element(By.XPATH, f"//button[.='{label}']")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()


def gallery_count(driver):
    return driver.execute_script("return document.querySelectorAll('#trip-gallery .gallery-item').length")


def outcomes(driver):
    return driver.execute_script("""return [...document.querySelectorAll('.upload-item')].map(item =>
        [item.querySelector('.upload-name').textContent, item.querySelector('.upload-state').textContent])""")


@pytest.mark.parametrize("width", WIDTHS)
def test_many_photos_chosen_at_once_each_arrive_in_the_gallery_or_are_refused_by_name(server, browser, tmp_path, width):
    files = photo_files(tmp_path, 5)
    browser.set_window_size(*WIDTHS[width])
    open_trip(browser, server, "Japan Mystique")
    live_connected(browser)
    mark_page(browser)
    assert gallery_count(browser) == 1, "today's photo is the first of the gallery, its cover"

    browser.find_element(By.ID, "gallery-files").send_keys("\n".join(str(path) for path in files))
    wait_until(browser, lambda d: len(outcomes(d)) == len(files) and all(state in ("Added", "Not added") for _, state in outcomes(d)),
               timeout=60)
    by_name = dict(outcomes(browser))
    assert by_name.pop("broken.jpg") == "Not added"
    assert set(by_name.values()) == {"Added"}
    reason = browser.find_element(By.CSS_SELECTOR, ".upload-item.is-refused .upload-reason").text
    assert "damaged" in reason or "incomplete" in reason, reason
    wait_until(browser, lambda d: gallery_count(d) == 1 + len(files) - 1)
    assert not_reloaded(browser), "the page stayed; the gallery grew in place"
    screenshot(browser, f"gallery-uploaded-{width}")

    browser.refresh()
    assert gallery_count(browser) == len(files)
    assert "cover" in browser.find_element(By.CSS_SELECTOR, "#trip-gallery .gallery-item:first-child").text.lower()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_photo_the_trip_has_already_says_so_and_adds_nothing(server, browser, tmp_path, width):
    photo = photo_files(tmp_path, 1)[0]
    browser.set_window_size(*WIDTHS[width])
    open_trip(browser, server, "Japan Mystique")
    live_connected(browser)
    upload = browser.find_element(By.ID, "gallery-files")
    upload.send_keys(str(photo))
    wait_until(browser, lambda d: outcomes(d) == [["photo-0.jpg", "Added"]], timeout=30)
    wait_until(browser, lambda d: gallery_count(d) == 2)
    upload.send_keys(str(photo))
    wait_until(browser, lambda d: outcomes(d)[1:] == [["photo-0.jpg", "Already in this trip"]], timeout=30)
    assert not browser.find_elements(By.CSS_SELECTOR, ".upload-item.is-refused"), "nothing to fix"
    browser.refresh()
    assert gallery_count(browser) == 2


def test_a_photos_page_captions_it_makes_it_the_cover_and_deletes_it_with_undo(server, browser, tmp_path):
    files = photo_files(tmp_path, 1)[:1]
    open_trip(browser, server, "Japan Mystique")
    browser.find_element(By.ID, "gallery-files").send_keys(str(files[0]))
    wait_until(browser, lambda d: gallery_count(d) == 2, timeout=30)
    # The photo's page, as a thumbnail leads without the script (with it, the viewer links there).
    browser.get(browser.execute_script("return document.querySelectorAll('#trip-gallery .gallery-link')[1].href"))
    wait_until(browser, lambda d: "Photo 2 of 2" in d.page_source)

    caption = browser.find_element(By.ID, "photo-caption")
    caption.send_keys("Fushimi Inari at dawn")
    caption.submit()
    wait_until(browser, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Fushimi Inari at dawn")
    press(browser, "Make Cover")
    wait_until(browser, lambda d: "Photo 1 of 2" in d.page_source)
    assert "This photo is the trip's cover." in browser.page_source
    screenshot(browser, "photo-page")

    press(browser, "Delete Photo")
    wait_until(browser, lambda d: d.find_elements(By.ID, "undo-notice"))
    assert "Deleted the photo “Fushimi Inari at dawn”." in browser.find_element(By.ID, "undo-notice").text
    assert gallery_count(browser) == 1
    press(browser, "Undo")
    wait_until(browser, lambda d: gallery_count(d) == 2)
    first = browser.find_element(By.CSS_SELECTOR, "#trip-gallery .gallery-item:first-child")
    assert "Fushimi Inari at dawn" in first.text, "back whole: caption and place as the cover"


def viewer_state(driver):
    return driver.execute_script("""const dialog = document.querySelector('dialog.viewer');
        return dialog && {open: dialog.open, count: dialog.querySelector('.viewer-count').textContent,
                          src: dialog.querySelector('.viewer-image').currentSrc, caption: dialog.querySelector('.viewer-caption').textContent,
                          focused: document.activeElement.className}""")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_viewer_shows_each_photo_full_screen_by_keys_buttons_and_swipe(server, browser, tmp_path, width):
    files = photo_files(tmp_path, 2)[:2]
    browser.set_window_size(*WIDTHS[width])
    open_trip(browser, server, "Japan Mystique")
    browser.find_element(By.ID, "gallery-files").send_keys("\n".join(str(path) for path in files))
    wait_until(browser, lambda d: gallery_count(d) == 3, timeout=30)
    browser.execute_script("document.querySelector('#trip-gallery .gallery-link').click()")
    wait_until(browser, lambda d: (viewer_state(d) or {}).get("open"))
    state = viewer_state(browser)
    assert state["count"] == "Photo 1 of 3" and "/photo/" in state["src"], "a rendition, not the thumbnail"
    screenshot(browser, f"gallery-viewer-{width}")

    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    wait_until(browser, lambda d: viewer_state(d)["count"] == "Photo 2 of 3")
    wait_until(browser, lambda d: "/photos/" in viewer_state(d)["src"])
    browser.find_element(By.CSS_SELECTOR, ".viewer-next").click()
    assert viewer_state(browser)["count"] == "Photo 3 of 3"
    browser.execute_script("""const dialog = document.querySelector('dialog.viewer');
        dialog.dispatchEvent(new PointerEvent('pointerdown', {clientX: 300, clientY: 300, bubbles: true}));
        dialog.dispatchEvent(new PointerEvent('pointerup', {clientX: 100, clientY: 310, bubbles: true}));""")
    assert viewer_state(browser)["count"] == "Photo 3 of 3", "no photo after the last"
    browser.execute_script("""const dialog = document.querySelector('dialog.viewer');
        dialog.dispatchEvent(new PointerEvent('pointerdown', {clientX: 100, clientY: 300, bubbles: true}));
        dialog.dispatchEvent(new PointerEvent('pointerup', {clientX: 320, clientY: 290, bubbles: true}));""")
    assert viewer_state(browser)["count"] == "Photo 2 of 3", "a swipe to the right goes back"

    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    # Back on the thumbnail of the photo last shown: the dialog's `close` event, which gives the
    # focus back, comes a task after it closes.
    wait_until(browser, lambda d: not viewer_state(d)["open"] and viewer_state(d)["focused"] == "gallery-link")


def order(driver):
    return driver.execute_script("return [...document.querySelectorAll('#trip-gallery [data-photo-id]')].map(a => a.dataset.photoId)")


def test_photos_are_reordered_by_keyboard_and_by_drag_and_the_first_is_the_cover(server, browser, tmp_path):
    files = photo_files(tmp_path, 2)[:2]
    open_trip(browser, server, "Japan Mystique")
    browser.find_element(By.ID, "gallery-files").send_keys("\n".join(str(path) for path in files))
    wait_until(browser, lambda d: gallery_count(d) == 3, timeout=30)
    first, second, third = order(browser)
    mark_page(browser)

    link = browser.find_element(By.ID, f"gallery-photo-{first}")
    browser.execute_script("arguments[0].focus()", link)
    browser.switch_to.active_element.send_keys(Keys.ALT, Keys.ARROW_RIGHT)
    wait_until(browser, lambda d: order(d) == [second, first, third])
    assert browser.switch_to.active_element.get_attribute("id") == f"gallery-photo-{first}", "the moved photo keeps the focus"
    assert "Moved first" not in browser.find_element(By.ID, "gallery-order-status").text

    browser.execute_script("""
        const [from, onto] = [arguments[0], arguments[1]].map(id => document.getElementById('gallery-photo-' + id));
        const data = new DataTransfer();
        from.dispatchEvent(new DragEvent('dragstart', {bubbles: true, dataTransfer: data}));
        onto.dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: data}));
        onto.dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: data}));""", third, second)
    wait_until(browser, lambda d: order(d) == [third, second, first])
    assert browser.find_element(By.ID, "gallery-order-status").text == "Moved first: now the trip's cover."
    assert not_reloaded(browser)
    hero = browser.find_element(By.CSS_SELECTOR, ".hero-photo img").get_attribute("src")
    third_thumbnail = browser.find_element(By.CSS_SELECTOR, f"#gallery-photo-{third} img").get_attribute("src")
    assert hero.split("?v=")[1] == third_thumbnail.split("?v=")[1], "the hero shows the new cover"


def test_a_photo_not_sent_for_want_of_a_network_says_so_and_is_sent_by_retry(server, browser, tmp_path):
    files = photo_files(tmp_path, 1)[:1]
    open_trip(browser, server, "Japan Mystique")
    server.stop()
    browser.find_element(By.ID, "gallery-files").send_keys(str(files[0]))
    wait_until(browser, lambda d: outcomes(d) == [["photo-0.jpg", "Not sent"]], timeout=10)
    assert "network" in browser.find_element(By.CSS_SELECTOR, ".upload-reason").text
    server.start()
    press(browser, "Retry")
    wait_until(browser, lambda d: outcomes(d) == [["photo-0.jpg", "Added"]], timeout=30)
    wait_until(browser, lambda d: gallery_count(d) == 2, timeout=10)


COUNT_DROPS = "window.__drops = 0; document.addEventListener('drop', () => { window.__drops += 1 })"


def drag(driver, source, target):
    """A real drag with the mouse: Chromium hands the dragged thumbnail over as a file too."""
    drops = driver.execute_script("return window.__drops")
    ActionChains(driver).click_and_hold(source).move_by_offset(5, 5).move_to_element(target).move_by_offset(1, 1).release().perform()
    wait_until(driver, lambda d: d.execute_script("return window.__drops") == drops + 1)


def drop_from_outside(driver, path, target):
    """A file dropped from outside the page (a drag no page element started)."""
    driver.execute_script("""const [target, name, bytes] = arguments;
        const data = new DataTransfer();
        data.items.add(new File([Uint8Array.from(atob(bytes), c => c.charCodeAt(0))], name, {type: 'image/jpeg'}));
        for (const type of ['dragenter', 'dragover', 'drop']) target.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: data}));""",
                          target, path.name, base64.b64encode(path.read_bytes()).decode())


def test_a_photo_dragged_on_the_page_is_never_uploaded_and_a_file_from_outside_is(server, browser, tmp_path):
    files = photo_files(tmp_path, 2)[:2]
    open_trip(browser, server, "Japan Mystique")
    browser.find_element(By.ID, "gallery-files").send_keys(str(files[0]))
    wait_until(browser, lambda d: gallery_count(d) == 2, timeout=30)
    # In edit mode the trip's own photo field is on the page too.
    browser.get(browser.current_url + "?edit=1")
    browser.execute_script(COUNT_DROPS)
    first, second = order(browser)
    photo_field = browser.find_element(By.CSS_SELECTOR, "[data-photo-field]")
    photo_input = browser.find_element(By.CSS_SELECTOR, "[data-photo-field] input[type=file]")

    drag(browser, browser.find_element(By.ID, f"gallery-photo-{second}"), browser.find_element(By.ID, f"gallery-photo-{first}"))
    wait_until(browser, lambda d: order(d) == [second, first])
    drag(browser, browser.find_element(By.ID, f"gallery-photo-{first}"), photo_field)
    assert outcomes(browser) == [] and requests_sent(browser) == 0, "a drag on the page uploads nothing"
    assert browser.execute_script("return arguments[0].files.length", photo_input) == 0, "nor chooses the trip's photo"

    drop_from_outside(browser, files[1], browser.find_element(By.CSS_SELECTOR, ".gallery-section"))
    wait_until(browser, lambda d: outcomes(d) == [["photo-1.jpg", "Added"]], timeout=30)
    wait_until(browser, lambda d: gallery_count(d) == 3)
    drop_from_outside(browser, files[1], photo_field)
    assert browser.execute_script("return arguments[0].files[0].name", photo_input) == "photo-1.jpg"
    browser.refresh()
    assert gallery_count(browser) == 3
