import Hummingbird

/// `GET /board`: the dispatcher's page. It asks for the planner's token once (kept in the tab's
/// session storage, never in a cookie or the URL), then shows the day's washers from
/// `/v1/planner/day`, each visit coloured by its state and labelled with the state's name, and
/// each washer's last position with its age, refreshed every 4 seconds.
enum Board {
    static var response: Response {
        Response(status: .ok,
                 headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                           .contentSecurityPolicy: "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>CarFit board</title>
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
  header { display: flex; gap: 1em; align-items: center; padding: .7em 1em; background: #1d2330; color: #fff; }
  header h1 { font-size: 1.1em; margin: 0; flex: 1; }
  main { padding: 1em; display: grid; gap: 1em; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); }
  .washer { background: #fff; border-radius: 8px; padding: .8em 1em; box-shadow: 0 1px 3px #0002; }
  .washer h2 { font-size: 1.05em; margin: 0 0 .2em; }
  .position { color: #555; font-size: .9em; margin-bottom: .5em; }
  .visit { display: flex; gap: .6em; align-items: baseline; padding: .35em .5em; margin: .25em 0; border-radius: 5px; border-left: 6px solid; }
  .visit .time { font-variant-numeric: tabular-nums; min-width: 3.2em; }
  .visit .who { flex: 1; }
  .visit .state { font-weight: 600; font-size: .85em; }
  .Todo { border-color: #8a94a6; background: #eef0f4; }
  .InProgress { border-color: #e0a100; background: #fff6dc; }
  .Done { border-color: #2e9d4f; background: #e3f5e8; }
  .Rejected { border-color: #d0343a; background: #fde6e7; }
  #login { max-width: 26em; margin: 3em auto; background: #fff; padding: 1.5em; border-radius: 8px; }
  #login input { width: 100%; box-sizing: border-box; padding: .5em; margin: .5em 0; }
  #status { font-size: .85em; }
  .empty { color: #777; font-style: italic; }
</style>
</head>
<body>
<header>
  <h1>CarFit board</h1>
  <input type="date" id="date" aria-label="Day">
  <span id="status"></span>
  <button id="signout" hidden>Sign out</button>
</header>
<form id="login" hidden>
  <label for="token">Planner's token</label>
  <input id="token" name="token" type="password" autocomplete="off" required minlength="32">
  <button type="submit">Show the board</button>
  <p id="loginError" role="alert"></p>
</form>
<main id="board" aria-live="polite"></main>
<script>
"use strict";
const KEY = "carfit.planner.token";
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const $ = (id) => document.getElementById(id);
const dateInput = $("date");
let timer = null;

function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
function age(at) {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(at)) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}
const stateNames = { Todo: "To do", InProgress: "In progress", Done: "Done", Rejected: "Rejected" };
function render(day) {
  const board = $("board");
  board.replaceChildren();
  for (const w of day.washers) {
    const card = el("section", "washer");
    card.dataset.washerId = w.washerId;
    card.append(el("h2", null, w.name));
    const p = w.lastPosition;
    card.append(el("div", "position", p
      ? `Last position ${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)} (±${Math.round(p.accuracyMeters)} m), ${age(p.at)}`
      : "No position yet"));
    if (w.visits.length === 0) card.append(el("div", "empty", "No visits this day"));
    for (const v of w.visits) {
      const row = el("div", `visit ${v.state}`);
      row.dataset.visitId = v.visitId;
      row.dataset.state = v.state;
      const t = new Date(v.startTimeUtc);
      row.append(el("span", "time", t.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })));
      row.append(el("span", "who", v.address ? `${v.name}, ${v.address}` : v.name));
      row.append(el("span", "state", stateNames[v.state] || v.state));
      card.append(row);
    }
    board.append(card);
  }
}
async function refresh() {
  const token = sessionStorage.getItem(KEY);
  if (!token) return showLogin("");
  try {
    const url = `/v1/planner/day?date=${encodeURIComponent(dateInput.value)}&timeZone=${encodeURIComponent(zone)}`;
    const answer = await fetch(url, { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" });
    if (answer.status === 401 || answer.status === 403) {
      sessionStorage.removeItem(KEY);
      return showLogin("The token was refused.");
    }
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    render(await answer.json());
    $("status").textContent = `Updated ${new Date().toLocaleTimeString()}`;
  } catch (e) {
    $("status").textContent = `Not updated: ${e.message}`;
  }
}
function showLogin(message) {
  clearInterval(timer);
  timer = null;
  $("board").replaceChildren();
  $("login").hidden = false;
  $("signout").hidden = true;
  $("loginError").textContent = message;
}
function start() {
  $("login").hidden = true;
  $("signout").hidden = false;
  refresh();
  clearInterval(timer);
  timer = setInterval(refresh, 4000);
}
$("login").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(KEY, $("token").value.trim());
  $("token").value = "";
  start();
});
$("signout").addEventListener("click", () => { sessionStorage.removeItem(KEY); showLogin(""); });
dateInput.value = today();
dateInput.addEventListener("change", refresh);
if (sessionStorage.getItem(KEY)) start(); else showLogin("");
</script>
</body>
</html>
"""#
}
