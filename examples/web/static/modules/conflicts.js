// What the planner's changes did to the washer's work: a change the update server refused (the
// card's conflict, acknowledged by the washer) and a visit the planner cancelled while the
// washer's work on it is still on its way (the card's `removed`).

import { act, api, busy, showMessage } from "./calls.js";
import { $, h } from "./dom.js";
import { cardOffset, localTime } from "./reminders.js";

export const conflicts = {
  init() {
    $("refuse-next").addEventListener("click", (event) => busy(event.currentTarget, () => this.refuseNext()));
  },

  /** The sample planner refuses every change of the next sync (POST /sample/refuse-next). */
  async refuseNext() {
    const response = await fetch("/sample/refuse-next", { method: "POST" });
    if (!response.ok) throw new Error("The sample planner did not answer (HTTP " + response.status + ").");
    showMessage("The planner will refuse the changes of the next sync.", "info");
  },

  /** Marks a removed card, and adds the conflict with its "Acknowledge" button. */
  draw(card, element, redraw) {
    if (card.removed) {
      element.classList.add("removed");
      element.querySelector(".card-top").append(h("span", { class: "removed-label" }, "Cancelled by the planner"));
    }
    const conflict = card.conflict;
    if (!conflict) return;
    element.classList.add("has-conflict");
    element.append(h("div", { class: "conflict", "data-mutation": conflict.mutationId },
      h("strong", {}, "The planner refused your change"),
      h("p", {}, "You set " + conflict.state + (conflict.timeUsedMinutes === null ? "" : " (" + conflict.timeUsedMinutes + " min used)") +
        " at " + localTime(conflict.at, cardOffset(card)) + ". Reason: " + conflict.reason),
      h("button", { type: "button", class: "button acknowledge",
        onclick: () => act(async () => {
          await api("visits.acknowledge", { key: card.key });
          await redraw();
          showMessage("Conflict acknowledged.", "info");
        }) }, "Acknowledge")));
  },
};
