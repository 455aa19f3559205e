"""A trip in a calendar app (#37): its .ics, written by libical, read by two independent parsers
(Python's icalendar and vobject, from Debian) with the trip's dates, place and activities exact."""

import datetime
import urllib.request

import icalendar
import vobject
from selenium.webdriver.common.by import By

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
