// A trip's photos added many at once: chosen (the phone's picker too) or dropped, each file is
// sent on its own through the API, two at a time, with its own progress and outcome: added,
// already in this trip (the same picture: nothing added), refused with the server's reason, or
// not sent (then Retry). The page stays usable meanwhile;
// the gallery shows each photo as it is stored (the live update of its fragment). Leaving while
// files are still going asks first; the ones that finished are kept whatever happens.
// Without this script the form sends every file in one post.
"use strict";

(() => {
  const atOnce = 2;

  function setUp(form) {
    if (form.dataset.uploading) return;
    form.dataset.uploading = "ready";
    const input = form.querySelector("input[type=file]");
    const list = form.querySelector("[data-upload-list]");
    const tripID = form.dataset.galleryUpload;
    const queue = [];
    let running = 0;

    function row(file) {
      const item = Object.assign(document.createElement("li"), { className: "upload-item" });
      const name = Object.assign(document.createElement("span"), { className: "upload-name", textContent: file.name });
      const state = Object.assign(document.createElement("span"), { className: "upload-state", textContent: "Waiting" });
      const progress = Object.assign(document.createElement("progress"), { max: 1, value: 0 });
      progress.setAttribute("aria-label", `Sending ${file.name}`);
      item.append(name, state, progress);
      list.append(item);
      list.hidden = false;
      return { file, item, state, progress };
    }

    function finish(upload, outcome, reason) {
      upload.progress.remove();
      upload.item.classList.toggle("is-refused", outcome === "Not added" || outcome === "Not sent");
      upload.state.textContent = outcome;
      upload.item.querySelector(".upload-reason")?.remove();
      if (reason) upload.item.append(Object.assign(document.createElement("p"), { className: "upload-reason", textContent: reason }));
      if (outcome === "Not sent") {
        const retry = Object.assign(document.createElement("button"), { type: "button", className: "text-button", textContent: "Retry" });
        retry.setAttribute("aria-label", `Retry ${upload.file.name}`);
        retry.addEventListener("click", () => {
          retry.remove();
          upload.item.append(upload.progress);
          upload.progress.value = 0;
          enqueue(upload);
        });
        upload.state.after(retry);
      }
      running -= 1;
      next();
    }

    function send(upload) {
      running += 1;
      upload.state.textContent = "Sending";
      const request = new XMLHttpRequest();
      request.open("POST", `/api/trips/${tripID}/photos`);
      request.setRequestHeader("X-CSRF-Token", csrfToken);
      request.setRequestHeader("Accept", "application/json");
      request.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) upload.progress.value = event.loaded / event.total;
      });
      request.addEventListener("load", () => {
        if (request.status === 201) return finish(upload, "Added");
        if (request.status === 200) return finish(upload, "Already in this trip");
        let message = "";
        try { message = JSON.parse(request.responseText).error?.message ?? ""; } catch { /* not JSON: a proxy's page */ }
        if (request.status >= 500 || request.status === 429) finish(upload, "Not sent", message || "The server could not take it now.");
        else finish(upload, "Not added", message || `Refused (${request.status}).`);
      });
      request.addEventListener("error", () => finish(upload, "Not sent", "The network went away before it was sent."));
      const body = new FormData();
      body.append("photo", upload.file, upload.file.name);
      request.send(body);
    }

    function next() {
      while (running < atOnce && queue.length) send(queue.shift());
      form.dataset.uploading = running || queue.length ? "busy" : "ready";
    }

    function enqueue(upload) {
      queue.push(upload);
      next();
    }

    function add(files) {
      for (const file of files) enqueue(row(file));
      input.value = "";
    }

    input.addEventListener("change", () => add(input.files));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      add(input.files);
    });
    const section = form.closest(".gallery-section");
    // Only files from outside the page: a gallery photo dragged to reorder carries itself as one.
    section.addEventListener("dragover", (event) => {
      if (outsideFiles(event)) event.preventDefault();
    });
    section.addEventListener("drop", (event) => {
      const files = outsideFiles(event);
      if (!files?.length) return;
      event.preventDefault();
      add(files);
    });
    // Choosing or dropping starts the upload: the button is for pages without this script.
    input.required = false;
    form.querySelector("button[type=submit]").hidden = true;
  }

  // Files still going would be lost with the page: ask first.
  addEventListener("beforeunload", (event) => {
    if (!document.querySelector("[data-upload-list]")?.closest("form")?.matches("[data-uploading=busy]")) return;
    event.preventDefault();
    event.returnValue = "";
  });

  document.querySelectorAll("[data-gallery-upload]").forEach(setUp);
})();
