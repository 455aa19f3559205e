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

// ---------- Photo field: checks, preview, drag and drop, upload progress ----------

// The first bytes of the image formats the server takes; anything else is not sent.
const imageSignatures = [
  { format: "jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { format: "png", test: (b) => ascii(b, 1, 4) === "PNG" },
  { format: "gif", test: (b) => ascii(b, 0, 4) === "GIF8" },
  { format: "webp", test: (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP" },
  { format: "heif", test: (b) => ascii(b, 4, 8) === "ftyp" && /^(hei[cfsmx]|hev[cx]|mif1|msf1)$/.test(ascii(b, 8, 12)) },
];

function ascii(bytes, start, end) {
  return String.fromCharCode(...bytes.slice(start, end));
}

function megabytes(bytes) {
  const value = bytes / (1024 * 1024);
  return value >= 10 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1);
}

// What the chosen file is: { problem } when it must not be sent, else { format }.
async function checkPhoto(field, file) {
  const limit = Number(field.dataset.maxBytes);
  if (limit && file.size > limit) {
    return { problem: `This photo is ${megabytes(file.size)} MB; photos can be up to ${megabytes(limit)} MB. Choose a smaller one.` };
  }
  const bytes = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const match = imageSignatures.find((signature) => signature.test(bytes));
  if (!match) return { problem: `“${file.name}” isn’t a photo. Choose a JPEG, PNG, WebP or HEIC image.` };
  return { format: match.format };
}

function enhancePhotoField(field) {
  const input = field.querySelector('input[type="file"]');
  const preview = field.querySelector(".photo-preview");
  const unpreviewable = field.querySelector(".photo-unpreviewable");
  const problem = field.querySelector("[data-photo-problem]");
  const original = preview.getAttribute("src");
  const describedBy = input.getAttribute("aria-describedby");
  const showState = ({ problem: message = "", canPreview = true } = {}) => {
    problem.textContent = message;
    problem.hidden = !message;
    if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
    if (message) input.setAttribute("aria-describedby", problem.id);
    else if (describedBy) input.setAttribute("aria-describedby", describedBy);
    else input.removeAttribute("aria-describedby");
    unpreviewable.hidden = canPreview;
    preview.hidden = !canPreview;
  };
  // A file the browser cannot draw (HEIC in Chromium) gets a word instead of a broken image.
  preview.addEventListener("error", () => {
    if (preview.getAttribute("src") !== original) showState({ canPreview: false });
  });
  const show = () => {
    const file = input.files[0];
    if (preview.src.startsWith("blob:")) URL.revokeObjectURL(preview.src);
    preview.src = original;
    showState();
    field.photoCheck = null;
    if (!file) return;
    // The server's word on the last file sent no longer applies.
    for (const error of field.querySelectorAll(".field-error")) error.hidden = true;
    unpreviewable.querySelector("[data-file-name]").textContent = file.name;
    field.photoCheck = checkPhoto(field, file).then((check) => {
      if (input.files[0] !== file) return check;
      if (check.problem) showState({ problem: check.problem });
      else if (check.format === "heif") showState({ canPreview: false });
      else preview.src = URL.createObjectURL(file);
      return check;
    });
  };
  input.addEventListener("change", show);
  // "reset" fires before the form is reset: look once it is.
  input.form.addEventListener("reset", () => setTimeout(show));
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

// While a save is in flight its buttons are off, so a second click sends nothing.
function setBusy(form, busy) {
  form.toggleAttribute("data-busy", busy);
  form.setAttribute("aria-busy", String(busy));
  for (const button of form.querySelectorAll('button[type="submit"]')) button.disabled = busy;
}

// Back from the next page (bfcache), a form saved natively is usable again.
window.addEventListener("pageshow", () => {
  for (const form of document.querySelectorAll("form[data-busy]")) setBusy(form, false);
});

async function submitTripForm(event, form) {
  if (form.hasAttribute("data-busy")) {
    event.preventDefault();
    return;
  }
  const field = form.querySelector("[data-photo-field]");
  const input = field?.querySelector('input[type="file"]');
  setBusy(form, true);
  if (!input?.files.length) return;  // no photo chosen: the browser posts the form
  event.preventDefault();
  const check = await (field.photoCheck ?? checkPhoto(field, input.files[0]));
  if (check.problem) {
    setBusy(form, false);
    input.focus();
    return;
  }
  uploadWithProgress(form, field);
}

function uploadWithProgress(form, field) {
  const progress = field.querySelector(".upload-progress");
  const status = field.querySelector("[data-upload-status]");
  const bar = document.createElement("progress");
  bar.max = 100;
  bar.value = 0;
  bar.className = "progress";
  progress.replaceChildren(bar);
  progress.hidden = false;
  status.textContent = "Uploading photo…";
  status.hidden = false;
  const request = new XMLHttpRequest();
  request.open("POST", form.action);
  request.setRequestHeader("X-CSRF-Token", csrfToken);
  request.upload.addEventListener("progress", (event) => {
    if (event.lengthComputable) bar.value = Math.round((event.loaded / event.total) * 100);
  });
  // Every byte is sent; converting the photo and making its thumbnail take a few seconds more.
  request.upload.addEventListener("load", () => {
    bar.removeAttribute("value");
    status.textContent = "Processing photo…";
  });
  request.addEventListener("load", () => {
    if (request.status < 400 && request.responseURL && new URL(request.responseURL).pathname !== new URL(form.action).pathname) {
      window.location.assign(request.responseURL);
      return;
    }
    const page = new DOMParser().parseFromString(request.responseText, "text/html");
    document.documentElement.replaceWith(page.documentElement);
  });
  request.addEventListener("error", () => {
    progress.hidden = true;
    status.hidden = true;
    const problem = field.querySelector("[data-photo-problem]");
    problem.textContent = "The photo couldn’t be sent. Check that Wishlist is still running, then save again.";
    problem.hidden = false;
    setBusy(form, false);
  });
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
  } else if (form.matches(".trip-form")) {
    submitTripForm(event, form);
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
