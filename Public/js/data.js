// The Data page: progress while an archive is uploaded and checked, and while it is restored
// (a download shows its progress in the browser's own list). Loaded only by the Data page's
// screens; without it the forms work as they are. Listeners sit on the document, so they keep working
// after an upload's answer (the preview) replaces the page.
"use strict";

(() => {
  const csrfToken = () => document.querySelector('meta[name="csrf-token"]')?.content ?? "";

  // A label and a bar in `container`; a null fraction makes the bar indeterminate.
  function showProgress(container, label, fraction) {
    container.hidden = false;
    let text = container.querySelector(".data-progress-label");
    let bar = container.querySelector("progress");
    if (!bar) {
      text = Object.assign(document.createElement("span"), { className: "data-progress-label" });
      bar = Object.assign(document.createElement("progress"), { className: "progress", max: 100 });
      container.replaceChildren(text, bar);
    }
    text.textContent = label;
    if (fraction === null) bar.removeAttribute("value"); else bar.value = Math.round(fraction * 100);
  }

  const megabytes = (bytes) => (bytes / (1024 * 1024)).toFixed(1);

  // Sends the archive with upload progress, then shows the server's answer (the preview, or the
  // Data page naming the problem) in place of this page.
  function upload(form) {
    const input = form.querySelector('input[type="file"]');
    const file = input.files[0];
    const status = form.querySelector(".data-progress");
    const limit = Number(input.dataset.maxBytes);
    if (limit && file.size > limit) {
      showProgress(status, `${file.name} is ${megabytes(file.size)} MB, more than this disk has room to restore (${megabytes(limit)} MB). Free some disk space, then reload this page.`, 0);
      status.querySelector("progress").hidden = true;
      return;
    }
    const button = form.querySelector('button[type="submit"]');
    button.disabled = true;
    showProgress(status, "Uploading…", 0);
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    request.setRequestHeader("X-CSRF-Token", csrfToken());
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) showProgress(status, "Uploading…", event.loaded / event.total);
    });
    request.upload.addEventListener("load", () => showProgress(status, "Checking every trip and photo in the archive…", null));
    request.addEventListener("load", () => {
      const page = new DOMParser().parseFromString(request.responseText, "text/html");
      document.documentElement.replaceWith(page.documentElement);
      window.scrollTo(0, 0);
    });
    request.addEventListener("error", () => { status.hidden = true; button.disabled = false; form.submit(); });
    request.send(new FormData(form));
  }

  // A notice's Copy button writes its address or secret to the clipboard and says so beside it.
  if (navigator.clipboard) for (const button of document.querySelectorAll("button[data-copy]")) button.hidden = false;
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-copy]");
    if (!button) return;
    const notice = button.closest(".token-secret");
    const status = notice.querySelector(".copy-status");
    try {
      await navigator.clipboard.writeText(notice.querySelector(".data-command").textContent);
      status.textContent = "Copied";
    } catch {
      status.textContent = "Could not copy: select the text above and copy it.";
    }
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    // The budget form on this page is styled as one, without a file.
    if (form.matches(".archive-form") && form.querySelector('input[type="file"]')?.files.length) {
      event.preventDefault();
      upload(form);
    } else if (form.matches(".confirm-import-form")) {
      // The form posts as usual; until the answer comes, say what is happening.
      form.querySelector('button[type="submit"]').disabled = true;
      showProgress(form.querySelector(".data-progress"), "Backing up your wishlist, then restoring the archive…", null);
    }
  });

  // What this browser keeps for offline reading (offline.js names it, service-worker.js keeps it),
  // the budget it keeps within, and a switch to keep nothing.
  async function showKeptOffline() {
    const section = document.getElementById("offline");
    if (!section || !window.caches) return;
    const keepsNothing = await caches.has(KEEP_NOTHING);
    const { pages, photos, bytes } = await keptResponses();
    const limit = await offlineSetting("budget", DEFAULT_BUDGET);
    const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
    document.getElementById("offline-summary").textContent = keepsNothing
      ? "Nothing is kept for reading offline on this device."
      : pages.length === 0 ? "No page is kept for reading offline yet: pages are kept as you open them, and every trip’s in the background."
        : `${count(pages.length, "page", "pages")} and ${count(photos.length, "photo", "photos")} kept for reading offline: ${megabytes(bytes)} of ${megabytes(limit)} MB on this device.`;
    const form = document.getElementById("offline-budget");
    form.hidden = keepsNothing;
    if (document.activeElement !== form.elements.megabytes) form.elements.megabytes.value = Math.round(limit / (1024 * 1024) * 10) / 10;
    const button = document.getElementById("keep-offline");
    button.dataset.keep = keepsNothing ? "pages" : "nothing";
    button.textContent = keepsNothing ? "Keep Pages Offline" : "Keep Nothing Offline";
    section.hidden = false;
  }

  // The worker keeps everything again within the budget; the section is busy until it is done.
  async function keepAnew() {
    const worker = (await navigator.serviceWorker?.ready)?.active;
    if (!worker) return;
    const section = document.getElementById("offline");
    section.setAttribute("aria-busy", "true");
    const channel = new MessageChannel();
    const kept = new Promise((resolve) => { channel.port1.onmessage = resolve; });
    worker.postMessage("keep anew", [channel.port2]);
    await kept;
    section.removeAttribute("aria-busy");
  }

  document.addEventListener("submit", async (event) => {
    if (event.target.id !== "offline-budget") return;
    event.preventDefault();
    const bytes = Math.round(Number(event.target.elements.megabytes.value) * 1024 * 1024);
    await setOfflineSetting("budget", bytes);
    await keepAnew();
    showKeptOffline();
  });

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("#keep-offline");
    if (!button) return;
    if (button.dataset.keep === "nothing") {
      await caches.open(KEEP_NOTHING);
      await Promise.all([caches.delete(KEPT_PAGES), caches.delete(KEPT_PHOTOS)]);
    } else {
      await caches.delete(KEEP_NOTHING);
      await keepAnew();
    }
    showKeptOffline();
  });

  showKeptOffline();
  // The background keep goes on while this page is open: what it says follows.
  if (document.getElementById("offline")) setInterval(showKeptOffline, 2000);
})();
