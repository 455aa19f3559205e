// The trip form's photo field: checks a file before it is sent, previews it, takes a dropped
// photo, and shows the upload's progress. Handlers are delegated from the document (as in
// app.js, whose helpers this uses), so a form swapped in works like one freshly loaded.
"use strict";

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
  if (file.size === 0) return { problem: `“${file.name}” is empty (0 bytes). Choose the photo again.` };
  const limit = Number(field.dataset.maxBytes);
  if (limit && file.size > limit) {
    return { problem: `This photo is ${megabytes(file.size)} MB; photos can be up to ${megabytes(limit)} MB. Choose a smaller one.` };
  }
  const bytes = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const match = imageSignatures.find((signature) => signature.test(bytes));
  if (!match) return { problem: `“${file.name}” isn’t a photo. Choose a JPEG, PNG, WebP or HEIC image.` };
  return { format: match.format };
}

// The parts of a photo field, and what it showed as rendered (kept on first use).
function photoParts(field) {
  const input = field.querySelector('input[type="file"]');
  const preview = field.querySelector(".photo-preview");
  if (!("originalSrc" in preview.dataset)) preview.dataset.originalSrc = preview.getAttribute("src");
  // Hidden as rendered when the page shows the current photo already (the trip page's hero).
  if (!("originallyHidden" in preview.dataset)) preview.dataset.originallyHidden = String(preview.hidden);
  if (!("describedBy" in input.dataset)) input.dataset.describedBy = input.getAttribute("aria-describedby") ?? "";
  return { input, preview, unpreviewable: field.querySelector(".photo-unpreviewable"), problem: field.querySelector("[data-photo-problem]") };
}

// The field is invalid while it shows a problem: this page's check, else the server's word (as
// rendered, and not yet hidden by a new file chosen).
function showPhotoState(field, { problem: message = "", canPreview = true } = {}) {
  const { input, preview, unpreviewable, problem } = photoParts(field);
  problem.textContent = message;
  problem.hidden = !message;
  const serverSays = [...field.querySelectorAll(".field-error")].some((error) => !error.hidden);
  if (message || serverSays) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  const describedBy = message ? problem.id : serverSays ? input.dataset.describedBy : "";
  if (describedBy) input.setAttribute("aria-describedby", describedBy); else input.removeAttribute("aria-describedby");
  unpreviewable.hidden = canPreview;
  preview.hidden = !canPreview;
}

// `restored`: the file is the one the server has just refused (the form drawn again with it).
function showChosenPhoto(field, { restored = false } = {}) {
  const { input, preview, unpreviewable } = photoParts(field);
  const file = input.files[0];
  if (preview.src.startsWith("blob:")) URL.revokeObjectURL(preview.src);
  preview.src = preview.dataset.originalSrc;
  // A new file: the server's word on the last file sent no longer applies.
  if (file && !restored) for (const error of field.querySelectorAll(".field-error")) error.hidden = true;
  showPhotoState(field);
  field.photoCheck = null;
  if (!file) {
    preview.hidden = preview.dataset.originallyHidden === "true";
    return;
  }
  unpreviewable.querySelector("[data-file-name]").textContent = file.name;
  field.photoCheck = checkPhoto(field, file).then((check) => {
    if (input.files[0] !== file) return check;
    if (check.problem) showPhotoState(field, { problem: check.problem });
    else if (check.format === "heif") showPhotoState(field, { canPreview: false });
    else preview.src = URL.createObjectURL(file);
    return check;
  });
}

document.addEventListener("change", (event) => {
  const field = event.target.matches('input[type="file"]') && event.target.closest("[data-photo-field]");
  if (field) showChosenPhoto(field, { restored: event.detail?.restored === true });
});

// "reset" fires before the form is reset: look once it is.
document.addEventListener("reset", (event) => {
  for (const field of event.target.querySelectorAll("[data-photo-field]")) setTimeout(() => showChosenPhoto(field));
});

// A file the browser cannot draw (HEIC in Chromium) gets a word instead of a broken image
// ("error" does not bubble: caught on the way down).
document.addEventListener("error", (event) => {
  const preview = event.target;
  const field = preview.matches?.(".photo-preview") && preview.closest("[data-photo-field]");
  if (field && preview.getAttribute("src") !== preview.dataset.originalSrc) showPhotoState(field, { canPreview: false });
}, true);

// A drag that starts on the page (a gallery photo put in order, a link) is marked as the page's:
// Chromium hands a dragged image over as a file too, and only files from outside are uploaded.
const pageDragType = "application/x-wishlist-page-drag";
document.addEventListener("dragstart", (event) => event.dataTransfer?.setData(pageDragType, ""), true);

// The files of a drag from outside the page (while it is dragged, an empty list: the browser
// shows them at the drop), or null for any other drag.
function outsideFiles(event) {
  const types = event.dataTransfer?.types ?? [];
  return types.includes("Files") && !types.includes(pageDragType) ? event.dataTransfer.files : null;
}

// A photo dropped anywhere on the page is never opened by the browser in place of the app;
// dropped on a photo field from outside the page, it is chosen.
document.addEventListener("dragover", (event) => {
  event.preventDefault();
  document.querySelectorAll("[data-photo-field].is-dragging").forEach((el) => el.classList.remove("is-dragging"));
  if (outsideFiles(event)) event.target.closest?.("[data-photo-field]")?.classList.add("is-dragging");
});
document.addEventListener("dragleave", (event) => event.target.closest?.("[data-photo-field]")?.classList.remove("is-dragging"));
document.addEventListener("drop", (event) => {
  event.preventDefault();
  const field = event.target.closest?.("[data-photo-field]");
  if (!field) return;
  field.classList.remove("is-dragging");
  const files = outsideFiles(event);
  if (files?.length) {
    const input = field.querySelector('input[type="file"]');
    input.files = files;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
});

// While a save is in flight its buttons are off, so a second click sends nothing.
function setBusy(form, busy) {
  form.toggleAttribute("data-busy", busy);
  form.setAttribute("aria-busy", String(busy));
  for (const button of document.querySelectorAll(`button[type="submit"][form="${CSS.escape(form.id)}"]`)) button.disabled = busy;
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
  // Read before the buttons go off: a disabled button pressed (Done) would send no value.
  const body = new FormData(form, event.submitter);
  const field = form.querySelector("[data-photo-field]");
  const input = field?.querySelector('input[type="file"]');
  if (!input?.files.length) {
    // No photo chosen: the browser posts the form, reading the pressed button after this event.
    form.toggleAttribute("data-busy", true);
    setTimeout(() => setBusy(form, true));
    return;
  }
  setBusy(form, true);
  event.preventDefault();
  const check = await (field.photoCheck ?? checkPhoto(field, input.files[0]));
  if (check.problem) {
    setBusy(form, false);
    input.focus();
    return;
  }
  uploadWithProgress(form, field, body);
}

function uploadWithProgress(form, field, body) {
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
  const done = () => {
    progress.hidden = true;
    status.hidden = true;
    setBusy(form, false);
  };
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
  // A save is answered with a redirect, which the request followed.
  request.addEventListener("load", () => {
    done();
    showAnswer({ status: request.status, url: request.responseURL || form.action, html: request.responseText }, form);
  });
  request.addEventListener("error", () => {
    done();
    alertDialog(unreachable.heading, unreachable.message);
  });
  request.send(body);
}
