// The CarFit reference app. The page decides nothing: it sends what the user did to the core
// (POST /api/<method>) and draws what the core answers. No framework, no network beyond this
// server. This module routes between the screens; each screen is a module of modules/.

import { auth } from "./modules/auth.js";
import { act, clearMessage } from "./modules/calls.js";
import { carousel } from "./modules/carousel.js";
import { conflicts } from "./modules/conflicts.js";
import { day } from "./modules/day.js";
import { $ } from "./modules/dom.js";
import { moneyScreen } from "./modules/money.js";
import { network } from "./modules/network.js";
import { news } from "./modules/news.js";
import { pushPanel } from "./modules/push.js";
import { settings } from "./modules/settings.js";
import { sources } from "./modules/sources.js";
import { wine } from "./modules/wine.js";

const screens = { day, news, money: moneyScreen, wine, carousel };

async function route() {
  const name = (location.hash || "#day").slice(1);
  const screen = screens[name] ? name : "day";
  for (const key of Object.keys(screens)) $("screen-" + key).hidden = key !== screen;
  for (const link of document.querySelectorAll(".tabs a")) link.classList.toggle("active", link.dataset.screen === screen);
  clearMessage();
  document.body.dataset.screen = screen;
  await act(() => Promise.all([screens[screen].show(), sources.update(), auth.update()]));
}

document.querySelector(".message-close").addEventListener("click", clearMessage);
for (const screen of Object.values(screens)) if (screen.init) screen.init();
network.init();
auth.init();
pushPanel.init();
conflicts.init();
settings.init(route);
window.addEventListener("hashchange", route);
route();
