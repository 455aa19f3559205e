// The Search tab: results as you type, and "Show more" in place, through app.js's one swap;
// the live topic follows the results shown.
"use strict";

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
    // Other results follow other topics.
    if (page.body.dataset.liveTopics !== document.body.dataset.liveTopics) {
      Object.assign(document.body.dataset, { liveTopics: page.body.dataset.liveTopics, liveSince: page.body.dataset.liveSince });
      followLive(page.body.dataset.liveTopics, page.body.dataset.liveSince);
    }
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
