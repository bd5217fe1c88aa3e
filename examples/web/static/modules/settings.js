// The app's settings (GET and POST /app/settings): the language switch, which reopens the core
// with the chosen locale, and the planner server's board beside the washer's app.

import { act, ApiError, showMessage } from "./calls.js";
import { $, h } from "./dom.js";

/** The names of the languages the core speaks, each in its own language. */
const LANGUAGE_NAMES = {
  "": "Default", en: "English (US)", "en-GB": "English (UK)", da: "Dansk", nb: "Norsk bokmål", sv: "Svenska", de: "Deutsch",
};
/** The currency a language's prices are shown in. */
const CURRENCY_OF = { en: "USD", "en-GB": "GBP", da: "DKK", nb: "NOK", sv: "SEK", de: "EUR" };

export const settings = {
  current: null,

  /** Read the settings; draw the language switch and, with a planner server, its board's link.
   *  `redraw` is called after a switch (the screen shown, drawn again in the new language). */
  async init(redraw) {
    this.redraw = redraw;
    await act(async () => this.draw(await this.send("GET")));
    $("language").addEventListener("change", (event) => act(() => this.choose(event.currentTarget.value)));
    $("board-beside").addEventListener("change", (event) => this.showBoard(event.currentTarget.checked));
  },

  draw(current) {
    this.current = current;
    const select = $("language");
    select.replaceChildren(...["", ...current.locales].map((tag) =>
      h("option", { value: tag, selected: (current.locale || "") === tag }, LANGUAGE_NAMES[tag] || tag)));
    select.closest(".language").hidden = !current.switchable;
    const planner = current.planner;
    $("board-link").hidden = !planner;
    $("board-beside").closest(".board-toggle").hidden = !planner;
    if (planner) $("board-link").href = planner.board;
    // The sample planner's own tricks do not reach a real planner server.
    $("refuse-next").hidden = Boolean(planner);
    $("push-simulate").hidden = Boolean(planner);
  },

  /** Reopen the core in the language `tag` ("" for the core's default texts). The planner's
   *  token went with the old core: the washer signs in again. */
  async choose(tag) {
    const locale = tag || null;
    const signedIn = $("auth-state").dataset.token === "true";
    this.draw(await this.send("POST", { locale, currency: locale ? CURRENCY_OF[locale] : null }));
    await this.redraw();
    if (signedIn) showMessage("The language changed: sign in to the planner again.", "info");
  },

  /** The board in a pane beside the app (loaded on first use), or the app alone. */
  showBoard(beside) {
    const planner = this.current && this.current.planner;
    if (!planner) return;
    const frame = $("board-frame");
    if (beside && frame.getAttribute("src") !== planner.board) frame.src = planner.board;
    $("board-pane").hidden = !beside;
    $("page").classList.toggle("with-board", beside);
  },

  async send(method, body) {
    window.carfitPending++;
    try {
      const response = await fetch("/app/settings", {
        method, headers: { "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined,
      });
      const document = await response.json();
      if (!response.ok) throw new ApiError(response.status, document && document.error);
      return document;
    } finally {
      window.carfitPending--;
    }
  },
};
