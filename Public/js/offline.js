// What this browser keeps for when Wishlist can't be reached: the writes waiting to be sent in
// order (IndexedDB; app.js sends them, the service worker keeps a form posted as a page), and the
// pages and photos kept to read (Cache Storage, within the person's budget). One place for their
// names, shared by the pages (in the script bundle) and the service worker (importScripts).
"use strict";

// ---------- Pages and photos kept to read ----------

const KEPT_PAGES = "pages";
const KEPT_PHOTOS = "photos";
// Its existence is the person's "keep nothing offline" (the Data page), in force until undone.
const KEEP_NOTHING = "keep-nothing";
// The budget the person set and the history token of the worker's last keep.
const OFFLINE_SETTINGS = "offline-settings";
const DEFAULT_BUDGET = 50 * 1024 * 1024;
// On each kept response: when it was kept, and its size, counted against the budget.
const KEPT_AT = "X-Wishlist-Kept-At";
const KEPT_SIZE = "X-Wishlist-Size";

async function offlineSetting(name, fallback) {
  const found = await (await caches.open(OFFLINE_SETTINGS)).match(name);
  return found ? found.json() : fallback;
}

async function setOfflineSetting(name, value) {
  await (await caches.open(OFFLINE_SETTINGS)).put(name, new Response(JSON.stringify(value)));
}

const keptSize = (response) => Number(response?.headers.get(KEPT_SIZE) ?? 0);

// Every page and photo kept, as responses.
async function keptResponses() {
  const [pages, photos] = await Promise.all([KEPT_PAGES, KEPT_PHOTOS].map(
    async (name) => ((await caches.has(name)) ? (await caches.open(name)).matchAll() : [])));
  return { pages, photos, bytes: [...pages, ...photos].reduce((total, response) => total + keptSize(response), 0) };
}

// ---------- Writes waiting to be sent ----------

function newKey() {
  return crypto.randomUUID?.() ?? [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// Every page (and the service worker) hears when the writes waiting change, to show what waits.
const keptWritesChanged = typeof BroadcastChannel === "function" ? new BroadcastChannel("wishlist-kept-writes") : null;

function writesStore(mode, action) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("wishlist", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("writes", { keyPath: "id", autoIncrement: true });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const transaction = opening.result.transaction("writes", mode);
      const request = action(transaction.objectStore("writes"));
      transaction.oncomplete = () => {
        opening.result.close();
        if (mode === "readwrite") keptWritesChanged?.postMessage("changed");
        resolve(request.result);
      };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

const keptWrites = () => writesStore("readonly", (store) => store.getAll());

// `write`: { url, body: [[name, value]…] (a value may be a File), multipart, key, label, … }.
const addKeptWrite = (write) => writesStore("readwrite", (store) => store.add(write));
const putKeptWrite = (write) => writesStore("readwrite", (store) => store.put(write));
const deleteKeptWrite = (write) => writesStore("readwrite", (store) => store.delete(write.id));

// The body as it was sent: a form with files as multipart, any other url-encoded.
function keptWriteBody(write) {
  if (!write.multipart) return new URLSearchParams(write.body);
  const body = new FormData();
  for (const [name, value] of write.body) body.append(name, value);
  return body;
}
