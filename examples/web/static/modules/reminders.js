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

/** The offset of local time from UTC on a card, in minutes: its local startTime (as the core
 * writes it, 24- or 12-hour) against its startTimeUtc; null when either is missing. */
export function cardOffset(card) {
  const local = card && /^(\d{1,2}):(\d{2})\s*([AP]M)?/i.exec(card.startTime || "");
  const utc = card && /T(\d{2}):(\d{2})/.exec(card.startTimeUtc || "");
  if (!local || !utc) return null;
  let hour = Number(local[1]) % (local[3] ? 12 : 24);
  if (local[3] && local[3].toUpperCase() === "PM") hour += 12;
  let offset = hour * 60 + Number(local[2]) - (Number(utc[1]) * 60 + Number(utc[2]));
  if (offset > 840) offset -= 1440;
  if (offset < -720) offset += 1440;
  return offset;
}

/** HH:mm of an instant, local by the offset of its card (UTC, so labelled, without one). */
export function localTime(instant, offset) {
  const utc = /T(\d{2}):(\d{2})/.exec(instant);
  if (!utc) return instant;
  if (offset === null || offset === undefined) return utc[1] + ":" + utc[2] + " UTC";
  const total = (((Number(utc[1]) * 60 + Number(utc[2]) + offset) % 1440) + 1440) % 1440;
  return String(Math.floor(total / 60)).padStart(2, "0") + ":" + String(total % 60).padStart(2, "0");
}
