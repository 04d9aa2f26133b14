// Speck live screen: Bodentrumpf, live points per player, 157 check, 2.8 misplays, Punkteblatt.
// The dashboard's SSE stream (/api/games/<id>/stream) says when the game changed; the
// Speck view itself comes from /speck/api/games/<id> (one fetch per change).
"use strict";
(() => {
  const root = document.getElementById("speck");
  const gameId = Number(root.dataset.game);
  const $ = (id) => document.getElementById(id);
  const T = J.t;
  let view = null;
  let btCard = null;
  let loading = null;
  let again = false;

  const cardFig = (card, caption, cls) =>
    J.el("figure", { class: cls || "" }, card ? J.cardImg(card) : J.el("div", { class: "slot" }), J.el("figcaption", { text: caption }));

  function picker(node, role, onPick) {
    const suits = window.SPECK.suits;
    const ranks = window.SPECK.ranks;
    let suit = node.dataset.suit || suits[0];
    const draw = () => {
      const played = new Set((view && view.round && role === "play") ? view.round.played : []);
      const tabs = J.el("div", { class: "suits" }, suits.map((s) =>
        J.el("button", { type: "button", class: s === suit ? "on" : "", "data-suit": s, text: T(s),
          onclick: () => { suit = s; node.dataset.suit = s; draw(); } })));
      const grid = J.el("div", { class: "ranks" }, ranks.map((r) => {
        const id = `${suit}-${r}`;
        return J.el("button", { type: "button", "data-card": id, class: role === "bodentrumpf" && btCard === id ? "on" : "",
          disabled: played.has(id), "aria-label": J.cardName(id), onclick: () => onPick(id) }, J.cardImg(id));
      }));
      J.put(node, tabs, grid);
    };
    node._draw = draw;
    draw();
  }

  async function post(path, body) {
    return J.write(path, body, view ? { "X-Expect-Count": String(view.count) } : {});
  }

  function renderHead(v) {
    const r = v.round;
    const b = v.blatt;
    const n = v.players;
    $("game-no").textContent = `#${gameId}`;
    const bits = [];
    if (v.phase === "bodentrumpf") {
      bits.push(J.el("span", { class: "trump", text: `${T("game")} ${v.next.game} / ${b.games_planned}` }));
      bits.push(J.el("span", { class: "badge", text: `${T("dealer")}: ${n[v.next.dealer]}` }));
      bits.push(J.el("span", { class: "badge", text: `${T("forehand")}: ${n[v.next.forehand]}` }));
    } else if (v.phase === "over") {
      bits.push(J.el("span", { class: "trump", text: T("all_games_done") }));
    } else if (r) {
      bits.push(J.cardImg(r.bodentrumpf));
      bits.push(J.el("span", { class: "trump", id: "trump", text: `${T("game")} ${r.game} / ${b.games_planned} · ${T("trump_is")} ${T(r.trump)}` }));
      bits.push(J.el("span", { class: "badge", text: `${T("dealer")}: ${n[r.dealer]}` }));
      if (r.to_play !== null) bits.push(J.el("span", { class: "badge", id: "to-play", text: `${T("to_play")}: ${n[r.to_play]}` }));
    }
    J.put($("head"), bits);
  }

  function renderBodentrumpf(v) {
    const panel = $("bt-panel");
    panel.hidden = v.phase !== "bodentrumpf";
    if (panel.hidden) return;
    const prop = v.proposal;
    J.put($("proposal"), prop ? J.el("div", { class: "proposal" }, J.cardImg(prop.card),
      J.el("div", {}, J.el("div", { class: "muted small", text: T("camera_sees") }), J.el("b", { text: J.cardName(prop.card) })),
      J.el("button", { type: "button", class: "primary", id: "bt-camera", onclick: () => confirmBt(prop.card), text: T("confirm") })) : null);
    const node = $("bt-picker");
    if (!node._draw) picker(node, "bodentrumpf", (id) => { btCard = id; node._draw(); $("bt-confirm").disabled = false; $("bt-confirm").textContent = `${T("confirm")}: ${J.cardName(id)}`; });
    else node._draw();
  }

  async function confirmBt(card) {
    const res = await post(`/speck/api/games/${gameId}/bodentrumpf`, { card });
    if (res) { btCard = null; $("bt-confirm").disabled = true; $("bt-confirm").textContent = T("confirm"); J.toast(T("saved")); refresh(); }
  }

  function renderTrick(v) {
    const r = v.round;
    $("trick-panel").hidden = !(v.phase === "playing" && r);
    if ($("trick-panel").hidden) return;
    const figs = r.trick.map((p) => cardFig(p.card, v.players[p.seat], p.void ? "void" : ""));
    if (r.trick.length < 4 && r.to_play !== null) figs.push(cardFig(null, v.players[r.to_play], "turn"));
    J.put($("trick"), figs);
  }

  function renderPoints(v) {
    const r = v.round;
    const b = v.blatt;
    const running = v.phase === "playing" && r;
    const pts = running ? r.points : (b.games.length ? b.games[b.games.length - 1].points : [0, 0, 0, 0]);
    const rows = v.players.map((name, s) => J.el("tr", { class: running && r.to_play === s ? "turn" : "", "data-seat": s },
      J.el("td", { text: name }), J.el("td", { class: "n", text: pts[s] }), J.el("td", { class: "tot", text: `${T("total")} ${b.totals[s] + (running ? pts[s] : 0)}` })));
    J.put($("points"), rows);
    const check = $("check");
    if (running) {
      check.className = "speck-check";
      check.textContent = `${T("sum_check")}: ${r.sum} / 157 (${r.tricks} ${T("tricks")})`;
    } else if (b.games.length) {
      const last = b.games[b.games.length - 1];
      check.className = `speck-check ${last.ok ? "ok" : "bad"}`;
      check.textContent = `${T("game")} ${last.game}: ${T("sum_check")} ${last.sum} – ${last.ok ? T("sum_ok") : T("sum_bad")}`;
    } else {
      check.textContent = "";
    }
  }

  function renderMisplays(v) {
    const list = $("misplays");
    if (!v.misplays.length) { J.put(list, J.el("li", { class: "none decided", text: T("no_misplays") })); return; }
    J.put(list, v.misplays.map((m) => {
      const rule = m.rule;
      const li = J.el("li", { class: m.decided ? "decided" : "", "data-ref": m.ref },
        rule ? J.el("div", {}, J.el("span", { class: "rule-title", text: `${rule.section} ${rule.title}` })) : null,
        J.el("div", { class: "msg", text: `${T("game")} ${m.game} · ${m.name}: ${m.message}` }),
        rule ? J.el("blockquote", { class: "rule-text", text: `«${rule.text}»` }) : null,
        J.el("div", { class: "muted small", text: T("table_decides") }));
      for (const c of m.cards) {
        const box = J.el("div", { class: "rulings", "data-ref": c.ref },
          J.el("span", { class: "what", text: `${T({ kept: "kept_card", trump: "trump_card" }[c.role] || "played_card")}: ${c.card ? J.cardName(c.card) : "?"}` }),
          J.el("button", { type: "button", class: c.ruling === "penalty" ? "on" : "", "data-ruling": "penalty", onclick: () => rule_(c.ref, "penalty"), text: T("penalty") }),
          J.el("button", { type: "button", class: c.ruling === "ignore" ? "on" : "", "data-ruling": "ignore", onclick: () => rule_(c.ref, "ignore"), text: T("ignore") }));
        li.append(box);
      }
      return li;
    }));
  }

  async function rule_(ref, ruling) {
    const res = await post(`/speck/api/games/${gameId}/ruling`, { ref, ruling });
    if (res) { J.toast(T(ruling === "penalty" ? "ruled_penalty" : "ruled_ignore")); refresh(); }
  }

  function renderFlags(v) {
    $("flags-panel").hidden = !v.other_flags.length;
    J.put($("flags"), v.other_flags.map((f) => J.el("li", { text: `${f.game ? T("game") + " " + f.game + ": " : ""}${f.message}` })));
  }

  function renderManual(v) {
    const box = $("manual");
    box.hidden = v.phase !== "playing";
    if (box.hidden) return;
    const node = $("play-picker");
    if (!node._draw) {
      picker(node, "play", async (card) => {
        if (!view || !view.round || view.round.to_play === null) return;
        const res = await J.write(`/api/games/${gameId}/events`, { type: "card_played", seat: view.round.to_play, card, source: "manual" },
          { "X-Expect-Count": String(view.count) });
        if (res) refresh();
      });
    } else node._draw();
  }

  function renderBlatt(v) {
    const b = v.blatt;
    const head = J.el("tr", {}, J.el("th", { class: "l", text: T("game") }), v.players.map((p) => J.el("th", { class: "name", text: p.split(" ")[0] })), J.el("th", { text: T("sum") }));
    const rows = b.games.map((g) => J.el("tr", { class: g.ok ? "" : "bad" }, J.el("td", { class: "l", text: g.game }),
      g.points.map((x) => J.el("td", { text: x })), J.el("td", { class: "sum", text: g.sum })));
    if (b.running) rows.push(J.el("tr", { class: "running" }, J.el("td", { class: "l", text: b.running.game }),
      b.running.points.map((x) => J.el("td", { text: x })), J.el("td", { text: b.running.sum })));
    const foot = J.el("tfoot", {}, J.el("tr", {}, J.el("td", { class: "l", text: T("total") }), b.totals.map((x) => J.el("td", { text: x })),
      J.el("td", { class: "sum", id: "blatt-total", text: b.check.actual })));
    J.put($("blatt"), J.el("thead", {}, head), J.el("tbody", {}, rows), foot);
  }

  function render(v) {
    view = v;
    root.dataset.phase = v.phase;
    root.dataset.count = v.count;
    renderHead(v);
    renderBodentrumpf(v);
    renderTrick(v);
    renderPoints(v);
    renderMisplays(v);
    renderFlags(v);
    renderManual(v);
    renderBlatt(v);
  }

  async function refresh() {
    if (loading) { again = true; return loading; }
    loading = (async () => {
      try {
        const r = await fetch(`/speck/api/games/${gameId}`, { cache: "no-store" });
        if (r.ok) render(await r.json());
      } finally {
        loading = null;
        if (again) { again = false; refresh(); }
      }
    })();
    return loading;
  }

  $("bt-confirm").addEventListener("click", () => { if (btCard) confirmBt(btCard); });

  function connect() {
    const es = new EventSource(`/api/games/${gameId}/stream`);
    const conn = $("conn");
    es.onopen = () => { conn.classList.remove("off"); conn.textContent = T("online"); };
    const changed = () => refresh();
    es.addEventListener("snapshot", changed);
    es.addEventListener("delta", changed);
    es.onerror = () => { conn.classList.add("off"); conn.textContent = T("offline"); };
  }
  refresh();
  connect();
  // The camera's Bodentrumpf proposal is not an event: look for it while one is awaited.
  setInterval(() => { if (view && view.phase === "bodentrumpf") refresh(); }, 2000);
})();
