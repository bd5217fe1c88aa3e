// The carousel screen: rows of pattern tiles, images through the core's cache, a tile viewer.

import { act, api, showMessage } from "./calls.js";
import { $, cachedImage, h } from "./dom.js";
import { refreshing } from "./sources.js";

export const carousel = {
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
