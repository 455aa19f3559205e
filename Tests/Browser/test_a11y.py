"""An axe-core scan of every screen in both themes finds no violation. With UPDATE_SCREENSHOTS=1
the same visit saves each screen at phone and desktop width into docs/screenshots/ (for the README)."""

import os
import subprocess
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from conftest import DESKTOP, PHONE, ROOT
from test_layout import set_theme
from test_security import protected_server  # noqa: F401 (a fixture)

# axe-core's own script, as the PyPI package axe-core-python ships it (scripts/install-deps test).
# Without it the accessibility checks cannot run, and a run without them must not pass.
import axe_core_python
AXE_SCRIPT = (Path(axe_core_python.__file__).parent / "axe.min.js").read_text()

DOCS = ROOT / "docs" / "screenshots"
THEMES = ("dark", "light")


def trip_url(driver, server, name):
    driver.get(server.url + "/search?q=" + name.replace(" ", "+"))
    return driver.find_element(By.XPATH, f"//section[h2='Trips']//a[contains(., '{name}')]").get_attribute("href")


def screens(driver, server):
    trip = trip_url(driver, server, "Japan Mystique")
    driver.get(trip)
    photo = driver.execute_script("return document.querySelector('#trip-gallery .gallery-link').href")
    return [
        ("wishlist", server.url + "/"),
        ("collection", server.url + "/collections/summerVibes"),
        ("trip", trip),
        ("trip-edit", trip + "?edit=1#activity-list"),
        ("photo", photo),
        ("new-trip", server.url + "/trips/new"),
        ("trips", server.url + "/trips"),
        ("trips-by-destination", server.url + "/trips?group=destination"),
        ("map", server.url + "/map"),
        ("goals", server.url + "/goals"),
        ("search", server.url + "/search?q=hike"),
        ("search-empty", server.url + "/search?q=zzzzqx"),
        ("error", server.url + "/trips/999999"),
        ("data", server.url + "/data"),
    ]


def violations(driver):
    driver.execute_script(AXE_SCRIPT)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations), e => done(String(e)));")
    assert isinstance(result, list), result
    return [f"{v['id']}: {v['help']} — {[n['target'] for n in v['nodes']][:4]}" for v in result]


def save_screenshots(driver, name, theme):
    """Viewport-sized PNGs, quantised to a palette so the README's set stays small."""
    DOCS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        driver.set_window_size(*size)
        # The screen as a person lands on it: at the top, or at the #anchor its address names.
        driver.execute_script("location.hash ? document.querySelector(location.hash).scrollIntoView() : scrollTo(0, 0)")
        raw, path = DOCS / f"{name}.raw.png", DOCS / f"{name}-{label}-{theme}.png"
        driver.save_screenshot(str(raw))
        subprocess.run(["vips", "copy", str(raw), f"{path}[palette,Q=80,compression=9,strip]"], check=True)
        raw.unlink()


def scan(driver, pages, theme):
    set_theme(driver, theme)
    found = {}
    for name, url in pages:
        for size in (DESKTOP, PHONE):
            driver.set_window_size(*size)
            driver.get(url)
            if problems := violations(driver):
                found[f"{name} at {size[0]} px"] = problems
        if os.environ.get("UPDATE_SCREENSHOTS"):
            save_screenshots(driver, name, theme)
    return "\n".join(f"{screen}: {problem}" for screen, problems in found.items() for problem in problems)


@pytest.mark.parametrize("theme", THEMES)
def test_no_screen_has_an_axe_violation(server, browser, theme):
    assert scan(browser, screens(browser, server), theme) == ""


@pytest.mark.parametrize("theme", THEMES)
def test_the_login_page_has_no_axe_violation(protected_server, browser, theme):
    assert scan(browser, [("login", protected_server.url + "/login")], theme) == ""
