// Coiffeur, Differenzler and a round entered by hand, on the live game page (game.js calls
// J.variantRender after each render). Nothing here judges a rule: the Tafel, the open
// rows, the penalties and the refusals all come from the server (scoring.coiffeur,
// scoring.differenzler, web.rounds).
"use strict";
(() => {
  const el = J.el, t = J.t;
  const $ = (id) => document.getElementById(id);
  const GAME = window.GAME;
  let mine = {};          // this phone's own Differenzler forecasts for the round under way: seat -> points
  let mineAt = -1;        // the event count they were fetched at

  // A panel of this module, made once in its place on the page.
  function panel(id, pane, before) {
    let node = $(id);
    if (!node) {
      node = el("section", { class: "panel", id });
      const host = document.querySelector(`[data-pane="${pane}"]`);
      host.insertBefore(node, before ? host.querySelector(before) : host.firstChild);
    }
    return node;
  }
  const hide = (id, hidden) => { const n = $(id); if (n) n.hidden = hidden; };
  const closest = (id, sel) => { const n = $(id); return n ? n.closest(sel) : null; };

  J.variantRender = (view, api) => {
    const s = view.state;
    if (!s) return;
    const variant = s.config.variant || "schieber";
    document.body.dataset.variant = variant;
    if (variant === "coiffeur") coiffeur(view, s, api);
    if (variant === "differenzler") differenzler(view, s, api);
    handEntryButton(view, s, api, variant);
    // a round entered by hand has no tricks to count: say so instead of «Stich 1/9»
    const r = s.round;
    const trickNo = $("trick-no");
    if (r && r.by_hand && trickNo) trickNo.replaceWith(el("span", { class: "badge hand", id: "by-hand", text: `✍ ${t("by_hand_mark")}` }));
  };

  // ------------------------------------------------------------------ Coiffeur
  function coiffeur(view, s, api) {
    const tf = s.coiffeur;
    if (!tf) return;
    const turnTeam = (s.next_forehand ?? 0) % 2;
    // the Tafel: every row, both teams, open rows marked, totals and the difference
    const rows = tf.rows.map((row) => el("tr", { "data-row": row.index },
      el("td", { class: "l nowrap" }, api.contractIcon(row.contract), ` ${api.contractLabel(row.contract)}`),
      el("td", { class: "mult", text: `×${row.factor}` }),
      ...[0, 1].map((team) => {
        const c = row.cells[team];
        const now = tf.playing && tf.playing.row === row.index && tf.playing.team === team;
        if (now) return el("td", { class: `${"ab"[team]} open playing`, "data-team": team, text: `▶ ${t("cf_playing")}` });
        if (!c) return el("td", { class: `${"ab"[team]} open`, "data-team": team, text: t("cf_open") });
        return el("td", { class: `${"ab"[team]} played`, "data-team": team, title: `${c.taken} × ${row.factor}` },
          String(c.written), c.match ? el("span", { class: "badge", text: t("match") }) : null,
          c.by_hand ? el("span", { class: "badge hand", title: t("by_hand_mark"), text: "✍" }) : null);
      })));
    const diff = tf.difference;
    const box = panel("coiffeur-tafel", "tafel");
    J.put(box, el("h2", { text: t("cf_tafel") }),
      el("table", { class: "tafel coiffeur", id: "cf-grid" },
        el("thead", {}, el("tr", {}, el("th", { class: "l", text: t("cf_row") }), el("th", { text: "×" }),
          el("th", { class: "a", text: `A · ${api.teamNames(0)}` }), el("th", { class: "b", text: `B · ${api.teamNames(1)}` }))),
        el("tbody", {}, rows),
        el("tfoot", {}, el("tr", {}, el("td", { class: "l", colspan: 2, text: t("total") }),
          el("td", { class: "a sum", id: "cf-total0", text: tf.totals[0] }), el("td", { class: "b sum", id: "cf-total1", text: tf.totals[1] })),
        el("tr", {}, el("td", { class: "l", colspan: 2, text: t("cf_difference") }),
          el("td", { colspan: 2, id: "cf-diff", text: diff === 0 ? "0" : `${"AB"[diff > 0 ? 0 : 1]} +${Math.abs(diff)}` })))),
      el("p", { class: "muted small", id: "cf-open-line", text: [0, 1].map((team) => `${"AB"[team]}: ${tf.open[team].length} ${t("cf_open")}`).join(" · ") }));
    hide("board-panel", true);  // the Z-board counts towards a target; Coiffeur has none
    // the score: no target, so the rows still open instead of «noch X»
    [0, 1].forEach((team) => {
      const node = document.querySelector(`#team${team} .togo`);
      if (node) node.textContent = `${tf.open[team].length} ${t("cf_open")}`;
      const sub = node && node.nextSibling;
      if (sub && sub.textContent && sub.textContent.startsWith(" /")) sub.remove();
    });
    // a new round is a row: the team whose turn it is taps the row it plays
    const next = $("new-round");
    if (next && !s.game_over) {
      next.replaceWith(el("button", { type: "button", class: "primary big wide", id: "play-row", onclick: () => rowDialog(s, api, turnTeam) },
        `+ ${t("cf_play_row")} (${t("team")} ${"AB"[turnTeam]})`));
    }
  }

  function rowChoice(s, api, team) {
    const tf = s.coiffeur;
    return api.choice("row", tf.rows.filter((r) => tf.open[team].includes(r.index)).map((r) =>
      [r.index, el("span", {}, api.contractIcon(r.contract), " ", api.contractLabel(r.contract), el("span", { class: "badge mult", text: `×${r.factor}` }))]), null, "g2");
  }

  async function rowDialog(s, api, team) {
    const forehand = s.next_forehand ?? 0;
    const picked = await api.dialog(`${t("cf_play_row")} · ${t("team")} ${"AB"[team]}`, (body) => {
      const rows = rowChoice(s, api, team);
      const pushed = el("input", { type: "checkbox", id: "cf-schoben" });
      body.replaceChildren(el("p", { class: "muted small", text: `${t("forehand")}: ${api.name(forehand)}` }), rows.node,
        el("label", { class: "check" }, pushed, `${t("schieben")} → ${api.name((forehand + 2) % 4)}`));
      return () => (rows.get() === null ? `${t("cf_row")}?` : { row: Number(rows.get()), schoben: pushed.checked });
    }, t("cf_play"));
    if (picked && await api.post("/row", { ...picked, forehand })) J.toast(t("saved"));
  }

  // ------------------------------------------------------------------ Differenzler
  function differenzler(view, s, api) {
    const df = s.differenzler;
    if (!df) return;
    const r = s.round;
    // Each phone sees its own forecasts (the server answers only the session that made them).
    if (mineAt !== view.count) { mineAt = view.count; loadMine(api); }
    const running = r && !r.complete && !r.abandoned;
    const given = df.forecast_given || [false, false, false, false];
    const live = running ? r.score.player_points : null;
    const box = panel("df-panel", "table");
    const rowsOf = [0, 1, 2, 3].map((seat) => el("tr", { "data-seat": seat },
      el("td", { class: "l", text: api.name(seat) }),
      el("td", { class: "df-forecast", text: seat in mine ? `${mine[seat]} ✓` : given[seat] ? "🔒 ✓" : "–" }),
      el("td", { text: live ? live[seat] : "–" }),
      el("td", { class: "sum", text: df.penalty_totals[seat] })));
    const canForecast = !s.game_over && (!r || r.complete || r.abandoned || r.played.length === 0);
    J.put(box, el("h2", { text: t("differenzler") }),
      el("table", { class: "tafel", id: "df-table" },
        el("thead", {}, el("tr", {}, el("th", { class: "l", text: t("player") }), el("th", { text: t("df_forecast") }),
          el("th", { text: t("df_points") }), el("th", { text: t("df_penalty") }))),
        el("tbody", {}, rowsOf)),
      el("p", { class: "muted small", id: "df-given", text: `${t("df_given")}: ${given.filter(Boolean).length}/4 · ${t("df_played")} ${df.rounds.length}/${df.rounds_planned}` }),
      canForecast ? el("button", { type: "button", class: "primary big wide", id: "df-forecast-btn", onclick: () => forecastDialog(s, api) }, t("df_make")) : null);
    // the sheet of the rounds played: forecasts shown only now that each round is over
    const sheet = panel("df-sheet", "tafel");
    J.put(sheet, el("h2", { text: t("df_sheet") }), el("div", { class: "scroll" }, el("table", { class: "tafel", id: "df-rounds" },
      el("thead", {}, el("tr", {}, el("th", { class: "l", text: "#" }), ...[0, 1, 2, 3].map((seat) => el("th", { text: api.name(seat) })))),
      el("tbody", {}, df.rounds.map((line) => el("tr", { "data-round": line.round },
        el("td", { class: "l nowrap" }, `${line.round + 1} `, api.contractIcon(line.contract),
          line.by_hand ? el("span", { class: "badge hand", title: t("by_hand_mark"), text: "✍" }) : null),
        ...[0, 1, 2, 3].map((seat) => el("td", { title: `${t("df_forecast")} ${line.forecasts[seat] ?? "–"} · ${t("df_points")} ${line.points[seat]}` },
          `${line.forecasts[seat] ?? "–"} / ${line.points[seat]} `, el("b", { text: line.penalties[seat] })))))),
      el("tfoot", {}, el("tr", {}, el("td", { class: "l", text: t("df_penalty") }),
        ...[0, 1, 2, 3].map((seat) => el("td", { class: "sum", id: `df-total${seat}`, text: df.penalty_totals[seat] })))))),
      el("p", { class: "muted small", text: t("df_sheet_hint") }));
    // Teams, a target and a Z-board mean nothing here: every player for themselves.
    hide("score", true);
    hide("board-panel", true);
    const tafelTable = closest("tafel", "section");
    if (tafelTable) tafelTable.hidden = true;
    const chart = closest("chart", "section");
    if (chart) chart.hidden = true;
    if (s.game_over) {
      const places = s.game_over.places || [];
      J.put($("banner"), el("div", { class: "banner", id: "game-over" }, `${t("game_over")} · `,
        (s.game_over.ranking || []).map((seat, i) => `${places[i]}. ${api.name(seat)} (${df.penalty_totals[seat]})`).join(" · ")));
    }
  }

  async function loadMine(api) {
    const r = await fetch(`/api/games/${GAME}/forecast`, { cache: "no-store" }).catch(() => null);
    if (!r || !r.ok) { mine = {}; return; }  // not signed in: this phone has made none
    const data = await r.json();
    const next = {};
    for (const [seat, points] of Object.entries(data.forecasts || {})) next[Number(seat)] = points;
    const changed = JSON.stringify(next) !== JSON.stringify(mine);
    mine = next;
    if (changed && J.variantRender && api.st()) {
      const cells = document.querySelectorAll("#df-table .df-forecast");
      const given = (api.st().differenzler || {}).forecast_given || [];
      cells.forEach((td, seat) => { td.textContent = seat in mine ? `${mine[seat]} ✓` : given[seat] ? "🔒 ✓" : "–"; });
    }
  }

  async function forecastDialog(s, api) {
    const key = `jasscam-seat-${GAME}`;
    let remembered = null;
    try { remembered = localStorage.getItem(key); } catch (e) { /* private mode */ }
    const max = s.config.count_weis ? 1000 : 157;
    const out = await api.dialog(t("df_make"), (body) => {
      const who = api.choice("df-seat", api.seatOptions(), remembered === null ? null : Number(remembered), "g2");
      // shown as dots to anyone looking over the shoulder, yet no password the browser offers to save
      const points = el("input", { id: "df-points", type: "text", inputmode: "numeric", autocomplete: "off", pattern: "[0-9]*", class: "short secret" });
      body.replaceChildren(el("h2", { text: t("df_who") }), who.node,
        el("label", { class: "field" }, el("span", { text: `${t("df_forecast")} (0–${max})` }), points),
        el("p", { class: "muted small", text: t("df_secret") }));
      return () => {
        if (who.get() === null) return `${t("df_who")}?`;
        const v = points.value.trim();
        if (!/^[0-9]+$/.test(v) || Number(v) > max) return `${t("df_forecast")}: 0–${max}`;
        return { seat: Number(who.get()), points: Number(v) };
      };
    }, t("send"));
    if (!out) return;
    try { localStorage.setItem(key, String(out.seat)); } catch (e) { /* private mode */ }
    if (await api.post("/forecast", out)) { J.toast(t("saved")); mineAt = -1; }
  }

  // ------------------------------------------------------------------ a round by hand
  function handEntryButton(view, s, api, variant) {
    const box = $("actions");
    if (!box || view.abandoned || s.game_over || variant === "speck" || $("enter-round")) return;
    box.insertBefore(el("button", { type: "button", id: "enter-round", onclick: () => handDialog(s, api, variant) }, `✍ ${t("hand_round")}`),
      $("undo-quick"));
  }

  const CONTRACTS = ["eicheln", "schilten", "rosen", "schellen", "obenabe", "undenufe"];
  const TRUMPS = ["eicheln", "schilten", "rosen", "schellen"];
  const WEIS_VALUES = [20, 50, 100, 150, 200];

  function number(id, placeholder) {
    return el("input", { id, type: "text", inputmode: "numeric", pattern: "[0-9]*", autocomplete: "off", class: "short", placeholder });
  }

  // Weis by value: tap values to add them up (the team with the best Weis writes all of its Weis).
  function weisPicker(prefix) {
    let sum = 0;
    const shown = el("b", { id: `${prefix}-sum`, text: "0" });
    const node = el("div", { class: "choices" }, ...WEIS_VALUES.map((v) => el("button", { type: "button", class: "chip", "data-weis": v,
      onclick: () => { sum += v; shown.textContent = String(sum); } }, `+${v}`)),
    el("button", { type: "button", class: "chip ghost", onclick: () => { sum = 0; shown.textContent = "0"; } }, "0"), " = ", shown);
    return { node, get: () => sum };
  }

  async function handDialog(s, api, variant) {
    const individual = variant === "differenzler";
    const forehand = s.next_forehand ?? 0;
    const declarerTeam = forehand % 2;
    const out = await api.dialog(t("hand_round"), (body) => {
      const parts = [];
      let row = null, contract = null;
      if (variant === "coiffeur" && s.coiffeur) {
        row = rowChoice(s, api, declarerTeam);
        parts.push(el("h2", { text: `${t("cf_row")} · ${t("team")} ${"AB"[declarerTeam]}` }), row.node);
      } else {
        contract = api.choice("hand-contract", CONTRACTS.map((c) => [c, el("span", {}, api.contractIcon(c), " ", api.contractLabel(c))]), null, "g2");
        parts.push(el("h2", { text: t("contract") }), contract.node);
      }
      const pushed = el("input", { type: "checkbox", id: "hand-schoben" });
      if (!individual) parts.push(el("label", { class: "check" }, pushed, `${t("schieben")} → ${api.name((forehand + 2) % 4)}`));
      let collect;
      if (individual) {
        const inputs = [0, 1, 2, 3].map((seat) => number(`hand-p${seat}`, "0"));
        parts.push(el("h2", { text: t("df_points") }), ...inputs.map((inp, seat) => el("label", { class: "field inline" }, el("span", { text: api.name(seat) }), inp)),
          el("p", { class: "muted small", text: t("hand_sum157") }));
        // with Weis and Stöck counted (a setting): each player's Weis by value, and who had Stöck
        const weisOf = s.config.count_weis ? [0, 1, 2, 3].map((seat) => number(`hand-w${seat}`, "0")) : null;
        const stoeckSeat = s.config.count_weis ? api.choice("hand-stoeck", [["", t("none")], ...api.seatOptions()], "", "g3") : null;
        if (weisOf) {
          parts.push(el("h2", { text: t("weis") }), ...weisOf.map((inp, seat) => el("label", { class: "field inline" }, el("span", { text: api.name(seat) }), inp)),
            el("h2", { text: t("stoeck") }), stoeckSeat.node);
        }
        collect = () => {
          const pts = inputs.map((i) => i.value.trim());
          if (!pts.every((p) => /^[0-9]+$/.test(p))) return t("hand_points_q");
          const entry = { player_points: pts.map(Number) };
          if (weisOf) {
            const w = weisOf.map((i) => i.value.trim() || "0");
            if (!w.every((v) => /^[0-9]+$/.test(v))) return `${t("weis")}?`;
            if (w.some((v) => v !== "0")) entry.weis = w.map(Number);
            if (stoeckSeat.get() !== "") entry.stoeck = Number(stoeckSeat.get());
          }
          return entry;
        };
      } else {
        const team = api.choice("hand-team", [[0, `A · ${api.teamNames(0)}`], [1, `B · ${api.teamNames(1)}`]], declarerTeam, "g2");
        const points = number("hand-points", "0–157");
        const other = el("span", { id: "hand-other", class: "muted" });
        const match = el("input", { type: "checkbox", id: "hand-match" });
        const showOther = () => {
          const v = Number(points.value.trim());
          other.textContent = match.checked ? `${t("match")}: 257` : /^[0-9]+$/.test(points.value.trim()) && v <= 157 ? `${t("hand_other")}: ${157 - v}` : "";
        };
        points.addEventListener("input", showOther);
        match.addEventListener("change", () => { if (match.checked) points.value = "157"; showOther(); });
        const weisTeam = api.choice("hand-weis-team", [["", t("none")], [0, "A"], [1, "B"]], "", "g3");
        const weis = weisPicker("hand-weis");
        const stoeck = api.choice("hand-stoeck", [["", t("none")], [0, "A"], [1, "B"]], "", "g3");
        parts.push(el("h2", { text: t("hand_points_of") }), team.node,
          el("label", { class: "field inline" }, el("span", { text: t("hand_points") }), points), other,
          el("label", { class: "check" }, match, t("match")),
          el("h2", { text: t("weis") }), weisTeam.node, weis.node,
          el("h2", { text: t("stoeck") }), stoeck.node);
        collect = () => {
          const p = points.value.trim();
          if (!/^[0-9]+$/.test(p) || Number(p) > 157) return t("hand_points_q");
          const entry = { team: Number(team.get()), points: Number(p), match: match.checked };
          if (weis.get() && weisTeam.get() === "") return `${t("weis")}: ${t("team")}?`;
          if (weisTeam.get() !== "") entry.weis = [0, 1].map((tm) => (tm === Number(weisTeam.get()) ? weis.get() : 0));
          if (stoeck.get() !== "") entry.stoeck = Number(stoeck.get());
          return entry;
        };
      }
      body.replaceChildren(el("p", { class: "muted small", text: `${t("forehand")}: ${api.name(forehand)}` }), ...parts);
      return () => {
        const entry = collect();
        if (typeof entry === "string") return entry;
        if (row) {
          if (row.get() === null) return `${t("cf_row")}?`;
          entry.row = Number(row.get());
          entry.contract = s.coiffeur.rows[entry.row].contract;
        } else {
          if (!contract.get()) return `${t("contract")}?`;
          entry.contract = contract.get();
        }
        if (!TRUMPS.includes(entry.contract) && entry.stoeck !== undefined) return t("hand_no_stoeck");
        entry.forehand = forehand;
        if (pushed.checked) entry.schoben = true;
        return entry;
      };
    }, t("send"));
    if (out && await api.post("/round", out)) J.toast(t("saved"));
  }
})();
