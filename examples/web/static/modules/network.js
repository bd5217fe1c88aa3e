// The demo server's switch of its sample sources (GET and POST /sample/network).

import { act, ApiError } from "./calls.js";
import { $ } from "./dom.js";

/** The demo server's switch: whether its sample sources answer (not the core's business). */
export const network = {
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
