"""Security in a real Chromium: the pages run under the strict Content-Security-Policy without a
single violation, a page of another site cannot show the photos (so it cannot learn which trips
exist), and a password-protected server is usable through its login page."""

import functools
import http.client
import threading
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By

from conftest import WishlistServer, free_port, screenshot, wait_until

PASSWORD = "a long and private passphrase"

# Runs before any page script and records what the CSP blocked (CDP scripts are not subject to it).
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation",
    e => window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + e.sourceFile + ":" + e.lineNumber));
"""


def violations(driver):
    return driver.execute_script("return window.__cspViolations || []")


def test_pages_and_scripts_run_without_a_csp_violation(server, browser):
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_VIOLATIONS})
    for path in ["/", "/goals", "/search?q=a", "/collections/summerVibes", "/trips/1", "/trips/1?edit=1",
                 "/trips/new", "/trips/1/delete", "/trips/999999"]:
        browser.get(server.url + path)
        wait_until(browser, lambda d: d.execute_script("return document.readyState") == "complete")
        assert violations(browser) == [], path
    # The script's own work (the New Trip dialog, live updates) stays inside the policy too.
    browser.get(server.url + "/")
    browser.find_element(By.CSS_SELECTOR, "a.add-trip, button.add-trip").click()
    wait_until(browser, lambda d: d.find_element(By.CSS_SELECTOR, "dialog[open]"))
    assert violations(browser) == []


# Another site's page showing one of the app's photos: images embed across sites unless the
# server refuses (403 to Sec-Fetch-Site cross-site, and Cross-Origin-Resource-Policy).
OTHER_SITE_PAGE = """<!doctype html><meta charset="utf-8"><title>Another site</title>
<img src="{photo}" onload="document.title = 'photo loaded'" onerror="document.title = 'photo refused'">"""


def test_a_page_of_another_site_cannot_show_the_photos(server, browser, tmp_path):
    browser.get(server.url + "/")
    photo = wait_until(browser, lambda d: d.execute_script(
        "const img = document.querySelector('img[src*=\"/thumbnail\"]');"
        "return img && img.complete && img.naturalWidth > 0 ? img.src : null"))
    (tmp_path / "other.html").write_text(OTHER_SITE_PAGE.format(photo=photo))
    other_site = ThreadingHTTPServer(("127.0.0.1", free_port()),
                                     functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path)))
    threading.Thread(target=other_site.serve_forever, daemon=True).start()
    try:
        # localhost is another site than 127.0.0.1, as any web page's own name is.
        browser.get(f"http://localhost:{other_site.server_address[1]}/other.html")
        wait_until(browser, lambda d: d.title in ("photo loaded", "photo refused"))
        assert browser.title == "photo refused"
    finally:
        other_site.shutdown()
        other_site.server_close()


@pytest.fixture
def protected_server(tmp_path, seeded_folder):
    server = WishlistServer(tmp_path / "data", environment={"WISHLIST_PASSWORD": PASSWORD}, ready_path="/login",
                            template=seeded_folder)
    server.start()
    yield server
    server.stop()


def sign_in(driver, password):
    field = driver.find_element(By.ID, "password")
    field.clear()
    field.send_keys(password)
    driver.find_element(By.CSS_SELECTOR, ".login-form button[type=submit]").click()


def test_login_page_signs_in_and_out(protected_server, browser):
    server = protected_server
    browser.get(server.url + "/goals")
    wait_until(browser, lambda d: d.current_url == server.url + "/login?return=%2Fgoals")
    assert browser.find_elements(By.CSS_SELECTOR, "nav.tabbar") == []
    screenshot(browser, "login")

    sign_in(browser, "not it")
    wait_until(browser, lambda d: d.find_element(By.ID, "login-error").text == "That password isn’t right.")
    assert browser.find_element(By.ID, "password").get_attribute("aria-invalid") == "true"
    screenshot(browser, "login-wrong-password")

    sign_in(browser, PASSWORD)
    # Back to the page asked for, a wrong password first notwithstanding.
    wait_until(browser, lambda d: d.current_url == server.url + "/goals")
    assert browser.find_element(By.TAG_NAME, "h1").text
    # The session cookie is out of reach of scripts.
    assert "session=" not in browser.execute_script("return document.cookie")

    browser.find_element(By.CSS_SELECTOR, ".sign-out button").click()
    wait_until(browser, lambda d: d.current_url == server.url + "/login")
    browser.get(server.url + "/")
    wait_until(browser, lambda d: d.current_url == server.url + "/login")


PHOTOS_SHOWN = """return [...document.images].map(img => img.currentSrc)
    .filter(src => /\\/(trips|photos)\\/\\d+\\/(thumbnail|photo\\/\\d+)\\?v=/.test(src))"""


def all_photos_loaded(driver):
    return driver.execute_script("""const photos = [...document.images].filter(img => img.currentSrc.includes('?v='));
        return photos.length > 0 && photos.every(img => img.complete && img.naturalWidth > 0)""")


def readable_photos(driver, urls):
    """Of `urls`, those this browser still answers with an image: from its HTTP cache
    (`force-cache` takes any copy kept, however old) or the service worker's, else the server."""
    return driver.execute_async_script("""const [urls, done] = arguments;
        Promise.all(urls.map(async url => {
            const answer = await fetch(url, {cache: 'force-cache'}).catch(() => null);
            const kept = await caches.match(url);
            return (answer?.ok && answer.headers.get('Content-Type').startsWith('image/')) || kept ? url : null;
        })).then(found => done(found.filter(Boolean)))""", urls)


def open_signed_in(driver, server, path):
    """Signs in, then opens `path` through the service worker (which keeps what it fetches): it
    takes over from the page after the one that installed it."""
    driver.get(server.url + "/")
    sign_in(driver, PASSWORD)
    wait_until(driver, lambda d: d.current_url == server.url + "/")
    driver.execute_async_script("navigator.serviceWorker.ready.then(() => arguments[0]())")
    driver.get(server.url + path)
    wait_until(driver, lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))


def test_after_signing_out_no_page_or_photo_of_the_session_is_shown_again(protected_server, browser):
    server = protected_server
    open_signed_in(browser, server, "/trips/1")
    wait_until(browser, all_photos_loaded)
    photos = browser.execute_script(PHOTOS_SHOWN)
    browser.get(server.url + "/")
    wait_until(browser, all_photos_loaded)
    photos += browser.execute_script(PHOTOS_SHOWN)
    assert len(photos) >= 4 and readable_photos(browser, photos) == photos
    wishlist = browser.find_element(By.ID, "carousel").text

    browser.find_element(By.CSS_SELECTOR, ".sign-out button").click()
    wait_until(browser, lambda d: d.current_url == server.url + "/login")
    browser.back()
    wait_until(browser, lambda d: d.current_url == server.url + "/login" and d.find_elements(By.ID, "password"))
    assert wishlist not in browser.find_element(By.TAG_NAME, "body").text
    assert readable_photos(browser, photos) == []


class HoldingProxy:
    """A proxy in front of `server` (the browser's origin is the proxy's) that puts the answer to
    the request of `held` (a path) behind a sign-out: the sign-out goes to the server only once
    `held` was answered there, and that answer reaches the browser only after the sign-out's."""

    def __init__(self, server):
        self.held = None
        answered, released = threading.Event(), threading.Event()
        proxy = self

        class Forward(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"  # one request a connection, each body read to its end

            def forward(self):
                held = self.path == proxy.held
                if self.path == "/logout":
                    answered.wait(timeout=30)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                upstream = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                upstream.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
                for name, value in self.headers.items():
                    if name.lower() not in ("connection", "keep-alive"):
                        upstream.putheader(name, value)
                upstream.endheaders(body)
                answer = upstream.getresponse()
                if held:
                    content = answer.read()
                    answered.set()
                    released.wait(timeout=30)
                self.send_response_only(answer.status, answer.reason)
                for name, value in answer.getheaders():
                    if name.lower() not in ("connection", "keep-alive", "transfer-encoding"):
                        self.send_header(name, value)
                self.end_headers()
                if held:
                    self.wfile.write(content)
                # Piece by piece: an event stream never ends.
                while not held and (chunk := answer.read1(65536)):
                    self.wfile.write(chunk)
                    self.wfile.flush()
                if self.path == "/logout":
                    released.set()

            do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = forward

            def log_message(self, *arguments):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Forward)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def test_a_photo_fetched_while_signing_out_is_not_kept_after_it(protected_server, browser):
    proxy = HoldingProxy(protected_server)
    try:
        open_signed_in(browser, proxy, "/trips")
        # A size of a photo not asked for yet, so the worker fetches it, after the sign-out was
        # sent; the server answers it before the sign-out, and the answer comes after the sign-out's.
        proxy.held = browser.execute_script("""const thumbnail = new URL(document.querySelector('img[src*="/thumbnail?v="]').src);
            return thumbnail.pathname.replace('/thumbnail', '/photo/2048') + thumbnail.search""")
        browser.execute_async_script("""const [photo, done] = arguments;
            Promise.all([fetch('/logout', {method: 'POST', headers: {'X-CSRF-Token': csrfToken}}),
                         fetch(photo).then(answer => answer.blob())]).then(() => done())""", proxy.held)

        # Signed in again without the home page, whose carousel shows that size of the photo.
        browser.get(proxy.url + "/login")
        browser.execute_async_script("""const [password, done] = arguments;
            const form = document.querySelector('.login-form');
            form.elements.password.value = password;
            fetch(form.action, {method: 'POST', body: new URLSearchParams(new FormData(form)), redirect: 'manual'}).then(() => done())""",
                                     PASSWORD)
        # The worker keeps one answer at a time, in order: once this page (no photo on it) is
        # kept, so is anything before.
        browser.get(proxy.url + "/goals")
        kept = lambda url: browser.execute_async_script("caches.match(arguments[0]).then(found => arguments[1](!!found))", url)
        wait_until(browser, lambda d: kept(proxy.url + "/goals"))
        assert not kept(proxy.url + proxy.held)
    finally:
        proxy.close()
