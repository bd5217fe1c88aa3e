// The washer's day: the calendar, the cards of the selected days and each day's route.

import { act, api, busy, showMessage } from "./calls.js";
import { conflicts } from "./conflicts.js";
import { $, h, s } from "./dom.js";
import { hooks } from "./hooks.js";
import { reminders } from "./reminders.js";
import { report } from "./report.js";
import { road } from "./road.js";
import { refreshing } from "./sources.js";
import { washer } from "./washer.js";

export const day = {
  calendar: null,
  /** The plans' service minutes: "planned" (the cards' task minutes) or "learned". */
  durations: "planned",

  init() {
    $("month-previous").addEventListener("click", () => act(() => this.moveMonth("calendar.previous")));
    $("month-next").addEventListener("click", () => act(() => this.moveMonth("calendar.next")));
    $("calendar-toggle").addEventListener("click", () => {
      const panel = $("calendar-panel");
      const open = !panel.classList.contains("open");
      panel.classList.toggle("open", open);
      $("day-layout").classList.toggle("calendar-closed", !open);
      $("calendar-toggle").setAttribute("aria-expanded", String(open));
    });
    $("visits-refresh").addEventListener("click", (event) =>
      refreshing(event.currentTarget, async () => {
        const result = await api("visits.refresh");
        await this.show();
        showMessage(result.notModified || result.fresh ? "Refreshed: the visits have not changed."
          : "Refreshed: " + result.imported + " visits imported, " + result.rejected.length + " rejected.", "info");
      }));
    $("sync-push").addEventListener("click", (event) => washer.push(event.currentTarget));
    $("drive-simulate").addEventListener("click", (event) => busy(event.currentTarget, () => road.simulate()));
  },

  async show() {
    this.calendar = await api("calendar.get");
    this.drawCalendar();
    await Promise.all([this.showVisits(), washer.showStatus()]);
  },

  async moveMonth(method) {
    this.calendar = await api(method);
    this.drawCalendar();
  },

  async select(date, toggle) {
    this.calendar = await api("calendar.select", { date, mode: toggle ? "toggle" : "single" });
    this.drawCalendar();
    await this.showVisits();
  },

  drawCalendar() {
    const calendar = this.calendar;
    $("month-title").textContent = calendar.title;
    $("month-previous").disabled = !calendar.previous;
    $("month-next").disabled = !calendar.next;
    const grid = $("calendar-grid");
    grid.replaceChildren(...calendar.weekdays.map((name) => h("div", { class: "weekday" }, name)));
    for (let i = 0; i < calendar.leadingDays; i++) grid.append(h("div", { class: "blank" }));
    for (const d of calendar.days) {
      const classes = ["day"];
      if (d.isToday) classes.push("today");
      if (d.isSelected) classes.push("selected");
      grid.append(h("button", {
        type: "button", class: classes.join(" "), "data-date": d.date,
        "aria-pressed": String(d.isSelected), title: d.weekday + " " + d.date,
        onclick: (event) => act(() => this.select(d.date, $("multi-select").checked || event.ctrlKey || event.metaKey)),
      }, h("span", { class: "num" }, d.day), h("span", { class: "dots" }, d.visits > 0 ? h("i", {}, d.visits) : null)));
    }
  },

  async showVisits() {
    const list = await api("visits.list", {});
    const selected = this.calendar.selected;
    $("day-title").textContent = selected.length === 1 && selected[0] === this.calendar.today
      ? "Today" : selected.length === 1 ? selected[0] : selected.length + " days";
    const total = list.summary;
    $("day-summary").textContent = total.visits + " visits · " + total.taskMinutes + " min of work · " +
      (total.distanceKm === null ? "–" : total.distanceKm) + " km";
    const durations = this.durations;
    const [plans, leaves, reports, location] = await Promise.all([
      Promise.all(list.days.map((d) => api("visits.plan", { date: d.date, durations }))),
      Promise.all(list.days.map((d) => api("reminders.list", { date: d.date }))),
      Promise.all(list.days.map((d) => api("report.day", { date: d.date }))),
      api("location.status")]);
    road.position = location.position;
    $("day-list").replaceChildren(...list.days.map((d, i) => this.drawDay(d, plans[i], leaves[i], reports[i])));
  },

  drawDay(d, plan, leave, times) {
    const summary = d.summary;
    return h("article", { class: "day-block", "data-date": d.date },
      h("header", { class: "day-head" },
        h("h2", {}, d.date),
        h("span", { class: "sub" }, summary.visits + " visits · " + summary.taskMinutes + " min · " +
          (summary.distanceKm === null ? "–" : summary.distanceKm) + " km")),
      h("div", { class: "day-body" },
        h("div", { class: "cards" }, d.visits.length
          ? d.visits.map((card) => this.drawCard(card))
          : h("p", { class: "empty" }, "No visits on this day.")),
        h("div", { class: "day-side" }, this.drawPlan(plan), reminders.draw(leave, d.visits), report.draw(times))));
  },

  drawCard(card) {
    const element = h("div", { class: "card", "data-visit": card.visitId, "data-key": card.key, "data-state": card.state, style: { borderLeftColor: card.stateColor } },
      h("div", { class: "card-top" },
        h("span", { class: "state", style: { background: card.stateColor } }, card.state === null ? "No state" : card.state),
        h("span", { class: "time" }, card.startTime),
        h("span", { class: "pending-slot", "data-hook": "pending" })),
      h("h3", {}, card.name || "Unnamed visit"),
      card.address ? h("p", { class: "address" }, card.address) : null,
      card.tasks ? h("p", { class: "tasks" }, card.tasks) : null,
      h("div", { class: "card-meta" },
        h("span", { class: "minutes" }, card.taskMinutes + " min"),
        card.distanceKm === null ? null : h("span", { class: "distance" }, card.distanceKm + " km from the last visit"),
        card.expectedTime ? h("span", {}, "expected " + card.expectedTime) : null),
      road.drawCard(card),
      h("div", { class: "card-actions", "data-hook": "card-actions" }));
    hooks.cardActions(card, element);
    conflicts.draw(card, element, () => this.showVisits());
    return element;
  },

  /** The plan as a route: stops placed by their coordinates, numbered in the planned order. */
  drawPlan(plan) {
    const box = h("div", { class: "plan", "data-plan": plan.date });
    box.append(h("div", { class: "plan-head" }, h("h3", {}, "Route"),
      h("label", { class: "durations-switch" }, h("input", {
        type: "checkbox", class: "durations-learned", checked: this.durations === "learned",
        onchange: (event) => { this.durations = event.currentTarget.checked ? "learned" : "planned"; act(() => this.showVisits()); },
      }), " Learned times")));
    box.append(h("p", { class: "sub durations-mode", "data-durations": this.durations },
      (this.durations === "learned" ? "Service times as learned from the washer's work" : "Service times as planned") +
      " · " + serviceMinutes(plan.stops) + " min of service"));
    if (!plan.stops.length) {
      box.append(h("p", { class: "empty" }, "No open visits to drive to."));
    } else {
      const width = 320, height = 220, pad = 28;
      // The washer's position (reported today) is drawn on the route and kept in the frame.
      const here = road.positionOn(plan.date);
      const lats = plan.stops.map((stop) => stop.latitude), lons = plan.stops.map((stop) => stop.longitude);
      if (here) { lats.push(here.latitude); lons.push(here.longitude); }
      const midLat = (Math.min(...lats) + Math.max(...lats)) / 2;
      const squeeze = Math.cos((midLat * Math.PI) / 180);
      const xs = lons.map((lon) => lon * squeeze), ys = lats.map((lat) => -lat);
      const spanX = Math.max(...xs) - Math.min(...xs), spanY = Math.max(...ys) - Math.min(...ys);
      const scale = Math.min((width - 2 * pad) / (spanX || 1), (height - 2 * pad) / (spanY || 1));
      const x0 = Math.min(...xs), y0 = Math.min(...ys);
      const px = (i) => pad + (xs[i] - x0) * scale + (width - 2 * pad - spanX * scale) / 2;
      const py = (i) => pad + (ys[i] - y0) * scale + (height - 2 * pad - spanY * scale) / 2;
      const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "route", role: "img",
        "aria-label": "Route of " + plan.stops.length + " stops" });
      svg.append(s("polyline", { class: "route-line",
        points: plan.stops.map((_, i) => px(i).toFixed(1) + "," + py(i).toFixed(1)).join(" ") }));
      plan.stops.forEach((stop, i) => {
        const stateColor = stop.lateMinutes > 0 ? "late" : "";
        svg.append(s("g", { class: "stop " + stateColor, "data-visit": stop.visitId },
          s("circle", { cx: px(i), cy: py(i), r: 11 }),
          s("text", { x: px(i), y: py(i) + 4, "text-anchor": "middle" }, String(i + 1)),
          s("title", {}, stop.name + " " + stop.arrival + "–" + stop.departure)));
      });
      if (here) {
        const i = lats.length - 1;
        svg.append(s("line", { class: "route-line from-position", x1: px(i), y1: py(i), x2: px(0), y2: py(0) }));
        svg.append(s("g", { class: "position", "data-hook": "position" },
          s("circle", { cx: px(i), cy: py(i), r: 7 }),
          s("title", {}, "You are here (" + here.at + ", ±" + here.accuracyMeters + " m)")));
      }
      box.append(svg);
      box.append(h("ol", { class: "stops" }, plan.stops.map((stop) =>
        h("li", {}, h("strong", {}, stop.arrival + "–" + stop.departure), " ", stop.name || "",
          stop.waitMinutes ? h("span", { class: "sub" }, " waits " + stop.waitMinutes + " min") : null,
          stop.lateMinutes ? h("span", { class: "late-text" }, " " + stop.lateMinutes + " min late") : null))));
      box.append(h("p", { class: "sub" }, "Drive " + plan.distanceMeters + " m" +
        (plan.savedMeters ? " (" + plan.savedMeters + " m less than by start time)" : "") +
        " · " + plan.lateStops + " late"));
    }
    if (plan.skipped.length) {
      box.append(h("p", { class: "skipped" }, "Not on the route: " +
        plan.skipped.map((skip) => (skip.name || skip.visitId) + " (" + skip.reason + ")").join(", ")));
    }
    return box;
  },
};

/** The stops' service minutes, as the plan counted them. */
function serviceMinutes(stops) {
  return stops.reduce((sum, stop) => sum + stop.serviceMinutes, 0);
}
