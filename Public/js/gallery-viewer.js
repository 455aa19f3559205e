// A trip's photos full screen: a gallery thumbnail opens them in a modal dialog, at the
// rendition that fits the screen, with the caption and where it is in the trip. Next and
// previous by the buttons, the arrow keys or a swipe; Escape or Close goes back to the
// thumbnail it was opened from. The photos are read from the gallery as it is now, so a photo
// that arrived or went meanwhile is in step. Without this script each thumbnail is a link to
// its photo's page.
"use strict";

(() => {
  let dialog = null;
  let shown = 0;
  let opener = null;

  function items() {
    return [...document.querySelectorAll("#trip-gallery [data-viewer-item]")];
  }

  function build() {
    dialog = Object.assign(document.createElement("dialog"), { className: "viewer" });
    dialog.setAttribute("aria-label", "Photos");
    dialog.innerHTML = `
      <div class="viewer-bar">
        <span class="viewer-count" aria-live="polite"></span>
        <a class="text-button viewer-page">Photo page</a>
        <button type="button" class="text-button viewer-close">Close</button>
      </div>
      <figure class="viewer-figure">
        <img class="viewer-image" alt="">
        <figcaption class="viewer-caption"></figcaption>
      </figure>
      <button type="button" class="viewer-step viewer-previous" aria-label="Previous photo">‹</button>
      <button type="button" class="viewer-step viewer-next" aria-label="Next photo">›</button>`;
    dialog.querySelector(".viewer-close").addEventListener("click", () => dialog.close());
    dialog.querySelector(".viewer-previous").addEventListener("click", () => step(-1));
    dialog.querySelector(".viewer-next").addEventListener("click", () => step(1));
    dialog.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight") step(1);
      else if (event.key === "ArrowLeft") step(-1);
      else return;
      event.preventDefault();
    });
    let start = null;
    dialog.addEventListener("pointerdown", (event) => { start = { x: event.clientX, y: event.clientY }; });
    dialog.addEventListener("pointerup", (event) => {
      if (!start) return;
      const dx = event.clientX - start.x, dy = event.clientY - start.y;
      start = null;
      if (Math.abs(dx) > 50 && Math.abs(dx) > 2 * Math.abs(dy)) step(dx < 0 ? 1 : -1);
    });
    // By id: a live update may have drawn the gallery anew meanwhile.
    dialog.addEventListener("close", () => document.getElementById(opener?.id)?.focus());
    document.body.append(dialog);
  }

  function show(index) {
    const all = items();
    if (!all.length) return dialog.close();
    shown = Math.min(Math.max(index, 0), all.length - 1);
    const item = all[shown];
    const image = dialog.querySelector(".viewer-image");
    image.removeAttribute("src");
    image.srcset = item.dataset.srcset;
    image.sizes = "100vw";
    image.src = item.dataset.src;
    image.width = Number(item.dataset.width);
    image.height = Number(item.dataset.height);
    image.alt = item.querySelector("img").alt;
    dialog.querySelector(".viewer-caption").textContent = item.dataset.caption ?? "";
    dialog.querySelector(".viewer-count").textContent = `Photo ${shown + 1} of ${all.length}`;
    dialog.querySelector(".viewer-page").href = item.href;
    dialog.querySelector(".viewer-previous").disabled = shown === 0;
    dialog.querySelector(".viewer-next").disabled = shown === all.length - 1;
    opener = item;
    // The neighbours load while this one is looked at.
    for (const neighbour of [all[shown - 1], all[shown + 1]]) {
      if (neighbour) Object.assign(new Image(), { sizes: "100vw", srcset: neighbour.dataset.srcset });
    }
  }

  function step(offset) {
    show(shown + offset);
  }

  document.addEventListener("click", (event) => {
    const item = event.target.closest("#trip-gallery [data-viewer-item]");
    if (!item || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (!dialog) build();
    show(items().indexOf(item));
    dialog.showModal();
    dialog.querySelector(".viewer-next").disabled ? dialog.querySelector(".viewer-close").focus() : dialog.querySelector(".viewer-next").focus();
  });
})();
