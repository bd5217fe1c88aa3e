// Time to leave: the leave-by times of a day's visits still to drive to (reminders.list).

import { h } from "./dom.js";

export const reminders = {
  /** The day's reminders (`cards`: the day's cards, whose times give the local time): leave at,
   * travel minutes, and a late mark. */
  draw(answer, cards) {
    const byKey = new Map(cards.map((card) => [card.key, card]));
    const box = h("div", { class: "reminders", "data-reminders": answer.date }, h("h3", {}, "Time to leave"));
    if (!answer.reminders.length) {
      box.append(h("p", { class: "empty" }, "No visits to leave for."));
      return box;
    }
    box.append(h("ul", {}, ...answer.reminders.map((reminder) =>
      h("li", { class: "reminder" + (reminder.late ? " late" : ""), "data-key": reminder.key, "data-late": String(reminder.late) },
        h("strong", { class: "leave-at" }, localTime(reminder.leaveAt, cardOffset(byKey.get(reminder.key)))), " ",
        reminder.name || "Unnamed visit",
        h("span", { class: "sub travel" }, reminder.travelMinutes === null ? " · no drive before"
          : " · " + reminder.travelMinutes + " min drive"),
        reminder.late ? h("span", { class: "late-text" }, " late") : null))));
    return box;
  },
};

/** Minutes of the day of "HH:mm" (optionally followed by " AM"/" PM"), or null. */
function minutesOf(text) {
  const [hours, rest] = String(text).split(":");
  const hour = Number(hours), minute = Number(String(rest || "").slice(0, 2));
  if (!Number.isInteger(hour) || !Number.isInteger(minute) || hours === "") return null;
  const suffix = String(rest).slice(2).trim().toUpperCase();
  if (suffix === "AM" || suffix === "PM") return ((hour % 12) + (suffix === "PM" ? 12 : 0)) * 60 + minute;
  return hour * 60 + minute;
}

/** The offset of local time from UTC on a card, in minutes: its local startTime (as the core
 * writes it, 24- or 12-hour) against its startTimeUtc; null when either is missing. */
export function cardOffset(card) {
  const local = card ? minutesOf(card.startTime || "") : null;
  const utc = card && card.startTimeUtc ? minutesOf(card.startTimeUtc.slice(11, 16)) : null;
  if (local === null || utc === null) return null;
  let offset = local - utc;
  if (offset > 840) offset -= 1440;
  if (offset < -720) offset += 1440;
  return offset;
}

/** HH:mm of an instant, local by the offset of its card (UTC, so labelled, without one). */
export function localTime(instant, offset) {
  const utc = minutesOf(String(instant).slice(11, 16));
  if (utc === null) return instant;
  const total = offset === null || offset === undefined ? utc : (((utc + offset) % 1440) + 1440) % 1440;
  const text = String(Math.floor(total / 60)).padStart(2, "0") + ":" + String(total % 60).padStart(2, "0");
  return offset === null || offset === undefined ? text + " UTC" : text;
}
