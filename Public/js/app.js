// Wishlist: progressive enhancement only. Every page works without this file;
// with it, forms update in place, dialogs replace confirmation pages, search runs
// as you type, and pages subscribed to live topics stay current over SSE.
// Every handler is delegated from the document, so a fragment swapped in behaves
// exactly like a freshly loaded page; photo-field.js adds the photo picker, search.js search
// as you type.
"use strict";

document.documentElement.classList.add("scripted");

const csrfToken = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
// Beside this file, at the same version of the static files.
const liveWorkerURL = new URL("live-worker.js", document.currentScript.src);

// Pages read stay readable offline (service-worker.js); a page shown from what was kept says when.
// Once a page has loaded, and when the network is back, the worker keeps the rest in the background.
navigator.serviceWorker?.register("/service-worker.js").catch(() => {});
function keepOffline() {
  navigator.serviceWorker?.ready.then((registration) => registration.active?.postMessage("keep"));
}
const offlineSince = document.body.dataset.offlineSince;
if (offlineSince) {
  const note = document.getElementById("offline-note");
  note.textContent = `Offline — as of ${new Date(offlineSince).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
  note.hidden = false;
}

// ---------- Swapping fragments: the one way the page changes in place ----------

// Fragments pushed over SSE are rendered once for every viewer, so they carry no
// CSRF token; fill it in from this page's meta tag.
function fillCSRF(root) {
  for (const input of root.querySelectorAll('input[name="_csrf"]')) {
    if (!input.value) input.value = csrfToken;
  }
}

// Names a control so its counterpart in a fresh copy can be found: by id, else by what it does
// (check buttons have no id, but each sits in the form of its own activity).
function controlKey(el) {
  return el.id || [el.tagName, el.getAttribute("name"), el.getAttribute("aria-label"), el.form?.getAttribute("action")].join("|");
}

// Whether a person changed the field from what the page was rendered with.
function isEdited(el) {
  if (el.type === "file") return el.files.length > 0;
  if (el.tagName === "SELECT") return [...el.options].some((o) => o.selected !== o.defaultSelected);
  if (["hidden", "submit", "button", "checkbox", "radio"].includes(el.type)) return false;
  return "defaultValue" in el && el.value !== el.defaultValue;
}

// Replaces the element with the same id as `fresh`, keeping focus, scroll and whatever was typed
// into its fields and not saved yet (caret and all); with `keepFiles` (the form came back
// refused), the photos chosen too.
function replaceElement(fresh, { keepFiles = false } = {}) {
  const current = document.getElementById(fresh.id);
  if (!current) return null;
  const focused = current.contains(document.activeElement) ? document.activeElement : null;
  const focusedKey = focused && controlKey(focused);
  const caret = focused && typeof focused.selectionStart === "number" ? [focused.selectionStart, focused.selectionEnd] : null;
  const edited = [...current.querySelectorAll("input, select, textarea")].filter((el) => isEdited(el) && (keepFiles || el.type !== "file"));
  const typed = new Map(edited.map((el) => [controlKey(el), el.type === "file" ? el.files : el.value]));
  // What an edited field was drawn with, and its version field (`data-version-of`), stay as they
  // were: a save of what was typed must still be checked against what it replaces, never against
  // a change that arrived meanwhile (that one would be overwritten unasked).
  // A field whose new copy was drawn with what was typed (this tab's own save answered) keeps nothing.
  const drawn = new Map(edited.filter((el) => "defaultValue" in el && el.type !== "file").map((el) => [controlKey(el), el.defaultValue]));
  const unsaved = (id) => {
    const field = id && fresh.querySelector(`#${CSS.escape(id)}`);
    return field && typed.has(controlKey(field)) && field.defaultValue !== typed.get(controlKey(field));
  };
  const versions = new Map([...current.querySelectorAll("input[data-version-of]")]
    .filter((el) => unsaved(el.dataset.versionOf)).map((el) => [controlKey(el), el.value]));
  // A live region stays in place, so what it now says is announced.
  if (current.getAttribute("role") === "status") {
    current.replaceChildren(...fresh.childNodes);
    return current;
  }
  const scrollers = [...current.querySelectorAll(".card-row, .carousel-track")].map((el) => el.scrollLeft);
  fillCSRF(fresh);
  current.replaceWith(fresh);
  [...fresh.querySelectorAll(".card-row, .carousel-track")].forEach((el, i) => { el.scrollLeft = scrollers[i] ?? 0; });
  for (const el of fresh.querySelectorAll("input, select, textarea")) {
    const key = controlKey(el);
    if (typed.has(key) && el.type === "file") {
      // A photo chosen but refused with the rest of the form stays chosen, to be sent again;
      // `restored`: the same file the server just judged, so its word on it stands.
      el.files = typed.get(key);
      el.dispatchEvent(new CustomEvent("change", { bubbles: true, detail: { restored: true } }));
    } else if (typed.has(key)) {
      if (drawn.has(key) && el.defaultValue !== typed.get(key)) el.defaultValue = drawn.get(key);
      el.value = typed.get(key);
    } else if (versions.has(key)) {
      el.value = versions.get(key);
    }
    if (key === focusedKey) {
      el.focus({ preventScroll: true });
      if (caret && typed.has(key)) el.setSelectionRange?.(...caret);
    }
  }
  if (focused && !fresh.contains(document.activeElement)) {
    [...fresh.querySelectorAll(focused.tagName)].find((el) => controlKey(el) === focusedKey)?.focus({ preventScroll: true });
  }
  return fresh;
}

function parseFragment(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return template.content.firstElementChild;
}

// The fragments an in-place action on the trip page changes, besides the form it sent
// (the notice says which badge a check-off earned).
const actionFragments = ["trip-header", "activity-list", "trip-notice"];

// Whether `url` shows what this page shows: the same path, in or out of edit mode alike
// (a note such as `?earned=` changes what is announced, not the view).
function showsThisPage(url) {
  return url.pathname === location.pathname && url.searchParams.get("edit") === new URL(location.href).searchParams.get("edit");
}

// What the server answered an in-place action (`form` sent it) does to the page. A save is
// answered with a redirect, followed asking for the page's fragments alone (`url` is where it
// led: no layout or template is drawn or sent). Sent back here, the fresh fragments swap in; sent elsewhere, the browser goes there; the form again with its problems (422) swaps
// in too. Any other failure is an alert over the page, which keeps what was typed.
function showAnswer({ status, url, html }, form) {
  const page = new DOMParser().parseFromString(html, "text/html");
  const there = new URL(url, location.href);
  if (status < 300 && !(showsThisPage(there) && actionFragments.some((id) => document.getElementById(id)))) {
    leave(there.href);
    return;
  }
  const ids = [...actionFragments, form?.id].filter((id) => id && document.getElementById(id) && page.getElementById(id));
  if (status < 300 || (status === 422 && ids.length)) {
    for (const id of ids) replaceElement(document.adoptNode(page.getElementById(id)), { keepFiles: status === 422 });
    if (status < 300) {
      announce("Saved");
      keepFocusAfter(form);
    } else {
      document.querySelector('[aria-invalid="true"]')?.focus();
    }
    return;
  }
  alertDialog(page.querySelector("h1")?.textContent ?? "Something went wrong",
              page.querySelector("[data-error-message]")?.textContent ?? "");
}

// After an in-place change the person goes on where they were: the add field emptied and still
// focused for the next activity; focus left on a control that is gone (a deleted activity's
// button, an Undo) moves to what replaced it: the Undo notice, else the checklist.
function keepFocusAfter(form) {
  if (form?.matches(".add-activity")) {
    form.reset();
    form.querySelector("input[name=name]").focus();
  } else if (!document.activeElement || document.activeElement === document.body) {
    (document.querySelector("#trip-notice [autofocus]") ?? document.getElementById("activity-list"))?.focus();
  }
}

const unreachable = { heading: "Wishlist can’t be reached", message: "Check that Wishlist is still running, then try again. What you typed is still here." };

// `label` says what the change is, should it have to wait (a form's own is found). Resolves
// true when the change was kept to be sent later: the server out of reach, or refusing it for
// want of a session or of the current token (it waits for the sign-in, kept).
async function post(url, body, form, label) {
  const key = newKey();
  let response = null;
  try {
    // The header rides along the redirect: the page it leads to answers its fragments alone.
    response = await withCurrentToken(() => fetch(url, { method: "POST", body,
      headers: { "X-CSRF-Token": sendingToken, "X-Wishlist-Fragments": "only", "Idempotency-Key": key } }));
    if (!needsSignIn(response)) {
      showAnswer({ status: response.status, url: response.url, html: await response.text() }, form);
      return false;
    }
  } catch {
    // Out of reach: kept below.
  }
  try {
    // With the activity's name and its trip's page: should it be deleted elsewhere meanwhile,
    // the person may add it back.
    const activity = new URLSearchParams(body).get("name") ?? activityName(form);
    await keepWrite({ url, body: [...new URLSearchParams(body)], key, label: label ?? writeLabel(form), activity,
                      page: location.pathname, signIn: response !== null });
    showKept(form);
    return true;
  } catch {
    alertDialog(unreachable.heading, unreachable.message);
  }
  return false;
}

// ---------- Writes kept while Wishlist can't be reached ----------
// A change made while the server is out of reach is kept in this browser (offline.js), drawn
// where it will land, marked as waiting, and sent in order once the server answers, with the key
// it was first sent with: the server writes it once however often it arrives
// (IdempotentWrites.swift). A form posted as a page (a trip's fields, a new trip) is kept by the
// service worker the same way. One tab of the browser sends at a time, so each write is sent
// once however many tabs are open. A write refused for want of a session (401) or of the current
// token (403) stays kept, waiting for the sign-in.

// 401: no session (a restart in password mode ends them all); 403: the token this page was drawn
// with is no longer the browser's (CSRFProtection refuses nothing else on a write).
const needsSignIn = (response) => response.status === 401 || response.status === 403;

// The token writes are sent with: this page's, until the server refuses it; then the one a page
// drawn now carries.
let sendingToken = csrfToken;

// Sends, and when the server refuses the token this page has, once more with the browser's current one.
async function withCurrentToken(send) {
  const response = await send();
  return response.status === 403 && (await refreshSendingToken()) ? send() : response;
}

// Says whether the token changed.
async function refreshSendingToken() {
  const page = new DOMParser().parseFromString(await (await fetch("/", { headers: { Accept: "text/html" } })).text(), "text/html");
  const token = page.querySelector('meta[name="csrf-token"]')?.content;
  if (!token || token === sendingToken) return false;
  sendingToken = token;
  return true;
}

async function keepWrite(write) {
  await addKeptWrite(write);
  showWaiting();
  sendKeptWritesIn(5000);
}

function sendKeptWritesIn(milliseconds) {
  clearTimeout(sendKeptWritesIn.timer);
  sendKeptWritesIn.timer = setTimeout(sendKeptWrites, milliseconds);
}

function activityName(form) {
  const name = form?.closest(".activity")?.querySelector(".activity-name, input[data-rename-url]");
  return name ? name.value ?? name.textContent.trim() : null;
}

function writeLabel(form) {
  if (form?.matches(".check-form")) return `${form.elements.complete.value === "true" ? "Check" : "Uncheck"} “${activityName(form)}”`;
  if (form?.matches(".add-activity")) return `Add “${form.elements.name.value}”`;
  return "A change";
}

// The change shows at once, marked as waiting: a check-off flips, and a second tap flips it back.
function showKept(form) {
  if (!form?.matches(".check-form")) return keepFocusAfter(form);
  const item = form.closest(".activity");
  const done = form.elements.complete.value === "true";
  form.querySelector("button.check").setAttribute("aria-checked", String(done));
  item.classList.toggle("is-complete", done);
  item.classList.add("is-pending");
  form.elements.complete.value = String(!done);
}

// A new activity waiting to be added, listed where it will be.
function showWaitingActivity(write) {
  const list = document.getElementById("activity-list");
  if (!list || list.querySelector(`[data-waiting-key="${CSS.escape(write.key)}"]`)) return;
  let checklist = list.querySelector(".checklist");
  if (!checklist) {
    checklist = Object.assign(document.createElement("ul"), { className: "checklist" });
    list.querySelector(".muted")?.remove();
    list.append(checklist);
  }
  const item = Object.assign(document.createElement("li"), { className: "activity is-pending" });
  item.dataset.waitingKey = write.key;
  item.append(Object.assign(document.createElement("span"), { className: "check" }),
              Object.assign(document.createElement("span"), { className: "activity-name", textContent: new URLSearchParams(write.body).get("name") }),
              Object.assign(document.createElement("span"), { className: "waiting-mark", textContent: "Waiting to send" }));
  checklist.append(item);
}

// The counts and progress of the list as drawn, in the server's words (TripPage.remainingText).
function showCounts() {
  const items = [...document.querySelectorAll("#activity-list .activity")];
  const remaining = items.filter((item) => !item.classList.contains("is-complete")).length;
  document.getElementById("remaining-count").textContent = items.length === 0 ? "No activities yet" : remaining === 0 ? "All done"
    : remaining === 1 ? "1 remaining activity" : `${remaining} remaining activities`;
  const percent = items.length ? Math.round((100 * (items.length - remaining)) / items.length) : 0;
  const progress = document.querySelector(".hero-progress progress");
  if (!progress) return;
  document.querySelector(".hero-progress-value").textContent = `${percent}%`;
  progress.value = percent;
  progress.textContent = `${percent}%`;
  progress.setAttribute("aria-label", `${percent}% of activities complete`);
}

// Draws the writes waiting onto this page where they will land (a check-off flipped, a new
// activity listed, each marked as waiting, and the counts they change), and says how many wait.
async function showWaiting() {
  const writes = await keptWrites().catch(() => []);
  const trip = document.querySelector(".trip-page")?.dataset.tripId;
  for (const write of writes) {
    const path = new URL(write.url, location.href).pathname;
    if (path === `/trips/${trip}/activities`) showWaitingActivity(write);
    // A page drawn before them (a reload from the kept copy) shows the waiting check-offs too.
    const form = document.querySelector(`form.check-form[action$="${path}"]`);
    const complete = new URLSearchParams(write.body).get("complete");
    if (form && form.elements.complete.value === complete) showKept(form);
  }
  // An activity sent is drawn by the server's fragment (live updates), marks of check-offs sent go.
  const waiting = new Set(writes.map((write) => write.key));
  document.querySelectorAll("[data-waiting-key]").forEach((item) => { if (!waiting.has(item.dataset.waitingKey)) item.remove(); });
  if (writes.length === 0) document.querySelectorAll(".activity.is-pending").forEach((item) => item.classList.remove("is-pending"));
  else if (document.querySelector("#activity-list .is-pending")) showCounts();
  const note = document.getElementById("pending-note");
  const waitingFor = writes.some((write) => write.signIn) ? "for sign-in" : "to send";
  note.hidden = writes.length === 0;
  note.textContent = writes.length === 1 ? `Waiting ${waitingFor}: ${writes[0].label}` : `${writes.length} changes waiting ${waitingFor}`;
}
// A write kept, sent or refused in another tab (or by the service worker) shows here too.
keptWritesChanged?.addEventListener("message", showWaiting);

let sendingKeptWrites = false;

async function sendKeptWrites() {
  if (sendingKeptWrites) return;
  sendingKeptWrites = true;
  let sent = { waiting: true, asks: [] };
  try {
    // One tab at a time: the next reads what the one before it left. Without Web Locks (an
    // origin that is not secure, where no service worker keeps pages either) each tab sends
    // alone, and the keys keep the server from writing any twice. The lock is asked for only
    // when writes wait: a page asked for a lock it held is evicted from the back/forward cache.
    if ((await keptWrites()).length) {
      sent = await (navigator.locks ? navigator.locks.request("wishlist-kept-writes", sendInOrder) : sendInOrder());
    } else {
      sent = { waiting: false, asks: [] };
    }
  } catch {
    // The store unreadable: tried again below.
  } finally {
    sendingKeptWrites = false;
  }
  // Asked once the next tab may send: a question left unanswered holds up no other tab.
  for (const ask of sent.asks) await ask();
  const left = (await keptWrites().catch(() => [])).length;
  // Writes the person chose meanwhile (Keep mine, Add it back) go at once; the rest once it answers.
  if (left > 0) sendKeptWritesIn(sent.waiting ? 5000 : 0);
  showWaiting();
}

// Sends the writes kept, in order, until one must wait; says whether one does, and what the
// answers ask of the person.
async function sendInOrder() {
  const asks = [];
  const writes = await keptWrites();
  for (const [index, write] of writes.entries()) {
    const response = await sendKeptWrite(write);
    if (!response || response.status === 409 || response.status === 429 || response.status >= 500) return { waiting: true, asks };
    if (needsSignIn(response)) {
      if (!write.signIn) await putKeptWrite({ ...write, signIn: true });
      return { waiting: true, asks };
    }
    await deleteKeptWrite(write);
    const path = new URL(write.url, location.href).pathname;
    if (response.status === 412) {
      // Changed elsewhere while this waited: the person chooses, nothing is overwritten unasked.
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      asks.push(async () => {
        const choice = await dialog({ heading: `Changed elsewhere: ${write.label}`,
          message: page.querySelector("[data-error-message]")?.textContent ?? "It was changed elsewhere while this change waited.",
          labels: [{ label: "Keep theirs" }, { label: "Keep mine", kind: "primary" }] });
        const { id, ...mine } = write;
        // Sent again with the versions it now replaces (the server names them): a write without one is refused.
        const now = [...new URLSearchParams(response.headers.get("X-Wishlist-Versions") ?? "")];
        const replaced = new Set(now.map(([name]) => name));
        if (choice === 1) await keepWrite({ ...mine, key: newKey(), body: [...mine.body.filter(([name]) => !replaced.has(name)), ...now] });
      });
    } else if (response.status === 404 && path.endsWith("/delete")) {
      // Deleted elsewhere too: what was asked for.
    } else if (response.status === 404 && /^\/activities\/\d+(\/complete)?$/.test(path) && /^\/trips\/\d+$/.test(write.page ?? "")) {
      // The activity was deleted elsewhere while this waited: the person chooses whether it comes back.
      asks.push(async () => {
        const choice = await dialog({ heading: `Deleted elsewhere: “${write.activity}”`,
          message: `It was deleted on another device while this change waited to be sent (${write.label}).`,
          labels: [{ label: "Let It Go" }, { label: "Add It Back", kind: "primary" }] });
        if (choice === 1) {
          await keepWrite({ url: `${write.page}/activities`, body: [["name", write.activity]], key: newKey(),
                            label: `Add “${write.activity}”` });
        }
      });
    } else if (!response.ok) {
      const page = new DOMParser().parseFromString(await response.text(), "text/html");
      await sendLaterAgainstServersVersion(write, writes.slice(index + 1));
      asks.push(() => alertDialog(`Not saved: ${write.label}`, page.querySelector("[data-error-message]")?.textContent ?? ""));
    }
  }
  return { waiting: false, asks };
}

// Null when the server is out of reach.
async function sendKeptWrite(write) {
  try {
    return await withCurrentToken(() => fetch(write.url, { method: "POST", body: keptWriteBody(write),
      headers: { "X-CSRF-Token": sendingToken, "Idempotency-Key": write.key } }));
  } catch {
    return null;
  }
}

// A write refused (a rename to an empty name, say) changed nothing: the writes kept after it that
// were drawn from the version it would have made (`was`) are sent against the one the server has.
async function sendLaterAgainstServersVersion(refused, later) {
  const { name, was } = Object.fromEntries(refused.body);
  if (name === undefined || was === undefined) return;
  for (const write of later) {
    const body = new URLSearchParams(write.body);
    if (write.url !== refused.url || body.get("was") !== name) continue;
    body.set("was", was);
    write.body = [...body];
    await putKeptWrite(write);
  }
}

// Writes first, so that the pages kept after them show them.
addEventListener("online", () => sendKeptWrites().finally(keepOffline));
sendKeptWrites().finally(() => { if (!offlineSince) keepOffline(); });

// A polite word for screen readers and a brief visible note ("Saved").
function announce(text) {
  let note = document.getElementById("save-note");
  if (!note) {
    note = Object.assign(document.createElement("p"), { id: "save-note", className: "save-note" });
    note.setAttribute("role", "status");
    document.body.append(note);
  }
  note.textContent = text;
  note.classList.add("is-shown");
  clearTimeout(announce.timer);
  announce.timer = setTimeout(() => note.classList.remove("is-shown"), 2000);
}

// ---------- Dialogs: alerts and confirmations ----------

// A modal dialog with `labels` as buttons (the last one the default action); resolves with the
// index of the one chosen, or -1 on Escape. Focus moves in, and back where it was after.
function dialog({ heading, message, labels, role = "alertdialog", focus = 0 }) {
  return new Promise((resolve) => {
    const returnTo = document.activeElement;
    const box = Object.assign(document.createElement("dialog"), { className: "alert" });
    box.setAttribute("role", role);
    box.setAttribute("aria-labelledby", "alert-heading");
    box.setAttribute("aria-describedby", "alert-message");
    const title = Object.assign(document.createElement("h2"), { id: "alert-heading", textContent: heading });
    const text = Object.assign(document.createElement("p"), { id: "alert-message", textContent: message });
    const actions = Object.assign(document.createElement("div"), { className: "form-actions" });
    const buttons = labels.map(({ label, kind }) => Object.assign(document.createElement("button"), { type: "button", className: `button ${kind ?? ""}`, textContent: label }));
    actions.append(...buttons);
    box.append(...(heading ? [title] : []), text, actions);
    document.body.append(box);
    const close = (answer) => {
      box.close();
      box.remove();
      if (returnTo?.isConnected) returnTo.focus({ preventScroll: true });
      resolve(answer);
    };
    buttons.forEach((button, index) => button.addEventListener("click", () => close(index)));
    box.addEventListener("cancel", (event) => { event.preventDefault(); close(-1); });
    box.showModal();
    buttons[focus].focus();
  });
}

function alertDialog(heading, message) {
  return dialog({ heading, message, labels: [{ label: "OK" }] });
}

async function confirmDialog(message, confirmLabel) {
  return (await dialog({ message, labels: [{ label: "Cancel", kind: "secondary" }, { label: confirmLabel, kind: "danger" }] })) === 1;
}

function csrfBody() {
  const body = new FormData();
  body.append("_csrf", csrfToken);
  return body;
}

function postTo(url) {
  const form = Object.assign(document.createElement("form"), { method: "post", action: url });
  form.append(Object.assign(document.createElement("input"), { type: "hidden", name: "_csrf", value: csrfToken }));
  document.body.append(form);
  leavingOnPurpose = true;
  form.submit();
}

// Whether anything in `form`, or a field that belongs to it from elsewhere, was changed.
function formHasChanges(form) {
  return [...form.elements].some(isEdited);
}

// ---------- Edit mode: changes are saved as they are made, and leaving keeps them ----------

// An activity's new name is saved when the field is left or Enter is pressed: once, though
// Enter is followed by a change event (and leaving by another) before the answer comes.
async function saveRename(input) {
  if (!isEdited(input) || input.dataset.saving === input.value) return;
  // A name the server would refuse (empty) is neither sent nor kept: the version the next rename
  // is sent against stays the one the server has.
  if (!input.reportValidity()) return;
  input.dataset.saving = input.value;
  const body = csrfBody();
  body.append("name", input.value);
  // The name shown: one changed elsewhere meanwhile is not overwritten unasked.
  body.append("was", input.defaultValue);
  // Kept to send later, the name is the field's own: leaving it sends nothing more.
  if (await post(input.dataset.renameUrl, body, null, `Rename to “${input.value}”`)) input.defaultValue = input.value;
  delete input.dataset.saving;
}

document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches("select[data-autosubmit]")) el.form.requestSubmit();
  else if (el.matches("input[data-rename-url]")) saveRename(el);
});

document.addEventListener("keydown", (event) => {
  const input = event.target.closest?.("input[data-rename-url]");
  if (input && event.key === "Enter") {
    event.preventDefault();  // not the trip form's save: only this name changed
    saveRename(input);
  }
});

// Leaving edit mode by Back or a tab, buttons that save the trip form and go on: with the form
// unchanged it just goes; changed, it asks first whether to save (as the button would) or discard.
async function leaveEditMode(event, button) {
  const form = button.form;
  if (!form) return;
  event.preventDefault();
  if (!formHasChanges(form)) {
    window.location.assign(button.dataset.leaveTo);
    return;
  }
  const answer = await dialog({ heading: "Save your changes?", message: "You changed this trip and haven’t saved it yet.",
                                labels: [{ label: "Discard", kind: "secondary" }, { label: "Save", kind: "" }], focus: 1 });
  if (answer === 1) form.requestSubmit(button);
  else if (answer === 0) leave(button.dataset.leaveTo);
}

// ---------- Forms that update the page in place ----------

document.addEventListener("submit", (event) => {
  const form = event.target;
  // The trip page's undo stays on the page; elsewhere an Undo leads to the trip it brings back.
  if (form.matches(".check-form, .sort-form, .add-activity, #trip-notice .undo-notice form")) {
    event.preventDefault();
    post(form.action, new FormData(form, event.submitter), form);
  } else if (form.matches(".trip-form")) {
    submitTripForm(event, form);  // photo-field.js
  }
});

// A new trip's collection follows the season of its start date until the person picks one.
const seasonOfMonth = ["winterRetreats", "winterRetreats", "springEscapes", "springEscapes", "springEscapes", "summerVibes",
                       "summerVibes", "summerVibes", "fallGetaways", "fallGetaways", "fallGetaways", "winterRetreats"];

document.addEventListener("change", (event) => {
  const el = event.target;
  const form = el.closest?.("form#new-trip");
  if (!form) return;
  const collection = form.querySelector("select[name=collection]");
  if (el === collection) {
    collection.dataset.chosen = "true";
  } else if (el.name === "startDate" && el.value && !collection.dataset.chosen) {
    collection.value = seasonOfMonth[Number(el.value.slice(5, 7)) - 1] ?? collection.value;
  }
});

// ---------- Leaving with unsaved changes ----------

// Back, reload or closing the tab ask first while a trip form holds changes not saved; the
// app's own ways out ask in a dialog of their own, or save first, and then mean to leave.
let leavingOnPurpose = false;

function leave(url) {
  leavingOnPurpose = true;
  window.location.assign(url);
}

// After the listener above: a submit it (or photo-field.js) keeps on the page prevented its default.
document.addEventListener("submit", (event) => { if (!event.defaultPrevented) leavingOnPurpose = true; });
addEventListener("pageshow", () => { leavingOnPurpose = false; });
addEventListener("beforeunload", (event) => {
  if (leavingOnPurpose || ![...document.querySelectorAll(".trip-form")].some(formHasChanges)) return;
  event.preventDefault();
  event.returnValue = "";
});

document.addEventListener("click", async (event) => {
  const opener = event.target.closest("[data-opens-dialog]");
  if (opener) {
    const target = document.getElementById(opener.dataset.opensDialog);
    if (target?.showModal) {
      event.preventDefault();
      target.showModal();
      target.querySelector("input[name=name]")?.focus();
    }
    return;
  }
  const cancel = event.target.closest(".trip-form [data-cancel]");
  if (cancel) {
    const form = cancel.closest("form");
    const sheet = form.closest("dialog");
    if (formHasChanges(form)) {
      event.preventDefault();
      if (!(await confirmDialog("Discard changes?", "Discard"))) return;
      form.reset();
      if (sheet) sheet.close(); else window.location.assign(cancel.href);
    } else if (sheet) {
      event.preventDefault();
      sheet.close();
    }
    return;
  }
  const deleter = event.target.closest("[data-confirm-delete]");
  if (deleter) {
    // With typed changes the button submits the trip form: they are saved, then the confirmation shows.
    if (deleter.form && formHasChanges(deleter.form)) return;
    event.preventDefault();
    if (!(await confirmDialog(deleter.dataset.confirmDelete, deleter.dataset.confirmLabel ?? "Delete"))) return;
    if (deleter.hasAttribute("data-in-place")) post(deleter.dataset.deleteUrl, csrfBody(), null, deleter.dataset.confirmDelete);
    else postTo(deleter.dataset.deleteUrl ?? deleter.href ?? deleter.form.action);
    return;
  }
  const leaver = event.target.closest("button[data-leave-to]");
  if (leaver) leaveEditMode(event, leaver);
});

// Closing the New Trip sheet with Escape asks first when something was typed
// ("cancel" does not bubble: caught on the way down).
document.addEventListener("cancel", async (event) => {
  const sheet = event.target;
  const form = sheet.matches?.("dialog.sheet") && sheet.querySelector("form");
  if (form && formHasChanges(form)) {
    event.preventDefault();
    if (await confirmDialog("Discard changes?", "Discard")) { form.reset(); sheet.close(); }
  }
}, true);

// ---------- A page kept past its session ----------

// A signed-in page restored by Back once its session ended (signed out here or in another tab,
// expired, a restart with a password) is not shown again: the back/forward cache keeps it
// whatever the sign-out's Clear-Site-Data says. Hidden until the server says it is still
// readable, else it is asked for anew (the sign-in page answers).
addEventListener("pageshow", async (event) => {
  if (!event.persisted || !document.querySelector("form.sign-out")) return;
  document.body.hidden = true;
  const answer = await fetch(location.href, { method: "HEAD", redirect: "manual", cache: "no-store" }).catch(() => null);
  // Unreachable: the session may well hold, and this browser's own copy is the person's.
  if (answer && !answer.ok) leave(location.href);
  else document.body.hidden = false;
});

// ---------- Live updates over server-sent events ----------

// A browser opens at most six connections to a host: a stream per tab (and per page kept in the
// back/forward cache) would leave none for the next page. So one SharedWorker (live-worker.js)
// holds the browser's one stream and hands each tab its topics' fragments; without SharedWorker,
// a tab holds a stream of its own only while it is shown. Either way a page leaving lets go,
// and a stream opened again resumes after the last event the page applied (`since`).
const live = { topics: "", since: "", channel: null };

function applyFragment({ id, target, html }) {
  if (Number(id) > Number(live.since)) live.since = String(id);
  const before = new Set([...document.querySelectorAll(`#${CSS.escape(target)} [data-goal]`)].map((el) => el.dataset.goal));
  const fresh = replaceElement(parseFragment(html));
  if (fresh && target === "goals-achieved") {
    for (const tile of fresh.querySelectorAll("[data-goal]")) {
      if (!before.has(tile.dataset.goal)) tile.classList.add("is-new");
    }
  }
}

function showConnected(connected) {
  document.getElementById("live-status").hidden = connected;
  if (connected) {
    // Live again, a page drawn from what was kept is brought up to date: it is offline no more.
    document.getElementById("offline-note").hidden = true;
    sendKeptWrites();
  }
}

// The browser's shared stream, through a port to the worker.
function workerChannel() {
  const port = new SharedWorker(liveWorkerURL, { name: "wishlist-live" }).port;
  port.onmessage = ({ data }) => (data.type === "fragment" ? applyFragment(data) : showConnected(data.connected));
  const follow = () => port.postMessage({ type: "follow", topics: live.topics.split(" "), since: live.since, shown: !document.hidden });
  follow();
  return { follow, close: () => { port.postMessage({ type: "leave" }); port.close(); } };
}

// This tab's own stream, open while the tab is shown. Refused (no session), it is tried again
// after a wait that doubles up to a minute (the browser would not), and at once when shown again.
function pageChannel() {
  let source = null, retry = null, wait = 1000;
  const close = () => { source?.close(); source = null; clearTimeout(retry); };
  const follow = () => {
    close();
    if (document.hidden) return;
    source = new EventSource(`/events?topics=${encodeURIComponent(live.topics)}&since=${encodeURIComponent(live.since)}`);
    source.addEventListener("open", () => { wait = 1000; showConnected(true); });
    source.addEventListener("error", ({ target }) => {
      showConnected(false);
      if (target.readyState !== EventSource.CLOSED) return;
      retry = setTimeout(follow, wait);
      wait = Math.min(wait * 2, 60_000);
    });
    source.addEventListener("fragment", (event) => applyFragment({ id: event.lastEventId, ...JSON.parse(event.data) }));
  };
  follow();
  return { follow, close };
}

// Follows the page's topics; called again when the page shows other ones (search as you type).
function followLive(topics, since) {
  live.topics = topics ?? "";
  live.since = since ?? live.since;
  if (!live.topics) {
    live.channel?.close();
    live.channel = null;
  } else if (live.channel) {
    live.channel.follow();
  } else if ("SharedWorker" in window) {
    live.channel = workerChannel();
  } else if ("EventSource" in window) {
    live.channel = pageChannel();
  }
}

// A page going into the back/forward cache (or away) lets its stream go; shown again, it
// catches up from the last event it applied. A tab shown or hidden follows again: its own stream
// opens or closes, and the shared one puts the topics of shown tabs first should it have more
// than one stream can follow.
addEventListener("pagehide", () => { live.channel?.close(); live.channel = null; });
addEventListener("pageshow", (event) => { if (event.persisted) followLive(live.topics); });
document.addEventListener("visibilitychange", () => live.channel?.follow());

followLive(document.body.dataset.liveTopics, document.body.dataset.liveSince);
