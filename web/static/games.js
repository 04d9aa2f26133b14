// History of games: one line per game with its totals and winner.
"use strict";
(async () => {
  const list = document.getElementById("games-list");
  const r = await fetch("/api/games");
  const data = await r.json();
  if (!data.games.length) { list.append(J.el("li", { class: "muted", text: J.t("no_game") })); return; }
  for (const g of data.games.slice().reverse()) {
    const players = (g.config && g.config.players) || [];
    const tot = g.totals ? g.totals.map((b) => b.total) : ["–", "–"];
    const status = g.game_over ? `${J.t("finished")} · ${J.t("winner")}: ${J.t("team")} ${"AB"[g.game_over.winner] || "–"}` : J.t("running");
    list.append(J.el("li", {},
      J.el("a", { href: g.config && g.config.variant === "speck" ? `/speck/${g.id}` : `/game/${g.id}` },
        J.el("span", {}, J.el("strong", { text: `#${g.id} ` }), `${players[0] || ""} & ${players[2] || ""} – ${players[1] || ""} & ${players[3] || ""}`,
          J.el("br"), J.el("small", { class: "muted", text: `${g.created.replace("T", " ").slice(0, 16)} · ${status}` })),
        J.el("span", {}, J.el("b", { class: "a", text: tot[0] }), " : ", J.el("b", { class: "b", text: tot[1] })))));
  }
})();
