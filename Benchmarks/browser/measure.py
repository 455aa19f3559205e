"""Each screen of a seeded Wishlist, loaded in headless Chromium throttled as Lighthouse's mobile
profile (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x slower, a phone's screen),
cold (empty cache) and again (warm cache, a new navigation), with the page's own timings:
requests and bytes that went to the network, bytes before first paint, first and largest
contentful paint (LCP from a PerformanceObserver, with the element it was), layout shift, and
how many static files were asked for again. First, one visit at a 1 s round trip checks that the
LCP read can differ from the first paint (`check_that_lcp_can_move`).

The floor of a page is what no server can beat: two round trips (connect, request) and its HTML
at the link's rate. Chromium's throttling delays each request by the round trip but emulates no
connect, so a page here pays one round trip less than on a real link of this profile: LCP/floor
flatters by up to 150 ms, the same for every build measured."""

import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tests" / "Browser"))
from conftest import WishlistServer, make_driver, wait_until  # noqa: E402

SCREENS = ["/", "/trips", "/map", "/goals", "/search?q=kyoto", "/trips/1"]
ROUND_TRIP_MS = 150
DOWN_BYTES_PER_MS = 1_600_000 / 8 / 1000
RUNS = int(os.environ.get("RUNS", "3"))

# Every largest-contentful-paint entry, from the document's start: Chromium gives them to a
# PerformanceObserver only (performance.getEntriesByType leaves them out).
OBSERVE = """
window.__lcp = [];
new PerformanceObserver(list => window.__lcp.push(...list.getEntries()))
  .observe({ type: "largest-contentful-paint", buffered: true });
"""

# Read once the page is quiet (no new request or paint candidate for QUIET_MS): what its own
# entries say, and which element its largest paint was.
QUIET_MS = 500
TIMINGS = """
const done = arguments[arguments.length - 1];
const count = () => performance.getEntriesByType("resource").length + window.__lcp.length;
let seen = count(), still = 0;
const settle = setInterval(() => {
  const now = count();
  still = now === seen ? still + 50 : 0;
  seen = now;
  if (still < %d) return;
  clearInterval(settle);
  const last = window.__lcp[window.__lcp.length - 1];
  const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0;
  const entries = [performance.getEntriesByType("navigation")[0], ...performance.getEntriesByType("resource")];
  const fetched = entries.filter(e => e.transferSize > 0);
  const element = last?.element;
  done({
    html: entries[0].transferSize,
    requests: fetched.length,
    bytes: fetched.reduce((sum, e) => sum + e.transferSize, 0),
    beforePaint: fetched.filter(e => e.responseEnd <= fcp).reduce((sum, e) => sum + e.transferSize, 0),
    fcp,
    lcp: last ? last.startTime : null,
    lcpElement: element ? element.tagName.toLowerCase() + (element.id ? "#" + element.id : "")
      + (element.className && typeof element.className === "string" ? "." + element.className.trim().split(/\\s+/)[0] : "") : "",
    lcpIsImage: !!last?.url,
    cls: performance.getEntriesByType("layout-shift").filter(e => !e.hadRecentInput).reduce((sum, e) => sum + e.value, 0),
    staticRequests: fetched.filter(e => new URL(e.name).pathname.startsWith("/static/")).length,
  });
}, 50);
""" % QUIET_MS


def throttled_phone(round_trip_ms=ROUND_TRIP_MS):
    driver = make_driver(size=(412, 823))
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": round_trip_ms,
        "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8})
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 4})
    # What a service worker fetches is not throttled by the page's emulated network: without the
    # worker, a repeat visit is the browser's HTTP cache and a throttled request, as it should be.
    driver.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 412, "height": 823, "deviceScaleFactor": 1.75, "mobile": True})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVE})
    driver.set_script_timeout(30)
    return driver


def visit(driver, url):
    driver.get("about:blank")
    driver.get(url)
    wait_until(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    timings = driver.execute_async_script(TIMINGS)
    if timings["lcp"] is None:
        sys.exit(f"{url}: no largest-contentful-paint entry reached the observer")
    return timings


def check_that_lcp_can_move(url):
    """A figure that cannot differ from the first paint measures nothing (the old script read
    FCP and called it LCP). With a 1 s round trip, a page whose largest element is a photo
    cannot paint it with its first paint: the photo is asked for after the HTML arrives."""
    driver = throttled_phone(round_trip_ms=1000)
    try:
        timings = visit(driver, url)
    finally:
        driver.quit()
    if not timings["lcpIsImage"] or timings["lcp"] < timings["fcp"] + 500:
        sys.exit(f"{url}: at a 1 s round trip LCP was {timings['lcp']:.0f} ms ({timings['lcpElement']}) and FCP "
                 f"{timings['fcp']:.0f} ms: the photo's paint should come a round trip later; this is not reading LCP")


def main():
    server = WishlistServer(Path(tempfile.mkdtemp()) / "data")
    server.start()
    rows = {}
    try:
        check_that_lcp_can_move(server.url + "/trips/1")
        for _ in range(RUNS):
            for path in SCREENS:
                driver = throttled_phone()  # a fresh profile: nothing cached, no connection open
                try:
                    for kind in ("cold", "repeat"):
                        rows.setdefault((path, kind), []).append(visit(driver, server.url + path))
                finally:
                    driver.quit()
    finally:
        server.stop()
    print(f"| page | visit | requests | KB | KB before paint | FCP ms | LCP ms | LCP element | CLS | floor ms | LCP/floor | static requests |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (path, kind), runs in rows.items():
        median = {key: statistics.median(run[key] for run in runs) for key in runs[0] if key not in ("lcpElement", "lcpIsImage")}
        element = statistics.mode(run["lcpElement"] for run in runs)
        html = statistics.median(run["html"] for run in rows[(path, "cold")])
        floor = 2 * ROUND_TRIP_MS + html / DOWN_BYTES_PER_MS
        print(f"| `{path}` | {kind} | {median['requests']:.0f} | {median['bytes'] / 1000:.0f} | {median['beforePaint'] / 1000:.0f} "
              f"| {median['fcp']:.0f} | {median['lcp']:.0f} | `{element}` | {median['cls']:.3f} | {floor:.0f} | {median['lcp'] / floor:.1f}× "
              f"| {median['staticRequests']:.0f} |")


if __name__ == "__main__":
    main()
