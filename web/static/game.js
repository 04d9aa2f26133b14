// The live game: rendered from the rules engine's state (view.state), kept current by SSE.
// Nothing here judges a rule: points, Weis, Stöck, winners all come from the server.
"use strict";
(() => {
  const GAME = window.GAME;
  const EDGES = ["bottom", "right", "top", "left"];
  const SUITS = ["eicheln", "schilten", "rosen", "schellen"];
  const RANKS = ["6", "7", "8", "9", "10", "under", "ober", "koenig", "ass"];
  const CONTRACTS = [...SUITS, "obenabe", "undenufe"];
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
    renderTafel(s);
    renderChart(s);
    renderBoard(s);
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
      title: `${unsure ? t("unsure") : t("correct")}: ${J.cardName(pc.card)}`, onclick: () => correctDialog(pc),
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
    if (!s.game_over && (!r || r.complete)) items.push(el("button", { type: "button", class: "primary big wide", id: "new-round", onclick: roundDialog }, `+ ${t("new_round")}`));
    if (running && s.weis_open) items.push(el("button", { type: "button", class: "primary", id: "weis-btn", onclick: weisDialog }, t("declare_weis")));
    // One Stöck button all round a trump round, the same whoever holds them: the app never
    // hints that a Stöck is due; the engine judges the call and says why it is refused.
    if (running && r.stoeck.status !== "unavailable" && !view.abandoned) items.push(el("button", { type: "button", id: "stoeck-btn", onclick: stoeckDialog }, t("stoeck")));
    if (running) items.push(el("button", { type: "button", id: "enter-card", onclick: enterCardDialog }, t("enter_card")));
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
        ...(last.unseen !== null && last.unseen !== undefined && last.cards.length < 4
          ? [el("span", { class: "card unseen", title: `${name(last.unseen)}: ${t("unseen_card")}`, text: "?" })] : [])),
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
    const onclick = fix ? () => correctDialog({ ref: row.pos, card: row.card, seat: row.seat })
      : gap ? () => unseenDialog({ ref: row.pos, seat: row.unseen }) : null;
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

  function renderTafel(s) {
    // The Jasstafel: per round the written blocks of both teams (W = Weis, S = Stöck,
    // St = tricks incl. last trick and Match) and the running total, narrow enough for a phone.
    const blocks = (b, team, sumText, id) => [
      el("td", { class: "ab"[team], text: b.weis }), el("td", { class: "ab"[team], text: b.stoeck }),
      el("td", { class: "ab"[team], text: b.tricks }), el("td", { class: `${"ab"[team]} sum`, id, text: sumText })];
    const head1 = el("tr", {}, el("th", { class: "l", colspan: 2, text: "" }),
      el("th", { class: "a grp", colspan: 4, text: `A · ${teamNames(0)}` }), el("th", { class: "b grp", colspan: 4, text: `B · ${teamNames(1)}` }));
    const head2 = el("tr", {}, el("th", { class: "l", text: "#" }), el("th", { class: "l", text: t("contract") }),
      ...[0, 1].flatMap((team) => ["weis", "stoeck", "tricks", "sum"].map((h) => el("th", {
        class: "ab"[team], text: t("col_" + h), title: h === "sum" ? t("total") : t(h === "tricks" ? "tricks" : h) }))));
    const rows = s.sheet.map((row) => {
      const deciding = s.game_over && s.game_over.round === row.round;
      return el("tr", { class: deciding ? "decide" : "", "data-round": row.round },
        el("td", { class: "l", text: row.round + 1 }),
        el("td", { class: "l nowrap", title: contractLabel(row.contract) }, contractIcon(row.contract), ` ×${row.multiplier}`,
          row.match_team !== null ? el("span", { class: "badge", text: `${t("match")} ${"AB"[row.match_team]}` }) : null,
          row.by_hand ? el("span", { class: "badge hand", title: t("by_hand_mark"), text: "✍ " + t("by_hand_mark") }) : null),
        ...[0, 1].flatMap((team) => blocks(row.written[team], team, row.totals[team].total)));
    });
    // A game continued from paper: the carried-over totals are the first row.
    const prior = cfg().prior_totals;
    if (prior) {
      rows.unshift(el("tr", { class: "prior" }, el("td", { class: "l", colspan: 2, text: t("prior_row") }),
        ...[0, 1].flatMap((team) => [el("td", { class: "ab"[team], colspan: 3 }), el("td", { class: `${"ab"[team]} sum`, text: prior[team] })])));
    }
    const r = s.round;
    if (r && !r.complete) {
      rows.push(el("tr", { class: "running" }, el("td", { class: "l", text: `${r.index + 1}…` }),
        el("td", { class: "l nowrap" }, contractIcon(r.contract), ` ×${r.multiplier}`),
        ...[0, 1].flatMap((team) => blocks(r.score.written[team], team, `+${r.score.written[team].total}`))));
    }
    const foot = el("tr", {}, el("td", { class: "l", colspan: 2, text: t("total") }),
      ...[0, 1].flatMap((team) => blocks(s.totals[team], team, s.totals[team].total, `tafel-total${team}`)));
    J.put($("tafel"), el("thead", {}, head1, head2), el("tbody", {}, ...rows), el("tfoot", {}, foot));
  }

  // The Jasstafel as players keep it on paper (drawn, not computed: the totals are the engine's).
  const SVG_NS = "http://www.w3.org/2000/svg";
  const svgEl = (tag, attrs, text) => {
    const n = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    return n;
  };

  function strokes(svg, x1, y1, x2, y2, n, cls) {
    // n tally strokes across the line from (x1,y1) to (x2,y2); every fifth crosses the four before it.
    const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const px = -uy, py = ux;  // perpendicular
    const step = Math.min(9, (len - 28) / Math.max(1, n + Math.floor(n / 5)));
    let at = 16;
    for (let i = 0; i < n; i++) {
      const cx = x1 + ux * at, cy = y1 + uy * at;
      if (i % 5 === 4) {
        const bx = x1 + ux * (at - 4.5 * step), by = y1 + uy * (at - 4.5 * step);
        svg.append(svgEl("line", { x1: bx - px * 7, y1: by - py * 7, x2: cx + px * 7, y2: cy + py * 7, class: `stroke ${cls}` }));
        at += 1.5 * step;
      } else {
        svg.append(svgEl("line", { x1: cx - px * 8, y1: cy - py * 8, x2: cx + px * 8, y2: cy + py * 8, class: `stroke ${cls}` }));
        at += step;
      }
    }
  }

  function zSide(team, total) {
    const W = 170, H = 190;
    const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: `zside team${team}`, id: `z${team}`, role: "img",
      "aria-label": `${t("team")} ${"AB"[team]}: ${total}` });
    svg.append(svgEl("text", { x: 6, y: 16, class: "zname" }, `${"AB"[team]} · ${teamNames(team)}`));
    const [L, R, T, B] = [14, W - 34, 40, H - 22];
    svg.append(svgEl("path", { d: `M${L},${T} L${R},${T} L${L},${B} L${R},${B}`, class: "zline" }));
    const hundreds = Math.floor(total / 100), fifties = Math.floor((total % 100) / 50);
    const twenties = Math.floor((total % 50) / 20), rest = total % 50 % 20;
    strokes(svg, L, T, R, T, hundreds, "s100");
    strokes(svg, R, T, L, B, fifties, "s50");
    strokes(svg, L, B, R, B, twenties, "s20");
    svg.append(svgEl("text", { x: R + 6, y: B + 5, class: "zrest" }, String(rest)));
    svg.append(svgEl("text", { x: W - 6, y: 16, class: "ztotal", "text-anchor": "end" }, String(total)));
    return svg;
  }

  function backSide(s) {
    // The back of the board: the Matches of this game and who won it, in tally strokes.
    const W = 340, H = 110;
    const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "backside", id: "board-back-svg", role: "img", "aria-label": t("board_back") });
    svg.append(svgEl("text", { x: 110, y: 16, class: "zname" }, t("board_matches")), svgEl("text", { x: 250, y: 16, class: "zname" }, t("board_wins")));
    const over = s.game_over;
    [0, 1].forEach((team) => {
      const y = 46 + team * 40;
      const matches = s.sheet.filter((row) => row.match_team === team).length;
      const won = over && over.winner === team ? 1 : 0;
      svg.append(svgEl("text", { x: 6, y: y + 5, class: `zname team${team}` }, `${t("team")} ${"AB"[team]}`));
      svg.append(svgEl("line", { x1: 100, y1: y, x2: 230, y2: y, class: "zline" }), svgEl("line", { x1: 240, y1: y, x2: 330, y2: y, class: "zline" }));
      const m = svgEl("g", { class: "matches", "data-team": team, "data-n": matches });
      strokes(m, 100, y, 230, y, matches, "smatch");
      const w = svgEl("g", { class: "wins", "data-team": team, "data-n": won });
      strokes(w, 240, y, 330, y, won, "swin");
      svg.append(m, w);
    });
    return svg;
  }

  function renderBoard(s) {
    J.put($("board-front"), el("h2", { class: "small", text: t("board_front") }), el("div", { class: "zpair" }, ...[0, 1].map((team) => zSide(team, s.totals[team].total))));
    J.put($("board-back"), el("h2", { class: "small", text: t("board_back") }), backSide(s));
  }

  function renderChart(s) {
    // Inline SVG, no library: running totals per team after each written round.
    const NS = "http://www.w3.org/2000/svg";
    const mk = (tag, attrs) => { const n = document.createElementNS(NS, tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); return n; };
    const W = 320, H = 180, P = 28;
    const target = cfg().target;
    const pts = [cfg().prior_totals || [0, 0], ...s.sheet.map((row) => [row.totals[0].total, row.totals[1].total])];
    const maxY = Math.max(target * 1.05, ...pts.flat());
    const n = Math.max(pts.length - 1, 1);
    const x = (i) => P + (i / n) * (W - P - 8);
    const y = (v) => H - P + 8 - (v / maxY) * (H - P - 8);
    const svg = mk("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("chart") });
    svg.append(mk("line", { x1: P, y1: y(target), x2: W - 8, y2: y(target), stroke: "var(--accent)", "stroke-dasharray": "5 4", "stroke-width": 1.5 }));
    const lab = mk("text", { x: W - 10, y: y(target) - 4, "text-anchor": "end", fill: "var(--accent)", "font-size": 11 });
    lab.textContent = `${t("target")} ${target}`;
    svg.append(lab, mk("line", { x1: P, y1: H - P + 8, x2: W - 8, y2: H - P + 8, stroke: "var(--line)" }));
    for (const team of [0, 1]) {
      const d = pts.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p[team]).toFixed(1)}`).join(" ");
      svg.append(mk("path", { d, fill: "none", stroke: `var(--team${team})`, "stroke-width": 3, "stroke-linejoin": "round", class: `line${team}` }));
      pts.forEach((p, i) => svg.append(mk("circle", { cx: x(i), cy: y(p[team]), r: 3.5, fill: `var(--team${team})` })));
    }
    pts.forEach((_, i) => { const tx = mk("text", { x: x(i), y: H - 6, "text-anchor": "middle", fill: "var(--muted)", "font-size": 10 }); tx.textContent = i; svg.append(tx); });
    J.put($("chart"), svg);
  }

  function describe(row) {
    switch (row.type) {
      case "game_configured": return `${t("ev_game_configured")}: ${row.players.join(", ")} · ${row.target}`;
      case "round_started": return `${t("ev_round_started")}: ${t(row.contract)} · ${t("forehand")} ${name(row.forehand)}${row.schoben ? " · " + t("schieben") : ""}`;
      case "card_played": return `${name(row.seat)}: ${J.cardName(row.card)}${row.source === "manual" ? " ✍" : ""}`;
      case "trick_collected": return t("ev_trick_collected") + (row.seat !== undefined ? ` (${name(row.seat)})` : "")
        + (row.unseen !== undefined ? ` · ${name(row.unseen)}: ${t("unseen_card")}` : "");
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

  // ---------------------------------------------------------------- actions
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
    await until(() => view.count > res.position);
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

  async function undo() {
    // The server names the target: the table's last action by hand that still counts.
    if (view.undo === null || view.undo === undefined) { J.toast(t("undo_nothing")); return; }
    const target = view.events[view.undo];
    const camera = view.events.slice(target.pos + 1).filter((r) => !r.by_hand && !r.voided).length;
    const ok = await ask(t("undo_title"), [
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
      if (await ask(t("restore_title"), [`#${row.pos} ${describe(row)}`], t("restore"))) await send({ type: "event_voided", ref: undoer.pos });
      return;
    }
    if (await ask(t("void_title"), [`#${row.pos} ${describe(row)}`, row.by_hand ? null : { text: t("void_camera"), cls: "error" }], t("strike"))) {
      await send({ type: "event_voided", ref: row.pos });
    }
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
        view.factors ? el("span", { class: "badge mult", text: `×${view.factors[c]}` }) : null)]), null, "g2");
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
    const row = view.events[pc.ref];
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
      return () => (pick.get() ? { type: "card_corrected", ref: gap.ref, card: pick.get() } : "?");
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

  // What variants.js draws with: the same writes, dialogs and names as this page.
  const api = {
    st, cfg, name, teamNames, contractIcon, contractLabel, dialog, choice, seatOptions, send,
    count: () => view.count,
    post: (path, body) => J.write(`/api/games/${GAME}${path}`, body, { "X-Expect-Count": String(view.count) }),
  };

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
