// Shared by every page: language and theme switch, toast, the table PIN, JSON writes.
"use strict";
const J = {
  // The Swiss deck's suits and ranks in the order of their ids (``scoring.cards``).
  SUITS: ["eicheln", "schilten", "rosen", "schellen"],
  RANKS: ["6", "7", "8", "9", "10", "under", "ober", "koenig", "ass"],
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
  // A suit as the table's deck calls it (Kreuz, Schaufel, Herz, Ecken for a French deck).
  suitName(suit) { return (J.deck && J.deck.suits !== "swiss" && J.deck.suit_names && J.deck.suit_names[suit]) || J.t(suit); },
  cardName(id) {
    const own = J.deck && J.deck.deck !== "builtin" && J.deck.cards[id];
    if (own) return own.name;
    const [suit, rank] = id.split("-");
    return `${J.t(suit)} ${J.t("r_" + rank)}`;
  },
  // A rules-engine flag in the page's language, with the players' names (J.names, set by
  // the game page) and the cards' names; the engine's German message where no words exist.
  flagText(f) {
    // A flag on a trick's lead may have words of its own (an out-of-turn lead: check the trick before).
    const tpl = window.T && ((f.lead && window.T["fl_" + f.code + "_lead"]) || window.T["fl_" + f.code]);
    if (!tpl) return f.message;
    const nm = (s) => (s === null || s === undefined ? "?" : (J.names && J.names[s]) || `${J.t("seat")} ${s + 1}`);
    const cards = f.cards || [];
    const parts = {
      who: nm(f.seat), other: nm(f.other), cards: cards.map((c) => J.cardName(c)).join(", "),
      card: cards[0] ? J.cardName(cards[0]) : "?", kept: cards[1] ? J.cardName(cards[1]) : "?",
      trick: f.trick === null || f.trick === undefined ? "?" : f.trick + 1,
    };
    return tpl.replace(/\{(\w+)\}/g, (m, k) => (k in parts ? String(parts[k]) : m));
  },
  // A refusal in the page's language where it has words for it (``code``), else the server's message.
  errorText(data) {
    const own = data && data.code && window.T && window.T["err_" + data.code];
    return own || (data && data.error) || "";
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
        // the page's own words: the server's message is English
        err.textContent = J.t(r.status === 429 ? "pin_wait" : "pin_wrong");
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
  // A yes/no question in a dialog of its own: the lines say what will happen. Resolves true on OK.
  ask(title, lines, okLabel) {
    const dlg = J.el("dialog", { class: "ask" });
    const ok = J.el("button", { class: "primary", value: "ok", id: "ask-ok" }, okLabel || J.t("ok"));
    const no = J.el("button", { type: "button", class: "ghost", id: "ask-cancel" }, J.t("cancel"));
    dlg.append(J.el("form", { method: "dialog" }, J.el("h2", { text: title }),
      ...lines.filter(Boolean).map((l) => J.el("p", { class: l.cls || "", text: l.text || l })), J.el("div", { class: "row end" }, no, ok)));
    document.body.append(dlg);
    return new Promise((resolve) => {
      no.addEventListener("click", () => dlg.close("cancel"));
      dlg.addEventListener("close", () => { resolve(dlg.returnValue === "ok"); dlg.remove(); });
      dlg.showModal();
    });
  },
  // Before a new game: a game still running is ended (abandoned) only once the table says so.
  // Resolves {go, end}: go false when the table keeps the running game.
  async endRunningFirst() {
    const r = await fetch("/api/running", { cache: "no-store" }).then((x) => x.json()).catch(() => ({}));
    const g = r.running;
    if (!g) return { go: true, end: false };
    const p = g.players || [];
    const teams = g.variant === "speck" ? p.join(", ") : `${p[0]} & ${p[2]} – ${p[1]} & ${p[3]}`;
    const score = g.totals ? ` · ${g.totals.join(" : ")}` : "";
    const yes = await J.ask(J.t("end_running_q"), [{ text: `#${g.id} ${teams}${score}`, cls: "running-game" }, J.t("end_running_body")], J.t("end_and_start"));
    return { go: yes, end: yes };
  },
  // POST (or ``method``) JSON with this phone's session; asks for the PIN when the server wants it.
  async write(url, body, extraHeaders, method) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const r = await fetch(url, {
        method: method || "POST",
        headers: { "Content-Type": "application/json", ...(extraHeaders || {}) },
        body: JSON.stringify(body),
      });
      const data = await r.json().catch(() => ({ error: r.statusText }));
      if (r.status === 403 && /PIN/.test(data.error || "")) {
        // not signed in (or signed out by a new PIN): the dialog says where the PIN is found
        const again = await J.askPin();
        if (!again) return null;
        continue;
      }
      if (!r.ok) { J.toast(`${J.t("refused")}: ${data.flag ? J.flagText(data.flag) : J.errorText(data) || r.statusText}`, true); return null; }
      return data;
    }
    return null;
  },
};

try { localStorage.removeItem("tablePin"); } catch (e) { /* private mode */ }  // older versions kept the PIN here
// The camera's state in words, and its picture on demand (set-up page and live page).
J.cameraState = (st) => {
  if (!st) return J.t("cam_none");
  const words = { live: "cam_live", opening: "cam_opening", starting: "cam_starting", ended: "cam_ended", lost: "cam_no_frames" };
  const word = words[st.camera] ? J.t(words[st.camera]) : st.camera;
  return st.ok ? word : `${word}${st.message && st.message !== st.camera ? ": " + st.message : ""}`;
};
// A picture that shows the table needs a signed-in phone: fetched with its session, shown as a blob URL.
J.pictureUrl = async (url) => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const r = await fetch(url, { cache: "no-store" });  // the session cookie goes along
    if (r.status === 403) { if (!(await J.askPin())) return null; continue; }
    if (!r.ok) return null;
    return URL.createObjectURL(await r.blob());
  }
  return null;
};
// ``live``: also offer the live picture (the set-up page has it in its mounting check).
J.cameraBox = async (box, live) => {
  const data = await fetch("/api/camera", { cache: "no-store" }).then((r) => r.json()).catch(() => null);
  if (!data) return;
  const st = data.status;
  const img = J.el("img", { class: "cam-picture", id: "cam-picture", alt: J.t("cam_picture"), hidden: true });
  const show = live && data.picture ? J.el("button", { type: "button", id: "cam-show", onclick: async () => {
    const src = await J.pictureUrl("/api/mounting/view.jpg");  // a fresh picture at every tap
    if (src) { img.src = src; img.hidden = false; }
  } }, J.t("cam_show")) : null;
  // how well the camera is hung (web.mounting's verdict), where the appliance measures it
  const m = live && data.picture ? await fetch("/api/mounting", { cache: "no-store" }).then((r) => r.json()).catch(() => null) : null;
  const key = m && m.available ? { good: "mount_good", small: "mount_small", "too-small": "mount_too_small" }[m.state] || "mount_measuring" : null;
  const mounting = key ? J.el("p", { class: `small ${m.state === "good" ? "" : "error"}`, id: "cam-mounting", "data-state": m.state },
    J.t(key).replace("{px}", Math.round(m.card_length_px || 0)).replace("{good}", m.good_px).replace("{least}", m.least_px)) : null;
  J.put(box, J.el("p", { class: `cam-state ${st && st.ok ? "ok" : "bad"}`, id: "cam-state" }, `${J.t("camera")}: ${J.cameraState(st)}`), mounting, show, img);
};
// The table's deck; pages drawn before it arrives draw again ("deck" event) with its names.
fetch("/enroll/api/active").then((r) => (r.ok ? r.json() : null)).then((d) => {
  J.deck = d;
  document.dispatchEvent(new Event("deck"));
}).catch(() => {});
document.getElementById("lang")?.addEventListener("change", (ev) => {
  location.href = `/lang/${ev.target.value}?next=${encodeURIComponent(location.pathname + location.search)}`;
});
document.getElementById("theme")?.addEventListener("click", () => {
  const root = document.documentElement;
  root.dataset.theme = root.dataset.theme === "light" ? "dark" : "light";
  try { localStorage.setItem("theme", root.dataset.theme); } catch (e) { /* private mode */ }
});
