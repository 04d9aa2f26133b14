// The live game's dialogs that write an event (a round, Weis, Stöck, a card corrected or
// entered by hand), and the small framework they and variants.js are built with. The dialog
// only collects what the table says; the rules engine judges it when it is sent.
"use strict";
J.gameDialogs = (api) => {
  const el = J.el, t = J.t;
  const $ = (id) => document.getElementById(id);
  const SUITS = J.SUITS, RANKS = J.RANKS;
  const CONTRACTS = [...SUITS, "obenabe", "undenufe"];
  const { st, send, name, teamNames, contractIcon, contractLabel } = api;
  const view = () => api.view();

  async function stoeckDialog() {
    const ev = await dialog(t("stoeck_who"), (body) => {
      const who = choice("stoeck-seat", seatOptions(), null, "g2");
      body.replaceChildren(who.node, el("p", { class: "muted small", text: t("stoeck_hint") }));
      return () => (who.get() === null ? t("stoeck_who") : { type: "stoeck_called", seat: Number(who.get()) });
    }, t("stoeck"));
    if (!ev) return;
    const res = await send(ev, { quiet: true });
    if (!res) return;  // refused: the toast gives the engine's reason
    // Accepted: say what it wrote, from the engine's state once it arrives.
    await until(() => view().count > res.position);
    const got = stoeckNow();
    if (got && got.status === "called") J.toast(`${t("stoeck")} +${got.points} · ${t("team")} ${"AB"[got.team]} (${teamNames(got.team)})`);
    else J.toast(t("saved"));
  }

  function stoeckNow() {
    const r = st() && st().round;
    if (!r || !r.stoeck || r.stoeck.team === null || r.stoeck.team === undefined) return null;
    return { status: r.stoeck.status, team: r.stoeck.team, points: r.score.written[r.stoeck.team].stoeck };
  }

  function until(cond, ms) {
    // Resolves once cond() holds after a render (the SSE delta of our own write), or after ms.
    return new Promise((resolve) => {
      const t0 = Date.now();
      const tick = () => (cond() || Date.now() - t0 > (ms || 5000) ? resolve() : setTimeout(tick, 50));
      tick();
    });
  }

  // A question with the text of what will change; resolves true on OK.
  function ask(title, lines, okLabel) {
    return dialog(title, (body) => {
      body.replaceChildren(...lines.filter(Boolean).map((l) => el("p", { class: l.cls || "", text: l.text || l })));
      return () => true;
    }, okLabel);
  }

  // A small dialog framework: body builder + collect() returning the event or an error string.
  function dialog(title, build, okLabel) {
    const dlg = $("dlg");
    $("dlg-title").textContent = title;
    $("dlg-ok").textContent = okLabel || t("send");
    $("dlg-error").textContent = "";
    const body = $("dlg-body");
    const collect = build(body);
    const form = $("dlg-form");
    return new Promise((resolve) => {
      const ok = async (ev) => {
        ev.preventDefault();
        const out = collect();
        if (typeof out === "string") { $("dlg-error").textContent = out; return; }
        finish();
        resolve(out);
      };
      const cancel = () => { finish(); resolve(null); };
      function finish() { form.removeEventListener("submit", ok); $("dlg-cancel").removeEventListener("click", cancel); dlg.close(); }
      form.addEventListener("submit", ok);
      $("dlg-cancel").addEventListener("click", cancel);
      dlg.showModal();
    });
  }

  function choice(id, options, initial, cls, onchange) {
    // A grid of big buttons; returns {node, get()}.
    let value = initial;
    const node = el("div", { class: `grid ${cls}`, id: `pick-${id}` });
    const draw = () => node.querySelectorAll("button").forEach((b) => b.classList.toggle("on", b.dataset.value === String(value)));
    for (const [v, label] of options) {
      node.append(el("button", { type: "button", "data-value": v, onclick: () => { value = v; draw(); onchange && onchange(v); } }, label));
    }
    draw();
    return { node, get: () => value, set: (v) => { value = v; draw(); } };
  }
  const seatOptions = () => [0, 1, 2, 3].map((s) => [s, name(s)]);

  function cardPicker(initial, onchange) {
    // Suit first (four big buttons), then the nine cards of that suit as big pictures.
    let value = initial;
    let suit = initial ? initial.split("-")[0] : SUITS[0];
    const grid = el("div", { class: "picker" });
    const suits = choice("psuit", SUITS.map((x) => [x, el("span", {}, contractIcon(x), " ", J.suitName(x))]), suit, "g2", (v) => { suit = v; draw(); });
    function draw() {
      J.put(grid, RANKS.map((r) => {
        const id = `${suit}-${r}`;
        return el("button", { type: "button", "data-card": id, class: id === value ? "on" : "", title: J.cardName(id),
          onclick: () => { value = id; draw(); if (onchange) onchange(id); } }, J.cardImg(id));
      }));
    }
    draw();
    return { node: el("div", { class: "cardpick" }, suits.node, grid), get: () => value };
  }

  async function roundDialog() {
    const s = st();
    const ev = await dialog(t("new_round"), (body) => {
      const fore = choice("forehand", seatOptions(), s.next_forehand ?? 0, "g2");  // the engine's rotation
      const con = choice("contract", CONTRACTS.map((c) => [c, el("span", {}, contractIcon(c), " ", contractLabel(c),
        view().factors ? el("span", { class: "badge mult", text: `×${view().factors[c]}` }) : null)]), null, "g2");
      const pushed = el("input", { type: "checkbox", id: "schieben" });
      body.replaceChildren(el("h2", { text: t("forehand") }), fore.node, el("h2", { text: t("contract") }), con.node,
        el("label", { class: "check" }, pushed, t("schieben")));
      return () => {
        if (!con.get()) return t("contract") + "?";
        const f = Number(fore.get());
        // After Schieben the engine names the partner as declarer.
        return { type: "round_started", forehand: f, contract: con.get(), schoben: pushed.checked };
      };
    });
    if (ev) await send(ev);
  }

  async function weisDialog() {
    const s = st();
    const ev = await dialog(t("declare_weis"), (body) => {
      // Weis is announced with one's first card: default to whoever laid the last card.
      const trick = s.round ? s.round.trick : [];
      const who = choice("seat", seatOptions(), trick.length ? trick[trick.length - 1].seat : s.to_play ?? 0, "g2");
      const preview = el("div", { class: "cards preview" });
      let cards = [];
      const seqBox = el("div", {});
      const fourBox = el("div", {}, el("h2", { text: t("rank") }));
      const kind = choice("kind", [["sequence", t("sequence")], ["four", t("four_kind")]], "sequence", "g2", (k) => { seqBox.hidden = k !== "sequence"; fourBox.hidden = k !== "four"; update(); });
      const suit = choice("suit", SUITS.map((x) => [x, el("span", {}, contractIcon(x), " ", J.suitName(x))]), "eicheln", "g2", () => update());
      const from = choice("from", RANKS.map((r) => [r, t("r_" + r)]), "6", "g3", () => update());
      const to = choice("to", RANKS.map((r) => [r, t("r_" + r)]), "8", "g3", () => update());
      const four = choice("four", ["10", "under", "ober", "koenig", "ass", "9"].map((r) => [r, t("r_" + r)]), "ass", "g3", () => update());
      seqBox.append(el("h2", { text: t("suit") }), suit.node, el("h2", { text: t("from") }), from.node, el("h2", { text: t("to") }), to.node);
      fourBox.append(four.node);
      fourBox.hidden = true;
      function update() {
        if (kind.get() === "sequence") {
          const a = RANKS.indexOf(from.get()), b = RANKS.indexOf(to.get());
          cards = RANKS.slice(Math.min(a, b), Math.max(a, b) + 1).map((r) => `${suit.get()}-${r}`);
        } else {
          cards = SUITS.map((x) => `${x}-${four.get()}`);
        }
        preview.replaceChildren(...cards.map((c) => el("span", { class: "card" }, J.cardImg(c))));
      }
      update();
      body.replaceChildren(el("h2", { text: t("who") }), who.node, el("h2", { text: t("weis_kind") }), kind.node, seqBox, fourBox, preview);
      // Each Weis on its own (a list of lists), so one card may be in a sequence and a four.
      return () => ({ type: "weis_declared", seat: Number(who.get()), weis: [cards] });
    });
    if (ev) await send(ev);
  }

  async function correctDialog(pc) {
    const row = view().events[pc.ref];
    const ev = await dialog(`${t("correct_card")} #${pc.ref}`, (body) => {
      const pick = cardPicker(pc.card);
      const who = choice("seat", seatOptions(), pc.seat, "g2");
      let quick = null;  // a one-tap answer: the card as read, or one of the camera's alternatives
      const answer = (card) => { quick = { type: "card_corrected", ref: pc.ref, card }; $("dlg-form").requestSubmit(); };
      const unsure = row && row.unsure ? el("div", { class: "unsure-box" },
        el("p", { class: "small", text: `${t("unsure")} (${Math.round(100 * row.confidence)} %)` }),
        el("div", { class: "grid g2" },
          el("button", { type: "button", class: "primary", id: "confirm-card", onclick: () => answer(pc.card) }, `✓ ${t("card_right")}: ${J.cardName(pc.card)}`),
          ...(row.alternatives || []).slice(0, 3).map(([card, p]) => el("button", { type: "button", class: "alt", "data-card": card, onclick: () => answer(card) },
            `${J.cardName(card)} (${Math.round(100 * p)} %)`)))) : null;
      body.replaceChildren(...[unsure, pick.node, el("h2", { text: t("played_by") }), who.node].filter(Boolean));
      return () => {
        if (quick) return quick;
        const out = { type: "card_corrected", ref: pc.ref, card: pick.get() };
        if (Number(who.get()) !== pc.seat) out.seat = Number(who.get());
        if (out.card === pc.card && out.seat === undefined) return "=";
        return out;
      };
    });
    if (ev) await send(ev);
  }

  async function unseenDialog(gap) {
    const ev = await dialog(`${t("enter_unseen")} · ${name(gap.seat)}`, (body) => {
      const pick = cardPicker(null);
      body.replaceChildren(pick.node);
      // The seat says which unseen card this is when the trick lost two.
      return () => (pick.get() ? { type: "card_corrected", ref: gap.ref, card: pick.get(), seat: gap.seat } : "?");
    });
    if (ev) await send(ev);
  }

  async function enterCardDialog() {
    const s = st();
    const ev = await dialog(t("enter_card"), (body) => {
      const who = choice("seat", seatOptions(), s.to_play ?? 0, "g2");
      const pick = cardPicker(null);
      body.replaceChildren(el("h2", { text: t("who") }), who.node, pick.node);
      return () => (pick.get() ? { type: "card_played", seat: Number(who.get()), card: pick.get(), source: "manual" } : "?");
    });
    if (ev) await send(ev);
  }

  return {
    dialog, choice, ask, until, seatOptions,
    stoeckDialog, roundDialog, weisDialog, correctDialog, unseenDialog, enterCardDialog,
  };
};
