// Wishlist's one live-update stream for all the tabs of a browser (a SharedWorker: app.js).
// A browser opens at most six connections to a host, so a stream per tab (and per page kept
// in the back/forward cache) left no connection for the seventh page. Each tab says which topics
// it shows and the last event it applied (`since`, a history token); the worker follows the union
// on one `/events` stream and hands each tab the fragments of its topics.
"use strict";

// One stream may follow this many topics (the server's `LiveUpdates.maxTopicsPerStream`).
const maxTopics = 64;

const tabs = new Map();   // port → { topics, since, shown }, the tab that spoke last at the end
const latest = new Map(); // topic → the last fragment message, for a tab that joins after it
let source = null;
let following = "";       // the topics `source` follows, sorted, space-separated
let coveredSince = 0;     // the token `source` was opened after: it misses nothing later
let lastEventId = 0;
let connected = false;
// A stream the server refused (401 once the session is gone: signed out elsewhere, expired, a
// restart with a password) is never tried again by the browser. It is opened again after a wait
// that doubles up to `longestWait`, and at once when a tab follows (a page loaded after signing in,
// a tab shown again).
const firstWait = 1000, longestWait = 60_000;
let wait = firstWait;
let retry = null;

onconnect = ({ ports: [port] }) => {
  port.onmessage = ({ data }) => {
    tabs.delete(port);
    if (data.type === "follow") {
      tabs.set(port, { topics: data.topics, since: Number(data.since) || 0, shown: data.shown });
      port.postMessage({ type: "status", connected });
    }
    update(data.type === "follow" ? port : null);
  };
};

// The topics of the tabs shown, then of the others, latest first, as many as fit one stream; a
// tab left out catches up when it is shown again (it follows again, and so comes first).
function wantedTopics() {
  const topics = new Set();
  const latestFirst = [...tabs.values()].reverse();
  for (const tab of [...latestFirst.filter((tab) => tab.shown), ...latestFirst.filter((tab) => !tab.shown)]) {
    if (new Set([...topics, ...tab.topics]).size > maxTopics) continue;
    tab.topics.forEach((topic) => topics.add(topic));
  }
  return [...topics].sort().join(" ");
}

// After a tab joined (`joined`) or left (null): keeps the stream when it already covers what
// the tab needs, handing it what came since its page was drawn; else opens it again, after the
// oldest token a tab still needs (the server then sends each topic changed since).
function update(joined) {
  const topics = wantedTopics();
  if (!topics) {
    close();
    return;
  }
  const tab = joined && tabs.get(joined);
  const refused = source?.readyState === EventSource.CLOSED;
  if (topics === following && !refused && (!tab || tab.since >= coveredSince)) {
    for (const topic of tab?.topics ?? []) {
      const message = latest.get(topic);
      if (message && message.id > tab.since) joined.postMessage(message);
    }
    return;
  }
  // Everything after `resumeAt` reached the tabs already.
  const resumeAt = Math.max(coveredSince, lastEventId);
  open(topics, tab ? (following ? Math.min(tab.since, resumeAt) : tab.since) : resumeAt);
}

function open(topics, since) {
  source?.close();
  clearTimeout(retry);
  following = topics;
  coveredSince = since;
  source = new EventSource(`/events?topics=${encodeURIComponent(topics)}&since=${since || ""}`);
  source.addEventListener("open", () => {
    wait = firstWait;
    setConnected(true);
  });
  source.addEventListener("error", ({ target }) => {
    setConnected(false);
    if (target.readyState !== EventSource.CLOSED) return;
    retry = setTimeout(() => update(null), wait);
    wait = Math.min(wait * 2, longestWait);
  });
  source.addEventListener("fragment", (event) => {
    const { topic, target, html } = JSON.parse(event.data);
    const message = { type: "fragment", id: Number(event.lastEventId), topic, target, html };
    lastEventId = Math.max(lastEventId, message.id);
    latest.set(topic, message);
    for (const [port, tab] of tabs) {
      if (tab.topics.includes(topic)) port.postMessage(message);
    }
  });
}

function close() {
  source?.close();
  clearTimeout(retry);
  source = null;
  following = "";
  setConnected(false);
}

function setConnected(value) {
  connected = value;
  for (const port of tabs.keys()) port.postMessage({ type: "status", connected });
}
