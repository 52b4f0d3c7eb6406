// papillon serve: a little plain JavaScript on server-rendered pages. Without it the pages still
// show everything and the choice buttons still work; with it the sheets take clicks and keys.
"use strict";

function send(action) {
  const form = document.getElementById("act");
  if (!form) return;
  const field = document.createElement("input");
  field.type = "hidden";
  field.name = "action";
  field.value = action;
  for (const old of form.querySelectorAll("input[type=hidden][name=action]")) old.remove(); // a form kept by a live page
  form.appendChild(field);
  if (document.querySelector("[data-live]") && form.requestSubmit) {
    form.requestSubmit(); // live.js sends it and swaps the answer in
    return;
  }
  post(form, null);
}

// A game's clicks replace the page instead of adding to the history: Back leaves the game in one press,
// not one press per click. Without fetch (or on a network error) the form is sent the ordinary way.
function post(form, submitter) {
  document.documentElement.dataset.leaving = "1"; // live.js: this page is on its way to the answer
  if (!form.matches("[data-replace]") || !window.fetch) {
    form.submit();
    return;
  }
  const data = new FormData(form);
  if (submitter && submitter.name) data.append(submitter.name, submitter.value);
  // getAttribute: form.action would be the field named "action"
  fetch(form.getAttribute("action"), { method: "POST", body: new URLSearchParams(data), credentials: "same-origin" })
    .then(async (response) => {
      if (response.ok) {
        location.replace(response.url);
        return;
      }
      const page = await response.text(); // the error page, with its words and its links
      document.open();
      document.write(page);
      document.close();
    })
    .catch(() => form.submit());
}

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (event.defaultPrevented || !form.matches("form[data-replace]")) return; // taken by live.js on a live page
  event.preventDefault();
  post(form, event.submitter);
});

document.addEventListener("click", (event) => {
  const target = event.target.closest("svg .target[data-action], svg.target[data-action]");
  if (target && !target.closest("button")) {
    event.preventDefault();
    send(target.dataset.action);
  }
});

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const focused = document.activeElement;
  if (focused && ["INPUT", "SELECT", "TEXTAREA"].includes(focused.tagName)) return;
  if ((event.key === "Enter" || event.key === " ") && focused && focused.dataset && focused.dataset.action && !focused.closest("button")) {
    event.preventDefault();
    send(focused.dataset.action);
    return;
  }
  if (/^[0-9]$/.test(event.key)) {
    event.preventDefault();
    typeNumber(event.key);
    return;
  }
  const button = document.querySelector(`[data-key="${CSS.escape(event.key)}"]`);
  if (button) {
    event.preventDefault();
    take(button);
  }
});

// Choices are numbered past 9: digits typed in a row make one number ("2" then "4" is choice 24). A number
// that no longer one starts with is taken at once; otherwise after a short pause.
let typed = "";
let typedTimer = null;

function typeNumber(digit) {
  typed += digit;
  clearTimeout(typedTimer);
  const exact = document.querySelector(`[data-key="${typed}"]`);
  const longer = document.querySelector(`[data-key^="${typed}"]:not([data-key="${typed}"])`);
  if (!longer) {
    typed = "";
    if (exact) take(exact);
    return;
  }
  typedTimer = setTimeout(() => {
    const chosen = document.querySelector(`[data-key="${typed}"]`);
    typed = "";
    if (chosen) take(chosen);
  }, 900);
}

// A choice folded away (the list of choices on the sheet) is shown and focused first, never taken unseen.
function take(button) {
  const folded = button.closest("details:not([open])");
  if (folded) {
    folded.open = true;
    button.focus();
    button.scrollIntoView({ block: "center" });
    return;
  }
  button.click();
}

// On a wide screen both sheets fit side by side: open the Fill sheet (a phone keeps it folded until needed).
if (window.matchMedia("(min-width: 800px)").matches) {
  for (const sheet of document.querySelectorAll("details.sheet-box")) sheet.open = true;
}
