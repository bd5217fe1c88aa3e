// The planner's token: the day screen's "Planner" sign-in and the "Sign in" banner.

import { api, busy, showMessage } from "./calls.js";
import { day } from "./day.js";
import { $ } from "./dom.js";
import { washer } from "./washer.js";

/** The washer's token for the planner: the day screen's sign-in form hands it to the core
 *  (auth.set), which keeps it in memory only; the field is emptied once it is sent. The "Sign
 *  in" banner shows while the core says a source refused it (auth.status required). */
export const auth = {
  init() {
    $("auth-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const token = $("auth-token").value.trim();
      if (token) busy($("auth-save"), () => this.set(token));
    });
    $("auth-clear").addEventListener("click", (event) => busy(event.currentTarget, () => this.set(null)));
    $("auth-go").addEventListener("click", () => {
      if (location.hash !== "#day") location.hash = "#day";
      $("auth-token").focus();
    });
  },

  /** Hand the token to the core (null signs out); with a token, the changes waiting go at once
   *  and the planner's visits are fetched. */
  async set(token) {
    $("auth-token").value = "";
    try {
      await api("auth.set", { token });
      if (token === null) {
        showMessage("Signed out of the planner.", "info");
      } else {
        const result = await api("sync.push", { ifDue: true });
        showMessage("Signed in." + (result.pushed ? " Sent: " + result.pushed + " applied." : ""), "info");
        const status = (await api("auth.status")).auth;
        // The planner's visits as it has them now; a failure leaves its message and the sign-in.
        if (!status.required) await api("visits.refresh").catch((error) => showMessage(error.message));
      }
    } finally {
      await Promise.all([this.update(), washer.showStatus(), day.showVisits()]);
    }
  },

  /** Read auth.status and draw the banner and the sign-in form's state. */
  async update() {
    const status = (await api("auth.status")).auth;
    $("auth-banner").hidden = !status.required;
    const when = status.required ? " (" + status.source + " refused the last request)" : "";
    $("auth-detail").textContent = status.required ? "The planner wants a valid token" + when + "." : "";
    $("auth-state").textContent = status.token ? "Signed in (" + status.scheme + ")" : "Not signed in";
    $("auth-state").dataset.token = String(status.token);
    $("auth-inputs").hidden = status.token && !status.required;
    $("auth-clear").hidden = !status.token;
    return status;
  },
};
