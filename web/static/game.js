// The live game: rendered from the rules engine's state (view.state), kept current by SSE.
// Nothing here judges a rule: points, Weis, Stöck, winners all come from the server.
"use strict";
(() => {
  const GAME = window.GAME;
  const EDGES = ["bottom", "right", "top", "left"];
  const SUITS = J.SUITS, RANKS = J.RANKS;
  const $ = (id) => document.getElementById(id);
  const el = J.el, t = J.t;
  let view = null;       // {game, count, events, state, error}
  let source = null;
  let backoff = 500;
  let tab = "table";

  // ---------------------------------------------------------------- live connection
  function connect() {
    source = new EventSource(`/api/games/${GAME}/stream`);
    source.addEventListener("open", () => setConn(true));
    source.addEventListener("error", () => {
      setConn(false);
      // EventSource retries by itself after a network error; after an HTTP error (a 503
      // while the server restarts) it gives up, so start a new one with a short backoff.
      if (source.readyState === EventSource.CLOSED) {
        source = null;
        backoff = Math.min(backoff * 2, 10000);
        // a game the table deleted does not come back: say so instead of retrying
        fetch(`/api/games/${GAME}`, { cache: "no-store" }).then((r) => {
          if (r.status === 404) J.put($("banner"), el("div", { class: "banner bad", id: "deleted", text: t("deleted") }));
          else setTimeout(connect, backoff);
        }).catch(() => setTimeout(connect, backoff));
      }
    });
    source.addEventListener("snapshot", (ev) => { view = JSON.parse(ev.data); backoff = 500; setConn(true); render(); });
    source.addEventListener("delta", (ev) => {
      const d = JSON.parse(ev.data);
      if (!view || d.from !== view.count) return;  // the server only sends deltas on our base
      const rows = view.events.slice(0, d.events_from).concat(d.view.events || []);
      Object.assign(view, d.view);
      view.events = rows;
      view.count = d.count;
      render();
    });
    source.addEventListener("status", (ev) => {
      const st = JSON.parse(ev.data);
      const box = $("camera");
      box.hidden = st.ok && !st.warning;  // a warning: the disk is full, recording stopped
      box.textContent = st.ok ? (st.warning || "") : `${t("camera_lost")}: ${st.message || st.camera}`;
      const deck = st.deck, dbox = $("deck");
      dbox.hidden = !deck;
      dbox.classList.toggle("bad", Boolean(deck && deck.error));
      if (!deck) dbox.textContent = "";
      else if (deck.error) dbox.textContent = `${t("deck_unusable")}: ${deck.error}`;
      else dbox.textContent = `${t("deck_rebuilding")} «${deck.name || deck.rebuilding}»: ${Math.round(100 * (deck.progress || 0))} %`
        + (deck.reading === "builtin" ? ` (${t("deck_builtin_meanwhile")})` : "");
    });
    source.addEventListener("newgame", (ev) => {
      const g = JSON.parse(ev.data).game;
      J.toast(`${t("new_game")} #${g}`);
      setTimeout(() => { location.href = `/game/${g}`; }, 1200);
    });
  }
  function setConn(on) {
    const c = $("conn");
    c.classList.toggle("off", !on);
    c.textContent = on ? t("online") : t("offline");
    document.body.dataset.live = on ? "on" : "off";
  }

  // ---------------------------------------------------------------- helpers
  const st = () => (view && view.state) || null;
  const cfg = () => st()?.config || { players: ["1", "2", "3", "4"], target: 1000 };
  const name = (seat) => cfg().players[seat];
  const teamOf = (seat) => seat % 2;
  const teamNames = (team) => `${name(team)} & ${name(team + 2)}`;
  const posOf = (seat) => EDGES[(EDGES.indexOf(window.EDGE || "bottom") + seat) % 4];
  const contractLabel = (c) => (SUITS.includes(c) ? J.suitName(c) : t(c));
  function contractIcon(c) {
    if (SUITS.includes(c)) return el("img", { class: "icon-card", src: `/enroll/cards/${c}-ass.png`, alt: "", width: 22 });
    return el("span", { class: "icon-arrow", text: { obenabe: "⬆", undenufe: "⬇", slalom: "⇅", misere: "∅" }[c] || "?" });
  }
  const writes = () => view.events.filter((r) => !r.voided);

  async function send(event, opts) {
    const res = await J.write(`/api/games/${GAME}/events`, event, { "X-Expect-Count": String(view.count) });
    if (res && !(opts && opts.quiet)) J.toast(t("saved"));
    return res;
  }

  // What dialogs.js, tafel.js and variants.js draw with: the same writes, names and icons as this page.
  const api = {
    st, cfg, name, teamNames, contractIcon, contractLabel, send,
    view: () => view,
    count: () => view.count,
    post: (path, body) => J.write(`/api/games/${GAME}${path}`, body, { "X-Expect-Count": String(view.count) }),
  };
  const ui = J.gameDialogs(api);
  Object.assign(api, { dialog: ui.dialog, choice: ui.choice, seatOptions: ui.seatOptions });

  // ---------------------------------------------------------------- render
  function render() {
    if (!view) return;
    document.body.dataset.count = view.count;
    const s = st();
    if (!s) { J.put($("banner"), el("div", { class: "banner", text: view.error || "?" })); return; }
    J.names = cfg().players;
    renderBanner(s);
    renderScore(s);
    renderContract(s);
    renderTable(s);
    renderActions(s);
    renderWeis(s);
    renderLast(s);
    renderFlags(s);
    J.renderTafel(s, api);  // the sheet, the Jasstafel and the chart (tafel.js)
    renderEvents();
    if (J.variantRender) J.variantRender(view, api);  // Coiffeur, Differenzler, a round by hand (variants.js)
  }

  function renderBanner(s) {
    const box = $("banner");
    const go = s.game_over;
    if (go) {
      const who = go.winner === null || go.winner === undefined ? "–" : `${t("team")} ${"AB"[go.winner]} (${teamNames(go.winner)})`;
      J.put(box, el("div", { class: "banner", id: "game-over" },
        `${t("game_over")} · ${t("winner")}: ${who}`, el("br"),
        el("small", { text: `${t("decided_by")}: ${go.deciding_block ? t(go.deciding_block) : "–"}` })));
      return;
    }
    const r = s.round;
    if (r && r.score.match_team !== null && r.score.match_team !== undefined) {
      J.put(box, el("div", { class: "banner match", id: "match" }, `${t("match")}! ${t("team")} ${"AB"[r.score.match_team]} (${teamNames(r.score.match_team)})`));
      return;
    }
    J.put(box, );
  }

  const tricksText = (n) => `${n} ${t(n === 1 ? "trick" : "tricks")}`;

  function renderScore(s) {
    // At a glance: while a round runs its points are the big number (they change with
    // every trick); the game total and what is left to the target sit under it.
    const target = cfg().target;
    const r = s.round;
    const winner = s.game_over ? s.game_over.winner : null;
    J.put($("score"), ...[0, 1].map((team) => {
      const total = s.totals[team].total;
      const running = r && !r.complete && !r.abandoned && !s.game_over ? r.score.written[team].total : null;
      const togo = el("span", { class: "togo", text: `${t("to_target")} ${Math.max(0, target - total)}` });
      const totalNode = el("span", { class: "total", "data-total": total, text: total });
      const body = running !== null
        ? [el("div", { class: "big rnd", title: t("round_points") }, `+${running}`),
          el("div", { class: "sub" }, el("span", { class: "muted", text: `${t("total")} ` }), totalNode), el("div", { class: "sub" }, togo),
          el("div", { class: "tricks muted small", text: `${t("round_points")} · ${tricksText(r.score.tricks_won[team])}` }),
          r.score.written[team].stoeck ? el("span", { class: "badge stoeck-badge", text: `${t("stoeck")} +${r.score.written[team].stoeck}` }) : null]
        : [el("div", { class: "big" }, totalNode), el("div", { class: "sub" }, togo, el("span", { class: "muted", text: ` / ${target}` }))];
      return el("div", { class: `team t${team}${winner === team ? " win" : ""}`, id: `team${team}` },
        el("div", { class: "names", text: `${"AB"[team]} · ${teamNames(team)}` }), ...body);
    }));
  }

  function trickNumber(r) {
    // The trick on the table: the one being laid, or the complete one still lying there;
    // once it is collected, the next one.
    if (r.trick.length) return r.trick.length === 4 ? r.tricks.length : r.tricks.length + 1;
    const last = r.tricks[r.tricks.length - 1];
    return Math.min(9, r.tricks.length + (!last || last.collected ? 1 : 0));
  }

  function renderContract(s) {
    const r = s.round;
    const box = $("contract");
    if (!r) { J.put(box, el("span", { class: "muted", text: t("new_round") + " …" })); return; }
    J.put(box, 
      el("span", { class: "badge", text: `${t("round")} ${r.index + 1}` }),
      el("span", { class: "trump", id: "trump" }, contractIcon(r.contract), " ", contractLabel(r.contract)),
      el("span", { class: "badge mult", id: "mult", text: `×${r.multiplier}` }),
      el("span", { class: "muted small", text: `${t("forehand")}: ${name(r.forehand)}` }),
      r.schoben ? el("span", { class: "badge", text: `${t("schieben")} → ${name(r.declarer)}` }) : null,
      el("span", { class: "muted small", id: "trick-no", text: `${t("trick")} ${trickNumber(r)}/9` }));
  }

  function cardButton(pc, extraClass) {
    // A read the camera was unsure of is marked: one tap confirms or corrects it.
    const row = view.events[pc.ref];
    const unsure = row && row.unsure;
    return el("button", {
      type: "button", class: `card${extraClass ? " " + extraClass : ""}${unsure ? " unsure" : ""}`, "data-ref": pc.ref, "data-card": pc.card,
      title: `${unsure ? t("unsure") : t("correct")}: ${J.cardName(pc.card)}`, onclick: () => ui.correctDialog(pc),
    }, J.cardImg(pc.card), unsure ? el("span", { class: "unsure-mark", text: `? ${Math.round(100 * row.confidence)} %` }) : null);
  }

  function renderTable(s) {
    const r = s.round;
    const felt = $("felt");
    const trick = r ? r.trick : [];
    const bySeat = {};
    for (const pc of trick) bySeat[pc.seat] = pc;
    const seats = [0, 1, 2, 3].map((seat) => {
      const pc = bySeat[seat];
      const turn = s.to_play === seat;
      const leads = r && r.leader === seat && !r.complete;
      return el("div", { class: `seat pos-${posOf(seat)} team${teamOf(seat)}${turn ? " turn" : ""}`, id: `seat${seat}`, "data-seat": seat },
        el("div", { class: "who", title: leads ? t("leader") : turn ? t("to_play") : "", text: `${leads ? "▶ " : ""}${name(seat)}` }),
        el("div", { class: "slot" }, pc ? cardButton(pc, pc.void ? "low" : "") : null));
    });
    J.put(felt, ...seats);
  }

  function renderActions(s) {
    const r = s.round;
    const box = $("actions");
    $("abandoned").hidden = !view.abandoned;
    if (view.abandoned) { J.put(box); return; }  // closed: nothing more is written to it
    const items = [];
    const running = r && !r.complete && !s.game_over;
    if (s.game_over) items.push(el("a", { class: "button primary big wide", id: "setup-next", href: "/setup" }, `+ ${t("new_game_short")}`));
    if (!s.game_over && (!r || r.complete)) items.push(el("button", { type: "button", class: "primary big wide", id: "new-round", onclick: ui.roundDialog }, `+ ${t("new_round")}`));
    if (running && s.weis_open) items.push(el("button", { type: "button", class: "primary", id: "weis-btn", onclick: ui.weisDialog }, t("declare_weis")));
    // One Stöck button all round a trump round, the same whoever holds them: the app never
    // hints that a Stöck is due; the engine judges the call and says why it is refused.
    if (running && r.stoeck.status !== "unavailable" && !view.abandoned) items.push(el("button", { type: "button", id: "stoeck-btn", onclick: ui.stoeckDialog }, t("stoeck")));
    if (running) items.push(el("button", { type: "button", id: "enter-card", onclick: ui.enterCardDialog }, t("enter_card")));
    if (running && r.trick.length === 4) items.push(el("button", { type: "button", id: "collect", onclick: () => send({ type: "trick_collected" }) }, t("collect")));
    items.push(el("button", { type: "button", class: "danger", id: "undo-quick", onclick: undo }, `↶ ${t("undo")}`));
    J.put(box, ...items);
  }

  function weisLabel(w) {
    // The engine's label is German; the kind and the cards say the same in any language.
    const rank = (c) => t("r_" + c.split("-")[1]);
    if (w.kind === "four") return t("weis_four").replace("{rank}", rank(w.cards[0]));
    const key = window.T[`weis_seq_${w.cards.length}`] ? `weis_seq_${w.cards.length}` : "weis_seq";
    const top = w.cards.slice().sort((a, b) => RANKS.indexOf(a.split("-")[1]) - RANKS.indexOf(b.split("-")[1])).pop();
    return t(key).replace("{n}", w.cards.length).replace("{suit}", J.suitName(w.cards[0].split("-")[0])).replace("{top}", rank(top));
  }

  function renderWeis(s) {
    const r = s.round;
    const list = r ? r.weis : [];
    $("weis-panel").hidden = !list.length;
    J.put($("weis"), ...list.map((w) => el("li", {
      class: w.status === "counts" ? "writes" : w.status === "loses" ? "" : "bad", "data-status": w.status,
    }, el("strong", { text: `${name(w.seat)}: ` }), `${weisLabel(w)} · ${w.points}`,
      el("span", { class: "muted", text: ` · ${w.status === "counts" ? `✓ ${t("team")} ${"AB"[w.team]} ${t("writes")}` : t("ws_" + w.status)}` }))));
  }

  function renderLast(s) {
    const r = s.round;
    const last = r && r.tricks.length ? r.tricks[r.tricks.length - 1] : null;
    $("last-panel").hidden = !last;
    if (!last) return;
    J.put($("last"), 
      el("div", { class: "cards", id: "last-cards" }, ...last.cards.map((pc) => cardButton(pc, pc.seat === last.winner ? "win" : "")),
        ...(last.cards.length < 4 ? (last.unseen || []).map((seat) =>
          el("span", { class: "card unseen", title: `${name(seat)}: ${t("unseen_card")}`, text: "?" })) : [])),
      el("div", { class: "meta", text: `${t("trick")} ${last.index + 1} · ${name(last.winner)} · ${last.points} ${t("points")}${last.last ? " · " + t("last_trick") + " +5" : ""}` }));
  }

  // Whose turn it was when the card a flag names was laid: the first seat from the trick's
  // leader that had not laid a card before it.
  function turnSeat(s, f) {
    const r = s.round;  // the round under way: an earlier round's flag is corrected by tapping it
    if (!r || r.index !== f.round) return null;
    const tricks = [...r.tricks.map((x) => ({ cards: x.cards, leader: x.leader })), { cards: r.trick, leader: r.leader }];
    const trick = tricks.find((x) => x.cards.some((c) => c.ref === f.ref));
    if (!trick || trick.leader === null || trick.leader === undefined) return null;
    const before = new Set(trick.cards.filter((c) => c.ref < f.ref).map((c) => c.seat));
    const seat = [0, 1, 2, 3].map((k) => (trick.leader + k) % 4).find((x) => !before.has(x));
    return seat === undefined || seat === f.seat ? null : seat;
  }

  function flagItem(s, f) {
    // A flag about a card can be tapped to correct that card (the usual fix).
    const row = f.ref !== null && f.ref !== undefined ? view.events[f.ref] : null;
    const fix = row && row.type === "card_played" && !row.voided;
    // A trick collected with a card the camera never saw: tap to enter that card.
    const gap = f.code === "card_unseen" && row && row.type === "trick_collected" && !row.voided;
    const onclick = fix ? () => ui.correctDialog({ ref: row.pos, card: row.card, seat: row.seat })
      : gap ? () => ui.unseenDialog({ ref: row.pos, seat: f.seat }) : null;
    // Out of turn: the camera names who it saw lay the card; one tap gives the card to
    // the player whose turn it was instead (dismissing the flag), leaving it confirms it.
    const turn = f.code === "out_of_turn" && fix ? turnSeat(s, f) : null;
    const who = turn !== null ? el("span", { class: "oot", text: ` (${name(f.seat)} · ${t("oot_turn")} ${name(turn)})` }) : null;
    const dismiss = turn !== null ? el("button", {
      type: "button", class: "small oot-fix", "data-seat": turn, text: `${t("oot_fix")} ${name(turn)}`,
      onclick: (e) => { e.stopPropagation(); send({ type: "card_corrected", ref: row.pos, card: row.card, seat: turn }); },
    }) : null;
    return el("li", { "data-code": f.code, class: onclick ? "tap" : "", onclick, title: f.message },
      J.flagText(f), who, onclick ? el("span", { class: "muted small", text: ` · ${t(gap ? "enter_unseen" : "correct")} ›` }) : null,
      dismiss);
  }

  function renderFlags(s) {
    // This round's hints at the top, where the table looks; every hint of the game in the history.
    const r = s.round;
    const open = s.flags.filter((f) => r && f.round === r.index);
    $("flags-panel").hidden = !open.length;
    J.put($("flags"), ...open.map((f) => flagItem(s, f)));
    $("all-flags-panel").hidden = !s.flags.length;
    J.put($("all-flags"), ...s.flags.map((f) => flagItem(s, f)));
  }


  function describe(row) {
    switch (row.type) {
      case "game_configured": return `${t("ev_game_configured")}: ${row.players.join(", ")} · ${row.target}`;
      case "round_started": return `${t("ev_round_started")}: ${t(row.contract)} · ${t("forehand")} ${name(row.forehand)}${row.schoben ? " · " + t("schieben") : ""}`;
      case "card_played": return `${name(row.seat)}: ${J.cardName(row.card)}${row.source === "manual" ? " ✍" : ""}`;
      case "trick_collected": return t("ev_trick_collected") + (row.seat !== undefined ? ` (${name(row.seat)})` : "")
        + (row.unseen !== undefined ? ` · ${[row.unseen].flat().map(name).join(", ")}: ${t("unseen_card")}` : "");
      case "weis_declared": return `${t("ev_weis_declared")} ${name(row.seat)}: ${(row.weis || [row.cards]).map((w) => w.map(J.cardName).join(", ")).join(" + ")}`;
      case "stoeck_called": return `${t("ev_stoeck_called")}: ${name(row.seat)}`;
      case "card_corrected": return `${t("ev_card_corrected")} #${row.ref} → ${J.cardName(row.card)}${row.seat !== undefined ? " (" + name(row.seat) + ")" : ""}`;
      case "event_voided": return `${t("ev_event_voided")} #${row.ref}`;
      case "misplay_ruled": return `${t("ev_misplay_ruled")} #${row.ref}: ${row.ruling}`;
      case "round_entered": return `${t("ev_round_entered")}: ${contractLabel(row.contract)}${row.player_points ? " · " + row.player_points.join(" / ")
        : row.team !== undefined ? ` · ${t("team")} ${"AB"[row.team]} ${row.points}${row.match ? " " + t("match") : ""}` : ""}`;
      // a forecast's points stay hidden (the server leaves them out) until its round is over
      case "forecast_made": return `${t("ev_forecast_made")}: ${name(row.seat)}${row.points === undefined ? " 🔒" : " " + row.points}`;
      default: return row.type;
    }
  }

  function renderEvents() {
    const fixes = new Set(["card_corrected", "event_voided", "misplay_ruled"]);
    J.put($("events"), ...view.events.slice().reverse().map((row) => el("li", {
      class: `${row.voided ? "voided" : ""} ${fixes.has(row.type) ? "fix" : ""} ${row.type === "game_configured" ? "" : "tap"}`,
      "data-pos": row.pos, "data-type": row.type, "data-by": row.by_hand ? "hand" : "camera", onclick: () => historyTap(row),
    }, el("span", { class: "pos", text: `#${row.pos}` }), el("span", { class: "what", text: describe(row) }),
      el("span", { class: "by muted small", text: row.by_hand ? "✍" : "◉", title: t(row.by_hand ? "by_hand" : "by_camera") }),
      row.type === "trick_collected" && window.PICTURES ? shotButton(row) : null,
      row.voided ? el("span", { class: "muted small", text: ` (${t("voided")})` }) : null,
      row.corrected_by ? el("span", { class: "muted small", text: ` (${t("corrected")})` }) : null)));
  }

  // ---------------------------------------------------------------- actions (the dialogs: dialogs.js)
  async function undo() {
    // The server names the target: the table's last action by hand that still counts.
    if (view.undo === null || view.undo === undefined) { J.toast(t("undo_nothing")); return; }
    const target = view.events[view.undo];
    const camera = view.events.slice(target.pos + 1).filter((r) => !r.by_hand && !r.voided).length;
    const ok = await ui.ask(t("undo_title"), [
      { text: `#${target.pos} ${describe(target)}`, cls: "what-undo" },
      camera ? { text: t("undo_keeps_camera").replace("{n}", camera), cls: "muted small" } : null,
    ], `↶ ${t("undo")}`);
    if (ok && await send({ type: "event_voided", ref: target.pos }, { quiet: true })) J.toast(`${t("undone")}: ${describe(target)}`);
  }

  function shotButton(row) {
    // The camera's picture of the trick: the moment its last card lay on the table.
    const last = view.events.slice(0, row.pos).reverse().find((r) => r.type === "card_played" && !r.voided);
    if (!last) return null;
    return el("button", { type: "button", class: "shot", "data-pos": last.pos, title: t("trick_picture"),
      onclick: (ev) => { ev.stopPropagation(); showShot(last.pos, `${t("trick_picture")} · #${row.pos}`); } }, "◉");
  }

  function showShot(pos, title) {
    const img = $("shot");
    $("shot-title").textContent = title;
    $("shot-error").textContent = "";
    img.removeAttribute("src");
    img.dataset.pos = pos;
    $("shot-dlg").showModal();
    J.pictureUrl(`/api/games/${GAME}/frame/${pos}.jpg`).then((src) => {
      if (src) img.src = src; else $("shot-error").textContent = t("no_picture");
    });
  }

  async function historyTap(row) {
    // A voided row comes back by voiding the void that took it out (a redo); any other
    // row can be struck on purpose, a camera event with a word of warning.
    if (row.type === "game_configured") return;
    if (row.voided) {
      const undoer = view.events.slice().reverse().find((r) => r.type === "event_voided" && r.ref === row.pos && !r.voided);
      if (!undoer) return;
      if (await ui.ask(t("restore_title"), [`#${row.pos} ${describe(row)}`], t("restore"))) await send({ type: "event_voided", ref: undoer.pos });
      return;
    }
    if (await ui.ask(t("void_title"), [`#${row.pos} ${describe(row)}`, row.by_hand ? null : { text: t("void_camera"), cls: "error" }], t("strike"))) {
      await send({ type: "event_voided", ref: row.pos });
    }
  }


  // ---------------------------------------------------------------- tabs
  // A tablet shows the felt and the Tafel side by side (the Tafel tab is then not needed).
  const wide = window.matchMedia("(min-width: 760px)");
  function applyTabs() {
    const beside = wide.matches && (tab === "table" || tab === "tafel");
    if (beside) tab = "table";
    document.body.classList.toggle("wide", wide.matches);
    document.querySelectorAll(".tabs button").forEach((x) => x.classList.toggle("on", x.dataset.tab === tab));
    document.querySelectorAll("[data-pane]").forEach((p) => {
      p.hidden = !(p.dataset.pane === tab || (beside && p.dataset.pane === "tafel"));
      p.classList.toggle("beside", beside && p.dataset.pane === "tafel");
    });
  }
  document.querySelectorAll(".tabs button").forEach((b) => b.addEventListener("click", () => { tab = b.dataset.tab; applyTabs(); }));
  wide.addEventListener("change", applyTabs);
  applyTabs();
  $("undo").addEventListener("click", undo);
  document.addEventListener("deck", render);
  $("cam-open").addEventListener("click", () => { J.cameraBox($("cam-dlg-box"), true); $("cam-dlg").showModal(); });
  connect();
})();
