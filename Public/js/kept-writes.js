// Writes kept in this browser (IndexedDB) while Wishlist can't be reached, to be sent in order
// later (app.js). Shared by the pages (in the script bundle) and the service worker, which keeps
// a form posted as a page (importScripts), so both keep them alike.
"use strict";

function newKey() {
  return crypto.randomUUID?.() ?? [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function writesStore(mode, action) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open("wishlist", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("writes", { keyPath: "id", autoIncrement: true });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const transaction = opening.result.transaction("writes", mode);
      const request = action(transaction.objectStore("writes"));
      transaction.oncomplete = () => { opening.result.close(); resolve(request.result); };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}

const keptWrites = () => writesStore("readonly", (store) => store.getAll());

// `write`: { url, body: [[name, value]…] (a value may be a File), multipart, key, label, … }.
const addKeptWrite = (write) => writesStore("readwrite", (store) => store.add(write));

// The body as it was sent: a form with files as multipart, any other url-encoded.
function keptWriteBody(write) {
  if (!write.multipart) return new URLSearchParams(write.body);
  const body = new FormData();
  for (const [name, value] of write.body) body.append(name, value);
  return body;
}
