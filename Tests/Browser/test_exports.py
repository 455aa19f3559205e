"""A trip in a calendar app (#37): its .ics, written by libical, read by two independent parsers
(Python's icalendar and vobject, from Debian) with the trip's dates, place and activities exact."""

import datetime
import html
import subprocess
import urllib.error
import urllib.request

import icalendar
import vobject
from selenium.webdriver.common.by import By

from conftest import BINARY, WishlistServer
from test_screens import activity_names, check, open_trip


def test_a_trips_calendar_file_reads_the_same_in_two_parsers(server, browser):
    open_trip(browser, server, "Japan Mystique")
    names = activity_names(browser)
    check(browser, names[0])
    link = browser.find_element(By.LINK_TEXT, "Add to calendar (.ics)")
    trip_url = browser.current_url.split("?")[0]
    with urllib.request.urlopen(link.get_attribute("href"), timeout=10) as response:
        assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"
        text = response.read().decode()

    calendar = icalendar.Calendar.from_ical(text)
    [event] = calendar.walk("VEVENT")
    assert event.decoded("DTSTART") == datetime.date(2027, 3, 28)
    assert event.decoded("DTEND") == datetime.date(2027, 4, 7), "exclusive: the day after 6 April"
    assert str(event["SUMMARY"]) == "Japan Mystique" and str(event["LOCATION"]) == "Kyoto, Japan"
    geo = event["GEO"]
    assert round(geo.latitude, 2) == 35.02 and round(geo.longitude, 2) == 135.75
    assert str(event["URL"]) == trip_url
    todos = calendar.walk("VTODO")
    assert sorted(str(todo["SUMMARY"]) for todo in todos) == sorted(names)
    for todo in todos:
        assert str(todo["RELATED-TO"]) == str(event["UID"])
        assert (str(todo["STATUS"]) == "COMPLETED") == (str(todo["SUMMARY"]) == names[0])
        assert ("COMPLETED" in todo) == (str(todo["SUMMARY"]) == names[0])

    parsed = vobject.readOne(text)
    assert parsed.vevent.dtstart.value == datetime.date(2027, 3, 28)
    assert parsed.vevent.dtend.value == datetime.date(2027, 4, 7)
    assert parsed.vevent.location.value == "Kyoto, Japan" and parsed.vevent.uid.value == str(event["UID"])
    assert sorted(todo.summary.value for todo in parsed.vtodo_list) == sorted(names)
    assert {todo.summary.value for todo in parsed.vtodo_list if todo.status.value == "COMPLETED"} == {names[0]}


def fetch(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.headers, response.read().decode()


def events_by_uid(text):
    """Each VEVENT's UID, SEQUENCE, summary and dates, as icalendar reads them; vobject must agree."""
    events = {str(event["UID"]): (int(event["SEQUENCE"]), str(event["SUMMARY"]), event.decoded("DTSTART"), event.decoded("DTEND"))
              for event in icalendar.Calendar.from_ical(text).walk("VEVENT")}
    parsed = vobject.readOne(text)
    other = {event.uid.value: (int(event.sequence.value), event.summary.value, event.dtstart.value, event.dtend.value)
             for event in parsed.contents.get("vevent", [])}
    assert other == events
    return events


def create_feed(server, name, *options):
    """`wishlist feed create` beside the running server, as its README says; the printed address."""
    output = subprocess.run([str(BINARY), "feed", "create", name, *options, "--port", str(server.port),
                             "--data-dir", str(server.data_dir)], capture_output=True, text=True, check=True).stdout
    [url] = [line for line in output.splitlines() if line.startswith("http")]
    return url


def test_a_feed_subscribed_from_the_trip_page_follows_the_trips_changes(server, browser):
    open_trip(browser, server, "Japan Mystique")
    trip_url = browser.current_url.split("?")[0]
    browser.find_element(By.LINK_TEXT, "Subscribe in a calendar app").click()
    selected = browser.find_element(By.CSS_SELECTOR, "#feed-trip option:checked")
    assert selected.text == "Japan Mystique"
    browser.find_element(By.ID, "feed-name").send_keys("japan")
    browser.find_element(By.XPATH, "//button[text()='Create Feed']").click()
    feed_url = browser.find_element(By.ID, "new-feed-url").text
    assert feed_url.startswith(server.url + "/calendar/wlc_")

    headers, text = fetch(feed_url)
    [(uid, (sequence, summary, start, end))] = events_by_uid(text).items()
    assert (summary, start, end) == ("Japan Mystique", datetime.date(2027, 3, 28), datetime.date(2027, 4, 7))
    assert fetch_status(feed_url, {"If-None-Match": headers["ETag"]}) == 304

    # A check-off on the trip's page: the same event, a higher SEQUENCE, the to-do completed.
    browser.get(trip_url)
    names = activity_names(browser)
    check(browser, names[1])
    _, changed = fetch(feed_url)
    [(same_uid, (later, *_))] = events_by_uid(changed).items()
    assert same_uid == uid and later > sequence
    done = [todo for todo in icalendar.Calendar.from_ical(changed).walk("VTODO") if str(todo["STATUS"]) == "COMPLETED"]
    assert [str(todo["SUMMARY"]) for todo in done] == [names[1]]


def fetch_status(url, headers):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_export_and_import_keep_every_trip_and_feed_uid(server, tmp_path):
    """Export → import into an empty data folder: every /trips/ID and every feed UID unchanged."""
    _, before = fetch(create_feed(server, "all"))
    uids = events_by_uid(before)
    assert len(uids) >= 5
    archive = tmp_path / "wishlist.zip"
    subprocess.run([str(BINARY), "export", str(archive), "--data-dir", str(server.data_dir)], check=True, capture_output=True)

    other = WishlistServer(tmp_path / "imported")
    other.data_dir.mkdir()
    subprocess.run([str(BINARY), "import", str(archive), "--data-dir", str(other.data_dir)], check=True, capture_output=True)
    other.start()
    try:
        _, after = fetch(create_feed(other, "all"))
        assert {uid: event[1:] for uid, event in events_by_uid(after).items()} == {uid: event[1:] for uid, event in uids.items()}
        for uid, (_, summary, *_) in uids.items():
            trip_id = uid.removeprefix("trip-").removesuffix("@wishlist")
            _, page = fetch(f"{other.url}/trips/{trip_id}")
            assert f"<title>{html.escape(summary)}" in page
        # The old server's address means nothing to the new one: secrets are not exported.
        assert fetch_status(create_feed(server, "old").replace(server.url, other.url), {}) == 404
    finally:
        other.stop()
