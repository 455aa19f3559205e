// The trip form's Destination field as a combobox: as-you-type suggestions from /places, picked
// with the arrow keys and Enter or a click; picking fills the hidden `place` token and the
// field with the place's label, typing again makes it free text. Without script the field's
// "Find place" button asks the server for the same places as choices. Handlers are delegated
// from the document, so a form swapped in works like one freshly loaded.
"use strict";

const placeSearchDelay = 150;

function placeParts(field) {
  return {
    input: field.querySelector("[data-place-input]"),
    list: field.querySelector("[data-place-suggestions]"),
    token: field.querySelector("[data-place-token]"),
    status: field.querySelector("[data-place-status]"),
  };
}

function setUpPlaceField(field) {
  if (field.dataset.placeReady) return;
  field.dataset.placeReady = "1";
  const { input, list } = placeParts(field);
  field.querySelector("[data-place-find]").hidden = true;
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("aria-controls", list.id);
}

function closeSuggestions(field) {
  const { input, list } = placeParts(field);
  list.hidden = true;
  list.replaceChildren();
  input.setAttribute("aria-expanded", "false");
  input.removeAttribute("aria-activedescendant");
}

function showSuggestions(field, places) {
  const { input, list, status } = placeParts(field);
  list.replaceChildren(...places.map((place, index) => {
    const option = document.createElement("li");
    option.id = `${list.id}-${index}`;
    option.setAttribute("role", "option");
    option.setAttribute("aria-selected", "false");
    option.dataset.token = place.token;
    option.textContent = place.label;
    return option;
  }));
  list.hidden = places.length === 0;
  // Brought whole into view: in the New Trip sheet on a phone it opened below the sheet's edge,
  // two and a half places showing.
  if (!list.hidden) list.scrollIntoView({ block: "nearest" });
  input.setAttribute("aria-expanded", String(places.length > 0));
  input.removeAttribute("aria-activedescendant");
  status.textContent = places.length === 0 ? "No matching places; the destination is kept as typed."
    : `${places.length} ${places.length === 1 ? "place" : "places"} found; use the arrow keys to choose.`;
}

function highlightSuggestion(field, step) {
  const { input, list } = placeParts(field);
  const options = [...list.querySelectorAll('[role="option"]')];
  if (list.hidden || options.length === 0) return;
  const current = options.findIndex((option) => option.getAttribute("aria-selected") === "true");
  const next = current < 0 ? (step > 0 ? 0 : options.length - 1) : (current + step + options.length) % options.length;
  options.forEach((option, index) => option.setAttribute("aria-selected", String(index === next)));
  input.setAttribute("aria-activedescendant", options[next].id);
  options[next].scrollIntoView({ block: "nearest" });
}

function pickSuggestion(field, option) {
  const { input, token, status } = placeParts(field);
  input.value = option.textContent;
  token.value = option.dataset.token;
  closeSuggestions(field);
  status.textContent = `${option.textContent} chosen.`;
  input.focus();
}

async function suggestPlaces(field) {
  const { input } = placeParts(field);
  const query = input.value.trim();
  const asked = (field.placeQuery = query);
  if (query.length < 2) return closeSuggestions(field);
  try {
    const response = await fetch(`/places?q=${encodeURIComponent(query.slice(0, 100))}`, { headers: { Accept: "application/json" } });
    if (!response.ok || field.placeQuery !== asked) return;
    const { places } = await response.json();
    if (field.placeQuery === asked && document.activeElement === input) showSuggestions(field, places);
  } catch {
    // Offline or stopped: the destination is kept as typed, as without script.
  }
}

// Set up at load too, so the "Find place" button is gone before anyone looks.
document.querySelectorAll("[data-place-field]").forEach(setUpPlaceField);

document.addEventListener("focusin", (event) => {
  const field = event.target.closest?.("[data-place-field]");
  if (field) setUpPlaceField(field);
});

document.addEventListener("input", (event) => {
  if (!event.target.matches("[data-place-input]")) return;
  const field = event.target.closest("[data-place-field]");
  setUpPlaceField(field);
  // Typed text is free text until a place is picked again.
  placeParts(field).token.value = "";
  clearTimeout(field.placeTimer);
  field.placeTimer = setTimeout(() => suggestPlaces(field), placeSearchDelay);
});

document.addEventListener("keydown", (event) => {
  if (!event.target.matches("[data-place-input]")) return;
  const field = event.target.closest("[data-place-field]");
  const { list } = placeParts(field);
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    if (list.hidden) suggestPlaces(field); else highlightSuggestion(field, event.key === "ArrowDown" ? 1 : -1);
  } else if (event.key === "Enter" && !list.hidden) {
    const selected = list.querySelector('[aria-selected="true"]');
    if (selected) {
      event.preventDefault();
      pickSuggestion(field, selected);
    }
  } else if (event.key === "Escape" && !list.hidden) {
    event.preventDefault();
    closeSuggestions(field);
  }
});

// mousedown, not click: picking must happen before the field's blur closes the list.
document.addEventListener("mousedown", (event) => {
  const option = event.target.closest?.("[data-place-suggestions] [role='option']");
  if (!option) return;
  event.preventDefault();
  pickSuggestion(option.closest("[data-place-field]"), option);
});

document.addEventListener("focusout", (event) => {
  if (!event.target.matches("[data-place-input]")) return;
  const field = event.target.closest("[data-place-field]");
  clearTimeout(field.placeTimer);
  field.placeQuery = null;
  closeSuggestions(field);
});
