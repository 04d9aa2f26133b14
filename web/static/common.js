// Shared by every page: language and theme switch, toast, the table PIN, JSON writes.
"use strict";
const J = {
  t(key) { return (window.T && window.T[key]) || key; },
  el(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") n.className = v;
      else if (k === "text") n.textContent = v;
      else if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
      else n.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) n.append(kid.nodeType ? kid : String(kid));
    return n;
  },
  put(node, ...kids) { node.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false)); },
  // The table's deck (web/enroll): its own card pictures (the built-in ones by redirect) and, once enrolled, names.
  cardImg(id) { return J.el("img", { src: `/enroll/cards/${id}.png`, alt: J.cardName(id), draggable: "false" }); },
  cardName(id) {
    const own = J.deck && J.deck.deck !== "builtin" && J.deck.cards[id];
    if (own) return own.name;
    const [suit, rank] = id.split("-");
    return `${J.t(suit)} ${J.t("r_" + rank)}`;
  },
  toast(msg, bad) {
    const box = document.getElementById("toast");
    box.textContent = msg;
    box.classList.toggle("bad", !!bad);
    box.classList.add("show");
    clearTimeout(J._toastTimer);
    J._toastTimer = setTimeout(() => box.classList.remove("show"), bad ? 6000 : 2200);
  },
  askPin(message) {
    // Signs this phone in: resolves true once the server accepted the PIN (it then holds
    // an HttpOnly session cookie, so the PIN is never stored or sent again), or null on cancel.
    const dlg = document.getElementById("pin-dialog");
    const input = document.getElementById("pin-input");
    const err = document.getElementById("pin-error");
    err.textContent = message || "";
    input.value = "";
    return new Promise((resolve) => {
      const done = (v) => { dlg.close(); cleanup(); resolve(v); };
      const submit = async (ev) => {
        ev.preventDefault();
        const pin = input.value.trim();
        const r = await fetch("/api/pin", { method: "POST", headers: { "X-Table-Pin": pin } });
        if (r.ok) { done(true); return; }
        const body = await r.json().catch(() => ({}));
        err.textContent = body.error || J.t("pin_wrong");
        input.select();
      };
      const cancel = () => done(null);
      const form = document.getElementById("pin-form");
      const closeBtn = dlg.querySelector("[data-close]");
      function cleanup() { form.removeEventListener("submit", submit); closeBtn.removeEventListener("click", cancel); }
      form.addEventListener("submit", submit);
      closeBtn.addEventListener("click", cancel);
      dlg.showModal();
      input.focus();
    });
  },
  // POST JSON with this phone's session; asks for the PIN when the server wants it.
  async write(url, body, extraHeaders) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const r = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(extraHeaders || {}) },
        body: JSON.stringify(body),
      });
      const data = await r.json().catch(() => ({ error: r.statusText }));
      if (r.status === 403 && /PIN/.test(data.error || "")) {
        const again = await J.askPin(data.error || J.t("pin_wrong"));
        if (!again) return null;
        continue;
      }
      if (!r.ok) { J.toast(`${J.t("refused")}: ${data.error || r.statusText}`, true); return null; }
      return data;
    }
    return null;
  },
};

try { localStorage.removeItem("tablePin"); } catch (e) { /* private mode */ }  // older versions kept the PIN here
fetch("/enroll/api/active").then((r) => (r.ok ? r.json() : null)).then((d) => { J.deck = d; }).catch(() => {});
document.getElementById("lang")?.addEventListener("change", (ev) => {
  location.href = `/lang/${ev.target.value}?next=${encodeURIComponent(location.pathname + location.search)}`;
});
document.getElementById("theme")?.addEventListener("click", () => {
  const root = document.documentElement;
  root.dataset.theme = root.dataset.theme === "light" ? "dark" : "light";
  try { localStorage.setItem("theme", root.dataset.theme); } catch (e) { /* private mode */ }
});
