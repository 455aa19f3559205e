// A trip's photos put in order on the trip page: drag a thumbnail onto another's place, or move
// the focused one with Alt+← and Alt+→ (the photo's own page has Move Earlier/Later buttons too,
// for touch screens and pages without this script). The first is the trip's cover. Each move is
// one PATCH of the photo's position; the gallery comes back in its new order with the live
// update, the moved photo still focused.
"use strict";

(() => {
  const items = () => [...document.querySelectorAll("#trip-gallery [data-photo-id]")];
  let dragged = null;

  async function move(link, index) {
    const all = items();
    const to = Math.min(Math.max(index, 0), all.length - 1);
    if (all.indexOf(link) === to) return;
    const status = document.getElementById("gallery-order-status");
    const answer = await fetch(`/api/photos/${link.dataset.photoId}`, {
      method: "PATCH",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken },
      body: JSON.stringify({ position: to }),
    }).catch(() => null);
    status.textContent = answer?.ok
      ? (to === 0 ? "Moved first: now the trip's cover." : `Moved to place ${to + 1} of ${all.length}.`)
      : "Not moved: Wishlist could not be reached. Try again.";
  }

  document.addEventListener("keydown", (event) => {
    const link = event.target.closest?.("#trip-gallery [data-photo-id]");
    if (!link || !event.altKey || !["ArrowLeft", "ArrowRight"].includes(event.key)) return;
    event.preventDefault();
    move(link, items().indexOf(link) + (event.key === "ArrowRight" ? 1 : -1));
  });

  document.addEventListener("dragstart", (event) => {
    dragged = event.target.closest?.("#trip-gallery [data-photo-id]") ?? null;
    if (dragged) event.dataTransfer.effectAllowed = "move";
  });
  document.addEventListener("dragover", (event) => {
    if (dragged && event.target.closest?.("#trip-gallery .gallery-item")) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    const onto = event.target.closest?.("#trip-gallery .gallery-item")?.querySelector("[data-photo-id]");
    if (!dragged || !onto) return;
    event.preventDefault();
    move(dragged, items().indexOf(onto));
    dragged = null;
  });
  document.addEventListener("dragend", () => { dragged = null; });
})();
