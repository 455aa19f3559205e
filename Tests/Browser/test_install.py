"""The app can be installed: Chromium finds its manifest, with icons it can use, and names no
reason not to offer installing it."""

from conftest import wait_until


def test_chromium_finds_nothing_in_the_way_of_installing_the_app(server, browser):
    browser.get(server.url + "/")
    manifest = browser.execute_cdp_cmd("Page.getAppManifest", {})
    assert manifest["url"].startswith(server.url + "/static/") and not manifest["errors"]
    errors = wait_until(browser, lambda d: d.execute_cdp_cmd("Page.getInstallabilityErrors", {}))
    assert errors["installabilityErrors"] == []
