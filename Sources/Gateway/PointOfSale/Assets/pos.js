// Progressive enhancement of the point of sale: every screen works without it (forms post, the tap screen reloads).
"use strict";

// Checkout: the total with the tip, as the server will compute it (rounded to the cent).
function updateTotal() {
  const amount = document.querySelector("[data-amount]");
  const total = document.getElementById("total");
  if (!amount || !total) { return; }
  const value = Number.parseFloat(amount.value.replace(",", "."));
  const tip = Number.parseInt((document.querySelector("[data-tip]:checked") || { value: "0" }).value, 10);
  if (!Number.isFinite(value) || value <= 0) { total.textContent = "—"; return; }
  const cents = Math.round(value * 100);
  const withTip = cents + Math.floor((cents * tip + 50) / 100);
  total.textContent = (withTip / 100).toFixed(2) + " " + total.dataset.currency;
}
document.addEventListener("input", updateTotal);
document.addEventListener("change", (event) => {
  updateTotal();
  if (event.target.id === "reader") {
    for (const field of document.querySelectorAll("[data-follow-reader]")) { field.value = event.target.value; }
    const other = document.getElementById("refund-reader");
    if (other) { other.value = event.target.value; }
  }
});

// Readiness: check the readers when the app opens and whenever it comes back to the foreground. A reader the gateway
// is configuring for the first time shows determinate progress (checked again until it is done); otherwise the
// check itself shows indeterminate progress. Checkout stays available throughout.
async function checkReaders() {
  const status = document.getElementById("readiness");
  if (!status) { return; }
  const progress = document.getElementById("configuring");
  progress.removeAttribute("value");
  progress.hidden = false;
  status.textContent = "Checking readers…";
  let again = false;
  try {
    const response = await fetch("/pos/status", { credentials: "same-origin", cache: "no-store" });
    const list = await response.json();
    const online = list.data.filter((reader) => reader.online).length;
    const configuring = list.data.find((reader) => typeof reader.configuring === "number");
    if (configuring) {
      progress.max = 100;
      progress.value = configuring.configuring;
      status.textContent = `Configuring reader ${configuring.id}: ${configuring.configuring} %. You can check out meanwhile.`;
      again = true;
    } else {
      status.textContent = online > 0
        ? `${online} reader${online === 1 ? "" : "s"} ready.`
        : "No reader is connected yet. You can still start a checkout; it goes to a reader once one connects.";
    }
  } catch (error) {
    status.textContent = "Could not check the readers: the connection to the gateway is down.";
  } finally {
    progress.hidden = !again;
    if (again) { setTimeout(checkReaders, 300); }
  }
}
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") { checkReaders(); } });

// The tap screen: the reader's events as they happen, then the result.
const words = {
  commandStarted: "The reader is getting ready…",
  readyForTap: "Ready: the customer can tap now.",
  cardDetected: "Card detected. Hold still…",
  removeCard: "Done reading: the customer can remove the card.",
  readRetry: "The read did not finish: tap again.",
  pinEntryRequested: "The card asks for its PIN: the customer enters it on the reader.",
  pinEntryCompleted: "PIN entered.",
  readCompleted: "Card read.",
  readNotCompleted: "The card was not read.",
  authorizing: "Authorizing with the card's bank…",
  readerDisconnected: "The reader lost its connection…",
  readerConnected: "The reader is connected.",
};
function followReader(screen) {
  const status = document.getElementById("reader-status");
  const authorizing = document.getElementById("authorizing");
  const source = new EventSource(`/pos/readers/${encodeURIComponent(screen.dataset.reader)}/events?after=0`);
  source.onmessage = () => {};
  for (const kind of Object.keys(words).concat(["commandEnded"])) {
    source.addEventListener(kind, (message) => {
      const event = JSON.parse(message.data);
      if (event.command && event.command.id !== screen.dataset.command) { return; }
      if (kind === "commandEnded") { source.close(); window.location.reload(); return; }
      status.textContent = words[kind];
      authorizing.hidden = kind !== "authorizing";
      screen.dataset.state = kind;
    });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  updateTotal();
  checkReaders();
  const screen = document.querySelector("[data-running]");
  if (screen) { followReader(screen); }
  for (const link of document.querySelectorAll("[data-print-link]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const view = window.open(link.href, "_blank");
      if (view) { view.addEventListener("load", () => view.print()); }
    });
  }
});
