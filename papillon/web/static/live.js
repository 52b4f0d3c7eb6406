// papillon serve: live pages. A page marks the parts that change with data-live="NAME" and the events it
// follows with data-events="URL" (Server-Sent Events: each message is the version of what changed). On a
// change the page is fetched again and each changed part replaced in place, unless the person is inside it:
// typing in it, a form in it changed, a file chosen in it, or an upload in progress. That part is replaced
// when they are done. Forms on a live page are sent in the background and the answer's parts swapped in,
// so the page keeps its scroll position and focus. Without JavaScript the forms are ordinary forms and the
// pages that follow others reload on a timer (<noscript> in their head).
"use strict";

(function () {
  if (!document.querySelector("[data-live]") || !window.XMLHttpRequest || !window.DOMParser) return;

  let held = false; // a change is waiting for a part the person is inside
  let answers = 0; // forms answered so far: a page fetched across an answer may show the address it left
  let opened = null; // what an answer brought into view (the plot chooser), and where the page was before it
  let fetching = false;
  let again = false;

  function isField(element) {
    return !!element && element.matches(
      "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=image]):not([type=reset]), select, textarea",
    );
  }

  function formsOf(region) {
    return region.matches("form") ? [region] : [...region.querySelectorAll("form")];
  }

  // Whether the person is inside this part: it must not be replaced under them.
  function occupied(region) {
    if (isField(document.activeElement) && region.contains(document.activeElement)) return true;
    for (const form of formsOf(region)) {
      if (form.dataset.liveDirty || form.dataset.liveBusy) return true;
    }
    return [...region.querySelectorAll("input[type=file]")].some((input) => input.files && input.files.length > 0);
  }

  function names(doc) {
    return [...doc.querySelectorAll("[data-live]")].map((region) => region.dataset.live).join(" ");
  }

  // The element to focus again after a swap: the same id, or the same named field or button of the same part,
  // else (it is gone: a doubt checked) the first control of that part, so the keyboard stays where it was.
  function focusFinder(element) {
    if (!element || element === document.body) return null;
    if (element.id && document.getElementById(element.id) === element) return () => document.getElementById(element.id);
    const region = element.closest("[data-live]");
    if (!region) return null;
    const part = region.dataset.live;
    const selector = element.name
      ? `${element.tagName}[name="${CSS.escape(element.name)}"]` + (element.value ? `[value="${CSS.escape(element.value)}"]` : "")
      : null;
    return () => {
      const now = document.querySelector(`[data-live="${CSS.escape(part)}"]`);
      if (!now) return null;
      return (selector && now.querySelector(selector)) || now.querySelector("button, a[href], input:not([type=hidden]), select, textarea");
    };
  }

  // Put the fetched page's parts in place; false when it is another page (its parts differ).
  function apply(html, acted) {
    const fresh = new DOMParser().parseFromString(html, "text/html");
    if (names(fresh) !== names(document)) return false;
    const x = window.scrollX;
    const y = window.scrollY;
    const refocus = focusFinder(document.activeElement);
    let waiting = false;
    let shown = null;
    for (const region of [...document.querySelectorAll("[data-live]")]) {
      const next = fresh.querySelector(`[data-live="${CSS.escape(region.dataset.live)}"]`);
      if (!next || region.isEqualNode(next)) continue;
      if (region !== acted && occupied(region)) {
        waiting = true;
        continue;
      }
      const before = new Set([...region.querySelectorAll("[data-live-show]")].map((element) => element.id));
      const placed = document.importNode(next, true);
      // A list the person opened stays open (a <details> is the person's, not the server's).
      const open = [...region.querySelectorAll("details")].map((details) => details.open);
      [...placed.querySelectorAll("details")].forEach((details, i) => {
        if (open[i]) details.open = true;
      });
      region.replaceWith(placed);
      shown = shown || [...placed.querySelectorAll("[data-live-show]")].find((element) => !before.has(element.id)) || null;
    }
    document.title = fresh.title;
    const followed = fresh.querySelector("[data-events]");
    const events = document.querySelector("[data-events]");
    if (followed && events && followed.dataset.version !== undefined) events.dataset.version = followed.dataset.version;
    const closed = opened && !document.getElementById(opened.id) ? opened : null;
    window.scrollTo(closed ? closed.x : x, closed ? closed.y : y); // a chooser closed: back where its opener was
    const again = (closed ? closed.refocus : refocus) && (closed ? closed.refocus : refocus)();
    if (again && document.activeElement !== again) again.focus({ preventScroll: true });
    if (closed) opened = null;
    if (shown) {
      // Something newly opened by this answer (the plot chooser): brought into view, the least scroll that shows it.
      opened = { id: shown.id, x, y, refocus };
      shown.scrollIntoView({ block: "nearest" });
      shown.focus({ preventScroll: true });
    }
    held = waiting;
    return true;
  }

  // A page on its way to another (app.js's own post of a game's click, or a navigation) is never swapped or
  // reloaded under it: a reload would abort that navigation.
  let unloading = false;
  window.addEventListener("beforeunload", () => {
    unloading = true;
  });
  window.addEventListener("pageshow", () => {
    unloading = false;
    delete document.documentElement.dataset.leaving;
  });
  const leaving = () => unloading || document.documentElement.dataset.leaving === "1";

  async function refresh() {
    if (leaving()) return;
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    const before = answers;
    try {
      const response = await fetch(location.href, { credentials: "same-origin", cache: "no-store", headers: { accept: "text/html" } });
      const html = await response.text();
      if (answers !== before) again = true; // a form was answered meanwhile: this may be the page it left, fetch anew
      else if (response.ok && !leaving() && !apply(html, null)) location.reload(); // the page became another one
    } catch (error) {
      // The server is gone or asleep: the event stream reconnects by itself and brings the next change.
    }
    fetching = false;
    if (again) {
      again = false;
      refresh();
    }
  }

  function whenFree() {
    if (held) setTimeout(refresh, 0); // after the focus has moved
  }

  const events = document.querySelector("[data-events]");
  if (events && window.EventSource) {
    const source = new EventSource(events.dataset.events);
    source.onmessage = (message) => {
      // The page says which version it shows (its own answers bring theirs): only news is fetched, and a
      // change between this page and its stream is not missed. A page without one fetches on each message.
      const shown = document.querySelector("[data-events]");
      if (shown && shown.dataset.version === message.data) return;
      refresh();
    };
    source.onerror = () => {
      // Refused for good (the server follows too many pages): follow it on a slow timer instead.
      if (source.readyState === EventSource.CLOSED) setInterval(refresh, 15000);
    };
  }

  document.addEventListener("input", (event) => {
    const form = event.target.form;
    if (form && form.method !== "get") form.dataset.liveDirty = "1";
  });
  document.addEventListener("change", (event) => {
    const form = event.target.form;
    if (form && form.method !== "get") form.dataset.liveDirty = "1";
  });
  document.addEventListener("focusout", whenFree);

  function showError(form, html) {
    const page = new DOMParser().parseFromString(html, "text/html");
    const said = page.querySelector("[role=alert]");
    let note = form.nextElementSibling;
    if (!note || !note.matches(".live-error")) {
      note = document.createElement("p");
      note.className = "live-error reason";
      note.setAttribute("role", "alert");
      form.after(note);
    }
    note.textContent = said ? said.textContent : "That did not work: try again.";
  }

  function send(form, submitter) {
    const method = (form.getAttribute("method") || "get").toUpperCase();
    const data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    let url = form.getAttribute("action") || location.pathname; // getAttribute: form.action may be a field named "action"
    const files = [...form.querySelectorAll("input[type=file]")].some((input) => input.files && input.files.length > 0);
    const body = method === "GET" ? null : files || form.enctype === "multipart/form-data" ? data : new URLSearchParams(data);
    if (method === "GET") url += "?" + new URLSearchParams(data);
    const region = form.closest("[data-live]");
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.setRequestHeader("accept", "text/html");
    form.dataset.liveBusy = "1";
    document.documentElement.dataset.liveBusy = "1";
    let bar = null;
    if (files) {
      bar = document.createElement("progress");
      bar.className = "upload";
      bar.max = 100;
      bar.value = 0;
      bar.setAttribute("aria-label", "sending the photo");
      form.append(bar);
      request.upload.onprogress = (event) => {
        if (event.lengthComputable) bar.value = Math.round((100 * event.loaded) / event.total);
      };
    }
    const done = () => {
      delete form.dataset.liveBusy;
      if (bar) bar.remove();
    };
    request.onload = () => {
      answers += 1;
      done();
      if (request.status >= 400) {
        delete document.documentElement.dataset.liveBusy;
        showError(form, request.responseText);
        whenFree();
        return;
      }
      delete form.dataset.liveDirty;
      const final = new URL(request.responseURL || url, location.href);
      if (final.pathname === location.pathname && apply(request.responseText, region)) {
        history.replaceState(null, "", final.pathname + final.search);
        delete document.documentElement.dataset.liveBusy;
        whenFree();
      } else if (method === "POST" && final.pathname === new URL(url, location.href).pathname) {
        document.open(); // an answer that is a page of its own (a question before replacing a sheet): shown as it is
        document.write(request.responseText);
        document.close();
      } else {
        location.assign(final.href); // another page: go there (the busy mark goes with this one)
      }
    };
    request.onerror = () => {
      done();
      delete document.documentElement.dataset.liveBusy;
      showError(form, "<p role=alert>The server cannot be reached: check the connection, then try again.</p>");
      whenFree();
    };
    request.send(body);
  }

  // Capture: before app.js's own handler, which steps aside for a form taken here.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (event.defaultPrevented || form.target || form.hasAttribute("data-live-skip")) return;
      if (form.dataset.liveBusy) {
        event.preventDefault(); // sent already: a second press would send it twice
        return;
      }
      event.preventDefault();
      send(form, event.submitter);
    },
    true,
  );
})();
