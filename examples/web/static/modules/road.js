// The washer on the road: position, arrival suggestions, navigation links, a simulated drive.

import { api, showMessage } from "./calls.js";
import { day } from "./day.js";
import { h } from "./dom.js";

export const road = {
  /** The last reported position (location.status), or null. */
  position: null,

  /** The position when it was reported on `date` (UTC day of its instant), else null. */
  positionOn(date) {
    return this.position && this.position.at.slice(0, 10) === date ? this.position : null;
  },

  /** What a card says of the road: the arrival, the suggestion and the navigation links. */
  drawCard(card) {
    const parts = [];
    if (card.arrivedAt) {
      const text = "Arrived " + card.arrivedAt.slice(11, 16) + (card.departedAt ? ", left " + card.departedAt.slice(11, 16) : "");
      const hint = card.suggestion === "start" ? " — start this visit?" : card.suggestion === "finish" ? " — finish this visit?" : "";
      parts.push(h("p", { class: "suggestion", "data-suggestion": card.suggestion || "" }, text + hint));
    }
    if (card.navigation) {
      parts.push(h("p", { class: "navigation" }, "Navigate: ",
        h("a", { href: card.navigation.geo, "data-link": "geo" }, "Maps app"), " · ",
        h("a", { href: card.navigation.google, target: "_blank", rel: "noopener", "data-link": "google" }, "Google Maps"), " · ",
        h("a", { href: card.navigation.apple, target: "_blank", rel: "noopener", "data-link": "apple" }, "Apple Maps")));
    }
    return parts.length ? h("div", { class: "road", "data-hook": "road" }, ...parts) : null;
  },

  /** Reports the recorded drive's positions after the last one reported, then shows the day. */
  async simulate() {
    const [drive, status] = await Promise.all([
      fetch("/sample/drive.json").then((response) => response.json()), api("location.status")]);
    const after = status.position ? status.position.at : "";
    const points = drive.points.filter((point) => point.at > after);
    let arrivals = 0, departures = 0;
    for (const point of points) {
      const answer = await api("location.report", point);
      arrivals += answer.arrived.length;
      departures += answer.departed.length;
    }
    await day.show();
    showMessage(points.length
      ? "Drove " + points.length + " positions: " + arrivals + " arrivals, " + departures + " departures."
      : "The recorded drive has been driven already.", "info");
  },
};
