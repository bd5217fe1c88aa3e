// The wine club: PIN login, employees, the catalog, the cart, checkout and orders.

import { act, api, clearMessage, showMessage } from "./calls.js";
import { $, cachedImage, h, money } from "./dom.js";
import { refreshing } from "./sources.js";

export const wine = {
  view: "catalog",
  category: "",
  sort: "name",
  employee: null,
  order: null,

  init() {
    for (const button of document.querySelectorAll("[data-wine]")) {
      button.addEventListener("click", () => act(() => this.go(button.dataset.wine)));
    }
    $("logout").addEventListener("click", () => act(async () => {
      await api("session.logout");
      this.view = "catalog";
      await this.show();
    }));
  },

  go(view) {
    clearMessage();
    this.view = view;
    return this.show();
  },

  async show() {
    const session = await api("session.get");
    this.employee = session.employee;
    $("wine-nav").hidden = !this.employee;
    $("wine-who").textContent = this.employee
      ? "Logged in as " + this.employee.firstName + " " + this.employee.lastName : "Log in with your PIN";
    const body = $("wine-body");
    if (!this.employee && !["new", "forgot", "employees"].includes(this.view)) this.view = "login";
    if (this.employee) {
      const cart = await api("cart.get");
      $("cart-badge").textContent = cart.cart.totalQuantity;
    }
    for (const button of document.querySelectorAll("[data-wine]")) {
      button.classList.toggle("active", button.dataset.wine === this.view.split(":")[0]);
    }
    const [view, argument] = this.view.split(":");
    const draw = {
      login: () => this.drawLogin(),
      new: () => this.drawNew(),
      forgot: () => this.drawForgot(),
      catalog: () => this.drawCatalog(),
      product: () => this.drawProduct(argument),
      cart: () => this.drawCart(),
      thanks: () => this.drawThanks(),
      orders: () => this.drawOrders(),
      employees: () => this.drawEmployees(),
    }[view];
    body.replaceChildren(await draw());
  },

  form(id, fields, submit, onsubmit) {
    return h("form", {
      id, class: "form panel", onsubmit: (event) => { event.preventDefault(); act(() => onsubmit(new FormData(event.target))); },
    }, fields, h("button", { type: "submit", class: "button" }, submit));
  },

  field(label, name, attributes) {
    return h("label", { class: "field" }, h("span", {}, label), h("input", Object.assign({ name }, attributes || {})));
  },

  drawLogin() {
    return h("div", { class: "narrow" },
      this.form("login-form", [this.field("PIN", "pin", { inputmode: "numeric", autocomplete: "off", id: "pin" })], "Log in",
        async (data) => {
          await api("session.login", { pin: data.get("pin") });
          clearMessage();
          this.view = "catalog";
          await this.show();
        }),
      h("p", { class: "links" },
        h("a", { href: "#wine", id: "to-new", onclick: (e) => { e.preventDefault(); act(() => this.go("new")); } }, "New employee"),
        " · ",
        h("a", { href: "#wine", id: "to-forgot", onclick: (e) => { e.preventDefault(); act(() => this.go("forgot")); } }, "Forgot PIN"),
        " · ",
        h("a", { href: "#wine", id: "to-employees", onclick: (e) => { e.preventDefault(); act(() => this.go("employees")); } }, "Employees")));
  },

  drawNew() {
    return h("div", { class: "narrow" },
      this.form("new-form", [
        this.field("First name", "firstName"),
        this.field("Last name", "lastName"),
        this.field("Email (optional)", "email", { type: "email" }),
        this.field("PIN (4 to 12 digits)", "pin", { inputmode: "numeric", autocomplete: "off" }),
      ], "Create employee", async (data) => {
        const request = { firstName: data.get("firstName"), lastName: data.get("lastName"), pin: data.get("pin") };
        if (data.get("email")) request.email = data.get("email");
        const created = await api("employees.create", request);
        this.view = "login";
        await this.show();
        showMessage("Welcome, " + created.employee.firstName + ". Log in with your PIN.", "info");
      }),
      h("p", { class: "links" }, h("a", { href: "#wine", onclick: (e) => { e.preventDefault(); act(() => this.go("login")); } }, "Back to log in")));
  },

  drawForgot() {
    const answer = h("p", { id: "recovered", class: "recovered" });
    return h("div", { class: "narrow" },
      this.form("forgot-form", [this.field("Email", "email", { type: "email" })], "Find my PIN", async (data) => {
        const found = await api("employees.recover_pin", { email: data.get("email") });
        clearMessage();
        answer.textContent = found.firstName + " " + found.lastName + ", your PIN is " + found.pin + ".";
      }),
      answer,
      h("p", { class: "links" }, h("a", { href: "#wine", onclick: (e) => { e.preventDefault(); act(() => this.go("login")); } }, "Back to log in")));
  },

  async drawCatalog() {
    const catalog = await api("catalog.list", { category: this.category || null, sort: this.sort });
    const category = h("select", { id: "category", onchange: (e) => act(() => { this.category = e.target.value; return this.show(); }) },
      h("option", { value: "" }, "All wines"),
      catalog.categories.map((name) => h("option", { value: name, selected: name === this.category }, name)));
    const sort = h("select", { id: "sort", onchange: (e) => act(() => { this.sort = e.target.value; return this.show(); }) },
      [["name", "Name A–Z"], ["-name", "Name Z–A"], ["none", "As imported"]].map(([value, label]) =>
        h("option", { value, selected: value === this.sort }, label)));
    const refresh = h("button", {
      type: "button", id: "catalog-refresh", class: "button ghost",
      onclick: (event) => refreshing(event.currentTarget, async () => {
        const result = await api("catalog.refresh");
        await this.show();
        showMessage(result.notModified || result.fresh ? "The catalog has not changed."
          : "Catalog refreshed: " + result.imported + " wines, " + result.rejected.length + " rejected.", "info");
      }),
    }, h("span", { class: "spinner", "aria-hidden": "true" }), h("span", { class: "label" }, "Refresh catalog"));
    return h("div", {},
      h("div", { class: "filters" }, h("label", {}, "Category ", category), h("label", {}, "Sort ", sort), refresh),
      h("div", { class: "products" }, catalog.products.map((product) => h("button", {
        type: "button", class: "product", "data-product": String(product.id),
        onclick: () => act(() => this.go("product:" + product.id)),
      }, h("div", { class: "label-art" }, cachedImage(product.imageUrl, product.name)),
        h("strong", {}, product.name), h("span", { class: "sub" }, product.category || ""),
        h("span", { class: "price" }, money(product.price, product.priceText))))),
      catalog.products.length ? null : h("p", { class: "empty" }, "No wines in this category."));
  },

  async drawProduct(id) {
    const { product } = await api("catalog.product", { id });
    const quantity = h("input", { id: "quantity", type: "number", min: "1", value: "1" });
    return h("div", { class: "detail panel", "data-product": String(product.id) },
      h("div", { class: "label-art big" }, cachedImage(product.imageUrl, product.name)),
      h("div", {},
        h("p", { class: "sub" }, product.category || ""),
        h("h2", {}, product.name),
        h("p", { class: "price" }, money(product.price, product.priceText)),
        h("p", { class: product.hasDescription ? "description" : "description sub" }, product.description),
        h("div", { class: "buy" }, quantity, h("button", {
          type: "button", class: "button", id: "add-to-cart",
          onclick: () => act(async () => {
            const answer = await api("cart.add", { productId: product.id, quantity: Number(quantity.value) });
            $("cart-badge").textContent = answer.cart.totalQuantity;
            showMessage(product.name + " is in your cart.", "info");
          }),
        }, "Add to cart")),
        h("p", {}, h("a", { href: "#wine", onclick: (e) => { e.preventDefault(); act(() => this.go("catalog")); } }, "Back to the catalog"))));
  },

  async drawCart() {
    const { cart } = await api("cart.get");
    const change = (method, request) => act(async () => { await api(method, request); await this.show(); });
    return h("div", { class: "panel cart" },
      h("h2", {}, "Cart"),
      cart.lines.length ? h("ul", { class: "lines" }, cart.lines.map((line) => h("li", { "data-product": String(line.productId) },
        h("div", { class: "label-art small" }, cachedImage(line.imageUrl, line.name)),
        h("span", { class: "line-name" }, line.name),
        h("span", { class: "stepper" },
          h("button", { type: "button", class: "icon-button", "aria-label": "One less",
            onclick: () => line.quantity > 1 ? change("cart.update", { productId: line.productId, quantity: line.quantity - 1 })
              : change("cart.remove", { productId: line.productId }) }, "−"),
          h("span", { class: "quantity" }, line.quantity),
          h("button", { type: "button", class: "icon-button", "aria-label": "One more",
            onclick: () => change("cart.update", { productId: line.productId, quantity: line.quantity + 1 }) }, "+")),
        h("button", { type: "button", class: "link", onclick: () => change("cart.remove", { productId: line.productId }) }, "Remove"))))
        : h("p", { class: "empty" }, "Your cart is empty."),
      h("p", {}, "Bottles: ", h("strong", { id: "cart-total" }, cart.totalQuantity)),
      h("button", {
        type: "button", class: "button", id: "checkout",
        onclick: () => act(async () => {
          this.order = await api("cart.checkout");
          await this.go("thanks");
        }),
      }, "Check out"));
  },

  drawThanks() {
    const answer = this.order;
    if (!answer) return this.drawCatalog();
    return h("div", { class: "panel thanks" },
      h("h2", { id: "thanks" }, answer.message),
      h("p", { class: "sub" }, "Order " + answer.order.id + " · " + answer.order.placedAt),
      h("ul", {}, answer.order.lines.map((line) => h("li", {}, line.quantity + " × " + line.name))),
      h("button", { type: "button", class: "button", onclick: () => act(() => this.go("catalog")) }, "Back to the catalog"));
  },

  async drawOrders() {
    const { orders } = await api("cart.orders");
    return h("div", { class: "panel" }, h("h2", {}, "Orders"),
      orders.length ? h("ul", { class: "orders" }, orders.map((order) => h("li", { "data-order": String(order.id) },
        h("strong", {}, "Order " + order.id), " · " + order.placedAt + " · " + order.totalQuantity + " bottles")))
        : h("p", { class: "empty" }, "No orders yet."));
  },

  async drawEmployees() {
    const { employees } = await api("employees.list");
    return h("div", { class: "panel" }, h("h2", {}, "Employees"),
      employees.length ? h("table", { class: "employees" },
        h("thead", {}, h("tr", {}, ["Name", "Email", "Hired", "In cart"].map((title) => h("th", {}, title)))),
        h("tbody", {}, employees.map((e) => h("tr", { "data-employee": String(e.id) },
          h("td", {}, e.firstName + " " + e.lastName), h("td", {}, e.email || "–"), h("td", {}, e.hiredOn),
          h("td", { class: "num" }, e.cartQuantity)))))
        : h("p", { class: "empty" }, "No employees yet."),
      this.employee ? null : h("p", { class: "links" }, h("a", { href: "#wine", onclick: (e) => { e.preventDefault(); act(() => this.go("login")); } }, "Back to log in")));
  },
};
