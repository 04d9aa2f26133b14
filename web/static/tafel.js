// The Tafel pane of the live game: the score sheet as a table, the Jasstafel drawn as players
// keep it on paper, and the running totals as a chart. Drawn, not computed: every number is
// the rules engine's (view.state). game.js calls J.renderTafel after each render.
"use strict";
(() => {
  const el = J.el, t = J.t;
  const $ = (id) => document.getElementById(id);
  let api = null;  // the game page's names and icons (game.js)
  const cfg = () => api.cfg();
  const teamNames = (team) => api.teamNames(team);
  const contractIcon = (c) => api.contractIcon(c);
  const contractLabel = (c) => api.contractLabel(c);

  J.renderTafel = (s, gameApi) => {
    api = gameApi;
    renderTafel(s);
    renderChart(s);
    renderBoard(s);
  };

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
})();
