"""Trips in other apps (#37). A trip's .ics and the calendar feeds, written by libical, read by two
independent parsers (Python's icalendar and vobject, from Debian) with the trips' dates, places
and activities exact. The places as GPX, KML and GeoJSON, written by GDAL's drivers, read by
GDAL's `ogrinfo` (Debian's gdal-bin): every trip with a position one feature, its name, link and
coordinates as the database holds them."""

import datetime
import html
import re
import sqlite3
import subprocess
import urllib.error
import urllib.request

import icalendar
import vobject
from selenium.webdriver.common.by import By

from conftest import BINARY, WishlistServer, wait_until, wait_until
from test_edits import open_edit_mode, press_done
from test_a11y import violations
from test_screens import activity_names, check, open_trip


def test_a_trips_calendar_file_reads_the_same_in_two_parsers(server, browser):
    open_trip(browser, server, "Japan Mystique")
    names = activity_names(browser)
    check(browser, names[0])
    link = browser.find_element(By.LINK_TEXT, ".ics file")
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
    browser.find_element(By.LINK_TEXT, "Subscribe").click()
    [selected] = wait_until(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#feed-trip option:checked"))
    assert selected.text == "Japan Mystique"
    browser.find_element(By.ID, "feed-name").send_keys("japan")
    browser.find_element(By.XPATH, "//button[text()='Create Feed']").click()
    # The click only starts the form's submission: wait for the page that answers it.
    [shown] = wait_until(browser, lambda d: d.find_elements(By.ID, "new-feed-url"))
    feed_url = shown.text
    assert feed_url.startswith(server.url + "/calendar/wlc_")
    notice = browser.find_element(By.CSS_SELECTOR, "#feeds .token-secret").text
    assert "only this computer can use it" in notice and "--allowed-host NAME" in notice, "a 127.0.0.1 address says so"

    # Copy puts the address on the clipboard and says so (headless Chromium asks no one: granted here).
    browser.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    try:
        browser.find_element(By.XPATH, "//section[@id='feeds']//button[text()='Copy']").click()
        wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#feeds .copy-status").text == "Copied")
        copied = browser.execute_async_script("navigator.clipboard.readText().then(arguments[0], (e) => arguments[0](String(e)))")
        assert copied == feed_url
        assert violations(browser) == [], "the notice with its button, its status and the sentence"
    finally:
        browser.execute_cdp_cmd("Browser.resetPermissions", {})

    headers, text = fetch(feed_url)
    calendar = icalendar.Calendar.from_ical(text)
    assert str(calendar["X-WR-CALNAME"]) == "Japan Mystique", "a one-trip feed is named after its trip"
    refresh = calendar["REFRESH-INTERVAL"]
    assert (str(refresh), refresh.params["VALUE"], str(calendar["X-PUBLISHED-TTL"])) == ("PT1H", "DURATION", "PT1H")
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


# Per format: the media type, the layer ogrinfo reads the points from, and its fields for the
# name and the link (GPX has its own schema; OGR's KML reader capitalises the name field).
PLACE_FORMATS = {
    "gpx": ("application/gpx+xml", "waypoints", "name", "link1_href"),
    "kml": ("application/vnd.google-earth.kml+xml", "trips", "Name", "link"),
    "geojson": ("application/geo+json", "trips", "name", "link"),
}
HOSTILE_NAME = 'Café "Kyō" & <Gärten> 🏯'


def positioned_trips(server, collection=None, trip_id=None):
    """(name, link, latitude, longitude) of each trip with a position, as the database holds them:
    read straight from the file (read-only), not through the app."""
    sql = "SELECT id, name, latitude, longitude FROM Trip WHERE latitude IS NOT NULL"
    arguments = []
    if collection:
        sql, arguments = sql + " AND collection = ?", [collection]
    if trip_id:
        sql, arguments = sql + " AND id = ?", [trip_id]
    with sqlite3.connect(f"file:{server.data_dir / 'wishlist.sqlite'}?mode=ro", uri=True) as database:
        rows = database.execute(sql, arguments).fetchall()
    return sorted((name, f"{server.url}/trips/{id}", latitude, longitude) for id, name, latitude, longitude in rows)


def ogrinfo(path):
    """What `ogrinfo -al -ro` reads: {layer: (feature count it states, [(name, link, lat, lon)])}."""
    result = subprocess.run(["ogrinfo", "-al", "-ro", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "ERROR" not in result.stderr, result.stderr
    layers = {}
    for block in re.split(r"^Layer name: ", result.stdout, flags=re.M)[1:]:
        name = block.split("\n", 1)[0].strip()
        count = int(re.search(r"^Feature Count: (\d+)$", block, flags=re.M).group(1))
        features = []
        for feature in re.split(r"^OGRFeature\(", block, flags=re.M)[1:]:
            fields = dict(re.findall(r"^  (\S+) \(\w+\) = (.*)$", feature, flags=re.M))
            point = re.search(r"^  POINT \((\S+) (\S+)\)$", feature, flags=re.M)
            features.append((fields, float(point.group(2)), float(point.group(1))))
        layers[name] = (count, features)
    return layers


def check_places_file(url, tmp_path, extension, expected):
    """Downloads URL and checks that ogrinfo reads exactly EXPECTED from it."""
    media_type, layer, name_field, link_field = PLACE_FORMATS[extension]
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.headers["Content-Type"] == media_type
        assert re.fullmatch(rf'attachment; filename="[\w-]+\.{extension}"(; filename\*=UTF-8\'\'[\w%-]+\.{extension})?',
                            response.headers["Content-Disposition"], flags=re.ASCII)
        path = tmp_path / f"{len(list(tmp_path.iterdir()))}.{extension}"
        path.write_bytes(response.read())
    layers = ogrinfo(path)
    assert {name for name, (count, _) in layers.items() if count} == ({layer} if expected else set()), url
    count, features = layers[layer]
    assert count == len(features) == len(expected), url
    read = sorted((fields[name_field], fields[link_field], latitude, longitude) for fields, latitude, longitude in features)
    for (name, link, latitude, longitude), (want_name, want_link, want_latitude, want_longitude) in zip(read, expected):
        assert (name, link) == (want_name, want_link), url
        assert abs(latitude - want_latitude) < 1e-6 and abs(longitude - want_longitude) < 1e-6, (url, name)


def test_the_places_read_the_same_in_gdal_for_all_trips_a_collection_and_a_trip(server, browser, tmp_path):
    # A name that must be escaped in XML and JSON, with accents and a character beyond the BMP
    # (typed by script: chromedriver sends only BMP keys).
    open_edit_mode(browser, server, "Japan Mystique")
    browser.execute_script("arguments[0].value = arguments[1]", browser.find_element(By.ID, "edit-trip-name"), HOSTILE_NAME)
    press_done(browser)
    wait_until(browser, lambda d: "edit=1" not in d.current_url and d.find_element(By.TAG_NAME, "h1").text == HOSTILE_NAME,
               timeout=20)
    trip_id = int(browser.current_url.split("?")[0].rsplit("/", 1)[1])

    links = browser.find_elements(By.CSS_SELECTOR, ".trip-files a[download][href*='/place.']")
    assert [link.text for link in links] == ["GPX", "KML", "GeoJSON"]
    trip = positioned_trips(server, trip_id=trip_id)
    assert [name for name, *_ in trip] == [HOSTILE_NAME]
    for link, extension in zip(links, PLACE_FORMATS):
        check_places_file(link.get_attribute("href"), tmp_path, extension, trip)

    browser.get(server.url + "/map")
    every_trip = positioned_trips(server)
    spring = positioned_trips(server, collection="springEscapes")
    assert len(every_trip) == 12 and 1 < len(spring) < 12 and HOSTILE_NAME in [name for name, *_ in spring]
    for scope, expected in (("All trips", every_trip), ("Spring Escapes", spring)):
        row = browser.find_element(By.XPATH, f"//section[@class='map-downloads']//li[span[.='{scope}']]")
        links = row.find_elements(By.CSS_SELECTOR, "a[download]")
        assert [link.text for link in links] == ["GPX", "KML", "GeoJSON"]
        for link, extension in zip(links, PLACE_FORMATS):
            check_places_file(link.get_attribute("href"), tmp_path, extension, expected)
