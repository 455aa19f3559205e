// Wishlist: progressive enhancement only. Every page works without this file;
// with it, forms update in place, dialogs replace confirmation pages, search runs
// as you type, and pages subscribed to live topics stay current over SSE.
"use strict";

document.documentElement.classList.add("scripted");

const csrfToken = document.querySelector('meta[name="csrf-token"]')?.content ?? "";

// Fragments pushed over SSE are rendered once for every viewer, so they carry no
// CSRF token; fill it in from this page's meta tag.
function fillCSRF(root) {
  for (const input of root.querySelectorAll('input[name="_csrf"]')) {
    if (!input.value) input.value = csrfToken;
  }
}

// Replace the element with the same id as `fresh`, keeping focus and scroll.
// Names a control so its counterpart in a fresh copy can be found: by id, else by what it does
// (check buttons have no id, but each sits in the form of its own activity).
function controlKey(el) {
  return el.id || [el.tagName, el.getAttribute("name"), el.getAttribute("aria-label"), el.form?.getAttribute("action")].join("|");
}

function replaceElement(fresh) {
  const current = document.getElementById(fresh.id);
  if (!current) return null;
  const focused = current.contains(document.activeElement) ? document.activeElement : null;
  // Text being typed into a field that the fragment replaces is carried over, caret and all.
  const typing = focused && typeof focused.selectionStart === "number" && focused.value !== focused.defaultValue
    ? { value: focused.value, start: focused.selectionStart, end: focused.selectionEnd } : null;
  const scrollers = [...current.querySelectorAll(".card-row, .carousel-track")].map((el) => el.scrollLeft);
  fillCSRF(fresh);
  current.replaceWith(fresh);
  [...fresh.querySelectorAll(".card-row, .carousel-track")].forEach((el, i) => { el.scrollLeft = scrollers[i] ?? 0; });
  if (focused) {
    const key = controlKey(focused);
    const match = [...fresh.querySelectorAll(focused.tagName)].find((el) => controlKey(el) === key);
    if (match && typing) {
      match.value = typing.value;
      match.setSelectionRange?.(typing.start, typing.end);
    }
    match?.focus({ preventScroll: true });
  }
  enhance(fresh);
  return fresh;
}

function parseFragment(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return template.content.firstElementChild;
}

// ---------- Forms that update the page in place ----------

async function submitInPlace(form, submitter) {
  const body = new FormData(form, submitter);
  const response = await fetch(form.action, { method: "POST", body, headers: { "X-CSRF-Token": csrfToken } });
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  if (!response.ok || !response.redirected) {
    // Validation errors or a failure: show the page the server rendered.
    document.documentElement.replaceWith(page.documentElement);
    return;
  }
  for (const id of ["trip-header", "activity-list"]) {
    const fresh = page.getElementById(id);
    if (fresh) replaceElement(document.adoptNode(fresh));
  }
}

// ---------- Confirmation dialogs ----------

function confirmDialog(message, confirmLabel) {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "alert";
    const text = document.createElement("p");
    text.textContent = message;
    const actions = document.createElement("div");
    actions.className = "form-actions";
    const cancel = Object.assign(document.createElement("button"), { type: "button", className: "button secondary", textContent: "Cancel" });
    const confirm = Object.assign(document.createElement("button"), { type: "button", className: "button danger", textContent: confirmLabel });
    actions.append(cancel, confirm);
    dialog.append(text, actions);
    document.body.append(dialog);
    const close = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    cancel.addEventListener("click", () => close(false));
    confirm.addEventListener("click", () => close(true));
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); close(false); });
    dialog.showModal();
    cancel.focus();
  });
}

function postTo(url) {
  const form = Object.assign(document.createElement("form"), { method: "post", action: url });
  form.append(Object.assign(document.createElement("input"), { type: "hidden", name: "_csrf", value: csrfToken }));
  document.body.append(form);
  form.submit();
}

// ---------- Photo field: preview, drag and drop, upload progress ----------

function enhancePhotoField(field) {
  const input = field.querySelector('input[type="file"]');
  const preview = field.querySelector(".photo-preview");
  const show = () => {
    const file = input.files[0];
    if (file && preview) preview.src = URL.createObjectURL(file);
  };
  input.addEventListener("change", show);
  field.addEventListener("dragover", (event) => { event.preventDefault(); field.classList.add("is-dragging"); });
  field.addEventListener("dragleave", () => field.classList.remove("is-dragging"));
  field.addEventListener("drop", (event) => {
    event.preventDefault();
    field.classList.remove("is-dragging");
    if (event.dataTransfer.files.length) {
      input.files = event.dataTransfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });
}

function uploadWithProgress(form) {
  const progress = form.querySelector(".upload-progress");
  const bar = document.createElement("progress");
  bar.max = 100;
  bar.value = 0;
  bar.className = "progress";
  progress.replaceChildren(bar);
  progress.hidden = false;
  const request = new XMLHttpRequest();
  request.open("POST", form.action);
  request.setRequestHeader("X-CSRF-Token", csrfToken);
  request.upload.addEventListener("progress", (event) => {
    if (event.lengthComputable) bar.value = Math.round((event.loaded / event.total) * 100);
  });
  request.addEventListener("load", () => {
    if (request.status < 400 && request.responseURL && new URL(request.responseURL).pathname !== new URL(form.action).pathname) {
      window.location.assign(request.responseURL);
      return;
    }
    const page = new DOMParser().parseFromString(request.responseText, "text/html");
    document.documentElement.replaceWith(page.documentElement);
  });
  request.addEventListener("error", () => { progress.hidden = true; form.submit(); });
  request.send(new FormData(form));
}

function formHasChanges(form) {
  return [...form.elements].some((el) => {
    if (el.type === "file") return el.files.length > 0;
    if (el.tagName === "SELECT") return [...el.options].some((o) => o.selected !== o.defaultSelected);
    if (el.type === "hidden") return false;
    return "defaultValue" in el && el.value !== el.defaultValue;
  });
}

// ---------- Wiring ----------

function enhance(root) {
  for (const select of root.querySelectorAll("select[data-autosubmit]")) {
    select.addEventListener("change", () => select.form.requestSubmit());
  }
  for (const field of root.querySelectorAll("[data-photo-field]")) enhancePhotoField(field);
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.matches(".check-form, .sort-form, .rename-form")) {
    event.preventDefault();
    submitInPlace(form, event.submitter).catch(() => form.submit());
  } else if (form.matches(".trip-form") && form.querySelector('input[type="file"]')?.files.length) {
    event.preventDefault();
    uploadWithProgress(form);
  }
});

document.addEventListener("click", async (event) => {
  const opener = event.target.closest("[data-opens-dialog]");
  if (opener) {
    const dialog = document.getElementById(opener.dataset.opensDialog);
    if (dialog?.showModal) {
      event.preventDefault();
      dialog.showModal();
      dialog.querySelector("input[name=name]")?.focus();
    }
    return;
  }
  const cancel = event.target.closest(".trip-form [data-cancel]");
  if (cancel) {
    const form = cancel.closest("form");
    const dialog = form.closest("dialog");
    if (formHasChanges(form)) {
      event.preventDefault();
      if (!(await confirmDialog("Discard changes?", "Discard"))) return;
      form.reset();
      if (dialog) dialog.close(); else window.location.assign(cancel.href);
    } else if (dialog) {
      event.preventDefault();
      dialog.close();
    }
    return;
  }
  const deleter = event.target.closest("[data-confirm-delete]");
  if (deleter) {
    event.preventDefault();
    if (await confirmDialog(deleter.dataset.confirmDelete, "Delete")) postTo(deleter.href);
  }
});

// Closing the New Trip sheet with Escape asks first when something was typed.
for (const dialog of document.querySelectorAll("dialog.sheet")) {
  dialog.addEventListener("cancel", async (event) => {
    const form = dialog.querySelector("form");
    if (form && formHasChanges(form)) {
      event.preventDefault();
      if (await confirmDialog("Discard changes?", "Discard")) { form.reset(); dialog.close(); }
    }
  });
}

// ---------- Search as you type, and "Show more" in place ----------

const searchField = document.querySelector("input[data-live-search]");
if (searchField) {
  let timer;
  let latest = 0;
  // Shows the results of `url` in place; only the latest request shows, however they return.
  const showResults = async (url) => {
    const ticket = ++latest;
    const response = await fetch(url, { headers: { Accept: "text/html" } });
    if (ticket !== latest || !response.ok) return null;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = page.getElementById("search-results");
    if (fresh) replaceElement(document.adoptNode(fresh));
    document.title = page.title;
    history.replaceState(null, "", url);
    return fresh;
  };
  searchField.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => showResults(`/search?q=${encodeURIComponent(searchField.value)}`), 180);
  });
  // The link shows one more page below the ones on screen; focus goes to the first new result.
  document.addEventListener("click", async (event) => {
    const link = event.target.closest("a[data-show-more]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    const target = new URL(link.href);
    if (await showResults(target.pathname + target.search)) {
      document.getElementById(target.hash.slice(1))?.querySelector("a")?.focus();
    }
  });
}

// ---------- Live updates over server-sent events ----------

const topics = document.body.dataset.liveTopics;
if (topics && "EventSource" in window) {
  const status = document.getElementById("live-status");
  const since = encodeURIComponent(document.body.dataset.liveSince ?? "");
  const source = new EventSource(`/events?topics=${encodeURIComponent(topics)}&since=${since}`);
  source.addEventListener("open", () => { status.hidden = true; });
  source.addEventListener("error", () => { status.hidden = false; });
  source.addEventListener("fragment", (event) => {
    const { target, html } = JSON.parse(event.data);
    const before = new Set([...document.querySelectorAll(`#${CSS.escape(target)} [data-goal]`)].map((el) => el.dataset.goal));
    const fresh = replaceElement(parseFragment(html));
    if (fresh && target === "goals-achieved") {
      for (const tile of fresh.querySelectorAll("[data-goal]")) {
        if (!before.has(tile.dataset.goal)) tile.classList.add("is-new");
      }
    }
  });
}

enhance(document);
