// Building the page: elements, SVG, the core's cached images, money as the core wrote it.

/** An element with attributes (on* as listeners) and children (strings become text). */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else if (name === "style" && typeof value === "object") Object.assign(element.style, value);
    else if (name === "dataset") Object.assign(element.dataset, value);
    else element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

export function s(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, value);
  for (const child of children) element.append(child instanceof Node ? child : String(child));
  return element;
}

export function $(id) {
  return document.getElementById(id);
}

/** An image served through the core's image cache; on failure the element behind shows. */
export function cachedImage(url, alt) {
  if (!url) return null;
  const image = h("img", { src: "/api/image?url=" + encodeURIComponent(url), alt: alt || "", loading: "lazy" });
  image.addEventListener("error", () => image.classList.add("failed"));
  return image;
}

/** Money as the core sent it: its text in the core's locale and currency when it wrote one
 * (the app started with --locale), else the number with its two decimal places. */
export function money(amount, text) {
  return typeof text === "string" ? text : Number(amount).toFixed(2);
}
