// The washer's changes: the state buttons of the cards, the push and the sync status.

import { auth } from "./auth.js";
import { api, busy, showMessage } from "./calls.js";
import { day } from "./day.js";
import { $, h } from "./dom.js";

/** The label of the button that moves a card to a state, in the order the buttons are shown.
 *  Which buttons a card gets is the card's own "nextStates" (the changes the core accepts). */
const STATE_LABELS = [["InProgress", "Start"], ["Done", "Finish"], ["Todo", "Undo start"], ["Rejected", "Reject…"]];

/** The washer's changes: state buttons on the cards, and the sync of what they left pending. */
export const washer = {
  drawActions(card, element) {
    if (card.pending) {
      element.querySelector('[data-hook="pending"]').append(
        h("span", { class: "pending", title: "Kept on this device; not yet sent to the server" }, "Not synced"));
    }
    if (card.state === "Done" && card.timeUsedMinutes !== null) {
      element.querySelector(".card-meta").append(
        h("span", { class: "time-used" }, "took " + card.timeUsedMinutes + " min"));
    }
    const next = new Set(card.nextStates);
    const buttons = STATE_LABELS.filter(([state]) => next.has(state));
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
