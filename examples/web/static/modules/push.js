// The planner's changes, by push: "simulate a push" asks the sample planner to change the day
// and hands the push it sends to the core (push.receive); the panel shows the changes and the
// notifications the core made of it.

import { api, busy, showMessage } from "./calls.js";
import { day } from "./day.js";
import { $, h } from "./dom.js";

export const pushPanel = {
  init() {
    $("push-simulate").addEventListener("click", (event) => busy(event.currentTarget, () => this.simulate()));
  },

  /** The sample planner's push, received by the core; then the day as it is now. */
  async simulate() {
    const response = await fetch("/sample/push", { method: "POST" });
    if (!response.ok) throw new Error("The sample planner sent no push (HTTP " + response.status + ").");
    const push = await response.json();
    const answer = await api("push.receive", { payload: push.payload });
    this.draw(answer);
    await day.show();
    showMessage(answer.refreshError ? "Push received; its refresh failed: " + answer.refreshError.error.message
      : "Push received: " + answer.changes.length + " changes.", answer.refreshError ? "error" : "info");
  },

  /** The changes and notifications of one push. */
  draw(answer) {
    const panel = $("push-panel");
    panel.hidden = false;
    panel.replaceChildren(
      h("h2", {}, "The planner's changes"),
      answer.changes.length
        ? h("ul", { class: "push-changes" }, ...answer.changes.map((change) =>
          h("li", { "data-change": change.change, "data-key": change.key },
            change.change + ": " + change.name + " (" + change.startTimeUtc + ")" +
            (change.fields.length ? " — " + change.fields.join(", ") : ""))))
        : h("p", { class: "sub" }, answer.duplicate ? "This push was received already." : "Nothing changed."),
      h("ul", { class: "push-notifications" }, ...answer.notifications.map((note) =>
        h("li", { class: "notification", "data-id": note.id, "data-kind": note.kind },
          h("strong", {}, note.title), " ", note.body,
          note.navigation ? h("a", { href: note.navigation.google, target: "_blank", rel: "noopener", "data-link": "google" }, " Navigate") : ""))));
  },
};
