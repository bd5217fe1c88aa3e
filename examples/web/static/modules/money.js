// The money screen: transactions by category, pins, the pinned sum and the insights.

import { act, api } from "./calls.js";
import { $, h, money } from "./dom.js";

export const moneyScreen = {
  category: "all",

  async show() {
    const [list, insights] = await Promise.all([
      api("transactions.list", { category: this.category }),
      api("insights.get"),
    ]);
    this.category = list.category;
    $("chips").replaceChildren(...list.categories.map((category) => h("button", {
      type: "button", class: "chip" + (category === list.category ? " active" : ""), "data-category": category,
      "aria-pressed": String(category === list.category),
      onclick: () => act(() => { this.category = category; return this.show(); }),
    }, category)));
    $("money-count").textContent = list.count + " transactions";
    $("transactions").replaceChildren(...list.transactions.map((t) => h("li", {
      class: "transaction" + (t.pinned ? " pinned" : ""), "data-id": String(t.id) },
      h("div", { class: "t-main" },
        h("strong", {}, t.name || "Unnamed"),
        h("span", { class: "sub" }, [t.provider, t.accountName, t.date].filter(Boolean).join(" · "))),
      h("span", { class: "t-category" }, t.category),
      h("span", { class: "amount" }, money(t.amount, t.amountText)),
      h("button", {
        type: "button", class: "pin", "aria-pressed": String(t.pinned), title: t.pinned ? "Unpin" : "Pin",
        onclick: () => act(async () => { await api("transactions.pin", { id: t.id, pinned: !t.pinned }); await this.show(); }),
      }, t.pinned ? "Pinned" : "Pin"))));
    if (!list.transactions.length) $("transactions").append(h("li", { class: "empty" }, "Nothing in this category."));
    $("pinned-sum-value").textContent = money(list.sum, list.sumText);
    $("pinned-count").textContent = list.pinnedCount + " pinned";
    this.drawInsights(insights);
  },

  drawInsights(insights) {
    $("insights-total").textContent = money(insights.total, insights.sumText) + " over " + insights.count + " pinned";
    $("insights-chart").replaceChildren(...insights.categories.map((row) => h("div", { class: "bar-row", "data-category": row.category },
      h("span", { class: "bar-label" }, row.category),
      h("span", { class: "bar-track" }, h("span", { class: "bar", style: { width: Math.max(0, Math.min(1, row.share)) * 100 + "%" } })),
      h("span", { class: "bar-value" }, money(row.total, row.sumText) + " · " + Math.round(row.share * 1000) / 10 + "%"))));
  },
};
