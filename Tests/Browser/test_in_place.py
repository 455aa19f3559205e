"""In-place changes on the trip page keep the page, its scroll and the focus, with one write per
intent: adding activities one after another from the keyboard, deleting one and undoing it,
renaming with Enter. Leaving with unsaved trip edits asks first, whatever the way out, and edit
mode says each thing once."""

from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import screenshot, wait_until
from test_edits import mark_page, open_edit_mode, press_done
from test_layout import add_trip
from test_screens import activity_names, check, open_trip

TRIP = "Mont Blanc Powder"

RECORD_POSTS = """
window.__posts = [];
const fetchBeforePosts = window.fetch;
window.fetch = (url, options) => {
  if (options?.method === "POST") window.__posts.push(String(url));
  return fetchBeforePosts(url, options);
};
"""


def rename_values(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('#activity-list input[data-rename-url]')].map(e => e.value)")


def active_element_id(driver):
    return driver.execute_script("return document.activeElement?.id ?? ''")


def test_five_activities_are_added_in_a_row_without_leaving_the_add_field(server, browser):
    open_edit_mode(browser, server)
    mark_page(browser)
    field = browser.find_element(By.ID, "new-activity-name")
    field.click()
    for number in range(1, 6):
        browser.switch_to.active_element.send_keys(f"Summit day {number}", Keys.ENTER)
        # The answer empties the field; the live update may list the activity before it arrives.
        wait_until(browser, lambda d: f"Summit day {number}" in rename_values(d)
                   and d.find_element(By.ID, "new-activity-name").get_attribute("value") == "")
        assert active_element_id(browser) == "new-activity-name", f"focus left the add field after {number}"
    assert browser.execute_script("return window.__notReloaded === true")
    screenshot(browser, "five-activities-added")


def test_deleting_an_activity_keeps_the_page_and_its_undo_brings_it_back_in_place(server, browser):
    open_edit_mode(browser, server)
    mark_page(browser)
    victim = rename_values(browser)[1]
    delete = browser.find_element(By.CSS_SELECTOR, f"#activity-list button[aria-label='Delete “{victim}”']")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", delete)
    scrolled = browser.execute_script("return window.scrollY")
    assert scrolled > 0
    delete.click()
    wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog.alert .button.danger")).click()
    wait_until(browser, lambda d: victim not in rename_values(d))
    notice = wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#trip-notice .undo-notice"))
    assert f"Deleted “{victim}”." in notice.text
    assert browser.switch_to.active_element == notice, "focus moves to the Undo notice"
    assert browser.execute_script("return window.__notReloaded === true")
    assert abs(browser.execute_script("return window.scrollY") - scrolled) < 200, "the page did not jump to the top"
    screenshot(browser, "activity-deleted-in-place")

    notice.find_element(By.XPATH, ".//button[.='Undo']").click()
    # The answer takes the notice away; the live update may list the activity before it arrives.
    wait_until(browser, lambda d: victim in rename_values(d) and not d.find_elements(By.CSS_SELECTOR, "#trip-notice .undo-notice"))
    assert browser.execute_script("return window.__notReloaded === true")
    assert "edit=1" in browser.current_url


def test_a_rename_with_enter_is_written_once(server, browser):
    open_edit_mode(browser, server)
    browser.execute_script(RECORD_POSTS)
    field = browser.find_element(By.CSS_SELECTOR, "#activity-list input[data-rename-url]")
    url = field.get_attribute("data-rename-url")
    field.send_keys(Keys.CONTROL, "a", Keys.NULL, "Glacier walk at dawn", Keys.ENTER)
    wait_until(browser, lambda d: "Glacier walk at dawn" in rename_values(d))
    # Leaving the field saves nothing more, also while the rename is on its way (whose answer
    # may replace the field: the key goes to whatever holds the focus).
    ActionChains(browser).send_keys(Keys.TAB).perform()
    wait_until(browser, lambda d: not asks_before_leaving(d))
    posts = browser.execute_script("return window.__posts")
    assert [post for post in posts if post.endswith(url)] == [url], posts


def asks_before_leaving(driver):
    """Whether the page asks before Back, reload or closing the tab: its beforeunload handler
    cancels the event. (WebDriver's own navigation accepts such a prompt unseen, so the event is
    sent as the browser sends it.)"""
    return driver.execute_script(
        "const leaving = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(leaving); return leaving.defaultPrevented")


def test_back_reload_or_closing_asks_first_while_trip_edits_are_unsaved(server, browser):
    open_edit_mode(browser, server)
    assert not asks_before_leaving(browser), "nothing typed: nothing to ask"
    browser.find_element(By.ID, "edit-trip-name").send_keys(" at Dusk")
    assert asks_before_leaving(browser)
    browser.find_element(By.ID, "edit-trip-name").send_keys(Keys.BACK_SPACE * len(" at Dusk"))
    assert not asks_before_leaving(browser), "typed back to what was saved"
    # A rename saved in place leaves nothing unsaved.
    field = browser.find_element(By.CSS_SELECTOR, "#activity-list input[data-rename-url]")
    field.send_keys(Keys.CONTROL, "a", Keys.NULL, "Glacier walk at dusk", Keys.ENTER)
    wait_until(browser, lambda d: "Glacier walk at dusk" in rename_values(d))
    # While the rename is on its way it is still unsaved; once answered, nothing is.
    wait_until(browser, lambda d: not asks_before_leaving(d))
    # The New Trip sheet on the Wishlist asks too.
    browser.get(server.url + "/")
    browser.find_element(By.CSS_SELECTOR, "[data-opens-dialog]").click()
    browser.switch_to.active_element.send_keys("Half-typed trip")
    assert asks_before_leaving(browser)


def test_edit_mode_shows_the_photo_once_and_an_empty_list_says_so_once(server, browser):
    open_edit_mode(browser, server)
    assert browser.find_element(By.CSS_SELECTOR, "#trip-header .hero-photo img").is_displayed()
    assert not browser.find_element(By.CSS_SELECTOR, "#edit-trip .photo-preview").is_displayed()

    href = add_trip(browser, server, "Quiet Fjord", "Summer Vibes")
    for mode in ("", "?edit=1"):
        browser.get(href + mode)
        text = browser.find_element(By.TAG_NAME, "main").text
        assert text.count("No activities yet") == 1, text


RECORD_ANSWERS = """
window.__answers = [];
const fetchBeforeAnswers = window.fetch;
window.fetch = async (url, options) => {
  const response = await fetchBeforeAnswers(url, options);
  window.__answers.push(await response.clone().text());
  return response;
};
"""


def test_a_check_off_brings_its_own_tab_the_changed_fragments_not_a_whole_page(server, browser):
    open_trip(browser, server, TRIP)
    mark_page(browser)
    browser.execute_script(RECORD_ANSWERS)
    name = activity_names(browser)[0]
    for _ in range(2):  # checked, then unchecked again
        check(browser, name)
    answers = browser.execute_script("return window.__answers")
    assert answers, "the check-offs were sent by the script"
    for answer in answers:
        assert 'id="activity-list"' in answer
        assert "<html" not in answer and "<nav" not in answer, "a whole page came back"
    assert browser.execute_script("return window.__notReloaded === true")


def test_a_rename_typed_while_another_tab_renames_the_same_activity_asks_instead_of_overwriting(server, browser, second_browser):
    """A live update redraws the list under a rename being typed: the typed text stays, and so
    does the name it was typed over, so saving it (its own save, or Done) asks rather than
    overwriting the other tab's rename."""
    open_edit_mode(browser, server)
    field = browser.find_element(By.CSS_SELECTOR, "#activity-list input[data-rename-url]")
    field_id = field.get_attribute("id")
    activity = field_id.removeprefix("activity-name-")
    drawn = field.get_attribute("value")
    field.send_keys(Keys.CONTROL, "a", Keys.NULL, "Mine")
    browser.execute_script("window.__list = document.getElementById('activity-list')")

    open_edit_mode(second_browser, server)
    second_browser.find_element(By.ID, field_id).send_keys(Keys.CONTROL, "a", Keys.NULL, "Theirs", Keys.ENTER)

    # The other rename is saved once this tab's list is redrawn by the live update it makes.
    wait_until(browser, lambda d: d.execute_script("return document.getElementById('activity-list') !== window.__list"))
    assert browser.find_element(By.ID, field_id).get_attribute("value") == "Mine", "what was typed stays"
    assert browser.find_element(By.NAME, f"activity-was-{activity}").get_attribute("value") == drawn
    # Leaving the redrawn field may have saved the rename already: refused, and said.
    for box in browser.find_elements(By.CSS_SELECTOR, "dialog[open]"):
        assert "renamed to “Theirs”" in box.text, box.text
        box.find_element(By.TAG_NAME, "button").click()
    press_done(browser)
    wait_until(browser, lambda d: "Theirs" in d.find_element(By.TAG_NAME, "main").text)
    second_browser.refresh()
    assert second_browser.find_element(By.ID, field_id).get_attribute("value") == "Theirs", "not overwritten unasked"
