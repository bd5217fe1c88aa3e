// The news screen: the stored articles, their refresh and dates as the core writes them.

import { api, showMessage } from "./calls.js";
import { $, cachedImage, h } from "./dom.js";
import { hooks } from "./hooks.js";
import { refreshing } from "./sources.js";

export const news = {
  init() {
    $("articles-refresh").addEventListener("click", (event) =>
      refreshing(event.currentTarget, async () => {
        const result = await api("articles.refresh");
        await this.show();
        showMessage(result.notModified || result.fresh ? "Refreshed: the news has not changed."
          : "Refreshed: " + result.imported + " articles.", "info");
      }));
  },

  async show() {
    const feed = await api("articles.list");
    hooks.sourceBanner("news", $("news-banner"));
    if (feed.updatedAt) {
      const when = await api("articles.format_date", { date: feed.updatedAt });
      $("news-updated").textContent = "Updated " + when.text;
    } else {
      $("news-updated").textContent = "Never updated";
    }
    $("news-list").replaceChildren(...feed.articles.map((article) => this.drawArticle(article)));
    if (!feed.articles.length) $("news-list").append(h("p", { class: "empty" }, "No articles yet."));
  },

  drawArticle(article) {
    const body = h("div", { class: "article-body", hidden: true },
      article.content.map((block) => h("div", { class: "block" },
        block.subject ? h("h4", {}, block.subject) : null,
        block.description ? h("p", {}, block.description) : null)));
    const element = h("article", { class: "article", "data-article": String(article.id) },
      h("div", { class: "article-art" }, cachedImage(article.imageUrl, article.title)),
      h("div", { class: "article-text" },
        h("p", { class: "published" }, article.published),
        h("h2", {}, article.title),
        article.ingress ? h("p", { class: "ingress" }, article.ingress) : null,
        article.tags.length ? h("p", { class: "tags" }, article.tags.map((tag) => h("span", {}, String(tag)))) : null,
        body));
    element.addEventListener("click", () => { body.hidden = !body.hidden; element.classList.toggle("open", !body.hidden); });
    return element;
  },
};
