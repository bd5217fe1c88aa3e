// The planner's token: the footer's sign-in and the "Sign in" banner.

import { api, busy, showMessage } from "./calls.js";
import { day } from "./day.js";
import { $ } from "./dom.js";
import { washer } from "./washer.js";

/** The planner's token: the footer's sign-in form hands it to the core (auth.set), and the
 *  "Sign in" banner shows while the core says a source refused it (auth.status required). */
export const auth = {
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
