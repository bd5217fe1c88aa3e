// The CarFit reference app. The page decides nothing: it sends what the user did to the core
// (POST /api/<method>) and draws what the core answers. No framework, no network beyond this
// server.
"use strict";

// ---------------------------------------------------------------------------------------------
// Calls and messages
// ---------------------------------------------------------------------------------------------

/** Requests in flight; tests wait for 0. */
window.carfitPending = 0;

/** A non-zero status of the core: its error document, as the server forwarded it. */
class ApiError extends Error {
  constructor(status, error) {
    super(error && error.message ? error.message : "The server answered " + status + ".");
    this.status = status;
    this.error = error || {};
  }
}

/** Run a core operation: the result document, or an ApiError with the core's message. */
async function api(method, request) {
  window.carfitPending++;
  try {
    const response = await fetch("/api/" + method, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request || {}),
    });
    let document = null;
    try { document = await response.json(); } catch (e) { document = null; }
    if (!response.ok) throw new ApiError(response.status, document && document.error);
    return document;
  } finally {
    window.carfitPending--;
  }
}

/** Show the core's message for a failed call (or any other failure) above the screen. */
function showMessage(text, kind) {
  const box = document.getElementById("message");
  document.getElementById("message-text").textContent = text;
  box.className = "message " + (kind || "error");
  box.hidden = false;
}

function clearMessage() {
  document.getElementById("message").hidden = true;
}

/** Run an action; a failure shows its message instead of escaping as a script error. */
async function act(action) {
  try {
    return await action();
  } catch (error) {
    showMessage(error.message || String(error));
    return undefined;
  }
}

/** A button that shows a spinner while its action runs. */
async function busy(button, action) {
  button.classList.add("busy");
  button.setAttribute("aria-busy", "true");
  button.disabled = true;
  try {
    return await act(action);
  } finally {
    button.classList.remove("busy");
    button.removeAttribute("aria-busy");
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------------------------------
// Building the page
// ---------------------------------------------------------------------------------------------

/** An element with attributes (on* as listeners) and children (strings become text). */
function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "style" && typeof value === "object") Object.assign(element.style, value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

function s(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, value);
  for (const child of children) element.append(child instanceof Node ? child : String(child));
  return element;
}

function $(id) {
  return document.getElementById(id);
}

/** An image served through the core's image cache; on failure the element behind shows. */
function cachedImage(url, alt) {
  if (!url) return null;
  const image = h("img", { src: "/api/image?url=" + encodeURIComponent(url), alt: alt || "", loading: "lazy" });
  image.addEventListener("error", () => image.classList.add("failed"));
  return image;
}

/** Money as the core sent it: the number it wrote, with its two decimal places. */
function money(amount) {
  return Number(amount).toFixed(2);
}

// ---------------------------------------------------------------------------------------------
// What several screens share: the cards' state buttons, the sources' status (the offline banner)
// ---------------------------------------------------------------------------------------------

const hooks = {
  /** Extra controls and markers of a visit card (state buttons, pending changes). */
  cardActions(card, element) { washer.drawActions(card, element); proof.draw(card, element); },
  /** The banner over a screen whose data comes from a network source. */
  sourceBanner(screen, element) { sources.drawScreenBanner(screen, element); },
};

/** The state buttons of a card: the changes the core allows from the state the card shows. */
const STATE_BUTTONS = {
  Todo: [["InProgress", "Start"], ["Rejected", "Reject…"]],
  InProgress: [["Done", "Finish"], ["Todo", "Undo start"], ["Rejected", "Reject…"]],
};

/** The washer's changes: state buttons on the cards, and the sync of what they left pending. */
const washer = {
  drawActions(card, element) {
    if (card.pending) {
      element.querySelector('[data-hook="pending"]').append(
        h("span", { class: "pending", title: "Kept on this device; not yet sent to the server" }, "Not synced"));
    }
    if (card.state === "Done" && card.timeUsedMinutes !== null) {
      element.querySelector(".card-meta").append(
        h("span", { class: "time-used" }, "took " + card.timeUsedMinutes + " min"));
    }
    // The update server names visits by visitId: a card without one cannot change state.
    const buttons = card.visitId ? STATE_BUTTONS[card.state] || [] : [];
    const slot = element.querySelector('[data-hook="card-actions"]');
    for (const [state, label] of buttons) {
      slot.append(h("button", {
        type: "button", class: "button small" + (state === "Rejected" ? " ghost danger" : state === "Todo" ? " ghost" : ""),
        "data-state": state,
        onclick: (event) => state === "Rejected"
          ? this.askReason(card, slot)
          : busy(event.currentTarget, () => this.change(card, state)),
      }, label));
    }
  },

  /** Rejecting asks for a reason first (optional) in the card itself. */
  askReason(card, slot) {
    const buttons = [...slot.children];
    const reason = h("input", { class: "reject-reason", type: "text", maxlength: "1000", placeholder: "Reason (optional)" });
    const form = h("form", {
      class: "reject-form",
      onsubmit: (event) => {
        event.preventDefault();
        busy(event.target.querySelector("button[type=submit]"),
          () => this.change(card, "Rejected", reason.value.trim() || undefined));
      },
    }, reason,
    h("button", { type: "submit", class: "button small danger" }, "Reject visit"),
    h("button", { type: "button", class: "button small ghost", onclick: () => slot.replaceChildren(...buttons) }, "Cancel"));
    slot.replaceChildren(form);
    reason.focus();
  },

  /** Ask the core for the change; a refusal (a click that raced another change) shows its
   *  message. Either way the day is drawn again from what the core now says. */
  async change(card, state, reason) {
    try {
      await api("visits.set_state", { key: card.key, state, reason });
    } finally {
      await Promise.all([day.showVisits(), this.showStatus()]);
    }
  },

  async push(button) {
    return busy(button, async () => {
      try {
        const result = await api("sync.push");
        const uploads = result.attachments;
        showMessage("Sent: " + result.pushed + " applied, " + result.rejected + " refused by the server, " +
          result.pending + " waiting." + (uploads && uploads.uploaded + uploads.failed + uploads.pending
            ? " Attachments: " + uploads.uploaded + " uploaded, " +
          uploads.failed + " refused, " + uploads.pending + " waiting." : ""),
          result.rejected || (uploads && uploads.failed) ? "error" : "info");
      } finally {
        await Promise.all([day.showVisits(), this.showStatus(), auth.update()]);
      }
    });
  },

  /** Where the washer's changes are (sync.status): waiting, the last failure, the next try. */
  async showStatus() {
    const status = await api("sync.status");
    const parts = [];
    parts.push(status.pending === 0 ? (status.lastSuccessAt ? "All changes sent" : "No changes to send")
      : status.pending + (status.pending === 1 ? " change" : " changes") + " waiting to be sent");
    if (status.lastError) {
      // A refusal of the planner's (401/403) is no failure in a row: it waits for a sign-in.
      parts.push("last try failed" + (status.consecutiveFailures ? " (" + status.consecutiveFailures + " in a row)" : "") +
        ": " + status.lastError.message);
      if (status.nextAttemptAt) {
        const when = await api("articles.format_date", { date: status.nextAttemptAt });
        parts.push("next automatic try " + when.text);
      }
    }
    if (status.rejected.length) {
      const last = status.rejected[status.rejected.length - 1];
      parts.push(status.rejected.length + " refused by the server (last: " + last.reason + ")");
    }
    const line = $("sync-status");
    line.textContent = parts.join(" · ");
    line.dataset.pending = String(status.pending);
    line.classList.toggle("failed", !!status.lastError);
    return status;
  },
};

/** Proof of work on a card: a photo (file input), a signature drawn on a canvas, a note; the
 *  core keeps each (visits.attach through POST /attach) and uploads it with the next push.
 *  Thumbnails come from the core's own copies; "not uploaded" marks what waits. */
const proof = {
  draw(card, element) {
    const counts = card.attachments;
    const box = h("div", { class: "proof", "data-hook": "proof" });
    const photo = h("input", { type: "file", accept: "image/*", class: "proof-file",
      onchange: (event) => {
        const file = event.target.files[0];
        if (file) act(() => this.attach(card, "photo", file));
      } });
    box.append(h("div", { class: "proof-controls" },
      h("label", { class: "button small ghost" }, "Photo…", photo),
      h("button", { type: "button", class: "button small ghost", onclick: () => this.signaturePad(card, box) }, "Signature…"),
      h("button", { type: "button", class: "button small ghost", onclick: () => this.noteForm(card, box) }, "Note…")));
    const total = counts.photos + counts.signatures + counts.notes;
    if (total) {
      box.append(h("div", { class: "proof-counts", "data-pending": String(counts.pending) },
        counts.photos + " photo" + (counts.photos === 1 ? "" : "s") + " · " + counts.signatures + " signature" +
        (counts.signatures === 1 ? "" : "s") + " · " + counts.notes + " note" + (counts.notes === 1 ? "" : "s"),
        counts.pending ? h("span", { class: "pending", title: "Kept on this device; not yet uploaded" },
          counts.pending + " not uploaded") : null));
      const strip = h("div", { class: "proof-thumbs" });
      box.append(strip);
      act(() => this.thumbnails(card, strip));
    }
    element.append(box);
  },

  /** The visit's attachments as thumbnails (photos, signatures) and note chips. */
  async thumbnails(card, strip) {
    const list = await api("visits.attachments", { key: card.key });
    strip.replaceChildren(...list.attachments.map((a) => {
      const title = a.kind + " · " + a.bytes + " bytes" + (a.uploaded ? " · uploaded" : a.failed ? " · refused: " + a.failed : " · not uploaded");
      const classes = "thumb" + (a.uploaded ? "" : " waiting") + (a.failed ? " failed" : "");
      if (a.path === null) return h("span", { class: classes + " evicted", title, "data-attachment": a.id }, "uploaded");
      if (a.kind === "note") return h("span", { class: classes + " note", title, "data-attachment": a.id }, "📝");
      return h("img", { class: classes, title, alt: a.kind, "data-attachment": a.id,
        src: "/attachment/" + encodeURIComponent(a.id) + "?key=" + encodeURIComponent(card.key) });
    }));
  },

  /** Sends the bytes to the app, which hands them to the core as a file; redraws the day. */
  async attach(card, kind, body) {
    window.carfitPending++;
    try {
      const response = await fetch("/attach?key=" + encodeURIComponent(card.key) + "&kind=" + kind, { method: "POST", body });
      let document = null;
      try { document = await response.json(); } catch (e) { document = null; }
      if (!response.ok) throw new ApiError(response.status, document && document.error);
      return document;
    } finally {
      window.carfitPending--;
      await day.showVisits();
    }
  },

  noteForm(card, box) {
    const text = h("textarea", { class: "proof-note", maxlength: "10000", rows: "2", placeholder: "A note for the next washer" });
    const form = h("form", { class: "proof-form",
      onsubmit: (event) => {
        event.preventDefault();
        busy(event.target.querySelector("button[type=submit]"),
          () => this.attach(card, "note", new Blob([text.value], { type: "text/plain" })));
      } }, text, h("button", { type: "submit", class: "button small" }, "Save note"));
    box.append(form);
    text.focus();
  },

  /** A canvas the client signs on with a finger or the mouse; saved as PNG. */
  signaturePad(card, box) {
    const canvas = h("canvas", { class: "signature-pad", width: "280", height: "110" });
    const context = canvas.getContext("2d");
    context.lineWidth = 2;
    context.lineCap = "round";
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    let drawing = false, drawn = false;
    const at = (event) => {
      const rect = canvas.getBoundingClientRect();
      return [(event.clientX - rect.left) * canvas.width / rect.width, (event.clientY - rect.top) * canvas.height / rect.height];
    };
    canvas.addEventListener("pointerdown", (event) => { drawing = true; context.beginPath(); context.moveTo(...at(event)); });
    canvas.addEventListener("pointermove", (event) => {
      if (!drawing) return;
      context.lineTo(...at(event));
      context.stroke();
      drawn = true;
    });
    for (const end of ["pointerup", "pointerleave"]) canvas.addEventListener(end, () => { drawing = false; });
    const save = h("button", { type: "button", class: "button small",
      onclick: (event) => {
        if (!drawn) { showMessage("Sign on the pad first.", "info"); return; }
        busy(event.currentTarget, () => new Promise((resolve, reject) => canvas.toBlob((blob) =>
          this.attach(card, "signature", blob).then(resolve, reject), "image/png")));
      } }, "Save signature");
    box.append(h("div", { class: "proof-form" }, canvas, save));
  },
};

/** The sources' refresh state: the "no connection" banner on every screen, and what the last
 *  failed refresh of a screen's own source said. */
const sources = {
  status: null,
  /** The source behind each screen that has one. */
  ofScreen: { day: "visits", news: "articles", wine: "catalog", carousel: "patterns" },

  /** Read sources.status and draw the banners; called on every screen and after every refresh. */
  async update() {
    this.status = await api("sources.status");
    const banner = $("offline-banner");
    banner.hidden = !this.status.offline;
    // The latest failure's message; at the same instant, that of this screen's own source.
    const screen = document.body.dataset.screen;
    const failures = Object.entries(this.status.sources).filter(([, source]) => source.lastError)
      .sort(([nameA, a], [nameB, b]) => Date.parse(b.lastError.at) - Date.parse(a.lastError.at) ||
        (nameB === this.ofScreen[screen]) - (nameA === this.ofScreen[screen]))
      .map(([, source]) => source.lastError);
    $("offline-detail").textContent = this.status.offline && failures.length ? failures[0].message : "";
    const element = $(screen + "-banner");
    if (element) this.drawScreenBanner(screen, element);
    return this.status;
  },

  drawScreenBanner(screen, element) {
    const source = this.status && this.status.sources[this.ofScreen[screen]];
    const error = source && source.lastError;
    element.hidden = !error;
    element.textContent = error ? "The last refresh failed: " + error.message + " Showing what is stored." : "";
  },
};

/** Run a refresh of a source with the spinner on its button; the banners follow its outcome. */
function refreshing(button, action) {
  return busy(button, async () => {
    try {
      await action();
    } finally {
      await Promise.all([sources.update(), auth.update()]);
    }
  });
}

/** The planner's token: the footer's sign-in form hands it to the core (auth.set), and the
 *  "Sign in" banner shows while the core says a source refused it (auth.status required). */
const auth = {
  init() {
    $("auth-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const token = $("auth-token").value.trim();
      busy($("auth-save"), () => this.set(token));
    });
    $("auth-clear").addEventListener("click", (event) => busy(event.currentTarget, () => this.set(null)));
    $("auth-go").addEventListener("click", () => $("auth-token").focus());
  },

  /** Hand the token to the core (null signs out); with a token, the changes waiting go at once. */
  async set(token) {
    try {
      await api("auth.set", { token });
      $("auth-token").value = "";
      if (token === null) {
        showMessage("Signed out of the planner.", "info");
      } else {
        const result = await api("sync.push", { ifDue: true });
        showMessage("Signed in." + (result.pushed ? " Sent: " + result.pushed + " applied." : ""), "info");
      }
    } finally {
      await Promise.all([this.update(), washer.showStatus(), day.showVisits()]);
    }
  },

  /** Read auth.status and draw the banner and the footer's state. */
  async update() {
    const status = (await api("auth.status")).auth;
    $("auth-banner").hidden = !status.required;
    const when = status.required ? " (" + status.source + " refused the last request)" : "";
    $("auth-detail").textContent = status.required ? "The planner wants a valid token" + when + "." : "";
    $("auth-state").textContent = status.token ? "Signed in (" + status.scheme + ")" : "Not signed in";
    $("auth-state").dataset.token = String(status.token);
    return status;
  },
};

/** The demo server's switch: whether its sample sources answer (not the core's business). */
const network = {
  async init() {
    const box = $("sample-offline");
    box.addEventListener("change", () => act(async () => {
      const state = await this.send("POST", { offline: box.checked });
      box.checked = state.offline;
    }));
    await act(async () => { box.checked = (await this.send("GET")).offline; });
  },

  async send(method, body) {
    window.carfitPending++;
    try {
      const response = await fetch("/sample/network", { method, body: body ? JSON.stringify(body) : undefined });
      const document = await response.json();
      if (!response.ok) throw new ApiError(response.status, document && document.error);
      return document;
    } finally {
      window.carfitPending--;
    }
  },
};

// ---------------------------------------------------------------------------------------------
// The washer's day
// ---------------------------------------------------------------------------------------------

const day = {
  calendar: null,

  init() {
    $("month-previous").addEventListener("click", () => act(() => this.moveMonth("calendar.previous")));
    $("month-next").addEventListener("click", () => act(() => this.moveMonth("calendar.next")));
    $("calendar-toggle").addEventListener("click", () => {
      const panel = $("calendar-panel");
      const open = !panel.classList.contains("open");
      panel.classList.toggle("open", open);
      $("day-layout").classList.toggle("calendar-closed", !open);
      $("calendar-toggle").setAttribute("aria-expanded", String(open));
    });
    $("visits-refresh").addEventListener("click", (event) =>
      refreshing(event.currentTarget, async () => {
        const result = await api("visits.refresh");
        await this.show();
        showMessage(result.notModified || result.fresh ? "Refreshed: the visits have not changed."
          : "Refreshed: " + result.imported + " visits imported, " + result.rejected.length + " rejected.", "info");
      }));
    $("sync-push").addEventListener("click", (event) => washer.push(event.currentTarget));
    $("drive-simulate").addEventListener("click", (event) => busy(event.currentTarget, () => road.simulate()));
  },

  async show() {
    this.calendar = await api("calendar.get");
    this.drawCalendar();
    await Promise.all([this.showVisits(), washer.showStatus()]);
  },

  async moveMonth(method) {
    this.calendar = await api(method);
    this.drawCalendar();
  },

  async select(date, toggle) {
    this.calendar = await api("calendar.select", { date, mode: toggle ? "toggle" : "single" });
    this.drawCalendar();
    await this.showVisits();
  },

  drawCalendar() {
    const calendar = this.calendar;
    $("month-title").textContent = calendar.title;
    $("month-previous").disabled = !calendar.previous;
    $("month-next").disabled = !calendar.next;
    const grid = $("calendar-grid");
    grid.replaceChildren(...calendar.weekdays.map((name) => h("div", { class: "weekday" }, name)));
    for (let i = 0; i < calendar.leadingDays; i++) grid.append(h("div", { class: "blank" }));
    for (const d of calendar.days) {
      const classes = ["day"];
      if (d.isToday) classes.push("today");
      if (d.isSelected) classes.push("selected");
      grid.append(h("button", {
        type: "button", class: classes.join(" "), "data-date": d.date,
        "aria-pressed": String(d.isSelected), title: d.weekday + " " + d.date,
        onclick: (event) => act(() => this.select(d.date, $("multi-select").checked || event.ctrlKey || event.metaKey)),
      }, h("span", { class: "num" }, d.day), h("span", { class: "dots" }, d.visits > 0 ? h("i", {}, d.visits) : null)));
    }
  },

  async showVisits() {
    const list = await api("visits.list", {});
    const selected = this.calendar.selected;
    $("day-title").textContent = selected.length === 1 && selected[0] === this.calendar.today
      ? "Today" : selected.length === 1 ? selected[0] : selected.length + " days";
    const total = list.summary;
    $("day-summary").textContent = total.visits + " visits · " + total.taskMinutes + " min of work · " +
      (total.distanceKm === null ? "–" : total.distanceKm) + " km";
    const [plans, location] = await Promise.all([
      Promise.all(list.days.map((d) => api("visits.plan", { date: d.date }))),
      api("location.status")]);
    road.position = location.position;
    $("day-list").replaceChildren(...list.days.map((d, i) => this.drawDay(d, plans[i])));
  },

  drawDay(d, plan) {
    const summary = d.summary;
    return h("article", { class: "day-block", "data-date": d.date },
      h("header", { class: "day-head" },
        h("h2", {}, d.date),
        h("span", { class: "sub" }, summary.visits + " visits · " + summary.taskMinutes + " min · " +
          (summary.distanceKm === null ? "–" : summary.distanceKm) + " km")),
      h("div", { class: "day-body" },
        h("div", { class: "cards" }, d.visits.length
          ? d.visits.map((card) => this.drawCard(card))
          : h("p", { class: "empty" }, "No visits on this day.")),
        this.drawPlan(plan)));
  },

  drawCard(card) {
    const element = h("div", { class: "card", "data-visit": card.visitId, "data-key": card.key, "data-state": card.state, style: { borderLeftColor: card.stateColor } },
      h("div", { class: "card-top" },
        h("span", { class: "state", style: { background: card.stateColor } }, card.state === null ? "No state" : card.state),
        h("span", { class: "time" }, card.startTime),
        h("span", { class: "pending-slot", "data-hook": "pending" })),
      h("h3", {}, card.name || "Unnamed visit"),
      card.address ? h("p", { class: "address" }, card.address) : null,
      card.tasks ? h("p", { class: "tasks" }, card.tasks) : null,
      h("div", { class: "card-meta" },
        h("span", { class: "minutes" }, card.taskMinutes + " min"),
        card.distanceKm === null ? null : h("span", { class: "distance" }, card.distanceKm + " km from the last visit"),
        card.expectedTime ? h("span", {}, "expected " + card.expectedTime) : null),
      road.drawCard(card),
      h("div", { class: "card-actions", "data-hook": "card-actions" }));
    hooks.cardActions(card, element);
    return element;
  },

  /** The plan as a route: stops placed by their coordinates, numbered in the planned order. */
  drawPlan(plan) {
    const box = h("div", { class: "plan", "data-plan": plan.date });
    box.append(h("h3", {}, "Route"));
    if (!plan.stops.length) {
      box.append(h("p", { class: "empty" }, "No open visits to drive to."));
    } else {
      const width = 320, height = 220, pad = 28;
      // The washer's position (reported today) is drawn on the route and kept in the frame.
      const here = road.positionOn(plan.date);
      const lats = plan.stops.map((stop) => stop.latitude), lons = plan.stops.map((stop) => stop.longitude);
      if (here) { lats.push(here.latitude); lons.push(here.longitude); }
      const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
      const squeeze = Math.cos((midLat * Math.PI) / 180);
      const xs = lons.map((lon) => lon * squeeze), ys = lats.map((lat) => -lat);
      const spanX = Math.max(...xs) - Math.min(...xs), spanY = Math.max(...ys) - Math.min(...ys);
      const scale = Math.min((width - 2 * pad) / (spanX || 1), (height - 2 * pad) / (spanY || 1));
      const x0 = Math.min(...xs), y0 = Math.min(...ys);
      const px = (i) => pad + (xs[i] - x0) * scale + (width - 2 * pad - spanX * scale) / 2;
      const py = (i) => pad + (ys[i] - y0) * scale + (height - 2 * pad - spanY * scale) / 2;
      const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "route", role: "img",
        "aria-label": "Route of " + plan.stops.length + " stops" });
      svg.append(s("polyline", { class: "route-line",
        points: plan.stops.map((_, i) => px(i).toFixed(1) + "," + py(i).toFixed(1)).join(" ") }));
      plan.stops.forEach((stop, i) => {
        const stateColor = stop.lateMinutes > 0 ? "late" : "";
        svg.append(s("g", { class: "stop " + stateColor, "data-visit": stop.visitId },
          s("circle", { cx: px(i), cy: py(i), r: 11 }),
          s("text", { x: px(i), y: py(i) + 4, "text-anchor": "middle" }, String(i + 1)),
          s("title", {}, stop.name + " " + stop.arrival + "–" + stop.departure)));
      });
      if (here) {
        const i = lats.length - 1;
        svg.append(s("line", { class: "route-line from-position", x1: px(i), y1: py(i), x2: px(0), y2: py(0) }));
        svg.append(s("g", { class: "position", "data-hook": "position" },
          s("circle", { cx: px(i), cy: py(i), r: 7 }),
          s("title", {}, "You are here (" + here.at + ", ±" + here.accuracyMeters + " m)")));
      }
      box.append(svg);
      box.append(h("ol", { class: "stops" }, plan.stops.map((stop) =>
        h("li", {}, h("strong", {}, stop.arrival + "–" + stop.departure), " ", stop.name || "",
          stop.waitMinutes ? h("span", { class: "sub" }, " waits " + stop.waitMinutes + " min") : null,
          stop.lateMinutes ? h("span", { class: "late-text" }, " " + stop.lateMinutes + " min late") : null))));
      box.append(h("p", { class: "sub" }, "Drive " + plan.distanceMeters + " m" +
        (plan.savedMeters ? " (" + plan.savedMeters + " m less than by start time)" : "") +
        " · " + plan.lateStops + " late"));
    }
    if (plan.skipped.length) {
      box.append(h("p", { class: "skipped" }, "Not on the route: " +
        plan.skipped.map((skip) => (skip.name || skip.visitId) + " (" + skip.reason + ")").join(", ")));
    }
    return box;
  },
};

// ---------------------------------------------------------------------------------------------
// The washer on the road: position, arrival suggestions, navigation links, a simulated drive
// ---------------------------------------------------------------------------------------------

const road = {
  /** The last reported position (location.status), or null. */
  position: null,

  /** The position when it was reported on `date` (UTC day of its instant), else null. */
  positionOn(date) {
    return this.position && this.position.at.slice(0, 10) === date ? this.position : null;
  },

  /** What a card says of the road: the arrival, the suggestion and the navigation links. */
  drawCard(card) {
    const parts = [];
    if (card.arrivedAt) {
      const text = "Arrived " + card.arrivedAt.slice(11, 16) + (card.departedAt ? ", left " + card.departedAt.slice(11, 16) : "");
      const hint = card.suggestion === "start" ? " — start this visit?" : card.suggestion === "finish" ? " — finish this visit?" : "";
      parts.push(h("p", { class: "suggestion", "data-suggestion": card.suggestion || "" }, text + hint));
    }
    if (card.navigation) {
      parts.push(h("p", { class: "navigation" }, "Navigate: ",
        h("a", { href: card.navigation.geo, "data-link": "geo" }, "Maps app"), " · ",
        h("a", { href: card.navigation.google, target: "_blank", rel: "noopener", "data-link": "google" }, "Google Maps"), " · ",
        h("a", { href: card.navigation.apple, target: "_blank", rel: "noopener", "data-link": "apple" }, "Apple Maps")));
    }
    return parts.length ? h("div", { class: "road", "data-hook": "road" }, ...parts) : null;
  },

  /** Reports the recorded drive's positions after the last one reported, then shows the day. */
  async simulate() {
    const [drive, status] = await Promise.all([
      fetch("/sample/drive.json").then((response) => response.json()), api("location.status")]);
    const after = status.position ? status.position.at : "";
    const points = drive.points.filter((point) => point.at > after);
    let arrivals = 0, departures = 0;
    for (const point of points) {
      const answer = await api("location.report", point);
      arrivals += answer.arrived.length;
      departures += answer.departed.length;
    }
    await day.show();
    showMessage(points.length
      ? "Drove " + points.length + " positions: " + arrivals + " arrivals, " + departures + " departures."
      : "The recorded drive has been driven already.", "info");
  },
};

// ---------------------------------------------------------------------------------------------
// News
// ---------------------------------------------------------------------------------------------

const news = {
  init() {
    $("articles-refresh").addEventListener("click", (event) =>
      refreshing(event.currentTarget, async () => {
        const result = await api("articles.refresh");
        await this.show();
        showMessage(result.notModified || result.fresh ? "Refreshed: the news has not changed."
          : "Refreshed: " + result.imported + " articles.", "info");
      }));
  },

  async show() {
    const feed = await api("articles.list");
    hooks.sourceBanner("news", $("news-banner"));
    if (feed.updatedAt) {
      const when = await api("articles.format_date", { date: feed.updatedAt });
      $("news-updated").textContent = "Updated " + when.text;
    } else {
      $("news-updated").textContent = "Never updated";
    }
    $("news-list").replaceChildren(...feed.articles.map((article) => this.drawArticle(article)));
    if (!feed.articles.length) $("news-list").append(h("p", { class: "empty" }, "No articles yet."));
  },

  drawArticle(article) {
    const body = h("div", { class: "article-body", hidden: true },
      article.content.map((block) => h("div", { class: "block" },
        block.subject ? h("h4", {}, block.subject) : null,
        block.description ? h("p", {}, block.description) : null)));
    const element = h("article", { class: "article", "data-article": String(article.id) },
      h("div", { class: "article-art" }, cachedImage(article.imageUrl, article.title)),
      h("div", { class: "article-text" },
        h("p", { class: "published" }, article.published),
        h("h2", {}, article.title),
        article.ingress ? h("p", { class: "ingress" }, article.ingress) : null,
        article.tags.length ? h("p", { class: "tags" }, article.tags.map((tag) => h("span", {}, String(tag)))) : null,
        body));
    element.addEventListener("click", () => { body.hidden = !body.hidden; element.classList.toggle("open", !body.hidden); });
    return element;
  },
};

// ---------------------------------------------------------------------------------------------
// Transactions and insights
// ---------------------------------------------------------------------------------------------

const moneyScreen = {
  category: "all",

  async show() {
    const [list, insights] = await Promise.all([
      api("transactions.list", { category: this.category }),
      api("insights.get"),
    ]);
    this.category = list.category;
    $("chips").replaceChildren(...list.categories.map((category) => h("button", {
      type: "button", class: "chip" + (category === list.category ? " active" : ""), "data-category": category,
      "aria-pressed": String(category === list.category),
      onclick: () => act(() => { this.category = category; return this.show(); }),
    }, category)));
    $("money-count").textContent = list.count + " transactions";
    $("transactions").replaceChildren(...list.transactions.map((t) => h("li", {
      class: "transaction" + (t.pinned ? " pinned" : ""), "data-id": String(t.id) },
      h("div", { class: "t-main" },
        h("strong", {}, t.name || "Unnamed"),
        h("span", { class: "sub" }, [t.provider, t.accountName, t.date].filter(Boolean).join(" · "))),
      h("span", { class: "t-category" }, t.category),
      h("span", { class: "amount" }, money(t.amount)),
      h("button", {
        type: "button", class: "pin", "aria-pressed": String(t.pinned), title: t.pinned ? "Unpin" : "Pin",
        onclick: () => act(async () => { await api("transactions.pin", { id: t.id, pinned: !t.pinned }); await this.show(); }),
      }, t.pinned ? "Pinned" : "Pin"))));
    if (!list.transactions.length) $("transactions").append(h("li", { class: "empty" }, "Nothing in this category."));
    $("pinned-sum-value").textContent = money(list.sum);
    $("pinned-count").textContent = list.pinnedCount + " pinned";
    this.drawInsights(insights);
  },

  drawInsights(insights) {
    $("insights-total").textContent = money(insights.total) + " over " + insights.count + " pinned";
    $("insights-chart").replaceChildren(...insights.categories.map((row) => h("div", { class: "bar-row", "data-category": row.category },
      h("span", { class: "bar-label" }, row.category),
      h("span", { class: "bar-track" }, h("span", { class: "bar", style: { width: Math.max(0, Math.min(1, row.share)) * 100 + "%" } })),
      h("span", { class: "bar-value" }, money(row.total) + " · " + Math.round(row.share * 1000) / 10 + "%"))));
  },
};

// ---------------------------------------------------------------------------------------------
// The wine club
// ---------------------------------------------------------------------------------------------

const wine = {
  view: "catalog",
  category: "",
  sort: "name",
  employee: null,
  order: null,

  init() {
    for (const button of document.querySelectorAll("[data-wine]")) {
      button.addEventListener("click", () => act(() => this.go(button.dataset.wine)));
    }
    $("logout").addEventListener("click", () => act(async () => {
      await api("session.logout");
      this.view = "catalog";
      await this.show();
    }));
  },

  go(view) {
    clearMessage();
    this.view = view;
    return this.show();
  },

  async show() {
    const session = await api("session.get");
    this.employee = session.employee;
    $("wine-nav").hidden = !this.employee;
    $("wine-who").textContent = this.employee
      ? "Logged in as " + this.employee.firstName + " " + this.employee.lastName : "Log in with your PIN";
    const body = $("wine-body");
    if (!this.employee && !["new", "forgot", "employees"].includes(this.view)) this.view = "login";
    if (this.employee) {
      const cart = await api("cart.get");
      $("cart-badge").textContent = cart.cart.totalQuantity;
    }
    for (const button of document.querySelectorAll("[data-wine]")) {
      button.classList.toggle("active", button.dataset.wine === this.view.split(":")[0]);
    }
    const [view, argument] = this.view.split(":");
    const draw = {
      login: () => this.drawLogin(),
      new: () => this.drawNew(),
      forgot: () => this.drawForgot(),
      catalog: () => this.drawCatalog(),
      product: () => this.drawProduct(argument),
      cart: () => this.drawCart(),
      thanks: () => this.drawThanks(),
      orders: () => this.drawOrders(),
      employees: () => this.drawEmployees(),
    }[view];
    body.replaceChildren(await draw());
  },

  form(id, fields, submit, onsubmit) {
    return h("form", {
      id, class: "form panel", onsubmit: (event) => { event.preventDefault(); act(() => onsubmit(new FormData(event.target))); },
    }, fields, h("button", { type: "submit", class: "button" }, submit));
  },

  field(label, name, attributes) {
    return h("label", { class: "field" }, h("span", {}, label), h("input", Object.assign({ name }, attributes || {})));
  },

  drawLogin() {
    return h("div", { class: "narrow" },
      this.form("login-form", [this.field("PIN", "pin", { inputmode: "numeric", autocomplete: "off", id: "pin" })], "Log in",
        async (data) => {
          await api("session.login", { pin: data.get("pin") });
          clearMessage();
          this.view = "catalog";
          await this.show();
        }),
      h("p", { class: "links" },
        h("a", { href: "#wine", id: "to-new", onclick: (e) => { e.preventDefault(); act(() => this.go("new")); } }, "New employee"),
        " · ",
        h("a", { href: "#wine", id: "to-forgot", onclick: (e) => { e.preventDefault(); act(() => this.go("forgot")); } }, "Forgot PIN"),
        " · ",
        h("a", { href: "#wine", id: "to-employees", onclick: (e) => { e.preventDefault(); act(() => this.go("employees")); } }, "Employees")));
  },

  drawNew() {
    return h("div", { class: "narrow" },
      this.form("new-form", [
        this.field("First name", "firstName"),
        this.field("Last name", "lastName"),
        this.field("Email (optional)", "email", { type: "email" }),
        this.field("PIN (4 to 12 digits)", "pin", { inputmode: "numeric", autocomplete: "off" }),
      ], "Create employee", async (data) => {
        const request = { firstName: data.get("firstName"), lastName: data.get("lastName"), pin: data.get("pin") };
        if (data.get("email")) request.email = data.get("email");
        const created = await api("employees.create", request);
        this.view = "login";
        await this.show();
        showMessage("Welcome, " + created.employee.firstName + ". Log in with your PIN.", "info");
      }),
      h("p", { class: "links" }, h("a", { href: "#wine", onclick: (e) => { e.preventDefault(); act(() => this.go("login")); } }, "Back to log in")));
  },

  drawForgot() {
    const answer = h("p", { id: "recovered", class: "recovered" });
    return h("div", { class: "narrow" },
      this.form("forgot-form", [this.field("Email", "email", { type: "email" })], "Find my PIN", async (data) => {
        const found = await api("employees.recover_pin", { email: data.get("email") });
        clearMessage();
        answer.textContent = found.firstName + " " + found.lastName + ", your PIN is " + found.pin + ".";
      }),
      answer,
      h("p", { class: "links" }, h("a", { href: "#wine", onclick: (e) => { e.preventDefault(); act(() => this.go("login")); } }, "Back to log in")));
  },

  async drawCatalog() {
    const catalog = await api("catalog.list", { category: this.category || null, sort: this.sort });
    const category = h("select", { id: "category", onchange: (e) => act(() => { this.category = e.target.value; return this.show(); }) },
      h("option", { value: "" }, "All wines"),
      catalog.categories.map((name) => h("option", { value: name, selected: name === this.category }, name)));
    const sort = h("select", { id: "sort", onchange: (e) => act(() => { this.sort = e.target.value; return this.show(); }) },
      [["name", "Name A–Z"], ["-name", "Name Z–A"], ["none", "As imported"]].map(([value, label]) =>
        h("option", { value, selected: value === this.sort }, label)));
    const refresh = h("button", {
      type: "button", id: "catalog-refresh", class: "button ghost",
      onclick: (event) => refreshing(event.currentTarget, async () => {
        const result = await api("catalog.refresh");
        await this.show();
        showMessage(result.notModified || result.fresh ? "The catalog has not changed."
          : "Catalog refreshed: " + result.imported + " wines, " + result.rejected.length + " rejected.", "info");
      }),
    }, h("span", { class: "spinner", "aria-hidden": "true" }), h("span", { class: "label" }, "Refresh catalog"));
    return h("div", {},
      h("div", { class: "filters" }, h("label", {}, "Category ", category), h("label", {}, "Sort ", sort), refresh),
      h("div", { class: "products" }, catalog.products.map((product) => h("button", {
        type: "button", class: "product", "data-product": String(product.id),
        onclick: () => act(() => this.go("product:" + product.id)),
      }, h("div", { class: "label-art" }, cachedImage(product.imageUrl, product.name)),
        h("strong", {}, product.name), h("span", { class: "sub" }, product.category || ""),
        h("span", { class: "price" }, money(product.price))))),
      catalog.products.length ? null : h("p", { class: "empty" }, "No wines in this category."));
  },

  async drawProduct(id) {
    const { product } = await api("catalog.product", { id });
    const quantity = h("input", { id: "quantity", type: "number", min: "1", value: "1" });
    return h("div", { class: "detail panel", "data-product": String(product.id) },
      h("div", { class: "label-art big" }, cachedImage(product.imageUrl, product.name)),
      h("div", {},
        h("p", { class: "sub" }, product.category || ""),
        h("h2", {}, product.name),
        h("p", { class: "price" }, money(product.price)),
        h("p", { class: product.hasDescription ? "description" : "description sub" }, product.description),
        h("div", { class: "buy" }, quantity, h("button", {
          type: "button", class: "button", id: "add-to-cart",
          onclick: () => act(async () => {
            const answer = await api("cart.add", { productId: product.id, quantity: Number(quantity.value) });
            $("cart-badge").textContent = answer.cart.totalQuantity;
            showMessage(product.name + " is in your cart.", "info");
          }),
        }, "Add to cart")),
        h("p", {}, h("a", { href: "#wine", onclick: (e) => { e.preventDefault(); act(() => this.go("catalog")); } }, "Back to the catalog"))));
  },

  async drawCart() {
    const { cart } = await api("cart.get");
    const change = (method, request) => act(async () => { await api(method, request); await this.show(); });
    return h("div", { class: "panel cart" },
      h("h2", {}, "Cart"),
      cart.lines.length ? h("ul", { class: "lines" }, cart.lines.map((line) => h("li", { "data-product": String(line.productId) },
        h("div", { class: "label-art small" }, cachedImage(line.imageUrl, line.name)),
        h("span", { class: "line-name" }, line.name),
        h("span", { class: "stepper" },
          h("button", { type: "button", class: "icon-button", "aria-label": "One less",
            onclick: () => line.quantity > 1 ? change("cart.update", { productId: line.productId, quantity: line.quantity - 1 })
              : change("cart.remove", { productId: line.productId }) }, "−"),
          h("span", { class: "quantity" }, line.quantity),
          h("button", { type: "button", class: "icon-button", "aria-label": "One more",
            onclick: () => change("cart.update", { productId: line.productId, quantity: line.quantity + 1 }) }, "+")),
        h("button", { type: "button", class: "link", onclick: () => change("cart.remove", { productId: line.productId }) }, "Remove"))))
        : h("p", { class: "empty" }, "Your cart is empty."),
      h("p", {}, "Bottles: ", h("strong", { id: "cart-total" }, cart.totalQuantity)),
      h("button", {
        type: "button", class: "button", id: "checkout",
        onclick: () => act(async () => {
          this.order = await api("cart.checkout");
          await this.go("thanks");
        }),
      }, "Check out"));
  },

  drawThanks() {
    const answer = this.order;
    if (!answer) return this.drawCatalog();
    return h("div", { class: "panel thanks" },
      h("h2", { id: "thanks" }, answer.message),
      h("p", { class: "sub" }, "Order " + answer.order.id + " · " + answer.order.placedAt),
      h("ul", {}, answer.order.lines.map((line) => h("li", {}, line.quantity + " × " + line.name))),
      h("button", { type: "button", class: "button", onclick: () => act(() => this.go("catalog")) }, "Back to the catalog"));
  },

  async drawOrders() {
    const { orders } = await api("cart.orders");
    return h("div", { class: "panel" }, h("h2", {}, "Orders"),
      orders.length ? h("ul", { class: "orders" }, orders.map((order) => h("li", { "data-order": String(order.id) },
        h("strong", {}, "Order " + order.id), " · " + order.placedAt + " · " + order.totalQuantity + " bottles")))
        : h("p", { class: "empty" }, "No orders yet."));
  },

  async drawEmployees() {
    const { employees } = await api("employees.list");
    return h("div", { class: "panel" }, h("h2", {}, "Employees"),
      employees.length ? h("table", { class: "employees" },
        h("thead", {}, h("tr", {}, ["Name", "Email", "Hired", "In cart"].map((title) => h("th", {}, title)))),
        h("tbody", {}, employees.map((e) => h("tr", { "data-employee": String(e.id) },
          h("td", {}, e.firstName + " " + e.lastName), h("td", {}, e.email || "–"), h("td", {}, e.hiredOn),
          h("td", { class: "num" }, e.cartQuantity)))))
        : h("p", { class: "empty" }, "No employees yet."),
      this.employee ? null : h("p", { class: "links" }, h("a", { href: "#wine", onclick: (e) => { e.preventDefault(); act(() => this.go("login")); } }, "Back to log in")));
  },
};

// ---------------------------------------------------------------------------------------------
// Carousels
// ---------------------------------------------------------------------------------------------

const carousel = {
  seed: 0,
  rows: 6,
  columns: 10,

  init() {
    $("carousel-shuffle").addEventListener("click", () => act(() => { this.seed += 1; return this.show(); }));
    $("patterns-more").addEventListener("click", (event) =>
      refreshing(event.currentTarget, async () => {
        const result = await api("patterns.refresh", { count: 10 });
        await this.show();
        showMessage("More patterns: " + result.added + " added, " + result.pool + " in the pool" +
          (result.failed ? ", " + result.failed + " requests failed." : "."), "info");
      }));
    $("viewer-close").addEventListener("click", () => this.close());
    document.addEventListener("keydown", (event) => { if (event.key === "Escape") this.close(); });
  },

  async show() {
    const feed = await api("carousel.generate", { rows: this.rows, columns: this.columns, seed: this.seed });
    $("carousel-seed").textContent = "Seed " + this.seed;
    $("carousel-rows").replaceChildren(...feed.rows.map((row) => h("section", { class: "row", "data-row": String(row.index) },
      h("h2", {}, row.title),
      h("div", { class: "strip" }, row.tiles.map((tile) => h("button", {
        type: "button", class: "tile", "data-tile": tile.id, style: { background: tile.color },
        onclick: () => this.open(tile),
      }, cachedImage(tile.imageUrl, tile.title), h("span", { class: "tile-title" }, tile.title)))))));
  },

  open(tile) {
    $("viewer-art").replaceChildren(cachedImage(tile.imageUrl, tile.title) || "");
    $("viewer-art").style.background = tile.color;
    $("viewer-title").textContent = tile.title;
    $("viewer-detail").textContent = tile.color + (tile.imageUrl ? " · " + tile.imageUrl : "");
    $("tile-viewer").dataset.tile = tile.id;
    $("tile-viewer").hidden = false;
  },

  close() {
    $("tile-viewer").hidden = true;
  },
};

// ---------------------------------------------------------------------------------------------
// Screens
// ---------------------------------------------------------------------------------------------

const screens = { day, news, money: moneyScreen, wine, carousel };

async function route() {
  const name = (location.hash || "#day").slice(1);
  const screen = screens[name] ? name : "day";
  for (const key of Object.keys(screens)) $("screen-" + key).hidden = key !== screen;
  for (const link of document.querySelectorAll(".tabs a")) link.classList.toggle("active", link.dataset.screen === screen);
  clearMessage();
  document.body.dataset.screen = screen;
  await act(() => Promise.all([screens[screen].show(), sources.update(), auth.update()]));
}

document.querySelector(".message-close").addEventListener("click", clearMessage);
for (const screen of Object.values(screens)) if (screen.init) screen.init();
network.init();
auth.init();
window.addEventListener("hashchange", route);
route();
