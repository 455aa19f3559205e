// The map, to explore: zoom and pan by wheel, drag, pinch, its buttons and the keyboard (arrows
// move, + and − zoom, 0 fits every pin again). The drawing stays the bundled basemap, moved by
// its viewBox; pins keep their size on screen. Without this script the map is the fitted
// picture and the list beside it. A live update draws the map anew, fitted to the trips.
"use strict";

(() => {
  const smallestWidth = 3;  // degrees across: a region around a city
  const step = 0.1;         // of the view, per arrow key

  function setUp(map) {
    const figure = map.querySelector(".map-figure");
    const svg = map.querySelector(".map-drawing");
    if (!svg || figure.dataset.explorable) return;
    figure.dataset.explorable = "true";
    const [x, y, width, height] = svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
    const fitted = { x, y, width, height };
    const largestWidth = Math.max(width, 360);
    let view = { ...fitted };
    const pinGroup = svg.querySelector(".map-pins");
    const sized = [...svg.querySelectorAll(".map-pins circle, .map-pins text")].map((el) => {
      const attribute = el.tagName === "circle" ? "r" : "font-size";
      return { el, attribute, size: Number(el.getAttribute(attribute)) };
    });
    const strokeWidth = Number(pinGroup?.getAttribute("stroke-width") ?? 0);

    function show() {
      svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.width} ${view.height}`);
      const scale = view.width / fitted.width;
      for (const { el, attribute, size } of sized) el.setAttribute(attribute, size * scale);
      pinGroup?.setAttribute("stroke-width", strokeWidth * scale);
    }

    // Inside the basemap (drawn once more east of the antimeridian when the fit crosses it).
    function clamp() {
      view.x = Math.min(Math.max(view.x, -180 - view.width / 2), 540 - view.width / 2);
      view.y = Math.min(Math.max(view.y, -90), 90 - view.height);
      if (view.height > 180) view.y = -view.height / 2;
    }

    function zoom(factor, centerX = view.x + view.width / 2, centerY = view.y + view.height / 2) {
      const newWidth = Math.min(largestWidth, Math.max(smallestWidth, view.width * factor));
      const k = newWidth / view.width;
      view = { x: centerX - (centerX - view.x) * k, y: centerY - (centerY - view.y) * k, width: newWidth, height: view.height * k };
      clamp();
      show();
    }

    function pan(dx, dy) {
      view.x += dx;
      view.y += dy;
      clamp();
      show();
    }

    function fit() {
      view = { ...fitted };
      show();
    }

    // A point on the screen in map units.
    function mapPoint(clientX, clientY) {
      const point = new DOMPoint(clientX, clientY).matrixTransform(svg.getScreenCTM().inverse());
      return { x: point.x, y: point.y };
    }

    const controls = Object.assign(document.createElement("div"), { className: "map-controls" });
    for (const [label, text, action] of [["Zoom in", "+", () => zoom(0.5)], ["Zoom out", "−", () => zoom(2)], ["Fit every pin", "⤢", fit]]) {
      const button = Object.assign(document.createElement("button"), { type: "button", className: "map-control", textContent: text, title: label });
      button.setAttribute("aria-label", label);
      button.addEventListener("click", action);
      controls.append(button);
    }
    figure.append(controls);
    figure.tabIndex = 0;
    figure.setAttribute("aria-label", "Map of the trips: arrow keys move it, plus and minus zoom, 0 fits every pin. The list of pins follows.");

    figure.addEventListener("keydown", (event) => {
      if (event.target !== figure || event.altKey || event.ctrlKey || event.metaKey) return;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (moves[event.key]) pan(moves[event.key][0] * view.width, moves[event.key][1] * view.height);
      else if (event.key === "+" || event.key === "=") zoom(0.5);
      else if (event.key === "-" || event.key === "−") zoom(2);
      else if (event.key === "0") fit();
      else return;
      event.preventDefault();
    });

    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const at = mapPoint(event.clientX, event.clientY);
      zoom(event.deltaY > 0 ? 1.25 : 0.8, at.x, at.y);
    }, { passive: false });

    // Drag to pan, two fingers to pinch; a drag that ends on a pin does not follow it.
    const pointers = new Map();
    let dragged = 0;
    svg.addEventListener("pointerdown", (event) => {
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pointers.size === 1) dragged = 0;
    });
    svg.addEventListener("pointermove", (event) => {
      const last = pointers.get(event.pointerId);
      if (!last) return;
      const unitsPerPixel = view.width / svg.clientWidth;
      if (pointers.size === 1) {
        const dx = event.clientX - last.x, dy = event.clientY - last.y;
        dragged += Math.abs(dx) + Math.abs(dy);
        if (dragged > 4) {
          svg.setPointerCapture(event.pointerId);
          pan(-dx * unitsPerPixel, -dy * unitsPerPixel);
        }
      } else if (pointers.size === 2) {
        const [other] = [...pointers].filter(([id]) => id !== event.pointerId).map(([, point]) => point);
        const before = Math.hypot(last.x - other.x, last.y - other.y);
        const after = Math.hypot(event.clientX - other.x, event.clientY - other.y);
        const middle = mapPoint((event.clientX + other.x) / 2, (event.clientY + other.y) / 2);
        if (before > 0 && after > 0) zoom(before / after, middle.x, middle.y);
        dragged = Infinity;
      }
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    });
    for (const type of ["pointerup", "pointercancel"]) svg.addEventListener(type, (event) => pointers.delete(event.pointerId));
    // A pin is a link: pressed, the browser would start dragging it away instead of the map.
    svg.addEventListener("mousedown", (event) => event.preventDefault());
    svg.addEventListener("click", (event) => {
      if (dragged > 4) event.preventDefault();
    }, true);
    // A pin for several trips links to their list beside the map; the keyboard goes on from there.
    svg.addEventListener("click", (event) => {
      const place = event.target.closest("a")?.getAttribute("href");
      if (!event.defaultPrevented && place?.startsWith("#")) map.querySelector(place)?.focus({ preventScroll: true });
    });
  }

  const setUpAll = () => document.querySelectorAll(".trip-map").forEach(setUp);
  setUpAll();
  new MutationObserver(setUpAll).observe(document.body, { childList: true, subtree: true });
})();
