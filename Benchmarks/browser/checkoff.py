"""A check-off as its own tab feels it: in headless Chromium on Lighthouse's mobile profile (see
measure.py), the time from the tap to the remaining count changing on the page, to the tap's own
answer being in, and the bytes the page fetched for it, for two builds side by side (each serving
its own tree), alternating rounds on fresh seeded data. Prints one Markdown table of medians.
Chromium's emulated round trip delays each response, not the request: the commit's event on the
open live stream (no new response) arrives before the tap's own answer, so the count changes
first by the stream."""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tests" / "Browser"))
from conftest import free_port, wait_until  # noqa: E402
from measure import throttled_phone  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "3"))
TAPS = int(os.environ.get("TAPS", "10"))

# Taps the first activity's check and answers when the remaining count shows the change, with the
# milliseconds it took and the bytes of what the page fetched meanwhile (whole pages among them).
TAP = """
const done = arguments[arguments.length - 1];
const before = document.getElementById("remaining-count").textContent;
const seen = performance.getEntriesByType("resource").length;
const start = performance.now();
const observer = new MutationObserver(() => {
  const now = document.getElementById("remaining-count")?.textContent;
  if (now === undefined || now === before) return;  // mid-swap, or not yet
  observer.disconnect();
  const took = performance.now() - start;
  setTimeout(() => {
    const fetched = performance.getEntriesByType("resource").slice(seen).filter(e => e.initiatorType === "fetch");
    done({ took, answered: Math.max(...fetched.map(e => e.responseEnd)) - start,
           bytes: fetched.reduce((sum, e) => sum + e.transferSize, 0) });
  }, 500);
});
observer.observe(document.body, { subtree: true, childList: true, characterData: true });
document.querySelector("#activity-list button.check").click();
"""


def start(binary, data):
    tree = Path(binary).absolute().parents[2]  # the tree two levels above .build/, as pair/run
    port = free_port()
    process = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", str(data), "--resources", str(tree)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(url + "/", timeout=1).read()
            return process, url
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{binary} did not start")


def taps(driver, url):
    driver.get(url + "/trips/1")
    wait_until(driver, lambda d: d.execute_script("return document.readyState") == "complete")
    time.sleep(1)  # the live stream open, as a person would have it
    return [driver.execute_async_script(TAP) for _ in range(TAPS)]


def main():
    binaries = sys.argv[1:3]
    work = Path(tempfile.mkdtemp())
    servers = [start(binary, work / f"data{side}") for side, binary in enumerate(binaries)]
    results = {side: [] for side in (0, 1)}
    try:
        driver = throttled_phone()
        for _ in range(ROUNDS):
            for side, (_, url) in enumerate(servers):
                results[side] += taps(driver, url)
        driver.quit()
    finally:
        for process, _ in servers:
            process.terminate()
        shutil.rmtree(work, ignore_errors=True)
    print(f"| build | tap → count changed | tap → the tap's own answer in | bytes fetched per tap |")
    print("|---|---|---|---|")
    medians = []
    for side, binary in enumerate(binaries):
        median = {key: statistics.median(r[key] for r in results[side]) for key in ("took", "answered", "bytes")}
        medians.append(median)
        print(f"| `{binary}` | {median['took']:.0f} ms | {median['answered']:.0f} ms | {median['bytes']:,.0f} |")
    print(f"\nafter / before, medians of {ROUNDS * TAPS} taps: count changed {medians[1]['took'] / medians[0]['took']:.2f}×, "
          f"own answer {medians[1]['answered'] / medians[0]['answered']:.2f}×")


main()
