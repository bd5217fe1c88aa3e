// Calls to the core and the messages they leave: every request goes through api() (POST
// /api/<method>); a failure shows the core's message above the screen.

/** Requests in flight; tests wait for 0. */
window.carfitPending = 0;

/** A non-zero status of the core: its error document, as the server forwarded it. */
export class ApiError extends Error {
  constructor(status, error) {
    super(error && error.message ? error.message : "The server answered " + status + ".");
    this.status = status;
    this.error = error || {};
  }
}

/** Run a core operation: the result document, or an ApiError with the core's message. */
export async function api(method, request) {
  window.carfitPending++;
  try {
    const response = await fetch("/api/" + method, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request || {}),
    });
    let document = null;
    try { document = await response.json(); } catch (e) { document = null; }
    if (!response.ok) throw new ApiError(response.status, document && document.error);
    return document;
  } finally {
    window.carfitPending--;
  }
}

/** Show the core's message for a failed call (or any other failure) above the screen. */
export function showMessage(text, kind) {
  const box = document.getElementById("message");
  document.getElementById("message-text").textContent = text;
  box.className = "message " + (kind || "error");
  box.hidden = false;
}

export function clearMessage() {
  document.getElementById("message").hidden = true;
}

/** Run an action; a failure shows its message instead of escaping as a script error. */
export async function act(action) {
  try {
    return await action();
  } catch (error) {
    showMessage(error.message || String(error));
    return undefined;
  }
}

/** A button that shows a spinner while its action runs. */
export async function busy(button, action) {
  button.classList.add("busy");
  button.setAttribute("aria-busy", "true");
  button.disabled = true;
  try {
    return await act(action);
  } finally {
    button.classList.remove("busy");
    button.removeAttribute("aria-busy");
    button.disabled = false;
  }
}
