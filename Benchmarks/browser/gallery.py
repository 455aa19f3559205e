"""A gallery as a person fills it (#36): 30 files chosen at once on a trip page in headless
Chromium (27 photos of 12 MP, a HEIC, a PNG and a file cut short), each sent by the page's bulk
upload; when each thumbnail appeared in the gallery, and what became of each file. Then the trip
page with its 30 photos on Lighthouse's mobile profile, cold and repeat, beside its floor
(measure.py's)."""

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium.webdriver.common.by import By

sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import DOWN_BYTES_PER_MS, ROUND_TRIP_MS, RUNS, throttled_phone, visit  # noqa: E402
from conftest import WishlistServer, make_driver, wait_until  # noqa: E402

# Each thumbnail's arrival, timed in the page.
WATCH = """
window.arrivals = [];
const start = performance.now();
new MutationObserver(() => {
  const count = document.querySelectorAll('#trip-gallery .gallery-item').length;
  if (count > (window.arrivals.at(-1)?.count ?? 1)) window.arrivals.push({count, at: performance.now() - start});
}).observe(document.body, {childList: true, subtree: true});
"""


def files(folder):
    paths = []
    for index in range(27):
        path = folder / f"camera-{index:02}.jpg"
        subprocess.run(["vips", "gaussnoise", f"{path}[Q=90]", str(4000 + index), "3000", "--sigma", "40"], check=True)
        paths.append(path)
    for name, size in (("phone.heic", ("1600", "1200")), ("drawing.png", ("1600", "1200"))):
        subprocess.run(["vips", "gaussnoise", str(folder / name), *size, "--sigma", "20"], check=True)
        paths.append(folder / name)
    broken = folder / "broken.jpg"
    broken.write_bytes(paths[0].read_bytes()[:4096])
    return paths + [broken]


def main():
    folder = Path(tempfile.mkdtemp())
    chosen = files(folder)
    print(f"{len(chosen)} files, {sum(p.stat().st_size for p in chosen) / 1e6:.0f} MB", file=sys.stderr)
    server = WishlistServer(folder / "data")
    server.start()
    try:
        driver = make_driver()
        try:
            driver.get(server.url + "/trips/1")
            wait_until(driver, lambda d: d.find_elements(By.ID, "gallery-files"))
            driver.execute_script(WATCH)
            started = time.monotonic()
            driver.find_element(By.ID, "gallery-files").send_keys("\n".join(str(p) for p in chosen))
            outcomes = lambda d: d.execute_script(
                "return [...document.querySelectorAll('.upload-item')].map(i => [i.querySelector('.upload-name').textContent, i.querySelector('.upload-state').textContent])")
            wait_until(driver, lambda d: len(outcomes(d)) == len(chosen) and all(s in ("Added", "Not added") for _, s in outcomes(d)),
                       timeout=900)
            elapsed = time.monotonic() - started
            wait_until(driver, lambda d: d.execute_script("return document.querySelectorAll('#trip-gallery .gallery-item').length") == len(chosen),
                       timeout=30)
            arrivals = driver.execute_script("return window.arrivals")
            refused = [name for name, state in outcomes(driver) if state != "Added"]
        finally:
            driver.quit()
        rows = {}
        for _ in range(RUNS):
            phone = throttled_phone()
            try:
                for kind in ("cold", "repeat"):
                    rows.setdefault(kind, []).append(visit(phone, server.url + "/trips/1"))
            finally:
                phone.quit()
    finally:
        server.stop()
    print(f"| figure | value |\n|---|---|")
    print(f"| files chosen at once | {len(chosen)} |")
    print(f"| added / refused | {len(chosen) - len(refused)} / {len(refused)} ({', '.join(refused)}) |")
    print(f"| all answered after | {elapsed:.1f} s |")
    print(f"| thumbnails appearing one after another | {len(arrivals)} updates, the first after {arrivals[0]['at'] / 1000:.1f} s |")
    html = statistics.median(run["html"] for run in rows["cold"])
    floor = 2 * ROUND_TRIP_MS + html / DOWN_BYTES_PER_MS
    for kind, runs in rows.items():
        lcp = statistics.median(run["lcp"] for run in runs)
        cls = statistics.median(run["cls"] for run in runs)
        requests = statistics.median(run["requests"] for run in runs)
        print(f"| `/trips/1` with {len(chosen)} photos, {kind}, phone profile: LCP / floor, CLS, requests "
              f"| {lcp:.0f} / {floor:.0f} ms, **{lcp / floor:.1f}×**, {cls:.3f}, {requests:.0f} |")


if __name__ == "__main__":
    main()
