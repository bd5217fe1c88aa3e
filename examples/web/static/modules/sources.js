// The sources' refresh state: the "no connection" banner and each screen's own banner.

import { auth } from "./auth.js";
import { api, busy } from "./calls.js";
import { $ } from "./dom.js";

/** The sources' refresh state: the "no connection" banner on every screen, and what the last
 *  failed refresh of a screen's own source said. */
export const sources = {
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
export function refreshing(button, action) {
  return busy(button, async () => {
    try {
      await action();
    } finally {
      await Promise.all([sources.update(), auth.update()]);
    }
  });
}
