// Progressive enhancement only: every page works without it.
"use strict";
document.addEventListener("submit", (event) => {
  const form = event.target;
  const question = form.getAttribute("data-confirm");
  if (question && !window.confirm(question)) { event.preventDefault(); return; }
  // One submission per click: a double click does not send the form twice (the server also ignores repeats).
  for (const button of form.querySelectorAll("button[type=submit]")) { button.disabled = true; }
});
document.addEventListener("click", (event) => {
  if (event.target.closest("[data-print]")) { window.print(); }
});
