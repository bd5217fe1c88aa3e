// The day's time report (report.day): per visit the planned and the worked minutes, and totals.

import { h } from "./dom.js";

const minutes = (value) => (value === null ? "–" : value + " min");

export const report = {
  draw(answer) {
    const totals = answer.totals;
    const box = h("div", { class: "report", "data-report": answer.date }, h("h3", {}, "Time on the job"));
    if (answer.visits.length) {
      box.append(h("table", { class: "report-table" },
        h("thead", {}, h("tr", {}, h("th", {}, "Visit"), h("th", {}, "Planned"), h("th", {}, "Worked"))),
        h("tbody", {}, ...answer.visits.map((visit) =>
          h("tr", { "data-key": visit.key },
            h("td", {}, visit.name || "Unnamed visit"),
            h("td", { class: "planned" }, minutes(visit.plannedMinutes)),
            h("td", { class: "worked" }, minutes(visit.workedMinutes)))))));
    }
    box.append(h("p", { class: "report-totals" },
      h("span", { "data-total": "planned" }, "Planned " + totals.plannedMinutes + " min"), " · ",
      h("span", { "data-total": "worked" }, "worked " + totals.workedMinutes + " min"), " · ",
      h("span", { "data-total": "onsite" }, "on site " + totals.onSiteMinutes + " min"), " · ",
      h("span", { "data-total": "drive" }, "driving " + totals.driveMinutes + " min")));
    box.append(h("p", { class: "sub" }, totals.done + " done · " + totals.inProgress + " in progress · " +
      totals.todo + " to do · " + totals.rejected + " rejected"));
    return box;
  },
};
