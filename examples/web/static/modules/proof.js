// Proof of work on a visit card: photos, signatures and notes kept by the core.

import { act, ApiError, api, busy, showMessage } from "./calls.js";
import { day } from "./day.js";
import { h } from "./dom.js";

/** Proof of work on a card: a photo (file input), a signature drawn on a canvas, a note; the
 *  core keeps each (visits.attach through POST /attach) and uploads it with the next push.
 *  Thumbnails come from the core's own copies; "not uploaded" marks what waits. */
export const proof = {
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
