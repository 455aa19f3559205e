"""The app can be installed: Chromium finds its manifest, with icons it can use, and names no
reason not to offer installing it."""

from conftest import wait_until


def test_chromium_finds_nothing_in_the_way_of_installing_the_app(server, browser):
    browser.get(server.url + "/")
    # The manifest is fetched after the page and the worker registers after it: wait for both,
    # then ask once, so an error Chromium finds is an error and not a question asked too early.
    manifest = wait_until(browser, lambda d: (found := d.execute_cdp_cmd("Page.getAppManifest", {}))["url"] and found)
    assert manifest["url"].startswith(server.url + "/static/") and not manifest["errors"]
    wait_until(browser, lambda d: d.execute_script("return navigator.serviceWorker.ready.then(() => true)"), timeout=10)
    errors = browser.execute_cdp_cmd("Page.getInstallabilityErrors", {})
    assert errors["installabilityErrors"] == []
