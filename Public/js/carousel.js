// The paged carousel: previous/next buttons, page dots, arrow keys, and the current slide
// announced. Every handler is delegated from the document, so a carousel swapped in by a live
// update behaves like the first one. Without this script the track still scrolls and snaps,
// and the dots are links to each slide.
(() => {
  "use strict";
  const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");
  const settleDelay = 120;  // ms without scrolling before the current slide is announced
  const keySteps = { ArrowLeft: -1, ArrowRight: 1 };

  const trackOf = (carousel) => carousel.querySelector("[data-carousel-track]");
  const currentIndex = (track) => Math.round(track.scrollLeft / Math.max(track.clientWidth, 1));

  function show(track, index) {
    const slides = track.children;
    const target = Math.min(Math.max(index, 0), slides.length - 1);
    track.scrollTo({ left: slides[target].offsetLeft - slides[0].offsetLeft,
                     behavior: reducedMotion.matches ? "auto" : "smooth" });
  }

  // The dots and the live region follow wherever the track came to rest (button, key, swipe).
  function settle(track) {
    const carousel = track.closest(".carousel");
    const index = currentIndex(track);
    carousel.querySelectorAll("[data-carousel-dot]").forEach((dot, position) => {
      if (position === index) dot.setAttribute("aria-current", "true");
      else dot.removeAttribute("aria-current");
    });
    const slide = track.children[index];
    const status = carousel.querySelector("[data-carousel-status]");
    const text = slide ? `Slide ${index + 1} of ${track.children.length}: ${slide.dataset.name}` : "";
    if (status && status.textContent !== text) status.textContent = text;
  }

  document.addEventListener("click", (event) => {
    const control = event.target.closest("[data-carousel-step], [data-carousel-dot]");
    const carousel = control && control.closest(".carousel");
    if (!carousel) return;
    event.preventDefault();
    const track = trackOf(carousel);
    const count = track.children.length;
    if (control.hasAttribute("data-carousel-dot")) return show(track, Number(control.dataset.carouselDot));
    // The buttons wrap around, so neither is ever a dead end.
    show(track, (currentIndex(track) + Number(control.dataset.carouselStep) + count) % count);
  });

  document.addEventListener("keydown", (event) => {
    const track = event.target.closest && event.target.closest("[data-carousel-track]");
    if (!track || event.altKey || event.ctrlKey || event.metaKey) return;
    let index;
    if (event.key in keySteps) index = currentIndex(track) + keySteps[event.key];
    else if (event.key === "Home") index = 0;
    else if (event.key === "End") index = track.children.length - 1;
    else return;
    event.preventDefault();
    show(track, index);
  });

  const timers = new WeakMap();
  document.addEventListener("scroll", (event) => {
    const track = event.target instanceof Element && event.target.closest("[data-carousel-track]");
    if (!track) return;
    clearTimeout(timers.get(track));
    timers.set(track, setTimeout(() => settle(track), settleDelay));
  }, true);
})();
